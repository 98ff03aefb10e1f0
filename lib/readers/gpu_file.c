/* gpu_file.c - cards of one's own from a JSON GPU file (include/hwfit/gpu_file.h).
 *
 * The keys are hwfit_gpu's field names; quantities take unit strings; enums take the
 * names gpu.h's *_name functions give. Each card is checked with hwfit_gpu_validate, the
 * same rules as the built-in rows, and a refusal points at the key at fault. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwfit/gpu.h"
#include "hwfit/gpu_file.h"
#include "hwfit/gpu_set.h"
#include "hwfit/status.h"
#include "hwfit/units.h"

#include "base/checked.h"
#include "base/internal.h"
#include "catalogs/gpu_set_internal.h"
#include "readers/gpu_file_internal.h"
#include "readers/json.h"

typedef struct reader {
    hwfit__json_ctx ctx;
    const hwfit__json_value *obj;
    const char *where;
    hwfit_error *err;
} reader;

#define fail_at(r, v, ...) hwfit__json_fail_at((r)->err, (r)->where, HWFIT_EPARSE, v, __VA_ARGS__)

/* Kinds of quantity: memory reads decimal prefixes as binary (the catalog's rule), INT8
 * takes OPS for FLOPS. */
enum { Q_PLAIN, Q_MEMORY, Q_OPS };

/* A quantity in base units from a number or a unit string; absent leaves *out alone. */
static hwfit_status quantity(reader *r, const char *key, int required, hwfit_unit unit, int kind,
                             double lo, double hi, double *out, int *present) {
    const hwfit__json_value *v = hwfit__json_get(r->obj, key);
    if (present) *present = v != NULL;
    if (v == NULL) {
        if (required) return fail_at(r, r->obj, "missing required key '%s'", key);
        return HWFIT_OK;
    }
    const char *example = kind == Q_MEMORY ? "a size such as \"96GB\" (read as GiB) or bytes"
                          : unit == HWFIT_UNIT_BYTES_PER_S ? "a rate such as \"1597GB/s\""
                          : unit == HWFIT_UNIT_WATTS       ? "a power such as \"600W\""
                          : kind == Q_OPS ? "a rate such as \"936TOPS\"" : "a rate such as \"468TFLOPS\"";
    double q = 0.0;
    if (v->type == HWFIT__JSON_NUMBER) {
        q = v->u.number.value;
    } else if (v->type == HWFIT__JSON_STRING) {
        char text[96];
        const char *s = v->u.string.text;
        size_t n = strlen(s);
        if (n >= sizeof text - 8) return fail_at(r, v, "key '%s' must be %s", key, example);
        memcpy(text, s, n + 1);
        /* "48GB" -> "48GiB" for memory; "936TOPS" -> "936TFLOPS" for INT8. */
        if (kind == Q_MEMORY && n >= 2 && text[n - 1] == 'B' && strchr("kKMGTP", text[n - 2]) &&
            (n < 3 || text[n - 3] != 'i')) {
            text[n - 1] = 'i';
            text[n] = 'B';
            text[n + 1] = '\0';
            if (text[n - 2] == 'K') text[n - 2] = 'K';
            if (text[n - 2] == 'k') text[n - 2] = 'K';
        }
        if (kind == Q_OPS) {
            char *ops = strstr(text, "OPS");
            if (ops == NULL) ops = strstr(text, "OP/s");
            if (ops != NULL && (ops == text || ops[-1] != 'L')) {
                memmove(ops + 2, ops, strlen(ops) + 1);
                ops[0] = 'F';
                ops[1] = 'L';
            }
        }
        hwfit_status st = hwfit_units_parse(text, unit, &q);
        if (st != HWFIT_OK) return fail_at(r, v, "key '%s' must be %s, got \"%.40s\"", key, example, s);
    } else {
        return fail_at(r, v, "key '%s' must be %s, got %s", key, example,
                       hwfit__json_type_name(v->type));
    }
    if (!(q >= lo && q <= hi))
        return fail_at(r, v, "key '%s' must be between %g and %g (base units), got %g", key, lo, hi, q);
    *out = q;
    return HWFIT_OK;
}

static hwfit_status count(reader *r, const char *key, uint64_t lo, uint64_t hi, uint32_t *out) {
    uint64_t v = *out;
    HWFIT__TRY(hwfit__json_read_u64(&r->ctx, r->obj, key, 0, lo, hi, &v, NULL));
    *out = (uint32_t)v;
    return HWFIT_OK;
}

