/* Edge cases the coverage report of lib/ showed untested: counts that overflow in each of
 * the places they are summed, layouts whose groups straddle nodes, collectives whose parts
 * cannot run, and rare syntax. Each test names the path it reaches. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwfit.h"
#include "readers/json.h"

static void tiny_dense(hwfit_model *m, uint64_t hidden, uint64_t vocab, uint64_t intermediate) {
    /* One head of width 1: attention is negligible, so the chosen sizes dominate. */
    hwfit_model_init(m);
    m->layers = 1;
    m->heads = 1;
    m->kv_heads = 1;
    m->head_dim = 1;
    m->hidden = hidden;
    m->vocab = vocab;
    m->intermediate = intermediate;
}

static void expect_param_overflow(const hwfit_model *m) {
    hwfit_model_param_counts p;
    memset(&p, 0x5a, sizeof p);
    hwfit_problem why;
    cr_assert_eq(hwfit_model_params(m, &p), HWFIT_ERANGE);
    cr_assert_eq(hwfit_model_validate(m, &why), HWFIT_ERANGE);
    cr_assert_str_eq(why.field, "model");
    unsigned char poison[sizeof p];
    memset(poison, 0x5a, sizeof poison);
    cr_assert(memcmp(&p, poison, sizeof p) == 0);
}

Test(edges, an_embedding_beyond_2_64_parameters_is_erange) {
    hwfit_model m;
    tiny_dense(&m, (uint64_t)1 << 32, (uint64_t)1 << 33, 1); /* V x h = 2^65 */
    expect_param_overflow(&m);
}

Test(edges, layers_that_each_fit_but_not_together_are_erange) {
    hwfit_model m;
    tiny_dense(&m, (uint64_t)1 << 35, 1, (uint64_t)1 << 20); /* 3 x 2^55 per layer */
    m.layers = 1024;                                       /* x 2^10 > 2^64 */
    expect_param_overflow(&m);
}

Test(edges, parts_that_fit_but_not_their_sum_are_erange) {
    hwfit_model m;
    tiny_dense(&m, (uint64_t)1 << 32, (uint64_t)1 << 31, 1); /* embedding 2^63, head 2^63 */
    expect_param_overflow(&m);
    m.tie_embeddings = 1; /* one table of 2^63 fits */
    hwfit_model_param_counts p;
    cr_assert_eq(hwfit_model_params(&m, &p), HWFIT_OK);
}

Test(edges, mla_without_any_query_key_dimension_is_refused) {
    hwfit_model m;
    hwfit_model_init(&m);
    m.attention = HWFIT_MODEL_ATTENTION_MLA;
    m.layers = 2;
    m.hidden = 1024;
    m.heads = 8;
    m.kv_lora_rank = 64;
    m.v_head_dim = 64;
    m.intermediate = 4096;
    m.vocab = 1000;
    hwfit_problem why;
    cr_assert_eq(hwfit_model_validate(&m, &why), HWFIT_EDOM);
    cr_assert_str_eq(why.field, "model.qk_nope_head_dim");
}

/* A training layer whose sharded part and attention scores each fit 64 bits but whose sum
 * did not: the sum used to wrap silently (HWFIT_OK with a small number). 40 sequences of
 * 40,265,318 tokens, 32 heads, a 2^30-wide MLP: shard 0.5625 x 2^64, scores 0.5625 x 2^64. */
Test(edges, activation_parts_whose_sum_overflows_are_erange_not_wrapped) {
    hwfit_model m;
    hwfit_model_init(&m);
    m.layers = 1;
    m.hidden = 4096;
    m.heads = 32;
    m.kv_heads = 8;
    m.intermediate = (uint64_t)1 << 30;
    m.vocab = 32000;
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_FULL;
    in.context = 40265318;
    in.micro_batch = 40;
    in.flash_attention = 0;
    hwfit_memory_out out;
    cr_assert_eq(hwfit_memory_estimate(&m, &in, &out), HWFIT_ERANGE);
    in.micro_batch = 20; /* half of it fits */
    cr_assert_eq(hwfit_memory_estimate(&m, &in, &out), HWFIT_OK);
    cr_assert(out.activation_bytes > ((uint64_t)1 << 63));
}

