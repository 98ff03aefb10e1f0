/* workload.c - options shared by `hwfit fit`, `hwfit plan` and `hwfit perf` (workload.h). */
#include <string.h>

#include "workload.h"

const char *const cli_workload_modes[] = {"inference", "full", "lora", "qlora", NULL};
static const hwfit_memory_mode mode_values[] = {HWFIT_MEMORY_INFERENCE, HWFIT_MEMORY_FULL,
                                                HWFIT_MEMORY_LORA, HWFIT_MEMORY_QLORA};
static const char *const optimizers[] = {"adamw", "adamw-8bit", "sgd", NULL};
static const hwfit_memory_optimizer optimizer_values[] = {
    HWFIT_MEMORY_ADAMW, HWFIT_MEMORY_ADAMW_8BIT, HWFIT_MEMORY_SGD};
const char *const cli_workload_recomputes[] = {"none", "selective", "full", NULL};
const char *const cli_workload_p2p_modes[] = {"auto", "on", "off", NULL};
static const hwfit_topology_mode p2p_values[] = {HWFIT_TOPOLOGY_AUTO, HWFIT_TOPOLOGY_ON,
                                                 HWFIT_TOPOLOGY_OFF};

void cli_workload_opts(cli_workload *w, cli_opt *opts) {
    memset(w, 0, sizeof *w);
    hwfit_shard_in d;
    hwfit_shard_init(&d);
    w->kv = "bf16";
    w->gradients = "bf16";
    w->lora_targets = "all";
    w->gpus = 1;
    w->context = d.memory.context;
    w->batch = d.memory.batch;
    w->lora_rank = d.memory.lora_rank;
    w->prefill_chunk = d.memory.prefill_chunk;
    w->overhead = d.memory.overhead_bytes;
    w->utilization = d.utilization;
    w->host_factor = d.host_buffer_factor;
    w->max_gpus = 256;
    hwfit_perf_in pd;
    hwfit_perf_init(&pd);
    w->prefill_eff = pd.prefill_efficiency;
    w->decode_eff = pd.decode_compute_efficiency;
    w->memory_eff = pd.memory_efficiency;
    w->training_eff = pd.training_efficiency;
    w->dp_overlap = pd.dp_overlap;
    w->gpus_per_node = pd.topology.gpus_per_node;
    const cli_opt o[CLI_WORKLOAD_NOPTS] = {
        {"config", CLI_STRING, &w->config, "FILE", "Hugging Face config.json (required)", 0,
         NULL, NULL},
        {"gpu", CLI_STRING, &w->gpu, "NAME", "card from the catalog (see hwfit gpus)", 0, NULL,
         NULL},
        {"gpus", CLI_U64, &w->gpus, "N", "cards in the job (default 1)", 0, NULL, NULL},
        {"capacity", CLI_QUANTITY, &w->capacity, "SIZE",
         "memory of one card, instead of --gpu's (e.g. 80GiB)", HWFIT_UNIT_BYTES, NULL,
         &w->seen_capacity},
        {"mode", CLI_CHOICE, &w->mode, "MODE", "inference (default), full, lora or qlora", 0,
         cli_workload_modes, NULL},
        {"weights", CLI_STRING, &w->weights, "DTYPE",
         "weight format (default bf16; qlora: the base, default nf4-dq)", 0, NULL, NULL},
        {"kv", CLI_STRING, &w->kv, "DTYPE", "KV-cache format (default bf16)", 0, NULL, NULL},
        {"context", CLI_TOKENS, &w->context, "N",
         "tokens per sequence (training: sequence length), K = 1024 (default 4096)", 0, NULL,
         &w->seen_context},
        {"batch", CLI_U64, &w->batch, "N",
         "inference: concurrent sequences over all replicas (default 1); training: global "
         "batch in sequences (default: pp micro-batches per replica)",
         0, NULL, &w->seen_batch},
        {"micro-batch", CLI_U64, &w->micro_batch, "N",
         "training: sequences per micro-batch (default: searched, 1-8)", 0, NULL, NULL},
        {"prefill-chunk", CLI_TOKENS, &w->prefill_chunk, "N",
         "inference: prompt tokens per forward pass, 0 = all (default 2048)", 0, NULL, NULL},
        {"overhead", CLI_QUANTITY, &w->overhead, "SIZE",
         "runtime overhead per card: CUDA context, workspaces (default 1GiB)", HWFIT_UNIT_BYTES,
         NULL, &w->seen_overhead},
        {"optimizer", CLI_CHOICE, &w->optimizer, "NAME", "adamw (default), adamw-8bit or sgd", 0,
         optimizers, NULL},
        {"gradients", CLI_STRING, &w->gradients, "DTYPE", "gradient format: bf16 (default) or fp32",
         0, NULL, NULL},
        {"recompute", CLI_CHOICE, &w->recompute, "KIND",
         "training: none, selective or full (default: searched)", 0, cli_workload_recomputes,
         &w->seen_recompute},
        {"lora-rank", CLI_U64, &w->lora_rank, "R", "LoRA rank (default 16)", 0, NULL, NULL},
        {"lora-targets", CLI_STRING, &w->lora_targets, "LIST",
         "LoRA modules: q,k,v,o,gate,up,down, attention, mlp or all (default all)", 0, NULL,
         NULL},
        {"tp", CLI_U64, &w->tp, "N", "tensor-parallel ranks (default: searched)", 0, NULL, NULL},
        {"pp", CLI_U64, &w->pp, "N", "pipeline stages (default: searched)", 0, NULL, NULL},
        {"dp", CLI_U64, &w->dp, "N", "data-parallel replicas (default: what is left)", 0, NULL,
         NULL},
        {"cp", CLI_U64, &w->cp, "N", "context-parallel ranks (default 1)", 0, NULL, NULL},
        {"ep", CLI_U64, &w->ep, "N", "expert-parallel ranks (default: searched)", 0, NULL, NULL},
        {"etp", CLI_U64, &w->etp, "N",
         "tensor-parallel ranks per expert (default: tp, or whole experts)", 0, NULL, NULL},
        {"virtual-stages", CLI_U64, &w->vstages, "N",
         "training: model chunks per card, interleaved 1F1B (default 1)", 0, NULL, NULL},
        {"sequence-parallel", CLI_FLAG, &w->sp, NULL, "training: sequence parallelism on", 0,
         NULL, NULL},
        {"no-sequence-parallel", CLI_FLAG, &w->no_sp, NULL, "training: sequence parallelism off",
         0, NULL, NULL},
        {"zero", CLI_U64, &w->zero, "0-3", "training: ZeRO stage (default: searched)", 0, NULL,
         &w->seen_zero},
        {"offload", CLI_STRING, &w->offload, "LIST",
         "training: optimizer, params, optimizer,params, none (default) or any", 0, NULL, NULL},
        {"even-layers", CLI_FLAG, &w->uneven_off, NULL,
         "require layers divisible by pp (default: split as vLLM does)", 0, NULL, NULL},
        {"utilization", CLI_DOUBLE, &w->utilization, "F",
         "fraction of a card's memory usable, as vLLM's (default 0.9)", 0, NULL, NULL},
        {"reserve", CLI_QUANTITY, &w->reserve, "SIZE", "bytes per card kept free (default 0)",
         HWFIT_UNIT_BYTES, NULL, NULL},
        {"host-memory", CLI_QUANTITY, &w->host_memory, "SIZE",
         "host memory for offload, all nodes (default: not checked)", HWFIT_UNIT_BYTES, NULL,
         NULL},
        {"host-buffer-factor", CLI_DOUBLE, &w->host_factor, "F",
         "factor on offloaded bytes (default 1; DeepSpeed's estimators: 1.5)", 0, NULL, NULL},
        {"max-gpus", CLI_U64, &w->max_gpus, "N", "largest card count for min_gpus (default 256)",
         0, NULL, NULL},
        {"gpus-per-node", CLI_U64, &w->gpus_per_node, "N", "GPUs per server (default 8)", 0,
         NULL, NULL},
        {"nic", CLI_STRING, &w->nic, "SPEC",
         "network per node for several servers, e.g. 2x400g-roce, 8x400g-ib", 0, NULL, NULL},
        {"p2p", CLI_CHOICE, &w->p2p, "MODE", "GPU P2P over PCIe: auto (NCCL's default), on, off",
         0, cli_workload_p2p_modes, NULL},
        {"output-tokens", CLI_TOKENS, &w->output_tokens, "N",
         "inference: tokens generated per sequence (default 0)", 0, NULL, NULL},
        {"target-rate", CLI_DOUBLE, &w->target_rate, "TOK/S",
         "inference: decode rate to reach; reports the batch it needs", 0, NULL, NULL},
        {"precision", CLI_STRING, &w->precision_name, "NAME",
         "math format: auto (from the weights), tf32, bf16, fp8, fp4, int8", 0, NULL, NULL},
        {"prefill-efficiency", CLI_DOUBLE, &w->prefill_eff, "F",
         "share of peak tensor throughput in prefill (default 0.6)", 0, NULL, NULL},
        {"decode-efficiency", CLI_DOUBLE, &w->decode_eff, "F",
         "share of peak tensor throughput in decode (default 0.6)", 0, NULL, NULL},
        {"memory-efficiency", CLI_DOUBLE, &w->memory_eff, "F",
         "share of peak memory bandwidth (default 0.85)", 0, NULL, NULL},
        {"training-efficiency", CLI_DOUBLE, &w->training_eff, "F",
         "share of peak tensor throughput in training (default 0.65)", 0, NULL, NULL},
        {"step-overhead", CLI_QUANTITY, &w->step_overhead, "TIME",
         "inference: fixed time per decode step (default 0)", HWFIT_UNIT_SECONDS, NULL, NULL},
        {"tp-overlap", CLI_DOUBLE, &w->tp_overlap, "F",
         "share of tensor-parallel communication hidden (default 0)", 0, NULL, NULL},
        {"pp-overlap", CLI_DOUBLE, &w->pp_overlap, "F", "share of pipeline sends hidden (default 0)",
         0, NULL, NULL},
        {"dp-overlap", CLI_DOUBLE, &w->dp_overlap, "F",
         "share of gradient reduction hidden (default 0.5)", 0, NULL, NULL},
        {"ep-overlap", CLI_DOUBLE, &w->ep_overlap, "F", "share of expert all-to-alls hidden (default 0)",
         0, NULL, NULL},
    };
    memcpy(opts, o, sizeof o);
}

