/* node_spec.c - a hwfit_node from a JSON node file (docs/node-spec.md).
 *
 * Each section maps its keys onto the node's fields, most of which are the domain
 * modules' own input structs; names (GPU model, RAID level, transport, PSU class,
 * redundancy, links, budget lines, price) are read with the domain modules' parsers, so
 * this file holds no table of its own beyond the keys. After reading, hwfit_node_check
 * validates the whole node; its message names a field path ("power.redundancy: ..."),
 * which is mapped back to the key's line and column.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwfit/assess.h"
#include "hwfit/dtype.h"
#include "hwfit/gpu.h"
#include "hwfit/gpu_set.h"
#include "hwfit/hf_config.h"
#include "hwfit/link.h"
#include "hwfit/memory.h"
#include "hwfit/model.h"
#include "hwfit/node.h"
#include "hwfit/node_spec.h"
#include "hwfit/power.h"
#include "hwfit/status.h"
#include "hwfit/storage.h"
#include "hwfit/topology.h"
#include "hwfit/units.h"

#include "base/checked.h"
#include "base/internal.h"
#include "catalogs/gpu_set_internal.h"
#include "readers/gpu_file_internal.h"
#include "readers/json.h"

typedef struct reader {
    const char *file;             /* name for messages */
    hwfit_gpu_set *cards;         /* the caller's cards (an inline GPU goes there), or NULL */
    hwfit_error *err;
    const hwfit__json_value *obj; /* the section being read */
    char where[160];              /* "file: section" */
    hwfit__json_ctx ctx;
} reader;

static void enter(reader *r, const hwfit__json_value *obj, const char *section) {
    r->obj = obj;
    if (section != NULL)
        snprintf(r->where, sizeof r->where, "%s: %s", r->file, section);
    else
        snprintf(r->where, sizeof r->where, "%s", r->file);
    r->ctx.where = r->where;
    r->ctx.null_is_absent = 0;
    r->ctx.err = r->err;
}

#define fail_at(r, v, ...) hwfit__json_fail_at((r)->err, (r)->where, HWFIT_EPARSE, v, __VA_ARGS__)

/* ---- typed keys of the current section -------------------------------------------------- */

static hwfit_status u64(reader *r, const char *key, int required, uint64_t lo, uint64_t hi,
                        uint64_t *out) {
    return hwfit__json_read_u64(&r->ctx, r->obj, key, required, lo, hi, out, NULL);
}

static hwfit_status num(reader *r, const char *key, int required, double lo, double hi,
                        double *out) {
    return hwfit__json_read_double(&r->ctx, r->obj, key, required, lo, hi, out, NULL);
}

static hwfit_status qty(reader *r, const char *key, int required, hwfit_unit unit, double lo,
                        double hi, double *out) {
    return hwfit__json_read_quantity(&r->ctx, r->obj, key, required, unit, lo, hi, out, NULL);
}

static hwfit_status flag(reader *r, const char *key, int *out) {
    return hwfit__json_read_bool(&r->ctx, r->obj, key, 0, out, NULL);
}

/* A string key; *v receives its value node (NULL when absent). */
static hwfit_status text(reader *r, const char *key, int required, const char **out,
                         const hwfit__json_value **v) {
    int present = 0;
    HWFIT__TRY(hwfit__json_read_string(&r->ctx, r->obj, key, required, out, &present));
    *v = present ? hwfit__json_get(r->obj, key) : NULL;
    return HWFIT_OK;
}

/* A string copied into a fixed buffer; too long is an error. */
static hwfit_status text_into(reader *r, const char *key, int required, char *buf, size_t size) {
    const char *s = NULL;
    const hwfit__json_value *v = NULL;
    HWFIT__TRY(text(r, key, required, &s, &v));
    if (v == NULL) return HWFIT_OK;
    if (strlen(s) >= size)
        return fail_at(r, v, "key '%s' must be at most %zu bytes long", key, size - 1);
    memcpy(buf, s, strlen(s) + 1);
    return HWFIT_OK;
}

static hwfit_status keys(reader *r, const char *const *known) {
    return hwfit__json_check_keys(&r->ctx, r->obj, known);
}

/* A named value read by a domain parser; messages list the accepted names. */
static hwfit_status bad_name(reader *r, const hwfit__json_value *v, const char *key,
                             const char *value, const char *accepted) {
    return fail_at(r, v, "key '%s': unknown value \"%.60s\" (accepted: %s)", key, value, accepted);
}

/* ---- sections ------------------------------------------------------------------------- */