/* true/false, or 0/1. */
static hwfit_status flag(reader *r, const char *key, int *out, int *present) {
    const hwfit__json_value *v = hwfit__json_get(r->obj, key);
    if (present) *present = v != NULL;
    if (v == NULL) return HWFIT_OK;
    if (v->type == HWFIT__JSON_BOOL) *out = v->u.boolean;
    else if (v->type == HWFIT__JSON_NUMBER && (v->u.number.value == 0.0 || v->u.number.value == 1.0))
        *out = v->u.number.value == 1.0;
    else return fail_at(r, v, "key '%s' must be true or false", key);
    return HWFIT_OK;
}

/* One of names[] (NULL-terminated), its index into *out. */
static hwfit_status choice(reader *r, const char *key, const char *const *names, int *out) {
    const char *s = NULL;
    int present = 0;
    HWFIT__TRY(hwfit__json_read_string(&r->ctx, r->obj, key, 0, &s, &present));
    if (!present) return HWFIT_OK;
    char list[96] = "";
    for (int i = 0; names[i]; i++) {
        if (strcmp(s, names[i]) == 0) {
            *out = i;
            return HWFIT_OK;
        }
        size_t used = strlen(list);
        snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", names[i]);
    }
    return fail_at(r, hwfit__json_get(r->obj, key), "key '%s': unknown value \"%.40s\" (accepted: %s)",
                   key, s, list);
}

static hwfit_status text(reader *r, const char *key, int required, const char **out) {
    return hwfit__json_read_string(&r->ctx, r->obj, key, required, out, NULL);
}