static int dtype_option(const char *command, const char *option, const char *text,
                        hwfit_dtype *out) {
    hwfit_status st = hwfit_dtype_parse(text, out);
    if (st == HWFIT_ENOTFOUND)
        return cli_fail(command, "--%s: unknown number format '%s' (see hwfit dtypes)", option,
                        text);
    if (st != HWFIT_OK) return cli_fail_status(command, text, st);
    return 0;
}

static int u32_option(const char *command, const char *option, uint64_t v, uint32_t *out) {
    if (v > UINT32_MAX) return cli_fail(command, "--%s must be below 2^32", option);
    *out = (uint32_t)v;
    return 0;
}

const char *cli_offload_name(unsigned offload) {
    switch (offload & 3u) {
    case HWFIT_SHARD_OFFLOAD_OPTIMIZER: return "optimizer";
    case HWFIT_SHARD_OFFLOAD_PARAMS: return "params";
    case 3u: return "optimizer,params";
    default: return "none";
    }
}

void cli_workload_layout(const cli_workload *w, hwfit_layout *l) {
    *l = w->in.layout;
    const hwfit_shard_space *s = &w->space;
    l->tp = s->tp ? s->tp : 1;
    l->pp = s->pp ? s->pp : 1;
    l->cp = s->cp ? s->cp : 1;
    l->ep = s->ep ? s->ep : 1;
    l->etp = s->etp;
    l->virtual_stages = s->virtual_stages ? s->virtual_stages : 1;
    uint64_t tpc = (uint64_t)l->tp * l->pp * l->cp;
    l->dp = s->dp ? s->dp : (tpc && w->in.gpus % tpc == 0 ? (uint32_t)(w->in.gpus / tpc) : 1);
    l->zero_stage = s->zero_stage >= 0 ? (uint32_t)s->zero_stage : 0;
    l->offload = s->offload >= 0 ? (unsigned)s->offload : 0;
    l->recompute = s->recompute >= 0 ? (hwfit_memory_recompute)s->recompute
                                     : HWFIT_MEMORY_RECOMPUTE_NONE;
    l->sequence_parallel = s->sequence_parallel > 0;
    l->micro_batch = s->micro_batch ? s->micro_batch : 1;
    l->global_batch = s->global_batch;
    l->uneven_layers = s->uneven_layers;
}