Test(edges, every_activation_chain_reports_overflow) {
    hwfit_model m;
    hwfit_model_init(&m);
    m.layers = 2;
    m.hidden = 4096;
    m.heads = 32;
    m.kv_heads = 8;
    m.intermediate = 14336;
    m.vocab = 128256;
    hwfit_memory_in in;
    hwfit_memory_out out;
    const hwfit_memory_recompute rs[] = {HWFIT_MEMORY_RECOMPUTE_NONE,
                                         HWFIT_MEMORY_RECOMPUTE_SELECTIVE,
                                         HWFIT_MEMORY_RECOMPUTE_FULL};
    for (size_t i = 0; i < 3; i++) {
        hwfit_memory_init(&in);
        in.mode = HWFIT_MEMORY_FULL;
        in.recompute = rs[i];
        in.context = (uint64_t)1 << 40;
        in.micro_batch = (uint64_t)1 << 20; /* s x b = 2^60, s x b x h > 2^64 */
        cr_assert_eq(hwfit_memory_estimate(&m, &in, &out), HWFIT_ERANGE, "recompute %zu", i);
        in.context = (uint64_t)1 << 26;
        in.micro_batch = (uint64_t)1 << 24; /* the logits term 4sb(h + V) overflows last */
        cr_assert_eq(hwfit_memory_estimate(&m, &in, &out), HWFIT_ERANGE, "recompute %zu", i);
    }
    hwfit_memory_init(&in); /* inference: batch x context, then the workspace */
    in.batch = (uint64_t)1 << 40;
    in.context = (uint64_t)1 << 30;
    cr_assert_eq(hwfit_memory_estimate(&m, &in, &out), HWFIT_ERANGE);
    in.batch = 1;
    in.context = (uint64_t)1 << 50;
    in.prefill_chunk = 0; /* the whole context in flight: tokens x h overflows */
    in.kv = hwfit_dtype_make(HWFIT_DTYPE_Q2_K);
    cr_assert_eq(hwfit_memory_estimate(&m, &in, &out), HWFIT_ERANGE);
}

/* ---- collective layouts and parts that cannot run --------------------------------------- */

static void topology(hwfit_topology *t, uint64_t gpus_per_node, uint64_t nodes, int nics) {
    hwfit_topology_init(t);
    t->gpus_per_node = gpus_per_node;
    t->nodes = nodes;
    t->sockets = 1;
    if (nics) cr_assert_eq(hwfit_topology_parse_nic("2x400g-roce", t), HWFIT_OK);
}

static hwfit_status step(const hwfit_collective_step_in *in, const char **field) {
    hwfit_collective_step_out out;
    static hwfit_problem why;
    hwfit_status st = hwfit_collective_step(in, &out);
    cr_assert_eq(hwfit_collective_step_validate(in, &why), st);
    *field = why.field;
    return st;
}

Test(edges, groups_that_straddle_nodes_unevenly_are_layout_errors) {
    hwfit_collective_step_in in;
    const char *field;
    hwfit_collective_step_init(&in);
    topology(&in.topology, 4, 4, 1);
    in.tp = 2;
    in.dp = 8; /* stride 2 over 4-GPU nodes: 2 ranks on each of 4 nodes */
    in.grad_bytes = 1e9;
    cr_assert_eq(step(&in, &field), HWFIT_OK);
    in.dp = 3; /* 3 ranks at stride 2 over 4-GPU nodes: 2 on one node, 1 on the next */
    cr_assert_eq(step(&in, &field), HWFIT_ELAYOUT);
    cr_assert_str_eq(field, "dp");
    in.dp = 6;
    in.ep = 3;
    cr_assert_eq(step(&in, &field), HWFIT_ELAYOUT);
    cr_assert_str_eq(field, "ep");
    topology(&in.topology, 8, 1, 0);
    in.dp = in.ep = 1;
    in.tp = 3; /* 3 does not divide 8 GPUs */
    cr_assert_eq(step(&in, &field), HWFIT_ELAYOUT);
    cr_assert_str_eq(field, "tp");
}

Test(edges, each_part_of_a_step_reports_a_collective_that_cannot_run) {
    /* Two nodes without NICs: any group that crosses them cannot communicate. */
    hwfit_collective_step_in in;
    const char *field;
    const int sp[] = {0, 1};
    for (size_t k = 0; k < 2; k++) {
        hwfit_collective_step_init(&in);
        topology(&in.topology, 8, 2, 0);
        in.tp = 16;
        in.tp_bytes = 1e6;
        in.sequence_parallel = sp[k];
        cr_assert_eq(step(&in, &field), HWFIT_EDOM);
        cr_assert_str_eq(field, "topology.nics_per_node");
    }
    hwfit_collective_step_init(&in); /* gradients */
    topology(&in.topology, 8, 2, 0);
    in.tp = 8;
    in.dp = 2;
    in.grad_bytes = 1e9;
    cr_assert_eq(step(&in, &field), HWFIT_EDOM);
    in.grad_bytes = 0; /* ZeRO parameter gathers */
    in.zero_stage = 1;
    in.param_bytes = 1e9;
    cr_assert_eq(step(&in, &field), HWFIT_EDOM);
    hwfit_collective_step_init(&in); /* a pipeline boundary */
    topology(&in.topology, 8, 2, 0);
    in.tp = 8;
    in.pp = 2;
    in.pp_bytes = 1e6;
    cr_assert_eq(step(&in, &field), HWFIT_EDOM);
    hwfit_collective_step_init(&in); /* expert all-to-alls */
    topology(&in.topology, 8, 2, 0);
    in.dp = 16;
    in.ep = 16;
    in.moe_layers_per_stage = 1;
    in.ep_bytes = 1e6;
    cr_assert_eq(step(&in, &field), HWFIT_EDOM);
}