hwfit_status hwfit__gpu_card_read(const hwfit__json_value *obj, const char *where,
                                  const char *file, hwfit_gpu *out, char *source_buf,
                                  size_t source_size, hwfit_error *err) {
    reader r = {.ctx = {.where = where, .null_is_absent = 0, .err = err}, .obj = obj,
                .where = where, .err = err};
    if (obj->type != HWFIT__JSON_OBJECT)
        return fail_at(&r, obj, "a card must be a JSON object, got %s",
                       hwfit__json_type_name(obj->type));
    static const char *const known[] = {
        "name", "vendor", "edition", "architecture", "compute_capability", "form_factor",
        "memory_bytes", "memory_bandwidth_bytes_per_s", "tdp_w", "fp64_flop_per_s",
        "fp64_tensor_flop_per_s", "fp32_flop_per_s", "tf32_flop_per_s", "fp16_bf16_flop_per_s",
        "fp8_flop_per_s", "int8_op_per_s", "fp4_flop_per_s", "sparsity", "sparse_speedup",
        "pcie_gen", "pcie_lanes", "peer_link", "peer_topology", "peer_generation", "peer_links",
        "peer_bytes_per_s", "peer_bytes_per_s_bidir", "peer_domain_gpus", "p2p_pcie", "nvls",
        "source", "notes", "fp16_acc16_flop_per_s", NULL};
    HWFIT__TRY(hwfit__json_check_keys(&r.ctx, obj, known));
    hwfit_gpu g;
    memset(&g, 0, sizeof g);
    HWFIT__TRY(text(&r, "name", 1, &g.name));
    g.edition = g.name;
    g.architecture = "";
    g.notes = "";
    snprintf(source_buf, source_size, "GPU file %s", file);
    g.source = source_buf;
    HWFIT__TRY(text(&r, "edition", 0, &g.edition));
    HWFIT__TRY(text(&r, "architecture", 0, &g.architecture));
    HWFIT__TRY(text(&r, "source", 0, &g.source));
    HWFIT__TRY(text(&r, "notes", 0, &g.notes));
    static const char *const vendors[] = {"nvidia", "amd", NULL};
    static const char *const forms[] = {"pcie", "sxm", "oam", "superchip", NULL};
    static const char *const links[] = {"none", "nvlink", "xgmi", NULL};
    static const char *const topologies[] = {"none", "switch", "bridge", "mesh", NULL};
    int vendor = 0, form = 0, link = 0, topology = 0;
    HWFIT__TRY(choice(&r, "vendor", vendors, &vendor));
    HWFIT__TRY(choice(&r, "form_factor", forms, &form));
    HWFIT__TRY(choice(&r, "peer_link", links, &link));
    HWFIT__TRY(choice(&r, "peer_topology", topologies, &topology));
    g.vendor = (hwfit_gpu_vendor)vendor;
    g.form_factor = (hwfit_gpu_form_factor)form;
    g.peer_link = (hwfit_gpu_peer_link)link;
    g.peer_topology = (hwfit_gpu_peer_topology)topology;
    HWFIT__TRY(count(&r, "compute_capability", 0, 1000, &g.compute_capability));
    double mem = 0.0;
    HWFIT__TRY(quantity(&r, "memory_bytes", 1, HWFIT_UNIT_BYTES, Q_MEMORY, 1.0, 1125899906842624.0,
                 &mem, NULL));
    if (mem != (double)(uint64_t)mem)
        return fail_at(&r, hwfit__json_get(obj, "memory_bytes"),
                       "key 'memory_bytes' must be a whole number of bytes, got %.17g", mem);
    g.memory_bytes = (uint64_t)mem;
    const double R = 1e18;
    HWFIT__TRY(quantity(&r, "memory_bandwidth_bytes_per_s", 1, HWFIT_UNIT_BYTES_PER_S, Q_PLAIN, 0, R,
                 &g.memory_bandwidth_bytes_per_s, NULL));
    HWFIT__TRY(quantity(&r, "tdp_w", 1, HWFIT_UNIT_WATTS, Q_PLAIN, 0, 1e5, &g.tdp_w, NULL));
    const struct { const char *key; double *dst; int required, kind; } rates[] = {
        {"fp64_flop_per_s", &g.fp64_flop_per_s, 0, Q_PLAIN},
        {"fp64_tensor_flop_per_s", &g.fp64_tensor_flop_per_s, 0, Q_PLAIN},
        {"fp32_flop_per_s", &g.fp32_flop_per_s, 1, Q_PLAIN},
        {"tf32_flop_per_s", &g.tf32_flop_per_s, 0, Q_PLAIN},
        {"fp16_bf16_flop_per_s", &g.fp16_bf16_flop_per_s, 1, Q_PLAIN},
        {"fp8_flop_per_s", &g.fp8_flop_per_s, 0, Q_PLAIN},
        {"int8_op_per_s", &g.int8_op_per_s, 0, Q_OPS},
        {"fp4_flop_per_s", &g.fp4_flop_per_s, 0, Q_PLAIN},
        {"fp16_acc16_flop_per_s", &g.fp16_acc16_flop_per_s, 0, Q_PLAIN}};
    for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++)
        HWFIT__TRY(quantity(&r, rates[i].key, rates[i].required, HWFIT_UNIT_FLOP_PER_S, rates[i].kind,
                     0, R, rates[i].dst, NULL));
    HWFIT__TRY(flag(&r, "sparsity", &g.sparsity, NULL));
    g.sparse_speedup = g.sparsity ? 2.0 : 1.0;
    HWFIT__TRY(hwfit__json_read_double(&r.ctx, obj, "sparse_speedup", 0, 1.0, 4.0, &g.sparse_speedup,
                                NULL));
    g.pcie_gen = 4;
    g.pcie_lanes = 16;
    int gen_given = hwfit__json_get(obj, "pcie_gen") != NULL;
    HWFIT__TRY(count(&r, "pcie_gen", 0, 6, &g.pcie_gen));
    if (gen_given && g.pcie_gen == 0) g.pcie_lanes = 0;
    HWFIT__TRY(count(&r, "pcie_lanes", 0, 16, &g.pcie_lanes));
    HWFIT__TRY(count(&r, "peer_generation", 0, 5, &g.peer_generation));
    HWFIT__TRY(count(&r, "peer_links", 0, 64, &g.peer_links));
    int one = 0, both = 0;
    HWFIT__TRY(quantity(&r, "peer_bytes_per_s", 0, HWFIT_UNIT_BYTES_PER_S, Q_PLAIN, 0, 1e15,
                 &g.peer_bytes_per_s, &one));
    HWFIT__TRY(quantity(&r, "peer_bytes_per_s_bidir", 0, HWFIT_UNIT_BYTES_PER_S, Q_PLAIN, 0, 2e15,
                 &g.peer_bytes_per_s_bidir, &both));
    if (one && !both) g.peer_bytes_per_s_bidir = 2.0 * g.peer_bytes_per_s;
    if (both && !one) g.peer_bytes_per_s = g.peer_bytes_per_s_bidir / 2.0;
    HWFIT__TRY(count(&r, "peer_domain_gpus", 0, 1048576, &g.peer_domain_gpus));
    HWFIT__TRY(flag(&r, "p2p_pcie", &g.p2p_pcie, NULL));
    HWFIT__TRY(flag(&r, "nvls", &g.nvls, NULL));
    hwfit_problem why;
    if (hwfit_gpu_validate(&g, &why) != HWFIT_OK) {
        const hwfit__json_value *at = why.field ? hwfit__json_get(obj, why.field) : NULL;
        if (at != NULL)
            return fail_at(&r, at, "key '%s' %s", why.field, why.rule);
        return fail_at(&r, obj, "%s%s%s", why.field ? why.field : "", why.field ? " " : "", why.rule);
    }
    *out = g;
    return HWFIT_OK;
}

