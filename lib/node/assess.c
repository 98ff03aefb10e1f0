/* assess.c - findings for a node and its target workloads.
 *
 * Two passes: the first computes every figure with the domain modules (node evaluation,
 * collectives, transfers, RAID alternatives, memory footprints) and can fail; the second
 * writes the findings from those results and cannot, so the caller's array is written
 * only on success. Comparisons against rules (>=, <) are the only logic here; every
 * number comes from a domain module or is a count times a catalog value.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwfit/assess.h"
#include "hwfit/collective.h"
#include "hwfit/dtype.h"
#include "hwfit/gpu.h"
#include "hwfit/host.h"
#include "hwfit/link.h"
#include "hwfit/memory.h"
#include "hwfit/node.h"
#include "hwfit/perf.h"
#include "hwfit/power.h"
#include "hwfit/shard.h"
#include "hwfit/status.h"
#include "hwfit/storage.h"
#include "hwfit/topology.h"
#include "hwfit/units.h"
#include "node/assess_internal.h"
#include "domains/perf_internal.h"
#include "domains/shard_internal.h"

#include "base/checked.h"
#include "base/internal.h"

/* Node-wide rules, and rules per workload: the bound of hwfit_assess_max_findings. */
#define NODE_RULES 32u
#define WORKLOAD_RULES 4u

static const char *const topic_names[HWFIT_ASSESS_TOPIC_COUNT_] = {
    "vram",       "bandwidth",   "compute", "interconnect", "bifurcation", "cpu",
    "host-ram",   "host-memory", "pcie-lanes", "storage",   "raid",        "nas",
    "network",    "power",       "cooling", "energy"};

const char *hwfit_assess_topic_name(hwfit_assess_topic topic) {
    unsigned i = (unsigned)topic;
    return i < (unsigned)HWFIT_ASSESS_TOPIC_COUNT_ ? topic_names[i] : "unknown";
}

const char *hwfit_finding_kind_name(hwfit_finding_kind kind) {
    switch (kind) {
    case HWFIT_FINDING_STRENGTH: return "strength";
    case HWFIT_FINDING_WEAKNESS: return "weakness";
    case HWFIT_FINDING_INFO: return "info";
    }
    return "unknown";
}

void hwfit_assess_workload_init(hwfit_assess_workload *workload) {
    if (workload == NULL) return;
    memset(workload, 0, sizeof *workload);
    workload->model = NULL;
    hwfit_memory_init(&workload->memory);
}

void hwfit_assess_options_init(hwfit_assess_options *options) {
    if (options == NULL) return;
    memset(options, 0, sizeof *options);
    options->pipeline_bytes_per_s = 7e9;
    options->allreduce_bytes = HWFIT_GIBI;
    options->gpu_utilization = 0.9;
    options->checkpoints_to_keep = 2;
    options->max_time_per_output_token_s = 0.05;
    options->max_comm_share = 0.25;
}

size_t hwfit_assess_max_findings(size_t workloads) {
    if (workloads > HWFIT_ASSESS_MAX_WORKLOADS) workloads = HWFIT_ASSESS_MAX_WORKLOADS;
    return NODE_RULES + WORKLOAD_RULES * workloads;
}

hwfit_status hwfit_finding_figure(const hwfit_finding *finding, const char *key, double *value) {
    if (finding == NULL || key == NULL || value == NULL) return HWFIT_EINVAL;
    for (uint32_t i = 0; i < finding->figure_count && i < HWFIT_FINDING_MAX_FIGURES; i++) {
        if (strcmp(finding->figures[i].key, key) == 0) {
            *value = finding->figures[i].value;
            return HWFIT_OK;
        }
    }
    return HWFIT_ENOTFOUND;
}

static int unit_of(const char *unit, hwfit_unit *u) {
    static const struct {
        const char *name;
        hwfit_unit unit;
    } units[] = {{"B", HWFIT_UNIT_BYTES},     {"B/s", HWFIT_UNIT_BYTES_PER_S},
                 {"W", HWFIT_UNIT_WATTS},     {"s", HWFIT_UNIT_SECONDS},
                 {"FLOP/s", HWFIT_UNIT_FLOP_PER_S}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (strcmp(unit, units[i].name) == 0) {
            *u = units[i].unit;
            return 1;
        }
    }
    return 0;
}

hwfit_status hwfit_figure_format(const hwfit_figure *figure, char *buf, size_t size) {
    if (figure == NULL || buf == NULL) return HWFIT_EINVAL;
    if (!hwfit__finite(figure->value)) return HWFIT_EDOM;
    hwfit_unit u;
    if (memchr(figure->unit, '\0', sizeof figure->unit) == NULL) return HWFIT_EINVAL;
    if (unit_of(figure->unit, &u)) return hwfit_units_format(figure->value, u, buf, size);
    int n;
    if (strcmp(figure->unit, "1") == 0)
        n = snprintf(buf, size, "%.4g", figure->value);
    else if (strcmp(figure->unit, "Hz") == 0)
        n = snprintf(buf, size, "%.3g GHz", figure->value / 1e9);
    else
        n = snprintf(buf, size, "%.4g %s", figure->value, figure->unit);
    if (n < 0) return HWFIT_EINVAL;
    if (size > 0) hwfit__c_decimal_point(buf); /* '.' whatever the host's locale */
    return (size_t)n >= size ? HWFIT_EBUFSIZE : HWFIT_OK;
}

/* ---- pass 1: every figure ----------------------------------------------------------------- */

typedef struct workload_eval {
    hwfit_memory_out mem;       /* footprint on one device holding the whole model */
    uint32_t job_gpus;          /* cards the job may use: a node (serving), all (training) */
    hwfit_shard_in shard_in;    /* the workload on the node's cards */
    hwfit_shard_search_out search; /* layouts that fit */
    hwfit_shard_result best;    /* the layout with the most headroom (when search.count) */
    hwfit_shard_out best_out;   /* its full footprint */
    uint32_t min_gpus;          /* fewest cards some layout fits on (0: none up to max) */
    uint32_t min_gpus_max;      /* the largest count tried */
    hwfit_layout min_layout;    /* that layout */
    hwfit_shard_search_out perf_search; /* layouts ranked by throughput */
    hwfit_perf_in perf_in;      /* the fastest layout, on the node's interconnect */
    hwfit_perf_out perf;        /* its prefill, decode or training step */
    uint64_t checkpoint_bytes;  /* what a checkpoint of the job stores */
    int storage_checked;        /* the node has local drives with a write rate */
    hwfit_transfer_out ckpt_write; /* time to write one checkpoint */
    hwfit_transfer_out ckpt_fit;   /* bytes = checkpoints_to_keep x checkpoint, capacity */
} workload_eval;

typedef struct facts {
    hwfit_node_eval e;
    int p2p_variant;               /* 1: p2p_on holds the all-reduce with P2P forced on */
    hwfit_collective_out p2p_on;
    int bif_variant;               /* 1: bifurcated holds the all-reduce at x8 */
    hwfit_collective_out bifurcated;
    int fill_evaluated;            /* 1: fill holds the time to load the VRAM from local drives */
    hwfit_transfer_out fill;
    int raid_alt_evaluated;        /* 1: the stated level has no redundancy; raid_alt is one
                                      that has */
    hwfit_raid_in raid_alt_in;
    hwfit_raid_out raid_alt;
    int socket_evaluated;          /* 1: socket_links holds the inter-socket links' rate */
    hwfit_link_out socket_links;
    workload_eval w[HWFIT_ASSESS_MAX_WORKLOADS];
    hwfit__shard_engine engine;    /* the throughput calls' engine: not on the stack */
} facts;

static hwfit_status check_options(const hwfit_assess_options *o) {
    if (!hwfit__in_range(o->pipeline_bytes_per_s, 0.0, 1e15) || o->pipeline_bytes_per_s <= 0.0)
        return HWFIT_EDOM;
    if (!hwfit__in_range(o->allreduce_bytes, 1.0, 1e18)) return HWFIT_EDOM;
    if (!hwfit__in_range(o->gpu_utilization, 0.0, 1.0) || o->gpu_utilization <= 0.0)
        return HWFIT_EDOM;
    if (o->checkpoints_to_keep < 1 || o->checkpoints_to_keep > 1000000u) return HWFIT_EDOM;
    if (!hwfit__in_range(o->max_time_per_output_token_s, 0.0, 1e3) ||
        o->max_time_per_output_token_s <= 0.0)
        return HWFIT_EDOM;
    if (!hwfit__in_range(o->max_comm_share, 0.0, 1.0)) return HWFIT_EDOM;
    return HWFIT_OK;
}

/* The first level with redundancy that the drives allow: RAID 6, 5 or 1. */
static int redundant_alternative(uint64_t drives, hwfit_raid_level *level) {
    if (drives >= 4) *level = HWFIT_STORAGE_RAID6;
    else if (drives == 3) *level = HWFIT_STORAGE_RAID5;
    else if (drives == 2) *level = HWFIT_STORAGE_RAID1;
    else return 0;
    return 1;
}

/* Bytes a checkpoint of the workload stores: serving, the weights; full training, weights
 * plus optimizer states and master weights; LoRA and QLoRA, the adapters and their
 * optimizer states. */
