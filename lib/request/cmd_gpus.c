/* cmd_gpus.c - `gpus [NAME]`: the accelerator catalog. JSON and CSV carry every field of a
 * catalog row; the readable table a subset, and for one card its edition, source and notes. */
#include <stdio.h>

#include "hwfit/gpu.h"
#include "request_internal.h"

enum { O_NAME };
static const hwfit_option options[] = {
    [O_NAME] = {.name = "name", .kind = HWFIT_OPTION_NAME, .metavar = "NAME",
                .default_help = "every card", .catalog = "gpu",
                .flags = HWFIT_OPTION_POSITIONAL, .example = "h100-sxm",
                .help = "only this card"},
};

static const hwfit__col full_cols[] = {
    {"name", "", 0},
    {"vendor", "", 0},
    {"edition", "", 0},
    {"architecture", "", 0},
    {"compute_capability", "", 0},
    {"form_factor", "", 0},
    {"memory_bytes", "", 0},
    {"memory_bandwidth_bytes_per_s", "", 0},
    {"tdp_w", "", 0},
    {"fp64_flop_per_s", "", 0},
    {"fp64_tensor_flop_per_s", "", 0},
    {"fp32_flop_per_s", "", 0},
    {"tf32_flop_per_s", "", 0},
    {"fp16_bf16_flop_per_s", "", 0},
    {"fp8_flop_per_s", "", 0},
    {"int8_op_per_s", "", 0},
    {"fp4_flop_per_s", "", 0},
    {"sparsity", "", 0},
    {"sparse_speedup", "", 0},
    {"pcie_gen", "", 0},
    {"pcie_lanes", "", 0},
    {"peer_link", "", 0},
    {"peer_topology", "", 0},
    {"peer_generation", "", 0},
    {"peer_links", "", 0},
    {"peer_bytes_per_s", "", 0},
    {"peer_bytes_per_s_bidir", "", 0},
    {"peer_domain_gpus", "", 0},
    {"p2p_pcie", "", 0},
    {"nvls", "", 0},
    {"source", "", 0},
    {"notes", "", 0},
    {"fp16_acc16_flop_per_s", "", 0},
};

static const hwfit__col table_cols[] = {
    {"name", "name", 24},
    {"memory", "memory", 20},
    {"bandwidth", "mem bandwidth", 13},
    {"tdp", "TDP", 7},
    {"bf16", "BF16 dense", 14},
    {"fp8", "FP8 dense", 14},
    {"host", "host link", 11},
    {"peer", "peer links (both dirs)", 24},
    {"p2p", "PCIe P2P", 8},
};

static void full_row(hwfit__out *o, const hwfit_gpu *g) {
    hwfit__out_row(o);
    hwfit__out_cell_str(o, g->name);
    hwfit__out_cell_str(o, hwfit_gpu_vendor_name(g->vendor));
    hwfit__out_cell_str(o, g->edition);
    hwfit__out_cell_str(o, g->architecture);
    hwfit__out_cell_u64(o, g->compute_capability);
    hwfit__out_cell_str(o, hwfit_gpu_form_factor_name(g->form_factor));
    hwfit__out_cell_u64(o, g->memory_bytes);
    hwfit__out_cell_num(o, g->memory_bandwidth_bytes_per_s);
    hwfit__out_cell_num(o, g->tdp_w);
    hwfit__out_cell_num(o, g->fp64_flop_per_s);
    hwfit__out_cell_num(o, g->fp64_tensor_flop_per_s);
    hwfit__out_cell_num(o, g->fp32_flop_per_s);
    hwfit__out_cell_num(o, g->tf32_flop_per_s);
    hwfit__out_cell_num(o, g->fp16_bf16_flop_per_s);
    hwfit__out_cell_num(o, g->fp8_flop_per_s);
    hwfit__out_cell_num(o, g->int8_op_per_s);
    hwfit__out_cell_num(o, g->fp4_flop_per_s);
    hwfit__out_cell_bool(o, g->sparsity);
    hwfit__out_cell_num(o, g->sparse_speedup);
    hwfit__out_cell_u64(o, g->pcie_gen);
    hwfit__out_cell_u64(o, g->pcie_lanes);
    hwfit__out_cell_str(o, hwfit_gpu_peer_link_name(g->peer_link));
    hwfit__out_cell_str(o, hwfit_gpu_peer_topology_name(g->peer_topology));
    hwfit__out_cell_u64(o, g->peer_generation);
    hwfit__out_cell_u64(o, g->peer_links);
    hwfit__out_cell_num(o, g->peer_bytes_per_s);
    hwfit__out_cell_num(o, g->peer_bytes_per_s_bidir);
    hwfit__out_cell_u64(o, g->peer_domain_gpus);
    hwfit__out_cell_bool(o, g->p2p_pcie);
    hwfit__out_cell_bool(o, g->nvls);
    hwfit__out_cell_str(o, g->source);
    hwfit__out_cell_str(o, g->notes);
    hwfit__out_cell_num(o, g->fp16_acc16_flop_per_s);
}

