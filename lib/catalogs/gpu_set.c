/* gpu_set.c - cards of one's own (include/hwfit/gpu_set.h): the rules every catalog row
 * follows, and a caller-owned set of rows looked up after the built-in catalog.
 *
 * Each card lives in its own allocation with its strings, so the rows handed out stay
 * put while the set grows. Nothing here is global or static-mutable. */
#include <stdlib.h>
#include <string.h>

#include "hwfit/gpu.h"
#include "hwfit/gpu_set.h"
#include "hwfit/status.h"

#include "base/internal.h"
#include "catalogs/gpu_set_internal.h"

typedef struct entry {
    hwfit_gpu gpu;
    char *text; /* name, edition, architecture, source, notes, NUL-separated */
} entry;

struct hwfit_gpu_set {
    entry **cards;
    size_t count, capacity;
};

/* ---- the rules ------------------------------------------------------------------------ */

#define WHY(field, rule) hwfit__why(problem, HWFIT_EDOM, (field), (rule))
#define MAX_RATE 1e18 /* FLOP/s or bytes/s: an exa-rate per card is far beyond any part */

static int name_ok(const char *s) {
    size_t n = strlen(s);
    if (n == 0 || n > HWFIT_GPU_NAME_MAX) return 0;
    if (!((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= '0' && s[0] <= '9'))) return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
              c == '_'))
            return 0;
    }
    return 1;
}