static hwfit_status checkpoint_bytes(const hwfit_assess_workload *w, const hwfit_memory_out *m,
                                     uint64_t *bytes) {
    uint64_t b = 0;
    switch (w->memory.mode) {
    case HWFIT_MEMORY_INFERENCE:
        b = m->weights_bytes;
        break;
    case HWFIT_MEMORY_FULL:
        b = m->weights_bytes + m->optimizer_bytes;
        if (b < m->weights_bytes) return HWFIT_ERANGE;
        break;
    case HWFIT_MEMORY_LORA:
    case HWFIT_MEMORY_QLORA:
        HWFIT__TRY(hwfit_dtype_bytes(w->memory.lora_dtype, m->adapter_params, &b));
        if (b + m->optimizer_bytes < b) return HWFIT_ERANGE;
        b += m->optimizer_bytes;
        break;
    default:
        return HWFIT_EINVAL;
    }
    *bytes = b;
    return HWFIT_OK;
}

static hwfit_status gather(const hwfit_node *node, const hwfit_assess_workload *wl, size_t nwl,
                           const hwfit_assess_options *o, facts *f) {
    HWFIT__TRY(hwfit_node_evaluate(node, &f->e));
    const hwfit_node_eval *e = &f->e;
    hwfit_collective_in ci;
    if (e->allreduce_evaluated) {
        ci = e->allreduce_in;
        ci.bytes = o->allreduce_bytes;
        HWFIT__TRY(hwfit_collective_estimate(&ci, &f->e.allreduce));
        f->e.allreduce_in = ci;
        /* P2P forced on, when the default staged through host memory on a P2P card. */
        if (!e->allreduce.p2p && e->topology.gpu_p2p_capable &&
            e->topology.p2p == HWFIT_TOPOLOGY_AUTO) {
            ci = e->allreduce_in;
            ci.topology.p2p = HWFIT_TOPOLOGY_ON;
            HWFIT__TRY(hwfit_collective_estimate(&ci, &f->p2p_on));
            f->p2p_variant = 1;
        }
        /* The same all-reduce with the slots bifurcated (the collective takes x16 or x8). */
        if (e->gpu->pcie_gen > 0 && node->host.gpu_bifurcated_lanes == 8 &&
            node->host.gpu_lanes == 16) {
            ci = e->allreduce_in;
            ci.topology.gpu_pcie_lanes = 8;
            HWFIT__TRY(hwfit_collective_estimate(&ci, &f->bifurcated));
            f->bif_variant = 1;
        }
    }
    if (node->host.sockets >= 2 && e->topology.socket_links > 0) {
        hwfit_link_in l;
        hwfit_link_init(&l);
        l.kind = e->topology.socket_link_kind;
        l.generation = e->topology.socket_link_generation;
        l.width = e->topology.socket_links;
        HWFIT__TRY(hwfit_link_rate(&l, &f->socket_links));
        f->socket_evaluated = 1;
    }
    if (e->storage_evaluated && e->raid.read_bytes_per_s > 0.0) {
        hwfit_transfer_in t;
        hwfit_transfer_init(&t);
        t.bytes = e->vram_bytes;
        t.rate_bytes_per_s = e->raid.read_bytes_per_s;
        HWFIT__TRY(hwfit_transfer_estimate(&t, &f->fill));
        f->fill_evaluated = 1;
    }
    hwfit_raid_level alt;
    if (e->storage_evaluated && e->raid.tolerated_failures == 0 &&
        redundant_alternative(node->storage.raid.drives - node->storage.raid.spares, &alt)) {
        f->raid_alt_in = node->storage.raid;
        hwfit_raid_layout layout = f->raid_alt_in.layout;
        layout.level = alt;
        layout.groups = 0;
        f->raid_alt_in.layout = layout;
        HWFIT__TRY(hwfit_raid_evaluate(&f->raid_alt_in, &f->raid_alt));
        f->raid_alt_evaluated = 1;
    }
    for (size_t i = 0; i < nwl; i++) {
        workload_eval *we = &f->w[i];
        if (wl[i].model == NULL) return HWFIT_EINVAL;
        HWFIT__TRY(hwfit_memory_estimate(wl[i].model, &wl[i].memory, &we->mem));
        /* Layouts on the node's cards (serving: one node; training: every node). */
        int serve = wl[i].memory.mode == HWFIT_MEMORY_INFERENCE;
        uint64_t job = serve ? e->gpus : e->total_gpus;
        we->job_gpus = (uint32_t)(job < HWFIT_SHARD_MAX_GPUS ? job : HWFIT_SHARD_MAX_GPUS);
        hwfit_shard_init(&we->shard_in);
        we->shard_in.memory = wl[i].memory;
        we->shard_in.gpus = we->job_gpus;
        we->shard_in.capacity_bytes = (double)e->gpu->memory_bytes;
        we->shard_in.utilization = o->gpu_utilization;
        we->shard_in.host_memory_bytes = e->ram_bytes * (double)node->nodes;
        we->shard_in.host_memory_given = 1;
        hwfit_shard_space space;
        hwfit_shard_space_init(&space);
        space.micro_batch = serve ? 1 : (uint32_t)wl[i].memory.micro_batch;
        HWFIT__TRY(
            hwfit__shard_search_at(&f->engine, wl[i].model, &we->shard_in, &space, &we->best,
                                   1, &we->search)); /* the engine in the workspace */
        if (we->search.count > 0) {
            hwfit_shard_in best = we->shard_in;
            best.layout = we->best.layout;
            /* hwfit_shard_estimate on the workspace's engine (started afresh) */
            HWFIT__TRY(hwfit__shard_engine_start(&f->engine, wl[i].model));
            HWFIT__TRY(hwfit__shard_estimate_engine(&f->engine, &best, &we->best_out));
        }
        we->min_gpus_max = 1024u; /* a rack row of 8-GPU nodes; beyond it, "none fits" */
        HWFIT__TRY(hwfit__shard_min_gpus_at(&f->engine, wl[i].model, &we->shard_in, &space,
                                            we->min_gpus_max, &we->min_gpus,
                                            &we->min_layout));
        /* Throughput: the fastest layout that fits, on the node's own interconnect. */
        if (we->search.count > 0) {
            hwfit_perf_init(&we->perf_in);
            we->perf_in.topology = e->topology;
            HWFIT__TRY(hwfit_perf_set_gpu(&we->perf_in, e->gpu));
            we->perf_in.shard = we->shard_in;
            /* Training: the job's global batch, job cards x micro-batch (a multiple of
             * every dp x micro-batch), so that every layout does the same work and the plan
             * ranks by step time (hwfit_perf_plan_rank). */
            if (!serve) space.global_batch = (uint64_t)we->job_gpus * wl[i].memory.micro_batch;
            hwfit_perf_result best;
            HWFIT__TRY(
                hwfit__perf_plan_at(&f->engine, wl[i].model, &we->perf_in, &space, &best, 1,
                                    &we->perf_search));
            if (we->perf_search.count > 0) {
                we->perf_in.shard.layout = best.shard.layout;
                HWFIT__TRY(hwfit__perf_estimate_at(&f->engine, wl[i].model, &we->perf_in,
                                                   &we->perf));
            }
        }
        HWFIT__TRY(checkpoint_bytes(&wl[i], &we->mem, &we->checkpoint_bytes));
        if (e->storage_evaluated && e->raid.write_bytes_per_s > 0.0) {
            hwfit_transfer_in t;
            hwfit_transfer_init(&t);
            t.bytes = (double)we->checkpoint_bytes;
            t.rate_bytes_per_s = e->raid.write_bytes_per_s;
            HWFIT__TRY(hwfit_transfer_estimate(&t, &we->ckpt_write));
            t.bytes = (double)we->checkpoint_bytes * (double)o->checkpoints_to_keep;
            t.capacity_bytes = e->raid.usable_bytes;
            HWFIT__TRY(hwfit_transfer_estimate(&t, &we->ckpt_fit));
            we->storage_checked = 1;
        }
    }
    return HWFIT_OK;
}

/* ---- pass 2: writing findings ------------------------------------------------------------ */

typedef struct out {
    hwfit_finding *items;
    size_t n;
    const char *currency;
} out;

static hwfit_finding *add(out *o, const char *rule, hwfit_assess_topic topic,
                          hwfit_finding_kind kind, uint32_t workload) {
    hwfit_finding *f = &o->items[o->n++];
    memset(f, 0, sizeof *f);
    snprintf(f->rule, sizeof f->rule, "%s", rule);
    f->topic = topic;
    f->kind = kind;
    f->workload = workload;
    return f;
}

static void fig(hwfit_finding *f, const char *key, double value, const char *unit) {
    if (f->figure_count >= HWFIT_FINDING_MAX_FIGURES) return;
    hwfit_figure *g = &f->figures[f->figure_count++];
    snprintf(g->key, sizeof g->key, "%s", key);
    g->value = hwfit__finite(value) ? value : 0.0;
    snprintf(g->unit, sizeof g->unit, "%s", unit);
}

static void say(hwfit_finding *f, const char *fmt, ...) HWFIT__PRINTF(2, 3);
static void say(hwfit_finding *f, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(f->text, sizeof f->text, fmt, ap);
    va_end(ap);
    if (n < 0) f->text[0] = '\0';
}

/* A quantity for a sentence: "141.1 GB (131.4 GiB)", "6.4 kW". Rotating buffers so a
 * sentence can hold several. */
typedef struct qbuf {
    char b[12][64];
    int i;
} qbuf;

static const char *q(qbuf *s, double v, hwfit_unit unit) {
    char *b = s->b[s->i];
    s->i = (s->i + 1) % 12;
    if (hwfit_units_format(v, unit, b, sizeof s->b[0]) != HWFIT_OK) snprintf(b, 64, "%g", v);
    return b;
}