static void table_row(hwfit__out *o, const hwfit_gpu *g) {
    char host[32], peer[128], rate[48];
    if (g->pcie_gen == 0) snprintf(host, sizeof host, "none (C2C)");
    else snprintf(host, sizeof host, "PCIe%u x%u", (unsigned)g->pcie_gen, (unsigned)g->pcie_lanes);
    if (g->peer_link == HWFIT_GPU_PEER_NONE) {
        snprintf(peer, sizeof peer, "none");
    } else {
        if (hwfit_units_format(g->peer_bytes_per_s_bidir, HWFIT_UNIT_BYTES_PER_S, rate,
                               sizeof rate) != HWFIT_OK)
            snprintf(rate, sizeof rate, "-");
        snprintf(peer, sizeof peer, "%s%u %s %s", hwfit_gpu_peer_link_name(g->peer_link),
                 (unsigned)g->peer_generation, rate,
                 hwfit_gpu_peer_topology_name(g->peer_topology));
    }
    hwfit__out_row(o);
    hwfit__out_cell_str(o, g->name);
    hwfit__out_cell_qty(o, (double)g->memory_bytes, HWFIT_UNIT_BYTES);
    hwfit__out_cell_qty(o, g->memory_bandwidth_bytes_per_s, HWFIT_UNIT_BYTES_PER_S);
    hwfit__out_cell_qty(o, g->tdp_w, HWFIT_UNIT_WATTS);
    hwfit__out_cell_qty(o, g->fp16_bf16_flop_per_s, HWFIT_UNIT_FLOP_PER_S);
    if (g->fp8_flop_per_s > 0) hwfit__out_cell_qty(o, g->fp8_flop_per_s, HWFIT_UNIT_FLOP_PER_S);
    else hwfit__out_cell_str(o, "-");
    hwfit__out_cell_str(o, host);
    hwfit__out_cell_str(o, peer);
    hwfit__out_cell_bool(o, g->p2p_pcie);
}

static hwfit_status run(hwfit_request *r, hwfit__out *o, void *state) {
    (void)state;
    const hwfit_gpu *only = NULL;
    if (hwfit__req_given(r, &options[O_NAME])) {
        const char *name = hwfit__req_text(r, &options[O_NAME]);
        hwfit_status st = hwfit_gpu_lookup(hwfit__req_gpu_set(r), name, &only);
        if (st != HWFIT_OK)
            return hwfit__req_fail(r, &options[O_NAME], st, "unknown GPU '%s' (see hwfit gpus)",
                                   name);
    }
    int readable = hwfit__req_format(r) == HWFIT_FORMAT_TEXT;
    if (readable)
        hwfit__out_table(o, "gpus", NULL, table_cols, (int)HWFIT__COUNT_OF(table_cols));
    else
        hwfit__out_table(o, "gpus", NULL, full_cols, (int)HWFIT__COUNT_OF(full_cols));
    /* The catalog, then the cards of GPU files. */
    const hwfit_gpu_set *mine = hwfit__req_gpu_set(r);
    size_t builtin = hwfit_gpu_count();
    for (size_t i = 0; i < builtin + hwfit_gpu_set_count(mine); i++) {
        const hwfit_gpu *g = i < builtin ? hwfit_gpu_at(i) : hwfit_gpu_set_at(mine, i - builtin);
        if (only != NULL && g != only) continue;
        if (readable) table_row(o, g);
        else full_row(o, g);
    }
    hwfit__out_table_end(o);
    if (readable && only != NULL)
        hwfit__text_printf(o->t, "\n%s\nsource: %s\nnotes: %s\n", only->edition, only->source,
                           only->notes);
    return HWFIT_OK;
}

const hwfit__command hwfit__cmd_gpus = {
    .pub = {.name = "gpus",
            .summary = "List the accelerator catalog: memory, bandwidth, power, throughput, "
                       "links.",
            .details = "Tensor rates are dense (no 2:4 sparsity) with FP32 accumulation. JSON "
                       "and CSV give every field, including each row's source and notes.",
            .formats = 1u << HWFIT_FORMAT_JSON | 1u << HWFIT_FORMAT_TEXT |
                       1u << HWFIT_FORMAT_CSV},
    .sets = {HWFIT__SET(options), HWFIT__GPU_FILE_OPTIONS},
    .run = run,
};