int cli_workload_finish(const char *command, cli_workload *w) {
    int rc;
    if (w->config == NULL)
        return cli_fail(command, "--config is required, e.g. --config config.json");
    if (w->gpu == NULL && !w->seen_capacity)
        return cli_fail(command, "--gpu NAME or --capacity SIZE is required (see hwfit gpus)");
    if (w->gpus == 0 || w->gpus > HWFIT_SHARD_MAX_GPUS)
        return cli_fail(command, "--gpus must be 1 to %u", HWFIT_SHARD_MAX_GPUS);
    if (w->max_gpus == 0 || w->max_gpus > HWFIT_SHARD_MAX_GPUS)
        return cli_fail(command, "--max-gpus must be 1 to %u", HWFIT_SHARD_MAX_GPUS);
    if (w->seen_zero && w->zero > 3) return cli_fail(command, "--zero must be 0, 1, 2 or 3");
    if (w->sp && w->no_sp)
        return cli_fail(command, "--sequence-parallel and --no-sequence-parallel exclude each other");
    hwfit_shard_in *in = &w->in;
    hwfit_shard_init(in);
    hwfit_memory_in *m = &in->memory;
    m->mode = mode_values[w->mode];
    m->optimizer = optimizer_values[w->optimizer];
    m->context = w->context;
    m->prefill_chunk = w->prefill_chunk;
    m->overhead_bytes = w->overhead;
    if ((rc = u32_option(command, "lora-rank", w->lora_rank, &m->lora_rank)) != 0) return rc;
    int training = m->mode != HWFIT_MEMORY_INFERENCE;
    if (!training) m->batch = w->batch;
    if (w->weights != NULL) {
        hwfit_dtype *dest = m->mode == HWFIT_MEMORY_QLORA ? &m->qlora_base : &m->weights;
        if ((rc = dtype_option(command, "weights", w->weights, dest)) != 0) return rc;
    }
    if ((rc = dtype_option(command, "kv", w->kv, &m->kv)) != 0) return rc;
    if ((rc = dtype_option(command, "gradients", w->gradients, &m->gradients)) != 0) return rc;
    if (hwfit_memory_lora_targets_parse(w->lora_targets, &m->lora_targets) != HWFIT_OK)
        return cli_fail(command, "--lora-targets: '%s' is not a list of q,k,v,o,gate,up,down, "
                        "attention, mlp or all", w->lora_targets);
    hwfit_dtype base = m->mode == HWFIT_MEMORY_QLORA ? m->qlora_base : m->weights;
    if (hwfit_dtype_format(base, w->weights_name, sizeof w->weights_name) != HWFIT_OK ||
        hwfit_dtype_format(m->kv, w->kv_name, sizeof w->kv_name) != HWFIT_OK)
        return cli_fail(command, "cannot name the formats");

    in->gpus = (uint32_t)w->gpus;
    in->utilization = w->utilization;
    in->reserve_bytes = w->reserve;
    in->host_memory_bytes = w->host_memory;
    in->host_buffer_factor = w->host_factor;
    if (w->gpu != NULL) {
        hwfit_status st = hwfit_gpu_find(w->gpu, &w->card);
        if (st == HWFIT_ENOTFOUND)
            return cli_fail(command, "--gpu: unknown card '%s' (see hwfit gpus)", w->gpu);
        if (st != HWFIT_OK) return cli_fail_status(command, w->gpu, st);
        in->capacity_bytes = (double)w->card->memory_bytes;
    }
    if (w->seen_capacity) in->capacity_bytes = w->capacity;

    /* The space: fixed where an option was given. */
    hwfit_shard_space *s = &w->space;
    hwfit_shard_space_init(s);
    uint32_t v32 = 0;
    const struct { const char *name; uint64_t v; uint32_t *dst; } deg[] = {
        {"tp", w->tp, &s->tp},       {"pp", w->pp, &s->pp},   {"dp", w->dp, &s->dp},
        {"cp", w->cp, &s->cp},       {"ep", w->ep, &s->ep},   {"etp", w->etp, &s->etp},
        {"virtual-stages", w->vstages, &s->virtual_stages}};
    for (size_t i = 0; i < sizeof deg / sizeof deg[0]; i++) {
        if (deg[i].v == 0) continue;
        if ((rc = u32_option(command, deg[i].name, deg[i].v, &v32)) != 0) return rc;
        *deg[i].dst = v32;
        if (i != 5) w->layout_given = 1;
    }
    if (w->seen_zero) {
        s->zero_stage = (int)w->zero;
        w->layout_given = 1;
    }
    if (w->seen_recompute) s->recompute = w->recompute;
    if (w->sp) s->sequence_parallel = 1;
    if (w->no_sp) s->sequence_parallel = 0;
    if (w->micro_batch) s->micro_batch = w->micro_batch;
    if (w->uneven_off) s->uneven_layers = 0;
    if (training && w->seen_batch) s->global_batch = w->batch;
    if (w->offload != NULL) {
        if (strcmp(w->offload, "any") == 0) {
            s->offload = HWFIT_SHARD_ANY;
        } else {
            unsigned bits;
            hwfit_status st = hwfit_shard_offload_parse(w->offload, &bits);
            if (st != HWFIT_OK)
                return cli_fail(command, "--offload: '%s' is not optimizer, params, "
                                "optimizer,params, none or any", w->offload);
            s->offload = (int)bits;
        }
    }
    cli_workload_layout(w, &in->layout);

    /* The throughput inputs: the card, the cluster, the assumptions. */
    hwfit_perf_in *p = &w->perf;
    hwfit_perf_init(p);
    hwfit_status st;
    if (w->card != NULL && (st = hwfit_perf_set_gpu(p, w->card)) != HWFIT_OK)
        return cli_fail_status(command, "--gpu", st);
    if (w->gpus_per_node == 0 || w->gpus_per_node > HWFIT_TOPOLOGY_MAX_GPUS_PER_NODE)
        return cli_fail(command, "--gpus-per-node must be 1 to %d", HWFIT_TOPOLOGY_MAX_GPUS_PER_NODE);
    p->topology.gpus_per_node = w->gpus_per_node;
    if (p->topology.sockets > w->gpus_per_node || w->gpus_per_node % p->topology.sockets != 0)
        p->topology.sockets = 1;
    p->topology.p2p = p2p_values[w->p2p];
    if (w->nic != NULL && (st = hwfit_topology_parse_nic(w->nic, &p->topology)) != HWFIT_OK)
        return cli_fail(command, "--nic: '%s' is not a NIC such as 2x400g-roce (%s)", w->nic,
                        hwfit_status_name(st));
    if (w->card != NULL && w->gpus > w->gpus_per_node && w->nic == NULL)
        return cli_fail(command, "%llu GPUs span %llu nodes of %llu: give the network between "
                        "them with --nic (e.g. 8x400g-ib or 2x400g-roce)",
                        (unsigned long long)w->gpus,
                        (unsigned long long)((w->gpus + w->gpus_per_node - 1) / w->gpus_per_node),
                        (unsigned long long)w->gpus_per_node);
    if (w->precision_name != NULL &&
        hwfit_perf_precision_from_name(w->precision_name, &p->precision) != HWFIT_OK)
        return cli_fail(command, "--precision: '%s' is not auto, tf32, bf16, fp8, fp4 or int8",
                        w->precision_name);
    p->output_tokens = w->output_tokens;
    p->target_tokens_per_s = w->target_rate;
    p->prefill_efficiency = w->prefill_eff;
    p->decode_compute_efficiency = w->decode_eff;
    p->memory_efficiency = w->memory_eff;
    p->training_efficiency = w->training_eff;
    p->step_overhead_s = w->step_overhead;
    p->tp_overlap = w->tp_overlap;
    p->pp_overlap = w->pp_overlap;
    p->dp_overlap = w->dp_overlap;
    p->ep_overlap = w->ep_overlap;
    p->shard = *in;

    hwfit_error err;
    st = hwfit_hf_config_load(w->config, &w->model, &err);
    if (st != HWFIT_OK) return cli_fail_error(command, &err);
    return 0;
}