#define BYTES HWFIT_UNIT_BYTES
#define RATE HWFIT_UNIT_BYTES_PER_S
#define WATTS HWFIT_UNIT_WATTS
#define SECS HWFIT_UNIT_SECONDS
#define FLOPS HWFIT_UNIT_FLOP_PER_S

static void pct(char *buf, size_t size, double fraction) {
    snprintf(buf, size, "%.1f %%", fraction * 100.0);
}

/* Rule id of a workload: "<prefix>.<label in snake case>", e.g. vram.serve_llama_3_1_70b. */
static void workload_rule(char *buf, size_t size, const char *prefix,
                          const hwfit_assess_workload *w, size_t index) {
    char label[HWFIT_WORKLOAD_LABEL_SIZE];
    if (w->label[0] == '\0') snprintf(label, sizeof label, "workload%zu", index + 1);
    else snprintf(label, sizeof label, "%s", w->label);
    size_t o = (size_t)snprintf(buf, size, "%s.", prefix);
    int last_us = 1;
    for (const char *p = label; *p && o + 1 < size; p++) {
        char c = *p;
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        int ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
        if (!ok) {
            if (last_us) continue;
            c = '_';
        }
        buf[o++] = c;
        last_us = !ok;
    }
    while (o > 0 && buf[o - 1] == '_') o--;
    buf[o < size ? o : size - 1] = '\0';
}

static const char *workload_name(const hwfit_assess_workload *w, size_t i, char *buf,
                                 size_t size) {
    if (w->label[0]) return w->label;
    snprintf(buf, size, "workload %zu", i + 1);
    return buf;
}

/* ---- node-wide findings, in topic order ---- */

static void vram_pool(out *o, const hwfit_node *n, const facts *f, qbuf *s) {
    const hwfit_node_eval *e = &f->e;
    hwfit_finding *x = add(o, "vram.pool", HWFIT_ASSESS_VRAM, HWFIT_FINDING_INFO, 0);
    fig(x, "gpus", (double)e->gpus, "1");
    fig(x, "memory_per_gpu_bytes", (double)e->gpu->memory_bytes, "B");
    fig(x, "vram_bytes", e->vram_bytes, "B");
    if (n->nodes > 1) fig(x, "total_vram_bytes", e->total_vram_bytes, "B");
    char cluster[128] = "";
    if (n->nodes > 1)
        snprintf(cluster, sizeof cluster, " (%s in %llu nodes)", q(s, e->total_vram_bytes, BYTES),
                 (unsigned long long)n->nodes);
    if (e->gpu->peer_link == HWFIT_GPU_PEER_NONE || e->gpus == 1)
        say(x, "%llu x %s = %s of GPU memory per node%s; %s", (unsigned long long)e->gpus,
            q(s, (double)e->gpu->memory_bytes, BYTES), q(s, e->vram_bytes, BYTES), cluster,
            e->gpus > 1 ? "without NVLink these are separate memories: a model larger than one "
                          "card must be split by tensor or pipeline parallelism over PCIe."
                        : "one card holds everything.");
    else
        say(x, "%llu x %s = %s of GPU memory per node%s, joined by %s at %s per GPU and "
               "direction.",
            (unsigned long long)e->gpus, q(s, (double)e->gpu->memory_bytes, BYTES),
            q(s, e->vram_bytes, BYTES), cluster, hwfit_gpu_peer_link_name(e->gpu->peer_link),
            q(s, e->gpu->peer_bytes_per_s, RATE));
}

static void bandwidth(out *o, const facts *f, qbuf *s) {
    const hwfit_node_eval *e = &f->e;
    hwfit_finding *x = add(o, "bandwidth.gpu_memory", HWFIT_ASSESS_BANDWIDTH, HWFIT_FINDING_INFO, 0);
    double bw = e->gpu->memory_bandwidth_bytes_per_s;
    double total = bw * (double)e->gpus;
    fig(x, "memory_bandwidth_bytes_per_s", bw, "B/s");
    fig(x, "node_memory_bandwidth_bytes_per_s", total, "B/s");
    say(x, "%s per GPU (%s), %s for the node's %llu GPUs: decode reads every weight once per "
           "step, so this bounds tokens per second at small batches.",
        q(s, bw, RATE), e->gpu->edition, q(s, total, RATE), (unsigned long long)e->gpus);
}

static void compute(out *o, const facts *f, qbuf *s) {
    const hwfit_node_eval *e = &f->e;
    const hwfit_gpu *g = e->gpu;
    hwfit_finding *x = add(o, "compute.tensor", HWFIT_ASSESS_COMPUTE, HWFIT_FINDING_INFO, 0);
    fig(x, "bf16_flop_per_s", g->fp16_bf16_flop_per_s, "FLOP/s");
    fig(x, "fp8_flop_per_s", g->fp8_flop_per_s, "FLOP/s");
    fig(x, "fp4_flop_per_s", g->fp4_flop_per_s, "FLOP/s");
    fig(x, "sparse_speedup", g->sparse_speedup, "1");
    fig(x, "node_bf16_flop_per_s", g->fp16_bf16_flop_per_s * (double)e->gpus, "FLOP/s");
    char fp4[96] = "";
    if (g->fp4_flop_per_s > 0.0)
        snprintf(fp4, sizeof fp4, ", FP4 %s (%s with 2:4 sparsity)", q(s, g->fp4_flop_per_s, FLOPS),
                 q(s, g->fp4_flop_per_s * g->sparse_speedup, FLOPS));
    say(x, "Dense tensor throughput per GPU: BF16 %s, FP8 %s%s; %s BF16 for the node.",
        q(s, g->fp16_bf16_flop_per_s, FLOPS), q(s, g->fp8_flop_per_s, FLOPS), fp4,
        q(s, g->fp16_bf16_flop_per_s * (double)e->gpus, FLOPS));
}

static void interconnect(out *o, const hwfit_node *n, const facts *f, qbuf *s) {
    const hwfit_node_eval *e = &f->e;
    const hwfit_gpu *g = e->gpu;
    if (e->gpus > 1 || n->nodes > 1) {
        if (g->peer_link == HWFIT_GPU_PEER_NONE) {
            hwfit_finding *x = add(o, "interconnect.peer_links", HWFIT_ASSESS_INTERCONNECT,
                                   HWFIT_FINDING_WEAKNESS, 0);
            fig(x, "pcie_bytes_per_s", e->gpu_link.line_bytes_per_s, "B/s");
            fig(x, "pcie_bytes_per_s_bidir", e->gpu_link.line_bytes_per_s_bidir, "B/s");
            say(x, "No NVLink: GPU-to-GPU traffic crosses the host over %s at %s per direction "
                   "(%s both directions) per GPU; tensor and pipeline parallelism pay for it.",
                e->gpu_link.name, q(s, e->gpu_link.line_bytes_per_s, RATE),
                q(s, e->gpu_link.line_bytes_per_s_bidir, RATE));
        } else {
            hwfit_finding *x = add(o, "interconnect.peer_links", HWFIT_ASSESS_INTERCONNECT,
                                   HWFIT_FINDING_STRENGTH, 0);
            fig(x, "peer_bytes_per_s", g->peer_bytes_per_s, "B/s");
            fig(x, "peer_bytes_per_s_bidir", g->peer_bytes_per_s_bidir, "B/s");
            fig(x, "peer_domain_gpus", (double)g->peer_domain_gpus, "1");
            fig(x, "pcie_bytes_per_s", e->gpu_link.line_bytes_per_s, "B/s");
            say(x, "%s %s joins %u GPUs at %s per GPU and direction (%s both directions), %.0fx "
                   "the %s host link.",
                hwfit_gpu_peer_link_name(g->peer_link),
                hwfit_gpu_peer_topology_name(g->peer_topology), (unsigned)g->peer_domain_gpus,
                q(s, g->peer_bytes_per_s, RATE), q(s, g->peer_bytes_per_s_bidir, RATE),
                e->gpu_link.line_bytes_per_s > 0.0
                    ? g->peer_bytes_per_s / e->gpu_link.line_bytes_per_s : 0.0,
                e->gpu_link.name);
        }
    }
    if (!e->allreduce_evaluated) return;
    const hwfit_collective_out *a = &e->allreduce;
    int pcie_bound = a->bottleneck != HWFIT_COLLECTIVE_BOUND_PEER_LINK &&
                     a->bottleneck != HWFIT_COLLECTIVE_BOUND_NVLS;
    hwfit_finding_kind kind = g->peer_link == HWFIT_GPU_PEER_NONE ? HWFIT_FINDING_WEAKNESS
                              : pcie_bound && a->bottleneck != HWFIT_COLLECTIVE_BOUND_NIC
                                  ? HWFIT_FINDING_INFO
                                  : HWFIT_FINDING_STRENGTH;
    if (n->nodes > 1 && a->bottleneck == HWFIT_COLLECTIVE_BOUND_NIC) kind = HWFIT_FINDING_WEAKNESS;
    hwfit_finding *x = add(o, "interconnect.allreduce", HWFIT_ASSESS_INTERCONNECT, kind, 0);
    fig(x, "bytes", e->allreduce_in.bytes, "B");
    fig(x, "ranks", (double)a->ranks, "1");
    fig(x, "time_s", a->time_s, "s");
    fig(x, "algbw_bytes_per_s", a->algbw_bytes_per_s, "B/s");
    fig(x, "busbw_bytes_per_s", a->busbw_bytes_per_s, "B/s");
    fig(x, "p2p", (double)a->p2p, "1");
    say(x, "All-reduce of %s over %llu GPUs%s: %s bus bandwidth (%s, %s, bound by %s), %s%s.",
        q(s, e->allreduce_in.bytes, BYTES), (unsigned long long)a->ranks,
        n->nodes > 1 ? " of all nodes" : "", q(s, a->busbw_bytes_per_s, RATE),
        hwfit_collective_algorithm_name(a->algorithm), hwfit_collective_protocol_name(a->protocol),
        hwfit_collective_bottleneck_name(a->bottleneck), q(s, a->time_s, SECS),
        g->peer_link != HWFIT_GPU_PEER_NONE ? ""
        : a->p2p ? "; GPUs exchange data by P2P over PCIe"
                 : "; staged through host memory (no P2P)");
    if (g->peer_link != HWFIT_GPU_PEER_NONE || e->gpus < 2) return;
    if (!g->p2p_pcie) {
        x = add(o, "interconnect.p2p", HWFIT_ASSESS_INTERCONNECT, HWFIT_FINDING_WEAKNESS, 0);
        fig(x, "busbw_bytes_per_s", a->busbw_bytes_per_s, "B/s");
        say(x, "The %s's driver allows no peer-to-peer transfers over PCIe: every GPU-to-GPU "
               "transfer is copied through host memory.",
            g->name);
    } else if (f->p2p_variant) {
        int gain = f->p2p_on.busbw_bytes_per_s > 1.1 * a->busbw_bytes_per_s;
        x = add(o, "interconnect.p2p", HWFIT_ASSESS_INTERCONNECT,
                gain ? HWFIT_FINDING_WEAKNESS : HWFIT_FINDING_INFO, 0);
        fig(x, "busbw_bytes_per_s", a->busbw_bytes_per_s, "B/s");
        fig(x, "busbw_p2p_bytes_per_s", f->p2p_on.busbw_bytes_per_s, "B/s");
        say(x, "The card supports P2P, but NCCL's default uses it only under one PCIe switch; "
               "with GPUs on separate root ports it stages through host memory (%s); forcing "
               "P2P (NCCL_P2P_LEVEL=SYS) gives %s, bound by %s.",
            q(s, a->busbw_bytes_per_s, RATE), q(s, f->p2p_on.busbw_bytes_per_s, RATE),
            hwfit_collective_bottleneck_name(f->p2p_on.bottleneck));
    } else {
        x = add(o, "interconnect.p2p", HWFIT_ASSESS_INTERCONNECT,
                a->p2p ? HWFIT_FINDING_STRENGTH : HWFIT_FINDING_INFO, 0);
        fig(x, "busbw_bytes_per_s", a->busbw_bytes_per_s, "B/s");
        say(x, a->p2p ? "GPUs exchange data peer-to-peer over PCIe, without host-memory copies."
                      : "P2P is switched off for this node: collectives copy through host memory.");
    }
}