static hwfit_status read_gpu(reader *r, hwfit_node *n) {
    static const char *const known[] = {"model", "count", "power_limit", "price", "notes", NULL};
    HWFIT__TRY(keys(r, known));
    const hwfit__json_value *v = hwfit__json_get(r->obj, "model");
    const hwfit_gpu *g = NULL;
    if (v != NULL && v->type == HWFIT__JSON_OBJECT) {
        /* A card of one's own, with a GPU file's keys, instead of a name. */
        if (r->cards == NULL)
            return fail_at(r, v, "key 'model': a card described inline needs a reader that "
                                 "keeps it (hwfit_node_parse_cards); name a catalog card");
        char where[200], source[240];
        snprintf(where, sizeof where, "%s.model", r->where);
        hwfit_gpu card;
        HWFIT__TRY(hwfit__gpu_card_read(v, where, r->file, &card, source, sizeof source, r->err));
        if (strlen(card.name) >= sizeof n->gpu.model)
            return fail_at(r, hwfit__json_get(v, "name"), "key 'name' must be at most %zu bytes long",
                           sizeof n->gpu.model - 1);
        hwfit_problem why;
        hwfit_status st = hwfit_gpu_set_add(r->cards, &card, &why);
        if (st != HWFIT_OK) {
            const hwfit__json_value *at = why.field ? hwfit__json_get(v, why.field) : NULL;
            if (st == HWFIT_ENOMEM || st == HWFIT_ERANGE)
                return hwfit__error_set(r->err, st, v->line, v->column, v->offset, "%s: %s",
                                        where, why.rule);
            return fail_at(r, at ? at : v, "key 'model': %s %s", why.field, why.rule);
        }
        memcpy(n->gpu.model, card.name, strlen(card.name) + 1);
        n->gpu_set = r->cards;
        g = hwfit_gpu_set_at(r->cards, hwfit_gpu_set_count(r->cards) - 1);
    } else {
        HWFIT__TRY(text_into(r, "model", 1, n->gpu.model, sizeof n->gpu.model));
        if (hwfit_gpu_lookup(r->cards, n->gpu.model, &g) != HWFIT_OK)
            return fail_at(r, v, "key 'model': \"%.60s\" is not in the GPU catalog (`hwfit gpus` "
                                 "lists the names)", n->gpu.model);
        if (r->cards != NULL) n->gpu_set = r->cards;
    }
    HWFIT__TRY(u64(r, "count", 1, 1, HWFIT_NODE_MAX_GPUS, &n->gpu.count));
    /* A limit given is a limit: 0 W is not "the catalog's TDP" (that is leaving it out). */
    HWFIT__TRY(
        qty(r, "power_limit", 0, HWFIT_UNIT_WATTS, 1.0, 1.5 * g->tdp_w, &n->gpu.power_limit_w));
    HWFIT__TRY(num(r, "price", 0, 0.0, 1e12, &n->gpu.price));
    return HWFIT_OK;
}

/* "auto", "on" or "off". */
static hwfit_status mode(reader *r, const char *key, hwfit_topology_mode *out) {
    const char *s = NULL;
    const hwfit__json_value *v = NULL;
    HWFIT__TRY(text(r, key, 0, &s, &v));
    if (v == NULL) return HWFIT_OK;
    if (strcmp(s, "auto") == 0) *out = HWFIT_TOPOLOGY_AUTO;
    else if (strcmp(s, "on") == 0) *out = HWFIT_TOPOLOGY_ON;
    else if (strcmp(s, "off") == 0) *out = HWFIT_TOPOLOGY_OFF;
    else return bad_name(r, v, key, s, "auto, on, off");
    return HWFIT_OK;
}

static hwfit_status read_topology(reader *r, hwfit_node *n) {
    static const char *const known[] = {
        "lanes_per_gpu", "bifurcated_lanes", "pcie_switches", "switch_uplink_lanes",
        "switch_downstream_lanes", "gpus_behind_switches", "nvme_behind_switches",
        "nics_behind_switches", "other_lanes", "p2p", "gpudirect_rdma", "pcie_efficiency",
        "shm_efficiency", "socket_link_efficiency", "host_memory_efficiency",
        "nic_efficiency", "notes", NULL};
    hwfit_topology *t = &n->topology;
    HWFIT__TRY(keys(r, known));
    HWFIT__TRY(mode(r, "p2p", &t->p2p));
    HWFIT__TRY(mode(r, "gpudirect_rdma", &t->gpudirect_rdma));
    HWFIT__TRY(num(r, "pcie_efficiency", 0, 1e-6, 1.0, &t->pcie_efficiency));
    HWFIT__TRY(num(r, "shm_efficiency", 0, 1e-6, 1.0, &t->shm_efficiency));
    HWFIT__TRY(num(r, "socket_link_efficiency", 0, 1e-6, 1.0, &t->socket_link_efficiency));
    HWFIT__TRY(num(r, "host_memory_efficiency", 0, 1e-6, 1.0, &t->host_memory_efficiency));
    HWFIT__TRY(num(r, "nic_efficiency", 0, 1e-6, 1.0, &t->nic_efficiency));
    HWFIT__TRY(u64(r, "lanes_per_gpu", 0, 1, 32, &n->host.gpu_lanes));
    HWFIT__TRY(u64(r, "bifurcated_lanes", 0, 1, 32, &n->host.gpu_bifurcated_lanes));
    HWFIT__TRY(u64(r, "pcie_switches", 0, 0, 64, &n->host.switches));
    HWFIT__TRY(u64(r, "switch_uplink_lanes", 0, 1, 64, &n->host.switch_upstream_lanes));
    HWFIT__TRY(u64(r, "switch_downstream_lanes", 0, 0, 1024, &n->host.switch_downstream_lanes));
    HWFIT__TRY(flag(r, "gpus_behind_switches", &n->host.switch_gpus));
    HWFIT__TRY(flag(r, "nvme_behind_switches", &n->host.switch_nvme));
    HWFIT__TRY(flag(r, "nics_behind_switches", &n->host.switch_nics));
    HWFIT__TRY(u64(r, "other_lanes", 0, 0, 1024, &n->host.other_lanes));
    return HWFIT_OK;
}