/* Fields of hwfit_shard_in and hwfit_perf_in whose option is not named like them. */
static const char *const aliases[] = {
    "capacity_bytes", "--capacity",         "reserve_bytes", "--reserve",
    "host_memory_bytes", "--host-memory",   "memory.overhead_bytes", "--overhead",
    "memory.qlora_base", "--weights",
    "memory.unquantized", "--weights",      "layout.virtual_stages", "--virtual-stages",
    "layout.zero_stage", "--zero",          "layout.recompute", "--recompute",
    "decode_compute_efficiency", "--decode-efficiency",
    "step_overhead_s", "--step-overhead",   "target_tokens_per_s", "--target-rate",
    "memory_bandwidth_bytes_per_s", "--gpu", "topology.nics_per_node", "--nic",
    "topology.nic_bits_per_s", "--nic",     "topology.gpus_per_node", "--gpus-per-node",
    NULL};

/* An invalid layout, naming the option and the numbers: "--tp 3: the 32 attention heads do
 * not divide by 3". */
static int bad_layout(const char *command, const cli_workload *w, const hwfit_layout *l,
                      hwfit_shard_reason why) {
    const hwfit_model *m = &w->model;
    const char *el = hwfit_status_name(HWFIT_ELAYOUT);
    switch (why) {
    case HWFIT_SHARD_GPUS:
        return cli_fail(command, "--tp %u x --pp %u x --dp %u x --cp %u is not the %u GPUs of "
                        "--gpus (%s)", l->tp, l->pp, l->dp, l->cp, w->in.gpus, el);
    case HWFIT_SHARD_HEADS:
        return cli_fail(command, "--tp %u: the %u attention heads do not divide by %u (%s)", l->tp,
                        m->heads, l->tp, el);
    case HWFIT_SHARD_KV_HEADS:
        return cli_fail(command, "--tp %u: the %u key/value heads do not divide by %u, nor %u by "
                        "them (%s)", l->tp, m->kv_heads, l->tp, l->tp, el);
    case HWFIT_SHARD_MLP_WIDTH:
        return cli_fail(command, "--tp %u: %s (%s)", l->tp, hwfit_shard_reason_str(why), el);
    default: break;
    }
    const char *opt = "layout";
    uint64_t v = 0;
    switch (why) {
    case HWFIT_SHARD_EXPERT_WIDTH: opt = "--etp"; v = l->etp; break;
    case HWFIT_SHARD_EXPERTS:
    case HWFIT_SHARD_EXPERT_RANKS: opt = "--ep"; v = l->ep; break;
    case HWFIT_SHARD_STAGES:
    case HWFIT_SHARD_UNEVEN: opt = "--pp"; v = l->pp; break;
    case HWFIT_SHARD_VIRTUAL_STAGES:
    case HWFIT_SHARD_VIRTUAL_LAYERS:
    case HWFIT_SHARD_VIRTUAL_MICROBATCHES: opt = "--virtual-stages"; v = l->virtual_stages; break;
    case HWFIT_SHARD_CONTEXT: opt = "--context"; v = w->in.memory.context; break;
    case HWFIT_SHARD_BATCH: opt = "--batch"; v = l->global_batch; break;
    case HWFIT_SHARD_ZERO_INFERENCE: opt = "--zero"; v = l->zero_stage; break;
    case HWFIT_SHARD_SEQUENCE_PARALLEL:
        return cli_fail(command, "--sequence-parallel: %s (%s)", hwfit_shard_reason_str(why), el);
    case HWFIT_SHARD_OFFLOAD_INFERENCE:
    case HWFIT_SHARD_OFFLOAD_ZERO:
        return cli_fail(command, "--offload %s: %s (%s)", cli_offload_name(l->offload),
                        hwfit_shard_reason_str(why), el);
    default: break;
    }
    return cli_fail(command, "%s %llu: %s (%s)", opt, (unsigned long long)v,
                    hwfit_shard_reason_str(why), el);
}