static void bifurcation(out *o, const hwfit_node *n, const facts *f, qbuf *s) {
    const hwfit_node_eval *e = &f->e;
    if (e->gpu->pcie_gen == 0 || n->host.gpu_bifurcated_lanes >= n->host.gpu_lanes) return;
    const hwfit_host_out *h = &e->host;
    int needed = !h->lanes_fit && !(n->host.switches > 0 && h->lanes_fit_switched);
    hwfit_finding *x = add(o, "bifurcation.gpu_slots", HWFIT_ASSESS_BIFURCATION,
                           needed ? HWFIT_FINDING_WEAKNESS : HWFIT_FINDING_INFO, 0);
    fig(x, "gpu_link_bytes_per_s", e->gpu_link.line_bytes_per_s, "B/s");
    fig(x, "bifurcated_link_bytes_per_s", e->gpu_link_bifurcated.line_bytes_per_s, "B/s");
    fig(x, "lanes_needed_bifurcated", (double)h->pcie_lanes_needed_bifurcated, "1");
    char tail[160] = "";
    if (f->bif_variant) {
        fig(x, "busbw_bytes_per_s", e->allreduce.busbw_bytes_per_s, "B/s");
        fig(x, "busbw_bifurcated_bytes_per_s", f->bifurcated.busbw_bytes_per_s, "B/s");
        snprintf(tail, sizeof tail, " and the all-reduce from %s to %s",
                 q(s, e->allreduce.busbw_bytes_per_s, RATE),
                 q(s, f->bifurcated.busbw_bytes_per_s, RATE));
    }
    say(x, "Splitting the x%llu GPU slots to x%llu cuts each GPU's host link from %s to %s per "
           "direction%s; %s",
        (unsigned long long)n->host.gpu_lanes, (unsigned long long)n->host.gpu_bifurcated_lanes,
        q(s, e->gpu_link.line_bytes_per_s, RATE), q(s, e->gpu_link_bifurcated.line_bytes_per_s, RATE),
        tail,
        needed ? "the lane budget does not fit at full width, so bifurcation or PCIe switches "
                 "are needed."
               : "the lane budget does not need it.");
}

static void cpu(out *o, const hwfit_node *n, const facts *f, qbuf *s) {
    const hwfit_node_eval *e = &f->e;
    const hwfit_host_out *h = &e->host;
    hwfit_finding *x = add(o, "cpu.cores_per_gpu", HWFIT_ASSESS_CPU,
                           h->meets_cores_rule ? HWFIT_FINDING_STRENGTH : HWFIT_FINDING_WEAKNESS, 0);
    fig(x, "cores", (double)e->cores, "1");
    fig(x, "threads", (double)e->threads, "1");
    fig(x, "cores_per_gpu", h->cores_per_gpu, "1");
    fig(x, "cores_per_gpu_rule", n->host.cores_per_gpu_rule, "1");
    fig(x, "cores_needed", h->cores_needed, "1");
    say(x, "%llu cores / %llu threads for %llu GPUs: %.3g cores per GPU against a rule of %g "
           "(%.0f cores needed)%s.",
        (unsigned long long)e->cores, (unsigned long long)e->threads, (unsigned long long)e->gpus,
        h->cores_per_gpu, n->host.cores_per_gpu_rule, h->cores_needed,
        h->meets_cores_rule ? "" : ": data loading and preprocessing may starve the GPUs");
    x = add(o, "cpu.power", HWFIT_ASSESS_CPU, HWFIT_FINDING_INFO, 0);
    double cpu_w = e->budget.kind_w[HWFIT_POWER_COMPONENT_CPU];
    fig(x, "cpu_w", cpu_w, "W");
    fig(x, "share_of_budget", cpu_w / e->budget.dc_w, "1");
    if (n->cpu.boost_clock_hz > 0.0) fig(x, "boost_clock_hz", n->cpu.boost_clock_hz, "Hz");
    char share[32], boost[64] = "";
    pct(share, sizeof share, cpu_w / e->budget.dc_w);
    if (n->cpu.boost_clock_hz > 0.0)
        snprintf(boost, sizeof boost, "; boost up to %.3g GHz", n->cpu.boost_clock_hz / 1e9);
    say(x, "%llu x %s = %s of CPU power, %s of the %s budget%s.",
        (unsigned long long)n->host.sockets, q(s, n->cpu.tdp_w, WATTS), q(s, cpu_w, WATTS), share,
        q(s, e->budget.dc_w, WATTS), boost);
    if (n->host.sockets < 2 || !f->socket_evaluated) return;
    x = add(o, "cpu.numa", HWFIT_ASSESS_CPU, HWFIT_FINDING_INFO, 0);
    fig(x, "sockets", (double)n->host.sockets, "1");
    fig(x, "gpus_per_socket", (double)e->gpus / (double)n->host.sockets, "1");
    fig(x, "socket_links_bytes_per_s", f->socket_links.line_bytes_per_s, "B/s");
    fig(x, "memory_bandwidth_per_socket_bytes_per_s", e->host.memory_bandwidth_per_socket_bytes_per_s,
        "B/s");
    say(x, "%llu GPUs over %llu sockets: traffic between GPUs, NICs and memory of different "
           "sockets crosses %s (%s per direction), so data loaders and NIC traffic are best "
           "pinned to each GPU's own socket.",
        (unsigned long long)e->gpus, (unsigned long long)n->host.sockets, f->socket_links.name,
        q(s, f->socket_links.line_bytes_per_s, RATE));
}

static void host_ram(out *o, const hwfit_node *n, const facts *f, qbuf *s) {
    const hwfit_node_eval *e = &f->e;
    const hwfit_host_out *h = &e->host;
    hwfit_finding *x = add(o, "host_ram.ratio", HWFIT_ASSESS_HOST_RAM,
                           h->meets_ram_rule ? HWFIT_FINDING_STRENGTH : HWFIT_FINDING_WEAKNESS, 0);
    fig(x, "ram_bytes", e->ram_bytes, "B");
    fig(x, "vram_bytes", e->vram_bytes, "B");
    fig(x, "ram_to_vram", h->ram_to_vram, "1");
    fig(x, "ram_to_vram_rule", n->host.ram_to_vram_rule, "1");
    fig(x, "ram_needed_bytes", h->ram_needed_bytes, "B");
    const char *verdict = !h->meets_ram_rule ? "falls short of"
                          : h->ram_to_vram == n->host.ram_to_vram_rule ? "exactly meets"
                                                                       : "meets";
    say(x, "%s of host RAM (%llu x %s) for %s of VRAM: %.4gx, which %s the %gx rule (%s).",
        q(s, e->ram_bytes, BYTES), (unsigned long long)n->host.dimms,
        q(s, n->memory.dimm_bytes, BYTES), q(s, e->vram_bytes, BYTES), h->ram_to_vram, verdict,
        n->host.ram_to_vram_rule, q(s, h->ram_needed_bytes, BYTES));
}