static hwfit_status read_cpu(reader *r, hwfit_node *n) {
    static const char *const known[] = {"model", "vendor", "sockets", "cores_per_socket",
                                        "threads_per_socket", "boost_ghz", "tdp",
                                        "memory_channels", "pcie_lanes", "socket_link",
                                        "socket_link_generation", "socket_links",
                                        "socket_link_lanes", "notes", NULL};
    HWFIT__TRY(keys(r, known));
    HWFIT__TRY(text_into(r, "model", 0, n->cpu.model, sizeof n->cpu.model));
    const char *s = NULL;
    const hwfit__json_value *v = NULL;
    HWFIT__TRY(text(r, "vendor", 0, &s, &v));
    if (v != NULL) {
        /* The vendor sets the socket link kind, generation, count and network overhead. */
        hwfit_cpu_vendor vendor;
        if (strcmp(s, "amd") == 0) vendor = HWFIT_CPU_AMD;
        else if (strcmp(s, "intel") == 0) vendor = HWFIT_CPU_INTEL;
        else if (strcmp(s, "arm") == 0) vendor = HWFIT_CPU_ARM;
        else return bad_name(r, v, "vendor", s, "amd, intel, arm");
        HWFIT__TRY(hwfit_topology_set_cpu(&n->topology, vendor));
    }
    HWFIT__TRY(text(r, "socket_link", 0, &s, &v));
    if (v != NULL) {
        if (strcmp(s, "xgmi") == 0) n->topology.socket_link_kind = HWFIT_LINK_XGMI;
        else if (strcmp(s, "upi") == 0) n->topology.socket_link_kind = HWFIT_LINK_UPI;
        else return bad_name(r, v, "socket_link", s, "xgmi, upi");
    }
    uint64_t gen = n->topology.socket_link_generation, links = n->topology.socket_links;
    HWFIT__TRY(u64(r, "socket_link_generation", 0, 1, 3, &gen));
    HWFIT__TRY(u64(r, "socket_links", 0, 0, 64, &links));
    n->topology.socket_link_generation = (uint32_t)gen;
    n->topology.socket_links = (uint32_t)links;
    HWFIT__TRY(u64(r, "sockets", 0, 1, 8, &n->host.sockets));
    HWFIT__TRY(u64(r, "cores_per_socket", 1, 1, 1024, &n->cpu.cores_per_socket));
    HWFIT__TRY(u64(r, "threads_per_socket", 0, 1, 8192, &n->cpu.threads_per_socket));
    double ghz = n->cpu.boost_clock_hz / 1e9;
    HWFIT__TRY(num(r, "boost_ghz", 0, 0.0, 10.0, &ghz));
    n->cpu.boost_clock_hz = ghz * 1e9;
    HWFIT__TRY(qty(r, "tdp", 1, HWFIT_UNIT_WATTS, 1.0, 2000.0, &n->cpu.tdp_w));
    HWFIT__TRY(u64(r, "memory_channels", 1, 1, 64, &n->host.channels_per_socket));
    HWFIT__TRY(u64(r, "pcie_lanes", 1, 1, 1024, &n->host.lanes_per_socket));
    HWFIT__TRY(u64(r, "socket_link_lanes", 0, 1, 64, &n->host.socket_link_lanes));
    return HWFIT_OK;
}

static hwfit_status read_memory(reader *r, hwfit_node *n) {
    static const char *const known[] = {"dimms", "dimm_size", "speed_mts", "speed_2dpc_mts",
                                        "slots_per_channel", "channel_bytes", "ecc",
                                        "registered", "dimm_power", "notes", NULL};
    HWFIT__TRY(keys(r, known));
    HWFIT__TRY(u64(r, "dimms", 1, 1, 4096, &n->host.dimms));
    HWFIT__TRY(qty(r, "dimm_size", 1, HWFIT_UNIT_BYTES, 1.0, 1e14, &n->memory.dimm_bytes));
    HWFIT__TRY(num(r, "speed_mts", 1, 1.0, 1e5, &n->host.speed_mts));
    HWFIT__TRY(num(r, "speed_2dpc_mts", 0, 1.0, 1e5, &n->host.speed_2dpc_mts));
    HWFIT__TRY(u64(r, "slots_per_channel", 0, 1, 4, &n->host.max_dimms_per_channel));
    HWFIT__TRY(u64(r, "channel_bytes", 0, 1, 64, &n->host.channel_width_bytes));
    HWFIT__TRY(flag(r, "ecc", &n->memory.ecc));
    HWFIT__TRY(flag(r, "registered", &n->memory.registered));
    HWFIT__TRY(qty(r, "dimm_power", 0, HWFIT_UNIT_WATTS, 0.0, 100.0, &n->memory.dimm_w));
    return HWFIT_OK;
}

static hwfit_status read_storage(reader *r, hwfit_node *n) {
    static const char *const known[] = {
        "drives", "drive_size", "raid", "spares", "read_rate", "write_rate", "read_iops",
        "write_iops", "read_fraction", "rebuild_rate", "replace_delay", "bit_error_rate",
        "mttf", "mission", "recordsize", "sector", "fill", "lanes_per_drive", "drive_power",
        "notes", NULL};
    hwfit_raid_in *d = &n->storage.raid;
    HWFIT__TRY(keys(r, known));
    HWFIT__TRY(u64(r, "drives", 1, 1, 4096, &d->drives));
    HWFIT__TRY(qty(r, "drive_size", 1, HWFIT_UNIT_BYTES, 1.0, 1e15, &d->drive_bytes));
    const char *level = NULL;
    const hwfit__json_value *v = NULL;
    HWFIT__TRY(text(r, "raid", 0, &level, &v));
    if (v == NULL) {
        /* No level stated: the drives are separate (JBOD); capacity and risk as RAID 0. */
        d->layout.level = HWFIT_STORAGE_RAID0;
        n->storage.raid_stated = 0;
    } else if (strcmp(level, "none") == 0 || strcmp(level, "jbod") == 0) {
        d->layout.level = HWFIT_STORAGE_RAID0;
    } else {
        hwfit_raid_layout layout;
        hwfit_status st = hwfit_raid_level_parse(level, &layout);
        if (st != HWFIT_OK)
            return bad_name(r, v, "raid", level,
                            "none, jbod, 0, 1, 5, 6, 10, 50, 60, raidz1-3, draid[P][:Dd][:Cc][:Ss]");
        d->layout = layout;
    }
    HWFIT__TRY(u64(r, "spares", 0, 0, 4095, &d->spares));
    HWFIT__TRY(
        qty(r, "read_rate", 0, HWFIT_UNIT_BYTES_PER_S, 0.0, 1e13, &d->drive_read_bytes_per_s));
    HWFIT__TRY(
        qty(r, "write_rate", 0, HWFIT_UNIT_BYTES_PER_S, 0.0, 1e13, &d->drive_write_bytes_per_s));
    HWFIT__TRY(num(r, "read_iops", 0, 0.0, 1e9, &d->drive_read_iops));
    HWFIT__TRY(num(r, "write_iops", 0, 0.0, 1e9, &d->drive_write_iops));
    HWFIT__TRY(num(r, "read_fraction", 0, 0.0, 1.0, &d->read_fraction));
    HWFIT__TRY(
        qty(r, "rebuild_rate", 0, HWFIT_UNIT_BYTES_PER_S, 1.0, 1e13, &d->rebuild_bytes_per_s));
    HWFIT__TRY(qty(r, "replace_delay", 0, HWFIT_UNIT_SECONDS, 0.0, 1e9, &d->replace_delay_s));
    HWFIT__TRY(num(r, "bit_error_rate", 0, 0.0, 1.0, &d->bit_error_rate));
    HWFIT__TRY(qty(r, "mttf", 0, HWFIT_UNIT_SECONDS, 1.0, 1e15, &d->drive_mttf_s));
    HWFIT__TRY(qty(r, "mission", 0, HWFIT_UNIT_SECONDS, 0.0, 1e12, &d->mission_s));
    HWFIT__TRY(
        qty(r, "recordsize", 0, HWFIT_UNIT_BYTES, 512.0, 16.0 * HWFIT_MEBI, &d->record_bytes));
    HWFIT__TRY(qty(r, "sector", 0, HWFIT_UNIT_BYTES, 512.0, 64.0 * HWFIT_KIBI, &d->sector_bytes));
    HWFIT__TRY(num(r, "fill", 0, 0.0, 1.0, &d->fill_fraction));
    HWFIT__TRY(u64(r, "lanes_per_drive", 0, 1, 16, &n->host.nvme_lanes));
    HWFIT__TRY(qty(r, "drive_power", 0, HWFIT_UNIT_WATTS, 0.0, 100.0, &n->storage.drive_w));
    return HWFIT_OK;
}

