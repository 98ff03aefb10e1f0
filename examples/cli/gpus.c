/* gpus.c - `hwfit gpus [NAME]`: the accelerator catalog as a table or JSON. */
#include <stdio.h>

#include "cli.h"

/* JSON carries every field of the catalog row; the table a readable subset. */
static const cli_col json_cols[] = {
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
};

static const cli_col table_cols[] = {
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

static void json_row(cli_out *o, const hwfit_gpu *g) {
    out_row(o);
    out_cell_str(o, g->name);
    out_cell_str(o, hwfit_gpu_vendor_name(g->vendor));
    out_cell_str(o, g->edition);
    out_cell_str(o, g->architecture);
    out_cell_u64(o, g->compute_capability);
    out_cell_str(o, hwfit_gpu_form_factor_name(g->form_factor));
    out_cell_u64(o, g->memory_bytes);
    out_cell_num(o, g->memory_bandwidth_bytes_per_s);
    out_cell_num(o, g->tdp_w);
    out_cell_num(o, g->fp64_flop_per_s);
    out_cell_num(o, g->fp64_tensor_flop_per_s);
    out_cell_num(o, g->fp32_flop_per_s);
    out_cell_num(o, g->tf32_flop_per_s);
    out_cell_num(o, g->fp16_bf16_flop_per_s);
    out_cell_num(o, g->fp8_flop_per_s);
    out_cell_num(o, g->int8_op_per_s);
    out_cell_num(o, g->fp4_flop_per_s);
    out_cell_bool(o, g->sparsity);
    out_cell_num(o, g->sparse_speedup);
    out_cell_u64(o, g->pcie_gen);
    out_cell_u64(o, g->pcie_lanes);
    out_cell_str(o, hwfit_gpu_peer_link_name(g->peer_link));
    out_cell_str(o, hwfit_gpu_peer_topology_name(g->peer_topology));
    out_cell_u64(o, g->peer_generation);
    out_cell_u64(o, g->peer_links);
    out_cell_num(o, g->peer_bytes_per_s);
    out_cell_num(o, g->peer_bytes_per_s_bidir);
    out_cell_u64(o, g->peer_domain_gpus);
    out_cell_bool(o, g->p2p_pcie);
    out_cell_bool(o, g->nvls);
    out_cell_str(o, g->source);
    out_cell_str(o, g->notes);
}

static void table_row(cli_out *o, const hwfit_gpu *g) {
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
                 (unsigned)g->peer_generation, rate, hwfit_gpu_peer_topology_name(g->peer_topology));
    }
    out_row(o);
    out_cell_str(o, g->name);
    out_cell_qty(o, (double)g->memory_bytes, HWFIT_UNIT_BYTES);
    out_cell_qty(o, g->memory_bandwidth_bytes_per_s, HWFIT_UNIT_BYTES_PER_S);
    out_cell_qty(o, g->tdp_w, HWFIT_UNIT_WATTS);
    out_cell_qty(o, g->fp16_bf16_flop_per_s, HWFIT_UNIT_FLOP_PER_S);
    if (g->fp8_flop_per_s > 0) out_cell_qty(o, g->fp8_flop_per_s, HWFIT_UNIT_FLOP_PER_S);
    else out_cell_str(o, "-");
    out_cell_str(o, host);
    out_cell_str(o, peer);
    out_cell_bool(o, g->p2p_pcie);
}

int cmd_gpus(int argc, char **argv) {
    const cli_spec spec = {
        "gpus", "List the accelerator catalog: memory, bandwidth, power, throughput, links.",
        "[NAME]",
        "Tensor rates are dense (no 2:4 sparsity) with FP32 accumulation. With NAME, only\n"
        "that card. --json prints every field, including each row's source and notes.",
        NULL, 0, 1, "NAME"};
    cli_args args;
    int rc = cli_parse(&spec, argc, argv, &args);
    if (rc != 0) return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;

    const hwfit_gpu *only = NULL;
    if (args.npositional == 1) {
        hwfit_status st = hwfit_gpu_find(args.positional[0], &only);
        if (st != HWFIT_OK)
            return cli_fail("gpus", "unknown GPU '%s' (run 'hwfit gpus' for the list)",
                            args.positional[0]);
    }

    cli_out o;
    out_begin(&o, args.json, NULL);
    if (args.json)
        out_table(&o, "gpus", NULL, json_cols, (int)(sizeof json_cols / sizeof json_cols[0]));
    else
        out_table(&o, "gpus", NULL, table_cols, (int)(sizeof table_cols / sizeof table_cols[0]));
    for (size_t i = 0; i < hwfit_gpu_count(); i++) {
        const hwfit_gpu *g = hwfit_gpu_at(i);
        if (only != NULL && g != only) continue;
        if (args.json) json_row(&o, g);
        else table_row(&o, g);
    }
    out_table_end(&o);
    if (!args.json && only != NULL) {
        printf("\n%s\nsource: %s\nnotes: %s\n", only->edition, only->source, only->notes);
    }
    out_end(&o);
    return CLI_EXIT_OK;
}