static void host_memory(out *o, const hwfit_node *n, const facts *f, qbuf *s) {
    const hwfit_node_eval *e = &f->e;
    const hwfit_host_out *h = &e->host;
    double feed = e->gpu_link.line_bytes_per_s * (double)e->gpus; /* all GPU links at once */
    int enough = h->memory_bandwidth_bytes_per_s >= feed;
    hwfit_finding *x = add(o, "host_memory.bandwidth", HWFIT_ASSESS_HOST_MEMORY,
                           enough ? HWFIT_FINDING_STRENGTH : HWFIT_FINDING_WEAKNESS, 0);
    fig(x, "per_socket_bytes_per_s", h->memory_bandwidth_per_socket_bytes_per_s, "B/s");
    fig(x, "memory_bandwidth_bytes_per_s", h->memory_bandwidth_bytes_per_s, "B/s");
    fig(x, "gpu_links_bytes_per_s", feed, "B/s");
    fig(x, "effective_speed_mts", h->effective_speed_mts, "MT/s");
    say(x, "%llu channels x %.0f MT/s x %llu B = %s per socket, %s in all: %s the %s all %llu "
           "GPU host links move in one direction.",
        (unsigned long long)n->host.channels_per_socket, h->effective_speed_mts,
        (unsigned long long)n->host.channel_width_bytes,
        q(s, h->memory_bandwidth_per_socket_bytes_per_s, RATE),
        q(s, h->memory_bandwidth_bytes_per_s, RATE), enough ? "above" : "below", q(s, feed, RATE),
        (unsigned long long)e->gpus);
    hwfit_finding_kind kind = HWFIT_FINDING_STRENGTH;
    const char *why;
    if (!h->within_slot_limit) {
        kind = HWFIT_FINDING_WEAKNESS;
        why = "more DIMMs than the channels have slots";
    } else if (h->downclocked) {
        kind = HWFIT_FINDING_WEAKNESS;
        why = "two DIMMs in a channel lower the data rate";
    } else if (!h->speed_rule_known) {
        kind = HWFIT_FINDING_INFO;
        why = "two DIMMs in a channel, and the platform's 2-DPC speed is not given";
    } else if (h->populated_channels < h->channels || !h->balanced) {
        kind = HWFIT_FINDING_WEAKNESS;
        why = "not every channel holds the same number of DIMMs, which costs bandwidth";
    } else if (h->max_dimms_in_a_channel == 1) {
        why = "one DIMM per channel in every channel: full speed, no 2-DPC derating";
    } else {
        why = "every channel evenly populated";
    }
    x = add(o, "host_memory.dimms_per_channel", HWFIT_ASSESS_HOST_MEMORY, kind, 0);
    fig(x, "dimms", (double)n->host.dimms, "1");
    fig(x, "channels", (double)h->channels, "1");
    fig(x, "dimms_per_channel", h->dimms_per_channel, "1");
    fig(x, "effective_speed_mts", h->effective_speed_mts, "MT/s");
    say(x, "%llu DIMMs in %llu channels (%llu sockets x %llu): %.3g per channel; %s.",
        (unsigned long long)n->host.dimms, (unsigned long long)h->channels,
        (unsigned long long)n->host.sockets, (unsigned long long)n->host.channels_per_socket,
        h->dimms_per_channel, why);
    x = add(o, "host_memory.ecc", HWFIT_ASSESS_HOST_MEMORY,
            n->memory.ecc ? HWFIT_FINDING_STRENGTH : HWFIT_FINDING_WEAKNESS, 0);
    fig(x, "ecc", (double)n->memory.ecc, "1");
    fig(x, "registered", (double)n->memory.registered, "1");
    fig(x, "dimm_bytes", n->memory.dimm_bytes, "B");
    say(x, "%s %s of %s: %s", n->memory.ecc ? "ECC" : "Non-ECC",
        n->memory.registered ? "RDIMMs" : "unbuffered DIMMs", q(s, n->memory.dimm_bytes, BYTES),
        n->memory.ecc ? "single-bit errors are corrected, which long training runs need."
                      : "a bit flip in host memory can corrupt a days-long training run unnoticed.");
}

static void lanes(out *o, const hwfit_node *n, const facts *f, qbuf *s) {
    (void)s;
    const hwfit_host_out *h = &f->e.host;
    int switched = n->host.switches > 0 && h->lanes_fit_switched;
    hwfit_finding *x = add(o, "pcie.lane_budget", HWFIT_ASSESS_PCIE_LANES,
                           h->lanes_fit || switched ? HWFIT_FINDING_STRENGTH
                                                    : HWFIT_FINDING_WEAKNESS, 0);
    fig(x, "lanes_total", (double)h->pcie_lanes_total, "1");
    fig(x, "socket_link_lanes", (double)h->socket_link_lanes_used, "1");
    fig(x, "lanes_available", (double)h->pcie_lanes_available, "1");
    fig(x, "lanes_needed", (double)h->pcie_lanes_needed, "1");
    fig(x, "gpu_lanes_needed", (double)h->gpu_lanes_needed, "1");
    fig(x, "lanes_needed_bifurcated", (double)h->pcie_lanes_needed_bifurcated, "1");
    if (n->host.switches > 0) fig(x, "lanes_needed_switched", (double)h->pcie_lanes_needed_switched, "1");
    char links[96] = "";
    if (h->socket_link_lanes_used > 0)
        snprintf(links, sizeof links, " (%llu of %llu go to the inter-socket links)",
                 (unsigned long long)h->socket_link_lanes_used,
                 (unsigned long long)h->pcie_lanes_total);
    if (h->lanes_fit)
        say(x, "%llu PCIe lanes available%s; GPUs, drives and NICs at full width need %llu: "
               "no switch or bifurcation needed.",
            (unsigned long long)h->pcie_lanes_available, links,
            (unsigned long long)h->pcie_lanes_needed);
    else if (switched)
        say(x, "%llu PCIe lanes available%s; %llu PCIe switches bring the %llu device lanes "
               "down to %llu host lanes (%.3gx oversubscribed).",
            (unsigned long long)h->pcie_lanes_available, links,
            (unsigned long long)n->host.switches, (unsigned long long)h->pcie_lanes_needed,
            (unsigned long long)h->pcie_lanes_needed_switched, h->switch_oversubscription);
    else
        say(x, "%llu PCIe lanes available%s, but %llu GPUs x%llu take %llu and everything at "
               "full width needs %llu: bifurcating the GPUs to x%llu needs %llu%s, otherwise "
               "PCIe switches are required.",
            (unsigned long long)h->pcie_lanes_available, links, (unsigned long long)f->e.gpus,
            (unsigned long long)n->host.gpu_lanes, (unsigned long long)h->gpu_lanes_needed,
            (unsigned long long)h->pcie_lanes_needed,
            (unsigned long long)n->host.gpu_bifurcated_lanes,
            (unsigned long long)h->pcie_lanes_needed_bifurcated,
            h->lanes_fit_bifurcated ? " (fits)" : " (still too many)");
}

static void storage(out *o, const hwfit_node *n, const hwfit_assess_options *opt, const facts *f,
                    qbuf *s) {
    const hwfit_node_eval *e = &f->e;
    if (!e->storage_evaluated || e->raid.read_bytes_per_s <= 0.0) return;
    int ok = e->raid.read_bytes_per_s >= opt->pipeline_bytes_per_s;
    hwfit_finding *x = add(o, "storage.throughput", HWFIT_ASSESS_STORAGE,
                           ok ? HWFIT_FINDING_STRENGTH : HWFIT_FINDING_WEAKNESS, 0);
    fig(x, "drive_read_bytes_per_s", n->storage.raid.drive_read_bytes_per_s, "B/s");
    fig(x, "read_bytes_per_s", e->raid.read_bytes_per_s, "B/s");
    fig(x, "write_bytes_per_s", e->raid.write_bytes_per_s, "B/s");
    fig(x, "pipeline_bytes_per_s", opt->pipeline_bytes_per_s, "B/s");
    if (f->fill_evaluated) fig(x, "fill_vram_s", f->fill.time_s, "s");
    say(x, "%llu drives at %s read %s together (%s), %s the %s a training data pipeline needs; "
           "filling all %s of VRAM from them takes %s.",
        (unsigned long long)n->storage.raid.drives, q(s, n->storage.raid.drive_read_bytes_per_s, RATE),
        q(s, e->raid.read_bytes_per_s, RATE), hwfit_raid_level_name(e->raid.level),
        ok ? "above" : "below", q(s, opt->pipeline_bytes_per_s, RATE), q(s, e->vram_bytes, BYTES),
        f->fill_evaluated ? q(s, f->fill.time_s, SECS) : "-");
}