Test(edges, collective_counts_beyond_2_64_are_erange) {
    hwfit_collective_step_in in;
    const char *field;
    hwfit_collective_step_init(&in);
    topology(&in.topology, 8, 1, 0);
    in.tp = 2;
    in.tp_bytes = 1e6;
    in.sequence_parallel = 1;
    in.layers_per_stage = (uint64_t)1 << 63; /* x 1 collective: fits; x 2 with SP: not */
    in.tp_collectives_per_layer = 1;
    cr_assert_eq(step(&in, &field), HWFIT_ERANGE);
    cr_assert_str_eq(field, "tp_collectives_per_layer");
    hwfit_collective_step_init(&in);
    topology(&in.topology, 8, 1, 0);
    in.dp = 2;
    in.zero_stage = 3;
    in.param_bytes = 1e6;
    in.micro_batches = (uint64_t)1 << 63; /* two gathers per micro-batch */
    cr_assert_eq(step(&in, &field), HWFIT_ERANGE);
    cr_assert_str_eq(field, "micro_batches");
    hwfit_collective_step_init(&in);
    topology(&in.topology, 8, 1, 0);
    in.pp = 2;
    in.pp_bytes = 1e6;
    in.micro_batches = (uint64_t)1 << 63; /* forward and backward per micro-batch */
    cr_assert_eq(step(&in, &field), HWFIT_ERANGE);
}

Test(edges, recursive_all_reduce_folds_ranks_that_are_not_a_power_of_two) {
    hwfit_collective_in in;
    hwfit_collective_init(&in);
    in.ranks = 6;
    in.algorithm = HWFIT_COLLECTIVE_ALGO_RECURSIVE;
    hwfit_collective_out six, four;
    cr_assert_eq(hwfit_collective_estimate(&in, &six), HWFIT_OK);
    in.ranks = 4;
    cr_assert_eq(hwfit_collective_estimate(&in, &four), HWFIT_OK);
    /* The extra ranks fold in and out: two more steps of the whole buffer. */
    cr_assert(six.time_s > four.time_s);
}

Test(edges, infiniband_names_map_every_speed) {
    const char *names[] = {"100g-ib", "200g-ib", "400g-ib", "800g-ib"};
    const hwfit_link_ib_speed speeds[] = {HWFIT_LINK_IB_EDR, HWFIT_LINK_IB_HDR, HWFIT_LINK_IB_NDR,
                                          HWFIT_LINK_IB_XDR};
    for (size_t i = 0; i < 4; i++) {
        hwfit_link_in in;
        cr_assert_eq(hwfit_link_parse(names[i], &in), HWFIT_OK);
        cr_assert_eq(in.kind, HWFIT_LINK_INFINIBAND);
        cr_assert_eq(in.generation, (uint32_t)speeds[i]);
    }
}

Test(edges, hf_config_layer_types_must_be_an_array) {
    const char *text = "{\"model_type\": \"llama\", \"num_hidden_layers\": 2, \"hidden_size\": 64,"
                       " \"intermediate_size\": 128, \"num_attention_heads\": 4,"
                       " \"vocab_size\": 100, \"layer_types\": \"full_attention\"}";
    hwfit_model m;
    hwfit_error err;
    cr_assert_eq(hwfit_hf_config_parse(text, strlen(text), "c.json", &m, &err), HWFIT_EPARSE);
    cr_assert(strstr(err.message, "layer_types") != NULL, "%s", err.message);
}

Test(edges, qwen3_moe_slides_in_every_layer_when_it_has_a_window) {
    const char *text =
        "{\"model_type\": \"qwen3_moe\", \"num_hidden_layers\": 4, \"hidden_size\": 64,"
        " \"intermediate_size\": 128, \"moe_intermediate_size\": 32, \"num_experts\": 4,"
        " \"num_experts_per_tok\": 2, \"num_attention_heads\": 4, \"num_key_value_heads\": 2,"
        " \"head_dim\": 16, \"vocab_size\": 100, \"use_sliding_window\": true,"
        " \"sliding_window\": 32}";
    hwfit_model m;
    hwfit_error err;
    cr_assert_eq(hwfit_hf_config_parse(text, strlen(text), "c.json", &m, &err), HWFIT_OK,
                 "%s", err.message);
    for (uint32_t i = 0; i < m.layers; i++)
        cr_assert(m.layer_flags[i] & HWFIT_MODEL_LAYER_SLIDING, "layer %u", i);
}