int cli_workload_refused(const char *command, const cli_workload *w, hwfit_status st,
                         int timed) {
    hwfit_perf_in x = w->perf;
    cli_workload_layout(w, &x.shard.layout);
    hwfit_problem p;
    hwfit_status vst = timed ? hwfit_perf_validate(&w->model, &x, &p)
                             : hwfit_shard_validate(&w->model, &x.shard, &p);
    if (vst == HWFIT_ELAYOUT && w->layout_given) {
        hwfit_shard_reason why;
        if (hwfit_shard_check(&w->model, &x.shard, &why) == HWFIT_OK && why != HWFIT_SHARD_VALID)
            return bad_layout(command, w, &x.shard.layout, why);
    }
    /* The options' layout may differ from the searched ones that failed: report what the
     * companion says only when it is the same refusal. */
    if (vst != st || vst == HWFIT_ELAYOUT || w->spec == NULL)
        return cli_fail_status(command, timed ? "plan" : "search", st);
    if (strncmp(p.field, "shard.", 6) == 0) p.field += 6;
    return cli_fail_problem(w->spec, aliases, &p);
}

/* Report why the options' layout is invalid, or that no layout of the card count is. */
static int no_layout(const char *command, const cli_workload *w) {
    if (w->layout_given) {
        hwfit_shard_in x = w->in;
        cli_workload_layout(w, &x.layout);
        hwfit_shard_reason why;
        hwfit_status st = hwfit_shard_check(&w->model, &x, &why);
        if (st != HWFIT_OK) return cli_workload_refused(command, w, st, 0);
        if (why != HWFIT_SHARD_VALID) return bad_layout(command, w, &x.layout, why);
    }
    return cli_fail(command, "no valid layout of %u GPUs for this model and workload "
                    "(try another --gpus)", w->in.gpus);
}