static void raid(out *o, const hwfit_node *n, const facts *f, qbuf *s) {
    const hwfit_node_eval *e = &f->e;
    if (!e->storage_evaluated) return;
    const hwfit_raid_out *r = &e->raid;
    hwfit_finding *x = add(o, "raid.capacity", HWFIT_ASSESS_RAID, HWFIT_FINDING_INFO, 0);
    fig(x, "raw_bytes", r->raw_bytes, "B");
    fig(x, "usable_bytes", r->usable_bytes, "B");
    fig(x, "space_efficiency", r->space_efficiency, "1");
    fig(x, "drives", (double)r->drives, "1");
    say(x, "%llu x %s = %s raw; %s%s keeps %s usable.", (unsigned long long)r->drives,
        q(s, n->storage.raid.drive_bytes, BYTES), q(s, r->raw_bytes, BYTES),
        n->storage.raid_stated ? "" : "with no RAID level stated, taken as separate drives, ",
        n->storage.raid_stated ? hwfit_raid_level_name(r->level) : "that",
        q(s, r->usable_bytes, BYTES));
    int risky = r->tolerated_failures == 0;
    x = add(o, "raid.risk", HWFIT_ASSESS_RAID,
            risky || !n->storage.raid_stated ? HWFIT_FINDING_WEAKNESS : HWFIT_FINDING_STRENGTH, 0);
    fig(x, "tolerated_failures", (double)r->tolerated_failures, "1");
    fig(x, "loss_probability", r->loss_probability, "1");
    fig(x, "mission_s", n->storage.raid.mission_s, "s");
    if (!risky) {
        fig(x, "rebuild_s", r->rebuild_s, "s");
        fig(x, "ure_loss_probability", r->ure_loss_probability, "1");
    }
    char p[32];
    pct(p, sizeof p, r->loss_probability);
    if (risky && f->raid_alt_evaluated) {
        char pa[32];
        pct(pa, sizeof pa, f->raid_alt.loss_probability);
        fig(x, "alternative_usable_bytes", f->raid_alt.usable_bytes, "B");
        fig(x, "alternative_loss_probability", f->raid_alt.loss_probability, "1");
        say(x, "%s: one failed drive loses data (probability of a loss within %s: %s); %s would "
               "survive %llu failures with %s usable (loss probability %.2g).",
            n->storage.raid_stated ? "No redundancy" : "No RAID level stated",
            q(s, n->storage.raid.mission_s, SECS), p,
            hwfit_raid_level_name(f->raid_alt.level),
            (unsigned long long)f->raid_alt.tolerated_failures,
            q(s, f->raid_alt.usable_bytes, BYTES), f->raid_alt.loss_probability);
    } else if (risky) {
        say(x, "No redundancy: one failed drive loses data (probability of a loss within %s: %s).",
            q(s, n->storage.raid.mission_s, SECS), p);
    } else {
        say(x, "%s survives %llu drive failure%s; a rebuild takes %s, the chance of an "
               "unrecoverable read error losing data during it is %.2g, and of a loss within "
               "%s %.2g.",
            hwfit_raid_level_name(r->level), (unsigned long long)r->tolerated_failures,
            r->tolerated_failures == 1 ? "" : "s", q(s, r->rebuild_s, SECS),
            r->ure_loss_probability, q(s, n->storage.raid.mission_s, SECS), r->loss_probability);
    }
}

static void nas(out *o, const hwfit_node *n, const facts *f, qbuf *s) {
    const hwfit_node_eval *e = &f->e;
    if (!e->nas_evaluated) return;
    int tcp = n->nas.transfer.transport == HWFIT_STORAGE_TRANSPORT_NVMEOF_TCP;
    hwfit_finding *x = add(o, "nas.access", HWFIT_ASSESS_NAS,
                           tcp ? HWFIT_FINDING_WEAKNESS : HWFIT_FINDING_INFO, 0);
    fig(x, "capacity_bytes", n->nas.capacity_bytes, "B");
    fig(x, "effective_bytes_per_s", e->nas.effective_bytes_per_s, "B/s");
    fig(x, "efficiency", e->nas.efficiency, "1");
    fig(x, "read_all_s", e->nas.time_s, "s");
    say(x, "%s over %s at %s (%.0f %% of the %s line rate%s): reading all of it takes %s.",
        q(s, n->nas.capacity_bytes, BYTES), hwfit_storage_transport_name(n->nas.transfer.transport),
        q(s, e->nas.effective_bytes_per_s, RATE), e->nas.efficiency * 100.0,
        q(s, e->network.line_bytes_per_s, RATE),
        e->nas.backend_limited ? ", limited by the NAS itself" : "", q(s, e->nas.time_s, SECS));
}

static void network(out *o, const hwfit_node *n, const facts *f, qbuf *s) {
    const hwfit_node_eval *e = &f->e;
    if (!e->network_evaluated) return;
    const hwfit_link_in *l = &n->network.link;
    hwfit_finding_kind kind = HWFIT_FINDING_INFO;
    if (n->nodes > 1)
        kind = e->allreduce.bottleneck == HWFIT_COLLECTIVE_BOUND_NIC ? HWFIT_FINDING_WEAKNESS
                                                                     : HWFIT_FINDING_STRENGTH;
    hwfit_finding *x = add(o, "network.bandwidth", HWFIT_ASSESS_NETWORK, kind, 0);
    fig(x, "ports", (double)l->width, "1");
    fig(x, "line_bytes_per_s", e->network.line_bytes_per_s, "B/s");
    fig(x, "line_bits_per_s", e->network.line_bytes_per_s * HWFIT_BITS_PER_BYTE, "b/s");
    fig(x, "payload_bytes_per_s", e->network.payload_bytes_per_s, "B/s");
    fig(x, "per_gpu_bytes_per_s", e->network.line_bytes_per_s / (double)e->gpus, "B/s");
    char bits[64];
    hwfit_units_format(e->network.line_bytes_per_s * HWFIT_BITS_PER_BYTE, HWFIT_UNIT_BITS_PER_S,
                       bits, sizeof bits);
    if (n->nodes > 1)
        say(x, "%s = %s (%s) per node, %s per GPU; across %llu nodes the all-reduce is bound by "
               "%s.",
            e->network.name, bits, q(s, e->network.line_bytes_per_s, RATE),
            q(s, e->network.line_bytes_per_s / (double)e->gpus, RATE),
            (unsigned long long)n->nodes, hwfit_collective_bottleneck_name(e->allreduce.bottleneck));
    else
        say(x, "%s = %s (%s) in all, %s of payload per direction; %s per GPU when the node "
               "joins others.",
            e->network.name, bits, q(s, e->network.line_bytes_per_s, RATE),
            q(s, e->network.payload_bytes_per_s, RATE),
            q(s, e->network.line_bytes_per_s / (double)e->gpus, RATE));
    int tcp = l->kind == HWFIT_LINK_ETHERNET && l->transport == HWFIT_LINK_TRANSPORT_TCP;
    int ib = l->kind == HWFIT_LINK_INFINIBAND;
    x = add(o, "network.transport", HWFIT_ASSESS_NETWORK,
            tcp ? HWFIT_FINDING_WEAKNESS : ib ? HWFIT_FINDING_STRENGTH : HWFIT_FINDING_INFO, 0);
    fig(x, "protocol_efficiency", e->network.protocol_efficiency, "1");
    fig(x, "payload_bytes", e->network.payload_bytes, "B");
    say(x, "%s: %.1f %% of the line rate is payload at a %s MTU; %s",
        ib ? "InfiniBand" : tcp ? "TCP" : "RoCEv2", e->network.protocol_efficiency * 100.0,
        q(s, e->network.payload_bytes, BYTES),
        tcp ? "no RDMA and no GPUDirect: transfers cost CPU time and host-memory copies."
        : ib ? "RDMA with credit-based flow control, the usual training fabric."
             : "RDMA over Ethernet needs lossless tuning (PFC/ECN); its latency against "
               "InfiniBand is not modelled here.");
}

static void power(out *o, const hwfit_node *n, const facts *f, qbuf *s) {
    const hwfit_node_eval *e = &f->e;
    const hwfit_psu_out *p = &e->psu;
    hwfit_finding *x = add(o, "power.redundancy", HWFIT_ASSESS_POWER,
                           p->meets_headroom && p->meets_load ? HWFIT_FINDING_STRENGTH
                                                              : HWFIT_FINDING_WEAKNESS, 0);
    fig(x, "installed_w", p->installed_w, "W");
    fig(x, "usable_w", p->usable_w, "W");
    fig(x, "load_w", p->load_w, "W");
    fig(x, "required_w", p->required_w, "W");
    fig(x, "headroom_w", p->headroom_w, "W");
    fig(x, "usable_to_load", p->usable_to_load, "1");
    fig(x, "redundant_psus", (double)n->power.psu.redundant, "1");
    const char *verdict = !p->meets_load ? "below the load itself: it does not survive the failures "
                                           "it is meant to"
                          : !p->meets_headroom ? "above the load but short of the headroom rule"
                                               : "above the headroom rule";
    say(x, "%llu x %s = %s installed; with %llu redundant (N+%llu) %s usable for a %s load: "
           "%s (%gx load = %s).",
        (unsigned long long)p->psus, q(s, p->rating_w, WATTS), q(s, p->installed_w, WATTS),
        (unsigned long long)n->power.psu.redundant, (unsigned long long)n->power.psu.redundant,
        q(s, p->usable_w, WATTS), q(s, p->load_w, WATTS), verdict, n->power.psu.headroom_ratio,
        q(s, p->required_w, WATTS));
    int light = p->psu_load_fraction < 0.2;
    x = add(o, "power.efficiency", HWFIT_ASSESS_POWER,
            p->overloaded || light ? HWFIT_FINDING_WEAKNESS : HWFIT_FINDING_INFO, 0);
    fig(x, "psu_load_fraction", p->psu_load_fraction, "1");
    fig(x, "efficiency", p->efficiency, "1");
    fig(x, "wall_w", p->wall_w, "W");
    fig(x, "loss_w", p->loss_w, "W");
    say(x, "Each of %llu sharing PSUs runs at %.0f %% of its rating, where %s is %.1f %% "
           "efficient (certification minimum): %s from the wall, %s lost as heat in the PSUs%s.",
        (unsigned long long)p->sharing_psus, p->psu_load_fraction * 100.0,
        hwfit_psu_class_name(n->power.psu.psu_class), p->efficiency * 100.0,
        q(s, p->wall_w, WATTS), q(s, p->loss_w, WATTS),
        p->overloaded ? "; the PSUs are overloaded"
        : light       ? "; below 20 % load, efficiency falls"
                      : "");
}