static hwfit_status check(const hwfit_gpu *g, hwfit_problem *problem) {
    if (g == NULL) return hwfit__why(problem, HWFIT_EINVAL, "gpu", HWFIT__NULL);
    const struct { const char *s, *field; } texts[] = {
        {g->name, "name"},     {g->edition, "edition"}, {g->architecture, "architecture"},
        {g->source, "source"}, {g->notes, "notes"}};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        if (texts[i].s == NULL) return hwfit__why(problem, HWFIT_EINVAL, texts[i].field, HWFIT__NULL);
    if (!name_ok(g->name))
        return WHY("name", "must be 1-63 characters of a-z, 0-9, '-', '.' or '_', starting "
                           "with a letter or digit");
    if ((unsigned)g->vendor > (unsigned)HWFIT_GPU_VENDOR_AMD)
        return hwfit__why(problem, HWFIT_EINVAL, "vendor", HWFIT__ENUM);
    if ((unsigned)g->form_factor > (unsigned)HWFIT_GPU_FORM_SUPERCHIP)
        return hwfit__why(problem, HWFIT_EINVAL, "form_factor", HWFIT__ENUM);
    if ((unsigned)g->peer_link > (unsigned)HWFIT_GPU_PEER_XGMI)
        return hwfit__why(problem, HWFIT_EINVAL, "peer_link", HWFIT__ENUM);
    if ((unsigned)g->peer_topology > (unsigned)HWFIT_GPU_PEER_TOPOLOGY_MESH)
        return hwfit__why(problem, HWFIT_EINVAL, "peer_topology", HWFIT__ENUM);
    if (g->compute_capability > 1000) return WHY("compute_capability", "must be at most 1000");
    if (g->memory_bytes == 0 || g->memory_bytes > ((uint64_t)1 << 50))
        return WHY("memory_bytes", "must be between 1 byte and 1 PiB");
    if (!hwfit__in_range(g->memory_bandwidth_bytes_per_s, 0.0, MAX_RATE) ||
        g->memory_bandwidth_bytes_per_s <= 0.0)
        return WHY("memory_bandwidth_bytes_per_s", "must be a rate above 0 and at most 1e18 B/s");
    if (!hwfit__in_range(g->tdp_w, 0.0, 1e5) || g->tdp_w <= 0.0)
        return WHY("tdp_w", "must be a power above 0 and at most 100 kW");
    const struct { double v; const char *field; int positive; } rates[] = {
        {g->fp64_flop_per_s, "fp64_flop_per_s", 0},
        {g->fp64_tensor_flop_per_s, "fp64_tensor_flop_per_s", 0},
        {g->fp32_flop_per_s, "fp32_flop_per_s", 1},
        {g->tf32_flop_per_s, "tf32_flop_per_s", 0},
        {g->fp16_bf16_flop_per_s, "fp16_bf16_flop_per_s", 1},
        {g->fp8_flop_per_s, "fp8_flop_per_s", 0},
        {g->int8_op_per_s, "int8_op_per_s", 0},
        {g->fp4_flop_per_s, "fp4_flop_per_s", 0}};
    for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++) {
        if (!hwfit__in_range(rates[i].v, 0.0, MAX_RATE))
            return WHY(rates[i].field, "must be a rate of 0 to 1e18 per second");
        if (rates[i].positive && rates[i].v <= 0.0)
            return WHY(rates[i].field, "must be above 0");
    }
    if (g->sparsity != 0 && g->sparsity != 1) return WHY("sparsity", "must be 0 or 1");
    if (g->sparsity == 0 && g->sparse_speedup != 1.0)
        return WHY("sparse_speedup", "must be 1 without sparsity");
    if (g->sparsity == 1 && !hwfit__in_range(g->sparse_speedup, 1.0, 4.0))
        return WHY("sparse_speedup", "must be between 1 and 4 with sparsity");
    if (g->pcie_gen > 6) return WHY("pcie_gen", "must be 0 (no PCIe host link) to 6");
    if (g->pcie_gen == 0 && g->pcie_lanes != 0)
        return WHY("pcie_lanes", "must be 0 without a PCIe host link (pcie_gen 0)");
    if (g->pcie_gen != 0 && g->pcie_lanes != 1 && g->pcie_lanes != 2 && g->pcie_lanes != 4 &&
        g->pcie_lanes != 8 && g->pcie_lanes != 16)
        return WHY("pcie_lanes", "must be 1, 2, 4, 8 or 16");
    if (g->peer_link == HWFIT_GPU_PEER_NONE) {
        if (g->peer_topology != HWFIT_GPU_PEER_TOPOLOGY_NONE)
            return WHY("peer_topology", "must be none without a peer link");
        if (g->peer_generation != 0) return WHY("peer_generation", "must be 0 without a peer link");
        if (g->peer_links != 0) return WHY("peer_links", "must be 0 without a peer link");
        if (g->peer_bytes_per_s != 0.0) return WHY("peer_bytes_per_s", "must be 0 without a peer link");
        if (g->peer_bytes_per_s_bidir != 0.0)
            return WHY("peer_bytes_per_s_bidir", "must be 0 without a peer link");
        if (g->peer_domain_gpus != 0)
            return WHY("peer_domain_gpus", "must be 0 without a peer link");
    } else {
        if (g->peer_topology == HWFIT_GPU_PEER_TOPOLOGY_NONE)
            return WHY("peer_topology", "must be switch, bridge or mesh with a peer link");
        if (g->peer_link == HWFIT_GPU_PEER_NVLINK &&
            (g->peer_generation < 1 || g->peer_generation > 5))
            return WHY("peer_generation", "must be 1 to 5 for NVLink");
        if (g->peer_link == HWFIT_GPU_PEER_XGMI && g->peer_generation != 3)
            return WHY("peer_generation", "must be 3 for xGMI");
        if (g->peer_links < 1 || g->peer_links > 64)
            return WHY("peer_links", "must be 1 to 64 with a peer link");
        if (!hwfit__in_range(g->peer_bytes_per_s, 0.0, 1e15) || g->peer_bytes_per_s <= 0.0)
            return WHY("peer_bytes_per_s", "must be a rate above 0 and at most 1e15 B/s");
        double twice = 2.0 * g->peer_bytes_per_s, bidir = g->peer_bytes_per_s_bidir;
        if (!hwfit__finite(bidir) || bidir < twice * (1 - 1e-9) || bidir > twice * (1 + 1e-9))
            return WHY("peer_bytes_per_s_bidir", "must be twice peer_bytes_per_s");
        if (g->peer_domain_gpus < 2 || g->peer_domain_gpus > 1048576)
            return WHY("peer_domain_gpus", "must be 2 to 1048576 with a peer link");
    }
    if (g->p2p_pcie != 0 && g->p2p_pcie != 1) return WHY("p2p_pcie", "must be 0 or 1");
    if (g->nvls != 0 && g->nvls != 1) return WHY("nvls", "must be 0 or 1");
    if (g->nvls == 1 && (g->peer_link != HWFIT_GPU_PEER_NVLINK ||
                         g->peer_topology != HWFIT_GPU_PEER_TOPOLOGY_SWITCH))
        return WHY("nvls", "needs NVLink through NVSwitch (peer_topology switch)");
    return HWFIT_OK;
}

hwfit_status hwfit_gpu_validate(const hwfit_gpu *gpu, hwfit_problem *problem) {
    hwfit_problem_clear(problem);
    return check(gpu, problem);
}

