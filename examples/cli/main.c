/* main.c - the hwfit command: dispatches to one subcommand per file. */
#include <string.h>

#include "cli.h"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command;

/* Keep sorted by name; `hwfit --help` lists them in this order. */
static const command commands[] = {
    {"assess", cmd_assess, "strengths and weaknesses of a server (node file) for target workloads"},
    {"collective", cmd_collective, "time, algbw and busbw of a collective (nccl-tests style)"},
    {"dtypes", cmd_dtypes, "number formats and their bits per element, block scales included"},
    {"fit", cmd_fit, "does a model fit on N GPUs: per-card memory, fewest GPUs, longest context"},
    {"gpus", cmd_gpus, "list the GPU catalog: memory, bandwidth, power, FLOPS, links"},
    {"host", cmd_host, "cores per GPU, RAM/VRAM, memory bandwidth, DIMMs per channel, PCIe lanes"},
    {"link", cmd_link, "rates of a link (PCIe, NVLink, InfiniBand, Ethernet, xGMI)"},
    {"memory", cmd_memory, "memory footprint: inference, full, LoRA or QLoRA fine-tuning"},
    {"model", cmd_model, "exact parameters, KV cache and FLOPs of a Hugging Face config.json"},
    {"perf", cmd_perf, "prefill and decode tokens/s, training step time and MFU on a roofline"},
    {"plan", cmd_plan, "the layouts (TP/PP/DP/EP, ZeRO, recompute) of N GPUs that fit, ranked"},
    {"power", cmd_power, "PSU redundancy and headroom, wall power, heat, airflow, energy cost"},
    {"raid", cmd_raid, "RAID/ZFS usable capacity, speed, rebuild time, URE risk and MTTDL"},
    {"transfer", cmd_transfer, "time to stream a data set or save a checkpoint; does it fit"},
    {"units", cmd_units, "parse a quantity and show it in base units, SI and IEC"},
};

static void usage(FILE *f) {
    fprintf(f,
            "usage: hwfit <subcommand> [options] [--json]\n"
            "       hwfit --version | --help\n\n"
            "Hardware-fit calculations for GPU servers. Tables by default; --json prints one\n"
            "JSON object. Sizes and rates take units: 96GB, 15.36TB, 128GiB, 400Gb/s, 3200W.\n\n"
            "subcommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-12s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\nRun 'hwfit <subcommand> --help' for its options.\n");
}

int main(int argc, char **argv) {
    if (argc < 2) return cli_fail(NULL, "missing subcommand (run 'hwfit --help')");
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
        printf("hwfit %s\n", hwfit_version_string());
        return CLI_EXIT_OK;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return CLI_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0) return commands[i].run(argc - 1, argv + 1);
    return cli_fail(NULL, "unknown subcommand '%s' (run 'hwfit --help')", argv[1]);
}