static hwfit_status read_nas(reader *r, hwfit_node *n) {
    static const char *const known[] = {"capacity", "transport", "backend_rate",
                                        "roce_efficiency", "tcp_efficiency", "notes", NULL};
    hwfit_transfer_in *t = &n->nas.transfer;
    HWFIT__TRY(keys(r, known));
    HWFIT__TRY(qty(r, "capacity", 1, HWFIT_UNIT_BYTES, 1.0, 1e21, &n->nas.capacity_bytes));
    const char *name = NULL;
    const hwfit__json_value *v = NULL;
    HWFIT__TRY(text(r, "transport", 0, &name, &v));
    if (v != NULL && hwfit_storage_transport_parse(name, &t->transport) != HWFIT_OK)
        return bad_name(r, v, "transport", name, "nvmeof-roce, nvmeof-tcp, local");
    HWFIT__TRY(
        qty(r, "backend_rate", 0, HWFIT_UNIT_BYTES_PER_S, 1.0, 1e15, &t->backend_bytes_per_s));
    HWFIT__TRY(num(r, "roce_efficiency", 0, 1e-6, 1.0, &t->roce_efficiency));
    HWFIT__TRY(num(r, "tcp_efficiency", 0, 1e-6, 1.0, &t->tcp_efficiency));
    return HWFIT_OK;
}

static hwfit_status read_network(reader *r, hwfit_node *n) {
    static const char *const known[] = {"link", "ports", "speed", "kind", "transport",
                                        "mtu", "adapters", "lanes_per_adapter",
                                        "adapter_power", "notes", NULL};
    HWFIT__TRY(keys(r, known));
    const char *s = NULL;
    const hwfit__json_value *v = NULL;
    HWFIT__TRY(text(r, "link", 0, &s, &v));
    int has_parts = hwfit__json_get(r->obj, "ports") || hwfit__json_get(r->obj, "speed") ||
                    hwfit__json_get(r->obj, "kind") || hwfit__json_get(r->obj, "transport");
    char name[64];
    if (v != NULL) {
        if (has_parts)
            return fail_at(r, v, "give either 'link' or 'ports', 'speed', 'kind' and "
                                 "'transport', not both");
        if (strlen(s) >= sizeof name) return bad_name(r, v, "link", s, "e.g. 2x400g-roce");
        snprintf(name, sizeof name, "%s", s);
    } else {
        /* Build the link name the link module reads ("2x400g-roce", "8x400g-ib"). */
        uint64_t ports = 0;
        double speed = 0.0;
        HWFIT__TRY(u64(r, "ports", 1, 1, 64, &ports));
        HWFIT__TRY(qty(r, "speed", 1, HWFIT_UNIT_BITS_PER_S, 1e9, 1e13, &speed));
        const char *kind = "ethernet", *transport = "rocev2";
        const hwfit__json_value *kv = NULL, *tv = NULL;
        HWFIT__TRY(text(r, "kind", 0, &kind, &kv));
        HWFIT__TRY(text(r, "transport", 0, &transport, &tv));
        const char *suffix;
        if (strcmp(kind, "infiniband") == 0 || strcmp(kind, "ib") == 0) {
            suffix = "ib";
            if (tv != NULL)
                return fail_at(r, tv, "key 'transport' applies to Ethernet only");
        } else if (strcmp(kind, "ethernet") == 0) {
            if (strcmp(transport, "rocev2") == 0 || strcmp(transport, "roce") == 0)
                suffix = "roce";
            else if (strcmp(transport, "tcp") == 0)
                suffix = "tcp";
            else
                return bad_name(r, tv, "transport", transport, "rocev2, tcp");
        } else {
            return bad_name(r, kv, "kind", kind, "ethernet, infiniband");
        }
        double gbps = speed / 1e9;
        if (gbps != (double)(uint64_t)gbps)
            return fail_at(r, hwfit__json_get(r->obj, "speed"),
                           "key 'speed' must be a whole number of Gb/s, got %g Gb/s", gbps);
        snprintf(name, sizeof name, "%llux%llug-%s", (unsigned long long)ports,
                 (unsigned long long)gbps, suffix);
        v = hwfit__json_get(r->obj, "ports");
    }
    hwfit_link_in link;
    hwfit_status st = hwfit_link_parse(name, &link);
    if (st != HWFIT_OK || (link.kind != HWFIT_LINK_ETHERNET && link.kind != HWFIT_LINK_INFINIBAND))
        return fail_at(r, v, "\"%s\" is not a network link hwfit knows (Ethernet 10-800G with "
                             "RoCEv2 or TCP, InfiniBand EDR-XDR), e.g. 2x400g-roce, 8x400g-ib",
                       name);
    HWFIT__TRY(qty(r, "mtu", 0, HWFIT_UNIT_BYTES, 256.0, 9216.0, &link.payload_bytes));
    n->network.link = link;
    HWFIT__TRY(u64(r, "adapters", 0, 1, 64, &n->network.adapters));
    HWFIT__TRY(u64(r, "lanes_per_adapter", 0, 1, 32, &n->host.nic_lanes));
    HWFIT__TRY(qty(r, "adapter_power", 0, HWFIT_UNIT_WATTS, 0.0, 500.0, &n->network.adapter_w));
    return HWFIT_OK;
}