static void cooling(out *o, const hwfit_node *n, const facts *f, qbuf *s) {
    const hwfit_node_eval *e = &f->e;
    const hwfit_thermal_out *t = &e->thermal;
    int air = n->chassis.cooling == HWFIT_NODE_COOLING_AIR;
    hwfit_finding_kind kind = t->cooling == HWFIT_POWER_COOLING_AIR_OK ? HWFIT_FINDING_STRENGTH
                              : air ? HWFIT_FINDING_WEAKNESS
                                    : HWFIT_FINDING_STRENGTH;
    hwfit_finding *x = add(o, "cooling.heat", HWFIT_ASSESS_COOLING, kind, 0);
    fig(x, "heat_w", t->heat_w, "W");
    fig(x, "heat_btu_per_h", t->heat_btu_per_h, "BTU/h");
    fig(x, "airflow_m3_per_s", t->airflow_m3_per_s, "m3/s");
    fig(x, "airflow_cfm", t->airflow_cfm, "CFM");
    fig(x, "air_marginal_above_w", n->chassis.thermal.air_marginal_above_w, "W");
    const char *advice = t->cooling == HWFIT_POWER_COOLING_AIR_OK ? "air cooling is comfortable"
                         : t->cooling == HWFIT_POWER_COOLING_AIR_MARGINAL
                             ? "air cooling works only with high airflow, containment and a cool "
                               "inlet"
                             : "liquid cooling is recommended";
    say(x, "%s of heat (%.0f BTU/h) needs %.0f CFM of air at a %g K rise; above %s %s%s.",
        q(s, t->heat_w, WATTS), t->heat_btu_per_h, t->airflow_cfm, n->chassis.thermal.delta_t_c,
        q(s, n->chassis.thermal.air_marginal_above_w, WATTS), advice,
        air ? "" : " (the chassis is liquid-cooled)");
    double gpu_w = e->budget.kind_w[HWFIT_POWER_COMPONENT_GPU];
    x = add(o, "cooling.gpu_density", HWFIT_ASSESS_COOLING, HWFIT_FINDING_INFO, 0);
    fig(x, "gpu_w", gpu_w, "W");
    fig(x, "gpu_share", gpu_w / e->budget.dc_w, "1");
    if (n->chassis.rack_units > 0) fig(x, "heat_per_rack_unit_w", t->heat_w / (double)n->chassis.rack_units, "W");
    char per_u[96] = "";
    if (n->chassis.rack_units > 0)
        snprintf(per_u, sizeof per_u, "; %s per rack unit in %lluU",
                 q(s, t->heat_w / (double)n->chassis.rack_units, WATTS),
                 (unsigned long long)n->chassis.rack_units);
    say(x, "The GPUs alone give off %llu x %s = %s%s.", (unsigned long long)e->gpus,
        q(s, e->gpu_power_w, WATTS), q(s, gpu_w, WATTS), per_u);
}

static void energy(out *o, const hwfit_node *n, const facts *f, qbuf *s) {
    const hwfit_node_eval *e = &f->e;
    const char *cur = n->costs.currency;
    hwfit_finding *x = add(o, "energy.cost", HWFIT_ASSESS_ENERGY, HWFIT_FINDING_INFO, 0);
    fig(x, "average_power_w", e->energy.average_power_w, "W");
    fig(x, "annual_energy_kwh", e->energy.annual_energy_kwh, "kWh");
    fig(x, "annual_cost", e->energy.annual_cost, cur);
    fig(x, "price_per_kwh", n->costs.energy.price_per_kwh, cur);
    fig(x, "pue", n->costs.energy.pue, "1");
    say(x, "At %s average (duty %.0f %%) and PUE %g: %.0f kWh a year per node, %.0f %s a "
           "year at %g %s/kWh%s.",
        q(s, e->energy.average_power_w, WATTS), n->costs.energy.duty_cycle * 100.0,
        n->costs.energy.pue, e->energy.annual_energy_kwh, e->energy.annual_cost, cur,
        n->costs.energy.price_per_kwh, cur, n->nodes > 1 ? " (times the node count for the cluster)" : "");
    if (n->costs.tco.capex <= 0.0) return;
    x = add(o, "energy.tco", HWFIT_ASSESS_ENERGY, HWFIT_FINDING_INFO, 0);
    fig(x, "capex", n->costs.tco.capex, cur);
    fig(x, "tco", e->tco.tco, cur);
    fig(x, "cost_per_gpu_hour", e->tco.cost_per_gpu_hour, cur);
    fig(x, "years", (double)n->costs.tco.years, "1");
    say(x, "Over %llu years: %.0f %s in all (%.0f capital), %.2f %s per GPU-hour.",
        (unsigned long long)n->costs.tco.years, e->tco.tco, cur, n->costs.tco.capex,
        e->tco.cost_per_gpu_hour, cur);
}

/* ---- per-workload findings ---- */

/* "TP 8", "TP 4 x PP 2, ZeRO-3, full recompute": a layout for people. */
static void layout_text(char *buf, size_t size, const hwfit_layout *l, int training) {
    int n = snprintf(buf, size, "TP %u x PP %u x DP %u", (unsigned)l->tp, (unsigned)l->pp,
                     (unsigned)l->dp);
    if (n < 0 || (size_t)n >= size) return;
    if (l->ep > 1) n += snprintf(buf + n, size - (size_t)n, " x EP %u", (unsigned)l->ep);
    if (training && (size_t)n < size) {
        static const char *const rc[] = {"no recomputation", "selective recomputation",
                                         "full recomputation"};
        unsigned r = (unsigned)l->recompute < 3u ? (unsigned)l->recompute : 0u;
        snprintf(buf + n, size - (size_t)n, ", ZeRO-%u, %s, micro-batch %llu",
                 (unsigned)l->zero_stage, rc[r], (unsigned long long)l->micro_batch);
    }
}

static void vram_workload(out *o, const hwfit_node *n, const hwfit_assess_workload *w, size_t i,
                          const hwfit_assess_options *opt, const facts *f, qbuf *s) {
    (void)n;
    (void)opt;
    const workload_eval *we = &f->w[i];
    const hwfit_memory_out *m = &we->mem;
    int training = w->memory.mode != HWFIT_MEMORY_INFERENCE;
    char rule[HWFIT_FINDING_RULE_SIZE], name[32], lay[160], few[200];
    workload_rule(rule, sizeof rule, "vram", w, i);
    int fits = we->search.count > 0;
    hwfit_finding *x = add(o, rule, HWFIT_ASSESS_VRAM,
                           fits ? HWFIT_FINDING_STRENGTH : HWFIT_FINDING_WEAKNESS,
                           (uint32_t)i + 1);
    fig(x, "gpus", (double)we->job_gpus, "1");
    fig(x, "weights_bytes", (double)m->weights_bytes, "B");
    fig(x, "single_device_bytes", (double)m->total_bytes, "B");
    fig(x, "card_usable_bytes", fits ? (double)we->best_out.usable_bytes : 0.0, "B");
    fig(x, "per_gpu_bytes", fits ? (double)we->best.per_gpu_bytes : 0.0, "B");
    fig(x, "headroom_bytes", fits ? we->best.headroom_bytes : 0.0, "B");
    fig(x, "min_gpus", (double)we->min_gpus, "1");
    if (!training) fig(x, "kv_tokens", fits ? (double)we->best.kv_tokens : 0.0, "1");
    else fig(x, "tp", fits ? (double)we->best.layout.tp : 0.0, "1");
    few[0] = '\0';
    if (we->min_gpus > 0) {
        char minlay[160];
        layout_text(minlay, sizeof minlay, &we->min_layout, training);
        snprintf(few, sizeof few, "; it fits on as few as %u card%s (%s)",
                 (unsigned)we->min_gpus, we->min_gpus == 1 ? "" : "s", minlay);
    } else {
        snprintf(few, sizeof few, "; no layout of up to %u cards fits", (unsigned)we->min_gpus_max);
    }
    if (fits) {
        layout_text(lay, sizeof lay, &we->best.layout, training);
        char kv[96] = "";
        if (!training)
            snprintf(kv, sizeof kv, ", room for %llu KV tokens",
                     (unsigned long long)we->best.kv_tokens);
        say(x, "%s (%s of weights) fits the %u cards as %s: %s per card of %s usable, %s "
               "headroom%s%s.",
            workload_name(w, i, name, sizeof name), q(s, (double)m->weights_bytes, BYTES),
            (unsigned)we->job_gpus, lay, q(s, (double)we->best.per_gpu_bytes, BYTES),
            q(s, (double)we->best_out.usable_bytes, BYTES), q(s, we->best.headroom_bytes, BYTES),
            kv, few);
    } else {
        say(x, "%s (%s of weights, %s on one device) fits no layout of the %u cards of %s "
               "each%s.",
            workload_name(w, i, name, sizeof name), q(s, (double)m->weights_bytes, BYTES),
            q(s, (double)m->total_bytes, BYTES), (unsigned)we->job_gpus,
            q(s, (double)f->e.gpu->memory_bytes, BYTES), few);
    }
}