static int unsupported(const char *command) {
    return cli_fail(command, "--mode full trains the weights: --weights must be a plain "
                    "format such as bf16 (HWFIT_EUNSUPPORTED)");
}

const char *cli_workload_rank_name(const cli_workload *w, const hwfit_shard_space *space) {
    hwfit_perf_rank rank = HWFIT_PERF_RANK_DECODE_RATE;
    (void)hwfit_perf_plan_rank(&w->perf, space, &rank); /* mode checked by cli_parse */
    return hwfit_perf_rank_name(rank);
}

int cli_workload_best(const char *command, cli_workload *w, hwfit_layout *best,
                      hwfit_shard_search_out *summary, const char **ranked_by) {
    hwfit_shard_space space = w->space;
    space.include_unfit = 1;
    hwfit_status st = HWFIT_EUNSUPPORTED;
    w->timed_valid = 0;
    if (w->card != NULL) {
        hwfit_perf_result r;
        st = hwfit_perf_plan(&w->model, &w->perf, &space, &r, 1, summary);
        if (st == HWFIT_OK) {
            if (summary->count == 0) return no_layout(command, w);
            *best = r.shard.layout;
            *ranked_by = cli_workload_rank_name(w, &space);
            w->timed = r;
            w->timed_valid = 1;
            return 0;
        }
        if (st != HWFIT_EUNSUPPORTED) return cli_workload_refused(command, w, st, 1);
    }
    /* Without a card's throughput: by memory headroom. */
    hwfit_shard_result r;
    st = hwfit_shard_search(&w->model, &w->in, &space, &r, 1, summary);
    if (st == HWFIT_EUNSUPPORTED) return unsupported(command);
    if (st != HWFIT_OK) return cli_workload_refused(command, w, st, 0);
    if (summary->count == 0) return no_layout(command, w);
    *best = r.layout;
    *ranked_by = "headroom";
    return 0;
}

void cli_out_layout(cli_out *o, const hwfit_layout *l) {
    out_section(o, "layout", "layout");
    out_u64(o, "tp", "tensor parallel", l->tp);
    out_u64(o, "pp", "pipeline stages", l->pp);
    out_u64(o, "dp", "data parallel", l->dp);
    out_u64(o, "cp", "context parallel", l->cp);
    out_u64(o, "ep", "expert parallel", l->ep);
    out_u64(o, "etp", "expert tensor parallel", l->etp);
    out_u64(o, "virtual_stages", "virtual stages", l->virtual_stages);
    out_bool(o, "sequence_parallel", "sequence parallel", l->sequence_parallel);
    out_u64(o, "zero", "ZeRO stage", l->zero_stage);
    out_str(o, "offload", "offload", cli_offload_name(l->offload));
    out_u64(o, "micro_batch", "micro-batch", l->micro_batch);
    out_u64(o, "global_batch", "global batch", l->global_batch);
    out_str(o, "recompute", "recomputation", cli_workload_recomputes[l->recompute]);
    out_section_end(o);
}