static hwfit_status read_power(reader *r, hwfit_node *n) {
    static const char *const known[] = {
        "psus", "psu_rating", "psu_low_line_rating", "redundancy", "class", "table",
        "input_voltage", "headroom_ratio", "peak_ratio", "efficiency", "cold_redundancy",
        "gpu_transient_factor", "switch_power", "components", "notes", NULL};
    hwfit_psu_in *p = &n->power.psu;
    HWFIT__TRY(keys(r, known));
    HWFIT__TRY(u64(r, "psus", 1, 1, 64, &p->psus));
    HWFIT__TRY(qty(r, "psu_rating", 1, HWFIT_UNIT_WATTS, 1.0, 1e6, &p->psu_rating_w));
    HWFIT__TRY(
        qty(r, "psu_low_line_rating", 0, HWFIT_UNIT_WATTS, 1.0, 1e6, &p->psu_low_line_rating_w));
    const hwfit__json_value *v = hwfit__json_get(r->obj, "redundancy");
    if (v != NULL && v->type == HWFIT__JSON_NUMBER) {
        HWFIT__TRY(u64(r, "redundancy", 0, 0, p->psus - 1, &p->redundant));
    } else if (v != NULL) {
        const char *s = NULL;
        HWFIT__TRY(text(r, "redundancy", 0, &s, &v));
        hwfit_status st = hwfit_psu_redundancy_parse(s, p->psus, &p->redundant);
        if (st == HWFIT_EDOM)
            return fail_at(r, v, "key 'redundancy': \"%.40s\" does not fit %llu PSUs (it must "
                                 "leave at least one PSU to carry the load)",
                           s, (unsigned long long)p->psus);
        if (st != HWFIT_OK)
            return bad_name(r, v, "redundancy", s, "a count, N, N+1, N+2, 3+1, 2+2, 2N");
    }
    const char *s = NULL;
    HWFIT__TRY(text(r, "class", 0, &s, &v));
    if (v != NULL && hwfit_psu_class_parse(s, &p->psu_class) != HWFIT_OK)
        return bad_name(r, v, "class", s, "none, 80plus, bronze, silver, gold, platinum, titanium");
    HWFIT__TRY(text(r, "table", 0, &s, &v));
    if (v != NULL && hwfit_psu_table_parse(s, &p->table) != HWFIT_OK)
        return bad_name(r, v, "table", s, "auto, 115v, 230v-redundant, 230v-eu");
    HWFIT__TRY(num(r, "input_voltage", 0, 90.0, 300.0, &p->input_voltage_v));
    HWFIT__TRY(num(r, "headroom_ratio", 0, 1.0, 10.0, &p->headroom_ratio));
    HWFIT__TRY(num(r, "peak_ratio", 0, 1.0, 10.0, &p->peak_ratio));
    HWFIT__TRY(num(r, "efficiency", 0, 1e-6, 1.0, &p->fixed_efficiency));
    HWFIT__TRY(flag(r, "cold_redundancy", &p->cold_redundancy));
    HWFIT__TRY(num(r, "gpu_transient_factor", 0, 1.0, 10.0, &n->power.gpu_transient_factor));
    HWFIT__TRY(qty(r, "switch_power", 0, HWFIT_UNIT_WATTS, 0.0, 500.0, &n->power.switch_w));
    const hwfit__json_value *list = hwfit__json_get(r->obj, "components");
    if (list != NULL) {
        if (list->type != HWFIT__JSON_ARRAY)
            return fail_at(r, list, "key 'components' must be an array of \"KIND:COUNT:WATTS\" "
                                    "strings, got %s", hwfit__json_type_name(list->type));
        if (list->u.array.count > HWFIT_NODE_MAX_COMPONENTS)
            return fail_at(r, list, "key 'components' holds at most %d lines, got %zu",
                           HWFIT_NODE_MAX_COMPONENTS, list->u.array.count);
        n->power.extra_count = 0;
        for (size_t i = 0; i < list->u.array.count; i++) {
            const hwfit__json_value *item = &list->u.array.items[i];
            hwfit_power_component c;
            if (item->type != HWFIT__JSON_STRING)
                return fail_at(r, item, "components[%zu] must be a string \"KIND:COUNT:WATTS\"", i);
            hwfit_status st = hwfit_power_component_parse(item->u.string.text, &c);
            if (st != HWFIT_OK)
                return fail_at(r, item, "components[%zu]: \"%.40s\" is not KIND:COUNT:WATTS with "
                                        "KIND fan, board or other (e.g. \"fan:8:40W\")",
                               i, item->u.string.text);
            if (hwfit_node_add_power(n, c.kind, c.count, c.watts) != HWFIT_OK)
                return fail_at(r, item, "components[%zu]: %s is counted from its own section; "
                                        "only fan, board and other lines belong here",
                               i, hwfit_power_component_kind_name(c.kind));
        }
    }
    return HWFIT_OK;
}