/* ---- the set -------------------------------------------------------------------------- */

hwfit_status hwfit_gpu_set_new(hwfit_gpu_set **out) {
    if (out == NULL) return HWFIT_EINVAL;
    hwfit_gpu_set *s = calloc(1, sizeof *s);
    if (s == NULL) return HWFIT_ENOMEM;
    *out = s;
    return HWFIT_OK;
}

void hwfit_gpu_set_free(hwfit_gpu_set *set) {
    if (set == NULL) return;
    for (size_t i = 0; i < set->count; i++) {
        free(set->cards[i]->text);
        free(set->cards[i]);
    }
    free(set->cards);
    free(set);
}

size_t hwfit_gpu_set_count(const hwfit_gpu_set *set) { return set ? set->count : 0; }

const hwfit_gpu *hwfit_gpu_set_at(const hwfit_gpu_set *set, size_t index) {
    return set != NULL && index < set->count ? &set->cards[index]->gpu : NULL;
}

static const hwfit_gpu *in_set(const hwfit_gpu_set *set, const char *name) {
    for (size_t i = 0; set != NULL && i < set->count; i++)
        if (strcmp(set->cards[i]->gpu.name, name) == 0) return &set->cards[i]->gpu;
    return NULL;
}

hwfit_status hwfit_gpu_lookup(const hwfit_gpu_set *set, const char *name, const hwfit_gpu **gpu) {
    if (name == NULL || gpu == NULL) return HWFIT_EINVAL;
    if (hwfit_gpu_find(name, gpu) == HWFIT_OK) return HWFIT_OK;
    const hwfit_gpu *g = in_set(set, name);
    if (g == NULL) return HWFIT_ENOTFOUND;
    *gpu = g;
    return HWFIT_OK;
}

hwfit_status hwfit_gpu_set_add(hwfit_gpu_set *set, const hwfit_gpu *gpu, hwfit_problem *problem) {
    hwfit_problem_clear(problem);
    if (set == NULL) return hwfit__why(problem, HWFIT_EINVAL, "set", HWFIT__NULL);
    hwfit_status st = check(gpu, problem);
    if (st != HWFIT_OK) return st;
    const hwfit_gpu *found;
    if (hwfit_gpu_find(gpu->name, &found) == HWFIT_OK)
        return WHY("name", "is a built-in card's name (give yours another)");
    if (in_set(set, gpu->name) != NULL) return WHY("name", "is already taken by another card");
    const char *texts[5] = {gpu->name, gpu->edition, gpu->architecture, gpu->source, gpu->notes};
    size_t lens[5], total = 0;
    for (int i = 0; i < 5; i++) {
        lens[i] = strlen(texts[i]);
        if (lens[i] > HWFIT_GPU_TEXT_MAX)
            return WHY(i == 1 ? "edition" : i == 2 ? "architecture" : i == 3 ? "source" : "notes",
                       "must be at most 4095 bytes long");
        total += lens[i] + 1;
    }
    if (set->count >= HWFIT_GPU_SET_MAX)
        return hwfit__why(problem, HWFIT_ERANGE, "set", "already holds 1024 cards");
    if (set->count == set->capacity) {
        size_t cap = set->capacity ? set->capacity * 2 : 8;
        entry **grown = realloc(set->cards, cap * sizeof *grown);
        if (grown == NULL) return hwfit__why(problem, HWFIT_ENOMEM, "", "out of memory");
        set->cards = grown;
        set->capacity = cap;
    }
    entry *e = malloc(sizeof *e);
    char *text = malloc(total);
    if (e == NULL || text == NULL) {
        free(e);
        free(text);
        return hwfit__why(problem, HWFIT_ENOMEM, "", "out of memory");
    }
    e->gpu = *gpu;
    e->text = text;
    const char **dst[5] = {&e->gpu.name, &e->gpu.edition, &e->gpu.architecture, &e->gpu.source,
                           &e->gpu.notes};
    for (int i = 0; i < 5; i++) {
        memcpy(text, texts[i], lens[i] + 1);
        *dst[i] = text;
        text += lens[i] + 1;
    }
    set->cards[set->count++] = e;
    return HWFIT_OK;
}

/* Drop the cards added after the first `count` (a reader's all-or-nothing undo). */
void hwfit__gpu_set_truncate(hwfit_gpu_set *set, size_t count) {
    while (set != NULL && set->count > count) {
        entry *e = set->cards[--set->count];
        free(e->text);
        free(e);
    }
}