static void perf_workload(out *o, const hwfit_assess_workload *w, size_t i,
                          const hwfit_assess_options *opt, const facts *f, qbuf *s) {
    const workload_eval *we = &f->w[i];
    if (we->perf_search.count == 0) return;
    const hwfit_perf_out *p = &we->perf;
    const hwfit_layout *l = &we->perf_in.shard.layout;
    int training = w->memory.mode != HWFIT_MEMORY_INFERENCE;
    char rule[HWFIT_FINDING_RULE_SIZE], name[32], lay[160];
    layout_text(lay, sizeof lay, l, training);
    if (!training) {
        workload_rule(rule, sizeof rule, "decode", w, i);
        int ok = p->time_per_output_token_s <= opt->max_time_per_output_token_s;
        hwfit_finding *x = add(o, rule, HWFIT_ASSESS_BANDWIDTH,
                               ok ? HWFIT_FINDING_STRENGTH : HWFIT_FINDING_WEAKNESS,
                               (uint32_t)i + 1);
        fig(x, "decode_tokens_per_s", p->decode_tokens_per_s, "token/s");
        fig(x, "time_per_output_token_s", p->time_per_output_token_s, "s");
        fig(x, "prefill_s", p->prefill_s, "s");
        fig(x, "compute_bound_batch", (double)p->compute_bound_batch, "1");
        fig(x, "batch", (double)w->memory.batch, "1");
        fig(x, "tp", (double)l->tp, "1");
        fig(x, "dp", (double)l->dp, "1");
        char cb[96];
        if (p->compute_bound_batch > 0)
            snprintf(cb, sizeof cb, "decode turns compute-bound from a batch of %llu",
                     (unsigned long long)p->compute_bound_batch);
        else
            snprintf(cb, sizeof cb, "decode stays memory-bound at any batch");
        say(x, "%s, fastest as %s: %.4g tokens/s for a batch of %llu, %s per output token "
               "(%s-bound; the rule is at most %s), %s to the first token of a %llu-token "
               "prompt; %s (roofline estimate).",
            workload_name(w, i, name, sizeof name), lay, p->decode_tokens_per_s,
            (unsigned long long)w->memory.batch, q(s, p->time_per_output_token_s, SECS),
            hwfit_perf_bound_name(p->bound), q(s, opt->max_time_per_output_token_s, SECS),
            q(s, p->prefill_s, SECS), (unsigned long long)w->memory.context, cb);
        return;
    }
    workload_rule(rule, sizeof rule, "training", w, i);
    double comm = p->tp_comm_s + p->pp_comm_s + p->dp_comm_s + p->ep_comm_s + p->offload_s;
    double share = p->step_time_s > 0.0 ? comm / p->step_time_s : 0.0;
    hwfit_finding *x = add(o, rule, HWFIT_ASSESS_COMPUTE,
                           share <= opt->max_comm_share ? HWFIT_FINDING_STRENGTH
                                                        : HWFIT_FINDING_WEAKNESS,
                           (uint32_t)i + 1);
    fig(x, "step_time_s", p->step_time_s, "s");
    fig(x, "tokens_per_s", p->tokens_per_s, "token/s");
    fig(x, "mfu", p->mfu, "1");
    fig(x, "exposed_comm_s", comm, "s");
    fig(x, "comm_share", share, "1");
    fig(x, "tp", (double)l->tp, "1");
    fig(x, "dp", (double)l->dp, "1");
    char pct_s[32], mfu[32];
    pct(pct_s, sizeof pct_s, share);
    pct(mfu, sizeof mfu, p->mfu);
    say(x, "%s, fastest as %s: a step of %s, %.4g tokens/s, MFU %s; exposed communication "
           "%s (%s of the step; tensor parallel %s, data parallel %s)%s.",
        workload_name(w, i, name, sizeof name), lay, q(s, p->step_time_s, SECS), p->tokens_per_s,
        mfu, q(s, comm, SECS), pct_s, q(s, p->tp_comm_s, SECS), q(s, p->dp_comm_s, SECS),
        share > opt->max_comm_share ? ": the interconnect limits training" : "");
}

static void checkpoint_workload(out *o, const hwfit_assess_workload *w, size_t i,
                                const hwfit_assess_options *opt, const facts *f, qbuf *s) {
    const workload_eval *we = &f->w[i];
    if (!we->storage_checked) return;
    char rule[HWFIT_FINDING_RULE_SIZE], name[32];
    workload_rule(rule, sizeof rule, "storage.checkpoint", w, i);
    hwfit_finding *x = add(o, rule, HWFIT_ASSESS_STORAGE,
                           we->ckpt_fit.fits ? HWFIT_FINDING_STRENGTH : HWFIT_FINDING_WEAKNESS,
                           (uint32_t)i + 1);
    double held = f->e.raid.usable_bytes / (double)we->checkpoint_bytes;
    fig(x, "checkpoint_bytes", (double)we->checkpoint_bytes, "B");
    fig(x, "checkpoints_held", held, "1");
    fig(x, "write_s", we->ckpt_write.time_s, "s");
    const char *what = w->memory.mode == HWFIT_MEMORY_INFERENCE ? "the weights it loads"
                       : w->memory.mode == HWFIT_MEMORY_FULL ? "weights and optimizer states"
                                                             : "adapters and their optimizer states";
    say(x, "A checkpoint of %s (%s) is %s: the local drives' %s hold %.0f of them (%llu kept "
           "at once %s); writing one takes %s at the array's write rate.",
        workload_name(w, i, name, sizeof name), what, q(s, (double)we->checkpoint_bytes, BYTES),
        q(s, f->e.raid.usable_bytes, BYTES), held, (unsigned long long)opt->checkpoints_to_keep,
        we->ckpt_fit.fits ? "fit" : "do not fit", q(s, we->ckpt_write.time_s, SECS));
}

_Static_assert(sizeof(facts) <= HWFIT__ASSESS_WORKSPACE_BYTES,
               "HWFIT__ASSESS_WORKSPACE_BYTES (assess_internal.h) is too small");

size_t hwfit_assess_workspace_size(void) { return sizeof(facts); }

hwfit_status hwfit_assess(const hwfit_node *node, const hwfit_assess_workload *workloads,
                          size_t workload_count, const hwfit_assess_options *options,
                          hwfit_finding *findings, size_t capacity, size_t *count) {
    /* The figures of every workload (about 200 KB) are too large for a caller's stack. */
    facts *f = malloc(sizeof *f);
    if (f == NULL) return HWFIT_ENOMEM;
    hwfit_status st = hwfit_assess_ws(node, workloads, workload_count, options, findings,
                                      capacity, count, f, sizeof *f);
    free(f);
    return st;
}

hwfit_status hwfit_assess_ws(const hwfit_node *node, const hwfit_assess_workload *workloads,
                             size_t workload_count, const hwfit_assess_options *options,
                             hwfit_finding *findings, size_t capacity, size_t *count,
                             void *workspace, size_t workspace_size) {
    if (node == NULL || findings == NULL || count == NULL) return HWFIT_EINVAL;
    if (workspace == NULL || workspace_size < sizeof(facts) ||
        (uintptr_t)workspace % _Alignof(max_align_t) != 0)
        return HWFIT_EINVAL;
    if (workload_count > 0 && workloads == NULL) return HWFIT_EINVAL;
    if (workload_count > HWFIT_ASSESS_MAX_WORKLOADS) return HWFIT_EDOM;
    hwfit_assess_options opt;
    if (options != NULL) opt = *options;
    else hwfit_assess_options_init(&opt);
    HWFIT__TRY(check_options(&opt));
    for (size_t i = 0; i < workload_count; i++)
        if (workloads[i].model == NULL) return HWFIT_EINVAL;
    if (capacity < hwfit_assess_max_findings(workload_count)) return HWFIT_EBUFSIZE;

    facts *f = workspace;
    memset(f, 0, sizeof *f);
    HWFIT__TRY(gather(node, workloads, workload_count, &opt, f));

    out o = {findings, 0, node->costs.currency};
    qbuf s;
    memset(&s, 0, sizeof s);
    vram_pool(&o, node, f, &s);
    for (size_t i = 0; i < workload_count; i++) vram_workload(&o, node, &workloads[i], i, &opt, f, &s);
    bandwidth(&o, f, &s);
    for (size_t i = 0; i < workload_count; i++)
        if (workloads[i].memory.mode == HWFIT_MEMORY_INFERENCE)
            perf_workload(&o, &workloads[i], i, &opt, f, &s);
    compute(&o, f, &s);
    for (size_t i = 0; i < workload_count; i++)
        if (workloads[i].memory.mode != HWFIT_MEMORY_INFERENCE)
            perf_workload(&o, &workloads[i], i, &opt, f, &s);
    interconnect(&o, node, f, &s);
    bifurcation(&o, node, f, &s);
    cpu(&o, node, f, &s);
    host_ram(&o, node, f, &s);
    host_memory(&o, node, f, &s);
    lanes(&o, node, f, &s);
    storage(&o, node, &opt, f, &s);
    for (size_t i = 0; i < workload_count; i++) checkpoint_workload(&o, &workloads[i], i, &opt, f, &s);
    raid(&o, node, f, &s);
    nas(&o, node, f, &s);
    network(&o, node, f, &s);
    power(&o, node, f, &s);
    cooling(&o, node, f, &s);
    energy(&o, node, f, &s);
    *count = o.n;
    return HWFIT_OK;
}