static hwfit_status read_chassis(reader *r, hwfit_node *n) {
    static const char *const known[] = {"rack_units", "cooling", "delta_t", "per_rack",
                                        "air_marginal_above", "liquid_above", "notes", NULL};
    hwfit_thermal_in *t = &n->chassis.thermal;
    HWFIT__TRY(keys(r, known));
    HWFIT__TRY(u64(r, "rack_units", 0, 1, 64, &n->chassis.rack_units));
    const char *s = NULL;
    const hwfit__json_value *v = NULL;
    HWFIT__TRY(text(r, "cooling", 0, &s, &v));
    if (v != NULL) {
        if (strcmp(s, "air") == 0) n->chassis.cooling = HWFIT_NODE_COOLING_AIR;
        else if (strcmp(s, "liquid") == 0) n->chassis.cooling = HWFIT_NODE_COOLING_LIQUID;
        else return bad_name(r, v, "cooling", s, "air, liquid");
    }
    HWFIT__TRY(num(r, "delta_t", 0, 0.1, 100.0, &t->delta_t_c));
    HWFIT__TRY(u64(r, "per_rack", 0, 1, 1000, &t->chassis_per_rack));
    HWFIT__TRY(
        qty(r, "air_marginal_above", 0, HWFIT_UNIT_WATTS, 1.0, 1e9, &t->air_marginal_above_w));
    HWFIT__TRY(qty(r, "liquid_above", 0, HWFIT_UNIT_WATTS, 1.0, 1e9, &t->liquid_above_w));
    if (t->liquid_above_w < t->air_marginal_above_w)
        return fail_at(r, r->obj, "'liquid_above' (%g W) must not be below "
                                  "'air_marginal_above' (%g W)",
                       t->liquid_above_w, t->air_marginal_above_w);
    return HWFIT_OK;
}

static hwfit_status read_costs(reader *r, hwfit_node *n) {
    static const char *const known[] = {"currency", "electricity", "pue", "duty_cycle",
                                        "idle_power", "hours_per_year", "server_price",
                                        "annual_other", "years", "discount_rate",
                                        "utilization", "notes", NULL};
    hwfit_energy_in *e = &n->costs.energy;
    hwfit_tco_in *t = &n->costs.tco;
    HWFIT__TRY(keys(r, known));
    HWFIT__TRY(text_into(r, "currency", 0, n->costs.currency, sizeof n->costs.currency));
    const hwfit__json_value *v = hwfit__json_get(r->obj, "electricity");
    if (v != NULL && v->type == HWFIT__JSON_STRING) {
        if (hwfit_price_per_kwh_parse(v->u.string.text, &e->price_per_kwh) != HWFIT_OK)
            return fail_at(r, v, "key 'electricity' must be a price such as \"0.18/kWh\" or "
                                 "\"180/MWh\", got \"%.40s\"", v->u.string.text);
        /* The same range as a bare number (issue 21: 1e300/kWh was refused later as
         * "costs: value out of domain", without the key). */
        if (!(e->price_per_kwh >= 0.0 && e->price_per_kwh <= 1e6))
            return fail_at(r, v, "key 'electricity' must be a price in [0, 1e+06] per kWh, "
                                 "got \"%.40s\"", v->u.string.text);
    } else {
        HWFIT__TRY(num(r, "electricity", 0, 0.0, 1e6, &e->price_per_kwh));
    }
    HWFIT__TRY(num(r, "pue", 0, 1.0, 10.0, &e->pue));
    HWFIT__TRY(num(r, "duty_cycle", 0, 0.0, 1.0, &e->duty_cycle));
    HWFIT__TRY(qty(r, "idle_power", 0, HWFIT_UNIT_WATTS, 0.0, 1e7, &e->idle_power_w));
    HWFIT__TRY(num(r, "hours_per_year", 0, 1.0, 8784.0, &e->hours_per_year));
    HWFIT__TRY(num(r, "server_price", 0, 0.0, 1e12, &t->capex));
    HWFIT__TRY(num(r, "annual_other", 0, 0.0, 1e12, &t->annual_other_cost));
    HWFIT__TRY(u64(r, "years", 0, 1, 100, &t->years));
    HWFIT__TRY(num(r, "discount_rate", 0, 0.0, 1.0, &t->discount_rate));
    HWFIT__TRY(num(r, "utilization", 0, 1e-6, 1.0, &t->utilization));
    return HWFIT_OK;
}

static hwfit_status read_rules(reader *r, hwfit_node *n) {
    static const char *const known[] = {"cores_per_gpu", "ram_to_vram", "notes", NULL};
    HWFIT__TRY(keys(r, known));
    HWFIT__TRY(num(r, "cores_per_gpu", 0, 0.0, 1e4, &n->host.cores_per_gpu_rule));
    HWFIT__TRY(num(r, "ram_to_vram", 0, 0.0, 100.0, &n->host.ram_to_vram_rule));
    return HWFIT_OK;
}

typedef hwfit_status (*section_fn)(reader *, hwfit_node *);

static const struct {
    const char *key;
    int required;
    section_fn read;
} sections[] = {
    {"gpu", 1, read_gpu},         {"topology", 0, read_topology}, {"cpu", 1, read_cpu},
    {"memory", 1, read_memory},   {"storage", 0, read_storage},   {"nas", 0, read_nas},
    {"network", 0, read_network}, {"power", 1, read_power},       {"chassis", 0, read_chassis},
    {"costs", 0, read_costs},     {"rules", 0, read_rules},
};
#define NSECTIONS (sizeof sections / sizeof sections[0])

/* The value at a field path such as "power.components[2]" (index ignored), or the
 * deepest object on the way. */