Test(edges, reading_a_config_larger_than_the_first_buffer) {
    /* hwfit__read_file grows its buffer past 4096 bytes: a config padded with spaces. */
    char path[] = "/tmp/hwfit-edges-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    cr_assert_not_null(f);
    fputs("{\"model_type\": \"llama\", \"num_hidden_layers\": 2, \"hidden_size\": 64,", f);
    for (int i = 0; i < 20000; i++) fputc(' ', f);
    fputs(" \"intermediate_size\": 128, \"num_attention_heads\": 4, \"vocab_size\": 100}", f);
    fclose(f);
    hwfit_model m;
    hwfit_error err;
    hwfit_status st = hwfit_hf_config_load(path, &m, &err);
    remove(path);
    cr_assert_eq(st, HWFIT_OK, "%s", err.message);
    cr_assert_eq(m.layers, 2);
}

/* ---- weights and adapters beyond 2^64 bytes ------------------------------------------------ */

Test(edges, weights_that_overflow_a_byte_count_are_erange) {
    hwfit_model m;
    hwfit_memory_in in;
    hwfit_memory_out out;
    /* 3 x 2^61 MLP parameters per layer fit a count; in fp32 their bytes do not. */
    tiny_dense(&m, (uint64_t)1 << 21, 1, (uint64_t)1 << 40);
    hwfit_memory_init(&in);
    in.weights = hwfit_dtype_make(HWFIT_DTYPE_FP32);
    cr_assert_eq(hwfit_memory_estimate(&m, &in, &out), HWFIT_ERANGE);
    /* 2^55 bytes per layer fit; 1024 layers of them do not. */
    tiny_dense(&m, (uint64_t)1 << 20, 1, (uint64_t)1 << 32);
    m.layers = 1024;
    cr_assert_eq(hwfit_memory_estimate(&m, &in, &out), HWFIT_ERANGE);
    /* An embedding of 2^62 parameters: 2^64 bytes in fp32. */
    tiny_dense(&m, (uint64_t)1 << 31, (uint64_t)1 << 31, 1);
    m.tie_embeddings = 1;
    cr_assert_eq(hwfit_memory_estimate(&m, &in, &out), HWFIT_ERANGE);
}

Test(edges, lora_adapters_beyond_2_64_parameters_are_erange) {
    /* A 1-wide model with a 2^40-wide MLP: r (in + out) at rank 2^32 overflows per matrix,
     * though the model's own parameters fit. */
    hwfit_model m;
    tiny_dense(&m, 1, 1, (uint64_t)1 << 40);
    uint64_t n = 7;
    cr_assert_eq(hwfit_memory_lora_params(&m, UINT32_MAX, HWFIT_LORA_ALL, &n), HWFIT_ERANGE);
    cr_assert_eq(n, 7);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    in.lora_rank = UINT32_MAX;
    hwfit_memory_out out;
    cr_assert_eq(hwfit_memory_estimate(&m, &in, &out), HWFIT_ERANGE);
}

/* ---- quantities in JSON: the message names the unit of every kind ---------------------------- */

Test(edges, json_quantity_errors_name_every_unit) {
    const char *text = "{\"q\": \"lots\", \"n\": -5}";
    hwfit__json_doc *doc;
    hwfit_error err;
    cr_assert_eq(hwfit__json_parse(text, strlen(text), &doc, &err), HWFIT_OK);
    const hwfit__json_value *root = hwfit__json_root(doc);
    hwfit__json_ctx ctx = {"x.json", 0, &err};
    const hwfit_unit units[] = {HWFIT_UNIT_WATTS, HWFIT_UNIT_FLOP_PER_S, HWFIT_UNIT_FLOP,
                                HWFIT_UNIT_SECONDS};
    const char *words[] = {"700W", "989TFLOPS", "6PFLOP", "250ms"};
    const char *base[] = {" W", " FLOP/s", " FLOP", " s"};
    for (size_t i = 0; i < 4; i++) {
        double q = -1;
        cr_assert_eq(hwfit__json_read_quantity(&ctx, root, "q", 1, units[i], 0, 1e30, &q, NULL),
                     HWFIT_EPARSE);
        cr_assert(strstr(err.message, words[i]) != NULL, "%s", err.message);
        cr_assert_eq(hwfit__json_read_quantity(&ctx, root, "n", 1, units[i], 0, 1e30, &q, NULL),
                     HWFIT_EPARSE);
        cr_assert(strstr(err.message, base[i]) != NULL, "%s", err.message);
        cr_assert_eq(q, -1);
    }
    hwfit__json_free(doc);
}