static hwfit_status read_root(const hwfit__json_value *root, const char *file, hwfit_gpu_set *set,
                              hwfit_error *err) {
    char where[200];
    snprintf(where, sizeof where, "%s", file);
    reader r = {.ctx = {.where = where, .null_is_absent = 0, .err = err}, .obj = root,
                .where = where, .err = err};
    const hwfit__json_value *items = NULL;
    size_t n = 1;
    int listed = 0;
    if (root->type == HWFIT__JSON_ARRAY) {
        items = root->u.array.items;
        n = root->u.array.count;
        listed = 1;
    } else if (root->type == HWFIT__JSON_OBJECT && hwfit__json_get(root, "name") == NULL &&
               hwfit__json_get(root, "gpus") != NULL) {
        static const char *const known[] = {"gpus", "notes", NULL};
        HWFIT__TRY(hwfit__json_check_keys(&r.ctx, root, known));
        const hwfit__json_value *list = hwfit__json_get(root, "gpus");
        if (list->type != HWFIT__JSON_ARRAY)
            return fail_at(&r, list, "key 'gpus' must be an array of cards, got %s",
                           hwfit__json_type_name(list->type));
        items = list->u.array.items;
        n = list->u.array.count;
        listed = 1;
    } else if (root->type == HWFIT__JSON_OBJECT) {
        items = root;
    } else {
        return fail_at(&r, root, "a GPU file must be a card (object), a list of cards (array) or "
                                 "{\"gpus\": [...]}, got %s", hwfit__json_type_name(root->type));
    }
    if (n == 0) return fail_at(&r, root, "the file lists no card");
    if (hwfit_gpu_set_count(set) + n > HWFIT_GPU_SET_MAX)
        return hwfit__error_set(err, HWFIT_ERANGE, root->line, root->column, root->offset,
                                "%s: more than %d cards in all", file, HWFIT_GPU_SET_MAX);
    size_t before = hwfit_gpu_set_count(set);
    for (size_t i = 0; i < n; i++) {
        const hwfit__json_value *card = &items[i];
        const hwfit__json_value *nv = card->type == HWFIT__JSON_OBJECT ? hwfit__json_get(card, "name") : NULL;
        const char *cname = nv && nv->type == HWFIT__JSON_STRING ? nv->u.string.text : "";
        if (listed) snprintf(where, sizeof where, "%s: gpus[%zu]%s%.64s%s", file, i,
                             cname[0] ? " \"" : "", cname, cname[0] ? "\"" : "");
        else snprintf(where, sizeof where, "%s%s%.64s%s", file, cname[0] ? ": \"" : "", cname,
                      cname[0] ? "\"" : "");
        hwfit_gpu g;
        char source[240];
        hwfit_status st = hwfit__gpu_card_read(card, where, file, &g, source, sizeof source, err);
        if (st == HWFIT_OK) {
            hwfit_problem why;
            st = hwfit_gpu_set_add(set, &g, &why);
            if (st != HWFIT_OK) {
                const hwfit__json_value *at = st == HWFIT_ENOMEM || why.field == NULL
                                                  ? card : hwfit__json_get(card, why.field);
                if (at == NULL) at = card;
                hwfit_status out = st == HWFIT_ENOMEM || st == HWFIT_ERANGE ? st : HWFIT_EPARSE;
                st = hwfit__error_set(err, out, at->line, at->column, at->offset, "%s: %s%s%s",
                                      where, why.field && why.field[0] ? why.field : "",
                                      why.field && why.field[0] ? " " : "", why.rule);
            }
        }
        if (st != HWFIT_OK) {
            hwfit__gpu_set_truncate(set, before);
            return st;
        }
    }
    return HWFIT_OK;
}

hwfit_status hwfit_gpu_file_parse(const char *text_, size_t length, const char *name,
                                  hwfit_gpu_set *set, hwfit_error *err) {
    const char *file = name ? name : "gpus.json";
    if (text_ == NULL || set == NULL)
        return hwfit__error_set(err, HWFIT_EINVAL, 0, 0, 0, "%s: NULL text or set", file);
    hwfit__json_doc *doc = NULL;
    hwfit_status st =
        hwfit__json_parse_file_text(text_, length, HWFIT_GPU_FILE_MAX_BYTES, file, &doc, err);
    if (st != HWFIT_OK) return st;
    st = read_root(hwfit__json_root(doc), file, set, err);
    hwfit__json_free(doc);
    if (st == HWFIT_OK) hwfit_error_clear(err);
    return st;
}

hwfit_status hwfit_gpu_file_load(const char *path, hwfit_gpu_set *set, hwfit_error *err) {
    if (path == NULL || set == NULL)
        return hwfit__error_set(err, HWFIT_EINVAL, 0, 0, 0, "NULL path or set");
    char *data = NULL;
    size_t length = 0;
    hwfit_status st = hwfit__read_file(path, HWFIT_GPU_FILE_MAX_BYTES, &data, &length, err);
    if (st != HWFIT_OK) return st;
    st = hwfit_gpu_file_parse(data, length, path, set, err);
    free(data);
    return st;
}