static const hwfit__json_value *find_path(const hwfit__json_value *root, const char *path,
                                          size_t length) {
    const hwfit__json_value *at = root;
    char part[64];
    size_t i = 0;
    while (i < length) {
        size_t j = i;
        while (j < length && path[j] != '.' && path[j] != '[' && path[j] != '/') j++;
        size_t n = j - i;
        if (n == 0 || n >= sizeof part) break;
        memcpy(part, path + i, n);
        part[n] = '\0';
        const hwfit__json_value *next = hwfit__json_get(at, part);
        if (next == NULL) break;
        at = next;
        while (j < length && path[j] != '.') j++;
        i = j + 1;
    }
    return at;
}

static hwfit_status read_root(const hwfit__json_value *root, const char *file,
                              hwfit_gpu_set *cards, hwfit_node *n, hwfit_error *err) {
    reader r;
    r.file = file;
    r.cards = cards;
    r.err = err;
    enter(&r, root, NULL);
    if (root->type != HWFIT__JSON_OBJECT)
        return fail_at(&r, root, "a node file must be a JSON object, got %s",
                       hwfit__json_type_name(root->type));
    static const char *const known[] = {"name", "description", "notes", "nodes", "gpu",
                                        "topology", "cpu", "memory", "storage", "nas",
                                        "network", "power", "chassis", "costs", "rules",
                                        NULL};
    HWFIT__TRY(keys(&r, known));
    HWFIT__TRY(text_into(&r, "name", 0, n->name, sizeof n->name));
    const char *ignored = NULL;
    const hwfit__json_value *v = NULL;
    HWFIT__TRY(text(&r, "description", 0, &ignored, &v));
    HWFIT__TRY(text(&r, "notes", 0, &ignored, &v));
    HWFIT__TRY(u64(&r, "nodes", 0, 1, HWFIT_NODE_MAX_NODES, &n->nodes));
    for (size_t i = 0; i < NSECTIONS; i++) {
        enter(&r, root, NULL);
        const hwfit__json_value *sec = hwfit__json_get(root, sections[i].key);
        if (sec == NULL) {
            if (sections[i].required)
                return fail_at(&r, root, "missing required section '%s'", sections[i].key);
            continue;
        }
        if (sec->type != HWFIT__JSON_OBJECT)
            return fail_at(&r, sec, "section '%s' must be an object, got %s", sections[i].key,
                           hwfit__json_type_name(sec->type));
        enter(&r, sec, sections[i].key);
        HWFIT__TRY(text(&r, "notes", 0, &ignored, &v));
        HWFIT__TRY(sections[i].read(&r, n));
    }
    /* The whole node: the message names a field path; point at that key. */
    hwfit_error check;
    hwfit_status st = hwfit_node_check(n, &check);
    if (st != HWFIT_OK) {
        size_t plen = strcspn(check.message, ": ");
        const hwfit__json_value *at = find_path(root, check.message, plen);
        return hwfit__error_set(err, HWFIT_EPARSE, at->line, at->column, at->offset, "%s: %s",
                                file, check.message);
    }
    return HWFIT_OK;
}

/* Both readers: cards NULL for hwfit_node_parse. All or nothing on cards. */
static hwfit_status parse(const char *text_, size_t length, const char *name,
                          hwfit_gpu_set *cards, hwfit_node *out, hwfit_error *err) {
    const char *file = name ? name : "node.json";
    if (text_ == NULL || out == NULL)
        return hwfit__error_set(err, HWFIT_EINVAL, 0, 0, 0, "%s: NULL text or node", file);
    size_t before = hwfit_gpu_set_count(cards);
    hwfit__json_doc *doc = NULL;
    hwfit_status st =
        hwfit__json_parse_file_text(text_, length, HWFIT_NODE_SPEC_MAX_BYTES, file, &doc, err);
    if (st != HWFIT_OK) return st;
    hwfit_node n;
    hwfit_node_init(&n);
    st = read_root(hwfit__json_root(doc), file, cards, &n, err);
    hwfit__json_free(doc);
    if (st != HWFIT_OK) {
        hwfit__gpu_set_truncate(cards, before);
        return st;
    }
    *out = n;
    hwfit_error_clear(err);
    return HWFIT_OK;
}

hwfit_status hwfit_node_parse(const char *text_, size_t length, const char *name,
                              hwfit_node *out, hwfit_error *err) {
    return parse(text_, length, name, NULL, out, err);
}

hwfit_status hwfit_node_parse_cards(const char *text_, size_t length, const char *name,
                                    hwfit_gpu_set *cards, hwfit_node *out, hwfit_error *err) {
    if (cards == NULL)
        return hwfit__error_set(err, HWFIT_EINVAL, 0, 0, 0, "%s: NULL card set",
                                name ? name : "node.json");
    return parse(text_, length, name, cards, out, err);
}

hwfit_status hwfit_node_load_cards(const char *path, hwfit_gpu_set *cards, hwfit_node *out,
                                   hwfit_error *err) {
    if (path == NULL || out == NULL || cards == NULL)
        return hwfit__error_set(err, HWFIT_EINVAL, 0, 0, 0, "NULL path, card set or node");
    char *data = NULL;
    size_t length = 0;
    hwfit_status st = hwfit__read_file(path, HWFIT_NODE_SPEC_MAX_BYTES, &data, &length, err);
    if (st != HWFIT_OK) return st;
    st = hwfit_node_parse_cards(data, length, path, cards, out, err);
    free(data);
    return st;
}

hwfit_status hwfit_node_load(const char *path, hwfit_node *out, hwfit_error *err) {
    if (path == NULL || out == NULL)
        return hwfit__error_set(err, HWFIT_EINVAL, 0, 0, 0, "NULL path or node");
    char *data = NULL;
    size_t length = 0;
    hwfit_status st = hwfit__read_file(path, HWFIT_NODE_SPEC_MAX_BYTES, &data, &length, err);
    if (st != HWFIT_OK) return st;
    st = hwfit_node_parse(data, length, path, out, err);
    free(data);
    return st;
}

/* ---- workloads ------------------------------------------------------------------------ */

/* Digits with an optional K (x 1024) or M (x 1048576); 0 when malformed or out of range. */
static uint64_t tokens(const char *s, size_t n) {
    uint64_t v = 0, mult = 1;
    if (n > 0 && (s[n - 1] == 'K' || s[n - 1] == 'k')) mult = 1024, n--;
    else if (n > 0 && (s[n - 1] == 'M' || s[n - 1] == 'm')) mult = 1048576, n--;
    if (n == 0 || n > 12) return 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return 0;
        v = v * 10u + (uint64_t)(s[i] - '0');
    }
    return v * mult;
}

hwfit_status hwfit_assess_workload_parse(const char *text_, const char *models_dir,
                                         hwfit_assess_workload *workload, hwfit_model *model,
                                         hwfit_error *err) {
    if (text_ == NULL || workload == NULL || model == NULL)
        return hwfit__error_set(err, HWFIT_EINVAL, 0, 0, 0, "NULL workload text or output");
    const char *parts[6];
    size_t lens[6], nparts = 0;
    const char *p = text_;
    for (;;) {
        const char *c = strchr(p, ':');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        if (nparts == 5)
            return hwfit__error_set(err, HWFIT_EPARSE, 0, 0, 0,
                                    "workload \"%.80s\": more than MODE:MODEL:DTYPE:CONTEXT:BATCH",
                                    text_);
        parts[nparts] = p;
        lens[nparts++] = len;
        if (c == NULL) break;
        p = c + 1;
    }
    if (nparts < 2 || lens[1] == 0)
        return hwfit__error_set(err, HWFIT_EPARSE, 0, 0, 0,
                                "workload \"%.80s\": expected MODE:MODEL[:DTYPE[:CONTEXT[:BATCH]]], "
                                "e.g. serve:llama-3.1-70b:bf16:128K", text_);
    hwfit_assess_workload w;
    hwfit_assess_workload_init(&w);
    static const struct {
        const char *name;
        hwfit_memory_mode mode;
    } modes[] = {{"serve", HWFIT_MEMORY_INFERENCE}, {"inference", HWFIT_MEMORY_INFERENCE},
                 {"full", HWFIT_MEMORY_FULL},       {"lora", HWFIT_MEMORY_LORA},
                 {"qlora", HWFIT_MEMORY_QLORA}};
    int found = 0;
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        if (strlen(modes[i].name) == lens[0] && strncmp(parts[0], modes[i].name, lens[0]) == 0) {
            w.memory.mode = modes[i].mode;
            found = 1;
        }
    }
    if (!found)
        return hwfit__error_set(err, HWFIT_EPARSE, 0, 0, 0,
                                "workload \"%.80s\": unknown mode \"%.*s\" (serve, full, lora, "
                                "qlora)", text_, (int)(lens[0] < 20 ? lens[0] : 20), parts[0]);
    char field[64];
    if (nparts > 2 && lens[2] > 0) {
        hwfit_dtype d;
        snprintf(field, sizeof field, "%.*s", (int)(lens[2] < 63 ? lens[2] : 63), parts[2]);
        if (lens[2] >= sizeof field || hwfit_dtype_parse(field, &d) != HWFIT_OK)
            return hwfit__error_set(err, HWFIT_EPARSE, 0, 0, 0,
                                    "workload \"%.80s\": unknown dtype \"%s\" (`hwfit dtypes` "
                                    "lists them)", text_, field);
        if (w.memory.mode == HWFIT_MEMORY_QLORA) w.memory.qlora_base = d;
        else w.memory.weights = d;
    }
    if (nparts > 3 && lens[3] > 0) {
        uint64_t ctx = tokens(parts[3], lens[3]);
        if (ctx == 0)
            return hwfit__error_set(err, HWFIT_EPARSE, 0, 0, 0,
                                    "workload \"%.80s\": context \"%.*s\" must be a token count "
                                    "such as 4096 or 128K", text_,
                                    (int)(lens[3] < 20 ? lens[3] : 20), parts[3]);
        w.memory.context = ctx;
    }
    if (nparts > 4 && lens[4] > 0) {
        uint64_t batch = tokens(parts[4], lens[4]);
        if (batch == 0 || batch > 1048576)
            return hwfit__error_set(err, HWFIT_EPARSE, 0, 0, 0,
                                    "workload \"%.80s\": batch \"%.*s\" must be 1 to 1048576",
                                    text_, (int)(lens[4] < 20 ? lens[4] : 20), parts[4]);
        if (w.memory.mode == HWFIT_MEMORY_INFERENCE) w.memory.batch = batch;
        else w.memory.micro_batch = batch;
    }
    /* The model: a path, or a name in the models directory. */
    char path[HWFIT_WORKLOAD_PATH_SIZE];
    int n;
    int is_path = memchr(parts[1], '/', lens[1]) != NULL ||
                  (lens[1] > 5 && strncmp(parts[1] + lens[1] - 5, ".json", 5) == 0);
    if (is_path)
        n = snprintf(path, sizeof path, "%.*s", (int)lens[1], parts[1]);
    else
        n = snprintf(path, sizeof path, "%s/%.*s.config.json",
                     models_dir ? models_dir : "tests/data/models", (int)lens[1], parts[1]);
    if (n < 0 || (size_t)n >= sizeof path)
        return hwfit__error_set(err, HWFIT_ERANGE, 0, 0, 0, "workload \"%.80s\": model path too long",
                                text_);
    hwfit_model m;
    hwfit_status st = hwfit_hf_config_load(path, &m, err);
    if (st != HWFIT_OK) {
        if (err != NULL) {
            char message[HWFIT_ERROR_MESSAGE_SIZE];
            snprintf(message, sizeof message, "%s", err->message);
            hwfit__error_set(err, st, err->line, err->column, err->offset, "workload %.60s: %s",
                             text_, message);
        }
        return st;
    }
    snprintf(w.label, sizeof w.label, "%s", text_);
    *model = m;
    w.model = model;
    *workload = w;
    hwfit_error_clear(err);
    return HWFIT_OK;
}
