/* hf_config: real Hugging Face config.json files give the published parameter counts; the
 * transformers defaults fill missing keys; malformed, truncated and hostile files are refused
 * with the file, the position and the key. Sources of every config: tests/data/models. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "hwfit.h"

#define MODELS HWFIT_TEST_DATA "/models/"

static hwfit_model load_ok(const char *file) {
    hwfit_model m;
    hwfit_error err;
    hwfit_status st = hwfit_hf_config_load(file, &m, &err);
    cr_assert_eq(st, HWFIT_OK, "%s: %s: %s", file, hwfit_status_name(st), err.message);
    cr_assert_eq(err.status, HWFIT_OK);
    cr_assert_str_eq(err.message, "");
    return m;
}

static hwfit_model parse_ok(const char *json) {
    hwfit_model m;
    hwfit_error err;
    hwfit_status st = hwfit_hf_config_parse(json, strlen(json), "inline.json", &m, &err);
    cr_assert_eq(st, HWFIT_OK, "%s: %s", hwfit_status_name(st), err.message);
    return m;
}

static hwfit_model_param_counts params_of(const hwfit_model *m) {
    hwfit_model_param_counts p;
    cr_assert_eq(hwfit_model_params(m, &p), HWFIT_OK);
    return p;
}

static hwfit_model_kv_out kv_of(const hwfit_model *m, uint64_t context) {
    hwfit_model_kv_in in;
    hwfit_model_kv_init(&in);
    in.context = context;
    hwfit_model_kv_out out;
    cr_assert_eq(hwfit_model_kv(m, &in, &out), HWFIT_OK);
    return out;
}

static int hwfit__test_layer_sliding(const hwfit_model *m, uint32_t i) {
    return (m->layer_flags[i] & HWFIT_MODEL_LAYER_SLIDING) != 0;
}

/* ---- published totals ------------------------------------------------------------------------ */

/* Llama-3.1: safetensors metadata totals (reference/README.md) and bf16 KV per token. */
Test(hf_config, llama_3_1_configs_give_the_checkpoint_counts) {
    hwfit_model m = load_ok(MODELS "llama-3.1-8b.config.json");
    cr_assert_str_eq(m.name, "llama");
    cr_assert_eq(m.head_dim, 128);
    cr_assert_eq(m.max_context, 131072);
    cr_assert_eq(params_of(&m).total, 8030261248ull);
    cr_assert_eq(kv_of(&m, 1).bytes_per_token, 131072);
    m = load_ok(MODELS "llama-3.1-70b.config.json");
    cr_assert_eq(m.head_dim, 0); /* no head_dim key: hidden / heads */
    cr_assert_eq(params_of(&m).total, 70553706496ull);
    cr_assert_eq(kv_of(&m, 1).bytes_per_token, 327680);
    m = load_ok(MODELS "llama-3.1-405b.config.json");
    cr_assert_eq(params_of(&m).total, 405853388800ull);
    cr_assert_eq(kv_of(&m, 1).bytes_per_token, 516096);
}

/* Mixtral-8x7B: 46,702,792,704 = the safetensors total of mistralai/Mixtral-8x7B-v0.1 ("46.7B"
 * on the model card); 12,879,925,248 active ("12.9B"). sliding_window is null: no window. */
Test(hf_config, mixtral_moe) {
    hwfit_model m = load_ok(MODELS "mixtral-8x7b-instruct-v0.1.config.json");
    hwfit_model_param_counts p = params_of(&m);
    cr_assert_eq(p.total, 46702792704ull);
    cr_assert_eq(p.active, 12879925248ull);
    cr_assert_eq(p.moe_layers, 32);
    cr_assert_eq(m.sliding_window, 0);
    cr_assert_eq(kv_of(&m, 100000).bytes, 100000ull * 131072);
}

/* Qwen2.5-7B-Instruct: q, k, v biases (Qwen2Attention bias=True). 7,615,616,512 is the HF
 * page's "7.62B", derived by hand: layer 233,057,792 (attention 29,364,736 incl. 4,608 bias
 * values) x 28 + untied 152064 x 3584 embedding and head + 3584. */
Test(hf_config, qwen2_biases) {
    hwfit_model m = load_ok(MODELS "qwen2.5-7b-instruct.config.json");
    cr_assert(m.q_bias && m.k_bias && m.v_bias && !m.o_bias);
    hwfit_model_param_counts p = params_of(&m);
    cr_assert_eq(p.total, 7615616512ull);
    cr_assert_eq(p.dense.attention, 29364736ull);
    cr_assert_eq(kv_of(&m, 1).bytes_per_token, 28ull * 2 * 4 * 128 * 2);
    /* The model card's "Number of Parameters (Non-Embedding): 6.53B". */
    cr_assert_eq(p.total - p.embedding - p.head, 6525621760ull);
}

/* Qwen2.5-0.5B: tied embeddings; 494,032,768 ("0.49B", non-embedding "0.36B"). */
Test(hf_config, qwen2_tied) {
    hwfit_model m = load_ok(MODELS "qwen2.5-0.5b.config.json");
    cr_assert_eq(m.tie_embeddings, 1);
    hwfit_model_param_counts p = params_of(&m);
    cr_assert_eq(p.head, 0);
    cr_assert_eq(p.total, 494032768ull);
    cr_assert_eq(p.total - p.embedding, 357898112ull);
}

/* Qwen3-8B: explicit head_dim 128 and q/k norms. 8,190,735,360; the model card states
 * "8.2B" and "Non-Embedding: 6.95B" = 6,946,075,648. */
Test(hf_config, qwen3_head_dim_and_qk_norms) {
    hwfit_model m = load_ok(MODELS "qwen3-8b.config.json");
    cr_assert_eq(m.qk_norm, 1);
    hwfit_model_param_counts p = params_of(&m);
    cr_assert_eq(p.total, 8190735360ull);
    cr_assert_eq(p.total - p.embedding - p.head, 6946075648ull);
    cr_assert_eq(kv_of(&m, 1).bytes_per_token, 36ull * 2 * 8 * 128 * 2);
}

/* Qwen3-Coder-30B-A3B (the Qwen3-30B-A3B architecture): 30,532,122,624 total ("30.5B"),
 * 3,353,032,704 active ("3.3B activated"), non-embedding 29,909,792,768 ("29.9B"). head_dim
 * 128 is explicit, while hidden / heads = 64: tools that derive it undercount attention. */
Test(hf_config, qwen3_moe_explicit_head_dim) {
    hwfit_model m = load_ok(MODELS "qwen3-coder-30b-a3b-instruct.config.json");
    hwfit_model_param_counts p = params_of(&m);
    cr_assert_eq(p.total, 30532122624ull);
    cr_assert_eq(p.active, 3353032704ull);
    cr_assert_eq(p.total - p.embedding - p.head, 29909792768ull);
    cr_assert_eq(p.moe_layers, 48);
    cr_assert_eq(p.moe.shared_experts, 0);
    cr_assert_eq(kv_of(&m, 1).bytes_per_token, 48ull * 2 * 4 * 128 * 2); /* 98,304 B */
}

/* Qwen1.5-MoE-A2.7B: 60 experts of 1408, top-4, one shared expert of 5632 with its sigmoid
 * gate, q/k/v biases. 14,315,784,192 total ("14.3B"), 2,689,173,504 active ("2.7B"). */
Test(hf_config, qwen2_moe_shared_expert_and_gate) {
    hwfit_model m = load_ok(MODELS "qwen1.5-moe-a2.7b.config.json");
    hwfit_model_param_counts p = params_of(&m);
    cr_assert_eq(p.total, 14315784192ull);
    cr_assert_eq(p.active, 2689173504ull);
    cr_assert_eq(p.moe.shared_experts, 3ull * 2048 * 5632 + 2048);
    cr_assert_eq(p.moe.router, 60ull * 2048);
}

/* Gemma-2-9B-it: head_dim 256 (hidden / heads = 224), four norms per layer, embeddings tied by
 * Gemma2Config's default (the file has no tie_word_embeddings), even layers slide over 4096
 * tokens. 9,241,705,984 = google/gemma-2-9b's "9.24B", derived by hand (layer 198,195,200). */
Test(hf_config, gemma2_defaults_head_dim_and_alternating_window) {
    hwfit_model m = load_ok(MODELS "gemma-2-9b-it.config.json");
    cr_assert_eq(m.tie_embeddings, 1);
    cr_assert_eq(m.head_dim, 256);
    cr_assert_eq(m.norms_per_layer, 4);
    cr_assert_eq(m.sliding_window, 4096);
    cr_assert_eq(params_of(&m).total, 9241705984ull);
    hwfit_model_kv_out kv = kv_of(&m, 8192);
    cr_assert_eq(kv.sliding_layers, 21);
    cr_assert_eq(kv.full_layers, 21);
    cr_assert_eq(kv.bytes, (21ull * 8192 + 21ull * 4096) * 8192);
}

/* Gemma-3-4B-it: text_config followed; its missing keys take Gemma3TextConfig's defaults
 * (vocab 262208, 8 heads, 4 KV heads, head_dim 256, tied, pattern 6). Text model
 * 3,880,263,168 = 4,300,079,472 (google/gemma-3-4b-it safetensors total) - 416,866,032
 * (SigLIP so400m tower: patch 678,528 + positions 4,718,592 + 27 x 15,239,504 + 2,304)
 * - 2,950,272 (projector 1152 x 2560 + soft-embedding norm 1152). */
Test(hf_config, gemma3_text_config_and_five_local_per_global) {
    hwfit_model m = load_ok(MODELS "gemma-3-4b-it.config.json");
    cr_assert_str_eq(m.name, "gemma3_text");
    cr_assert_eq(m.vocab, 262208);
    cr_assert_eq(m.heads, 8);
    cr_assert_eq(m.kv_heads, 4);
    cr_assert_eq(m.qk_norm, 1);
    cr_assert_eq(params_of(&m).total, 3880263168ull);
    cr_assert_eq(3880263168ull + 416866032ull + 2950272ull, 4300079472ull);
    hwfit_model_kv_out kv = kv_of(&m, 32768);
    cr_assert_eq(kv.full_layers, 5);
    cr_assert_eq(kv.sliding_layers, 29);
    cr_assert_eq(kv.layer_bytes_per_token, 2 * 4 * 256 * 2);
    cr_assert_eq(kv.bytes, (5ull * 32768 + 29ull * 1024) * 4096);
}

/* Phi-3-mini-4k-instruct: fused qkv and gate_up projections hold the same parameters as
 * separate ones; 3,821,079,552 ("3.8B"). Phi3Attention applies sliding_window 2047 to every
 * layer, so the cache of a 4096-token context holds 2047 tokens per layer. */
Test(hf_config, phi3_window_on_every_layer) {
    hwfit_model m = load_ok(MODELS "phi-3-mini-4k-instruct.config.json");
    cr_assert_eq(params_of(&m).total, 3821079552ull);
    hwfit_model_kv_out kv = kv_of(&m, 4096);
    cr_assert_eq(kv.sliding_layers, 32);
    cr_assert_eq(kv.sliding_tokens, 2047);
    cr_assert_eq(kv.bytes, 32ull * 2047 * 2 * 32 * 96 * 2);
}

/* DeepSeek-Coder-V2-Lite (the DeepSeek-V2-Lite architecture): MLA without q compression
 * (q_lora_rank null), first layer dense, 26 MoE layers of 64 experts (top-6) and 2 shared.
 * 15,706,484,224 ("15.7B"), derived by hand from modeling_deepseek.py: attention 13,763,072,
 * dense layer 81,007,104, MoE layer 584,847,872. KV: 27 x 576 values x 2 B = 31,104 B/token. */
Test(hf_config, deepseek_v2_lite_mla) {
    hwfit_model m = load_ok(MODELS "deepseek-coder-v2-lite-base.config.json");
    cr_assert_eq(m.attention, HWFIT_MODEL_ATTENTION_MLA);
    cr_assert_eq(m.q_lora_rank, 0);
    hwfit_model_param_counts p = params_of(&m);
    cr_assert_eq(p.total, 15706484224ull);
    cr_assert_eq(p.dense_layers, 1);
    cr_assert_eq(p.dense.attention, 13763072ull);
    cr_assert_eq(p.moe.total, 584847872ull);
    cr_assert_eq(p.mtp_layers, 0);
    cr_assert_eq(kv_of(&m, 1).bytes_per_token, 31104);
}

/* DeepSeek-V3: 671,026,419,200 main-model parameters ("671B"), one MTP layer of
 * 11,610,068,224 reported apart, 70,272 B of latent cache per token in bf16. */
Test(hf_config, deepseek_v3_mla_moe_mtp) {
    hwfit_model m = load_ok(MODELS "deepseek-v3.config.json");
    hwfit_model_param_counts p = params_of(&m);
    cr_assert_eq(p.total, 671026419200ull);
    cr_assert_eq(p.active, 37552297472ull);
    cr_assert_eq(p.dense_layers, 3);
    cr_assert_eq(p.mtp_layers, 1);
    cr_assert_eq(p.mtp, 11610068224ull);
    cr_assert_eq(m.router_bias, 1);
    cr_assert_eq(kv_of(&m, 1).bytes_per_token, 70272);
}

/* ---- defaults of the transformers configuration classes --------------------------------------- */

/* LlamaConfig() is Llama-2-7B: 6,738,415,616 parameters (meta-llama/Llama-2-7b-hf). */
Test(hf_config, missing_keys_take_the_class_defaults) {
    hwfit_model m = parse_ok("{\"model_type\": \"llama\"}");
    cr_assert_eq(params_of(&m).total, 6738415616ull);
    cr_assert_eq(m.kv_heads, 32); /* num_key_value_heads None -> heads */
    /* GemmaConfig() is gemma-7b: 8,537,680,896 (google/gemma-7b "8.54B"). */
    m = parse_ok("{\"model_type\": \"gemma\"}");
    cr_assert_eq(params_of(&m).total, 8537680896ull);
    cr_assert_eq(m.tie_embeddings, 1);
    /* MistralConfig: sliding_window 4096 on every layer unless null. */
    m = parse_ok("{\"model_type\": \"mistral\"}");
    cr_assert_eq(m.sliding_window, 4096);
    cr_assert_eq(m.layer_flags[31], HWFIT_MODEL_LAYER_SLIDING);
    m = parse_ok("{\"model_type\": \"mistral\", \"sliding_window\": null}");
    cr_assert_eq(m.sliding_window, 0);
    cr_assert_eq(m.layer_flags[31], 0);
    /* null means "default" for num_key_value_heads and head_dim, as None does. */
    m = parse_ok("{\"model_type\": \"llama\", \"num_key_value_heads\": null, \"head_dim\": null}");
    cr_assert_eq(m.kv_heads, 32);
    cr_assert_eq(m.head_dim, 0);
    /* Qwen3MoeConfig has no head_dim default: without the key, hidden / heads. */
    m = parse_ok("{\"model_type\": \"qwen3_moe\"}");
    cr_assert_eq(m.head_dim, 0);
    m = parse_ok("{\"model_type\": \"qwen3\"}");
    cr_assert_eq(m.head_dim, 128);
    /* Gemma3Config without text_config is Gemma3TextConfig(). */
    m = parse_ok("{\"model_type\": \"gemma3\"}");
    cr_assert_str_eq(m.name, "gemma3_text");
    cr_assert_eq(m.layers, 26);
    /* DeepseekV3Config(): 61 layers, MLA; no MTP layers unless the file says so. */
    m = parse_ok("{\"model_type\": \"deepseek_v3\"}");
    cr_assert_eq(m.mtp_layers, 0);
    cr_assert_eq(params_of(&m).total, 671026419200ull);
}

/* gpt-oss (tests/data/models/README.md): every tensor of modeling_gpt_oss.py. Per layer:
 * attention 26,550,144 (q 4096 x 2880, k and v 512 x 2880, o 2880 x 4096, all with biases,
 * and 64 sinks); router 32 (128) x 2880 plus a bias per expert; each expert 24,891,840
 * (gate_up 2 x 2880 x 2880 + 5760 bias, down 2880 x 2880 + 2880 bias); two norms. Totals
 * 20,914,757,184 and 116,829,156,672: OpenAI's gpt-oss model card (arXiv 2508.10925,
 * Table 1) gives 20.91B and 116.83B. Active per token 4,187,440,704 and 5,711,982,912 count
 * the embedding; without it 3,608,307,264 and 5,132,849,472, the card's 3.61B and 5.13B.
 * Layers alternate sliding (window 128, even layers) and full: 2 x 8 x 64 x 2 B = 2 KiB per
 * layer and token in bf16, 48 KiB and 72 KiB per token while the context fits the window. */
Test(hf_config, gpt_oss_counts_and_sliding_cache) {
    hwfit_model m = load_ok(MODELS "gpt-oss-20b.config.json");
    cr_assert_str_eq(m.name, "gpt_oss");
    cr_assert_eq(m.attention_sinks, 1);
    cr_assert_eq(m.router_bias, 1);
    cr_assert_eq(m.mlp_bias, 1);
    cr_assert(m.q_bias && m.k_bias && m.v_bias && m.o_bias);
    cr_assert_eq(m.tie_embeddings, 0);
    hwfit_model_param_counts p = params_of(&m);
    cr_assert_eq(p.moe.attention, 26550144ull);
    cr_assert_eq(p.moe.expert, 24891840ull);
    cr_assert_eq(p.moe.router, 32ull * 2880 + 32);
    cr_assert_eq(p.moe_layers, 24);
    cr_assert_eq(p.total, 20914757184ull);
    cr_assert_eq(p.active, 4187440704ull);
    cr_assert_eq(p.active - p.embedding, 3608307264ull);
    hwfit_model_kv_out kv = kv_of(&m, 4096);
    cr_assert_eq(kv.sliding_layers, 12);
    cr_assert_eq(kv.full_layers, 12);
    cr_assert_eq(kv.layer_bytes_per_token, 2048);
    cr_assert_eq(kv.bytes_per_token, 49152);
    cr_assert_eq(kv.sliding_tokens, 128);
    cr_assert_eq(kv.bytes, 2048ull * (12 * 4096 + 12 * 128));
    cr_assert(hwfit__test_layer_sliding(&m, 0) && !hwfit__test_layer_sliding(&m, 1));

    m = load_ok(MODELS "gpt-oss-120b.config.json");
    p = params_of(&m);
    cr_assert_eq(p.moe_layers, 36);
    cr_assert_eq(p.moe.router, 128ull * 2880 + 128);
    cr_assert_eq(p.total, 116829156672ull);
    cr_assert_eq(p.active, 5711982912ull);
    cr_assert_eq(p.active - p.embedding, 5132849472ull);
    kv = kv_of(&m, 131072);
    cr_assert_eq(kv.bytes_per_token, 73728);
    cr_assert_eq(kv.bytes, 2048ull * (18 * 131072ull + 18 * 128));
    /* GptOssConfig() defaults: the 120b shapes, attention_bias true, window 128 on even
     * layers when layer_types is absent. */
    hwfit_model d = parse_ok("{\"model_type\": \"gpt_oss\"}");
    cr_assert_eq(params_of(&d).total, 116829156672ull);
    cr_assert_eq(kv_of(&d, 4096).sliding_layers, 18);
    cr_assert_eq(d.sliding_window, 128);
}

/* Llama 4 (language model only: Llama4ForConditionalGeneration's text_config; the vision
 * tower and projector are not counted, see docs/formulas.md). Per layer: attention
 * 62,914,560 (q, o 5120 x 5120, k, v 1024 x 5120, no biases; the L2 q/k norm has no
 * weights); a MoE layer adds a router E x 5120, E experts of 3 x 8192 x 5120 =
 * 125,829,120 and one shared expert of the same size; a dense layer an MLP of
 * 3 x 16384 x 5120. Scout: 48 MoE layers of 16 experts, 107,769,861,120 parameters; with
 * the vision tower counted from the same config (871,932,416: 34 encoder layers of
 * 23,807,872, patch and position embeddings, adapter and projector) 108,641,793,536, Meta's
 * "109B". Maverick: MoE every 2nd layer (odd layers) with 128 experts, 400,711,848,960
 * (Meta's "400B"; 401,583,781,376 with the vision tower). Both 17.2B active per token
 * (Meta: "17B active"). RoPE layers (3 of every 4) use chunked attention of 8192 tokens:
 * their cache is bounded by the chunk. */
Test(hf_config, llama4_counts_and_chunked_cache) {
    hwfit_model m = load_ok(MODELS "llama-4-scout-17b-16e.config.json");
    cr_assert_str_eq(m.name, "llama4_text");
    cr_assert_eq(m.chunked_attention, 1);
    cr_assert_eq(m.sliding_window, 8192);
    cr_assert_eq(m.experts, 16);
    cr_assert_eq(m.experts_per_token, 1);
    cr_assert_eq(m.shared_experts, 1);
    cr_assert_eq(m.intermediate, 16384);
    cr_assert_eq(m.expert_intermediate, 8192);
    hwfit_model_param_counts p = params_of(&m);
    cr_assert_eq(p.moe.attention, 62914560ull);
    cr_assert_eq(p.moe.total, 2202101760ull);
    cr_assert_eq(p.moe_layers, 48);
    cr_assert_eq(p.total, 107769861120ull);
    cr_assert_eq(p.active, 17172894720ull);
    /* 12 NoPE layers (every 4th) attend fully; 36 chunked layers hold at most 8192 tokens. */
    hwfit_model_kv_out kv = kv_of(&m, 131072);
    cr_assert_eq(kv.full_layers, 12);
    cr_assert_eq(kv.sliding_layers, 36);
    cr_assert_eq(kv.layer_bytes_per_token, 4096);
    cr_assert_eq(kv.bytes_per_token, 196608);
    cr_assert_eq(kv.sliding_tokens, 8192);
    cr_assert_eq(kv.bytes, 4096ull * (12 * 131072ull + 36 * 8192ull));
    cr_assert(hwfit__test_layer_sliding(&m, 0) && !hwfit__test_layer_sliding(&m, 3));

    m = load_ok(MODELS "llama-4-maverick-17b-128e.config.json");
    p = params_of(&m);
    cr_assert_eq(p.moe_layers, 24);
    cr_assert_eq(p.dense_layers, 24);
    cr_assert_eq(p.dense.total, 314583040ull);
    cr_assert_eq(p.moe.total, 16295536640ull);
    cr_assert_eq(p.total, 400711848960ull);
    cr_assert_eq(p.active, 17184691200ull);
    cr_assert_eq(m.layer_flags[0] & HWFIT_MODEL_LAYER_MOE, 0);
    cr_assert_neq(m.layer_flags[1] & HWFIT_MODEL_LAYER_MOE, 0);
    cr_assert_eq(kv_of(&m, 4096).bytes, 4096ull * 48 * 4096); /* within one chunk */

    /* Llama4Config without text_config: Llama4TextConfig() (Scout's shapes), a NoPE layer
     * every no_rope_layer_interval (4) layers; moe_layers from interleave_moe_layer_step. */
    hwfit_model d = parse_ok("{\"model_type\": \"llama4\"}");
    cr_assert_eq(params_of(&d).total, 107769861120ull);
    cr_assert_eq(kv_of(&d, 65536).sliding_layers, 36);
    d = parse_ok("{\"model_type\": \"llama4_text\", \"num_hidden_layers\": 6, "
                 "\"interleave_moe_layer_step\": 3, \"no_rope_layer_interval\": 2}");
    p = params_of(&d);
    cr_assert_eq(p.moe_layers, 2); /* layers 2 and 5 */
    cr_assert_neq(d.layer_flags[2] & HWFIT_MODEL_LAYER_MOE, 0);
    cr_assert_eq(kv_of(&d, 65536).sliding_layers, 3); /* layers 0, 2, 4 */
    /* attention_chunk_size null: every layer attends fully. */
    d = parse_ok("{\"model_type\": \"llama4_text\", \"attention_chunk_size\": null}");
    cr_assert_eq(d.chunked_attention, 0);
    cr_assert_eq(kv_of(&d, 65536).sliding_layers, 0);
    /* An explicit layer_types list with chunked_attention is followed. */
    d = parse_ok("{\"model_type\": \"llama4_text\", \"num_hidden_layers\": 2, "
                 "\"layer_types\": [\"full_attention\", \"chunked_attention\"]}");
    cr_assert_eq(kv_of(&d, 65536).sliding_layers, 1);
    cr_assert(!hwfit__test_layer_sliding(&d, 0) && hwfit__test_layer_sliding(&d, 1));
}

/* GLM-4.5 and GLM-4.5-Air (modeling_glm4_moe.py): q, k, v with biases, o without; GLM-4.5
 * also has q/k norms (use_qk_norm). Attention 136,329,472 (GLM-4.5: q 12288 x 5120,
 * k, v 1024 x 5120, o 5120 x 12288, biases 14,336, norms 256) and 109,066,240 (Air).
 * MoE layers: router E x h plus e_score_correction_bias, E experts and one shared expert of
 * 3 x h x moe_intermediate_size. GLM-4.5: 3 dense + 89 MoE layers, 352,797,829,024; Air:
 * 1 dense + 45 MoE, 106,852,251,264. Z.ai (zai-org/GLM-4.5 README.md): "355 billion total
 * parameters with 32 billion active", Air "106 billion total ... 12 billion active"; the
 * main model's counts here are 352.8B and 106.9B (the configs are written from published
 * values, tests/data/models/README.md). Active per token here 33,632,266,144 and 13,424,129,664
 * with the embedding, 32,856,319,904 and 12,803,372,672 without. The MTP layer
 * (num_nextn_predict_layers 1) is reported apart: a MoE decoder layer plus enorm, hnorm,
 * shared_head.norm and eh_proj 5120 x 10240, 3,988,069,792 (Air 2,375,059,584); it is
 * not in the total nor in the active count, as it does not run in plain decoding. */
Test(hf_config, glm4_moe_counts_and_mtp) {
    hwfit_model m = load_ok(MODELS "glm-4.5.config.json");
    cr_assert_str_eq(m.name, "glm4_moe");
    cr_assert(m.q_bias && m.k_bias && m.v_bias && !m.o_bias);
    cr_assert_eq(m.qk_norm, 1);
    cr_assert_eq(m.router_bias, 1);
    cr_assert_eq(m.head_dim, 128);
    hwfit_model_param_counts p = params_of(&m);
    cr_assert_eq(p.dense_layers, 3);
    cr_assert_eq(p.moe_layers, 89);
    cr_assert_eq(p.moe.attention, 136329472ull);
    cr_assert_eq(p.moe.total, 3935625632ull);
    cr_assert_eq(p.dense.total, 325083392ull);
    cr_assert_eq(p.total, 352797829024ull);
    cr_assert_eq(p.active, 33632266144ull);
    cr_assert_eq(p.mtp_layers, 1);
    cr_assert_eq(p.mtp, 3988069792ull);
    cr_assert_eq(kv_of(&m, 1).bytes_per_token, 376832); /* 92 x 2 x 8 x 128 x 2 B */

    m = load_ok(MODELS "glm-4.5-air.config.json");
    cr_assert_eq(m.qk_norm, 0);
    p = params_of(&m);
    cr_assert_eq(p.dense_layers, 1);
    cr_assert_eq(p.moe.attention, 109066240ull);
    cr_assert_eq(p.total, 106852251264ull);
    cr_assert_eq(p.active, 13424129664ull);
    cr_assert_eq(p.mtp, 2375059584ull);
    cr_assert_eq(kv_of(&m, 1).bytes_per_token, 188416);
    /* A GGUF converted from the GLM-4.5-Air checkpoint with its MTP layer but not yet its
     * eh_proj (4096 x 8192) printed "model params = 109.194 B" and "repeating layers =
     * ... 107.952 B" (ikawrakow/ik_llama.cpp pull request 668, 2025-08-02): main model + MTP
     * layer - eh_proj = 109,193,756,416, and without embedding, head and final norm
     * 107,952,238,336. */
    uint64_t eh_proj = 4096ull * 8192;
    cr_assert_eq((p.total + p.mtp - eh_proj + 500000) / 1000000, 109194);
    cr_assert_eq((p.total - p.embedding - p.head - p.final_norm + p.mtp - eh_proj + 500000) /
                     1000000,
                 107952);

    /* Glm4MoeConfig() defaults: 46 layers, first 1 dense, 128 experts of 1408, no biases,
     * no MTP layer. Its 96 heads do not divide hidden 4096 and it has no head_dim default
     * (transformers would floor 4096 / 96): a file must say head_dim, as GLM-4.5's do. */
    hwfit_model d = parse_ok("{\"model_type\": \"glm4_moe\", \"head_dim\": 128}");
    cr_assert_eq(d.layers, 46);
    cr_assert_eq(d.q_bias, 0);
    cr_assert_eq(d.mtp_layers, 0);
    cr_assert_eq(params_of(&d).dense_layers, 1);
}

Test(hf_config, layer_rules_and_explicit_layer_types) {
    /* Qwen2: use_sliding_window with max_window_layers 2 of 4: layers 2 and 3 slide. */
    hwfit_model m = parse_ok("{\"model_type\": \"qwen2\", \"num_hidden_layers\": 4, "
                             "\"use_sliding_window\": true, \"sliding_window\": 1024, "
                             "\"max_window_layers\": 2}");
    cr_assert_eq(m.layer_flags[1], 0);
    cr_assert_eq(m.layer_flags[2], HWFIT_MODEL_LAYER_SLIDING);
    cr_assert_eq(m.sliding_window, 1024);
    /* Without use_sliding_window the window is ignored. */
    m = parse_ok("{\"model_type\": \"qwen2\", \"sliding_window\": 1024}");
    cr_assert_eq(m.sliding_window, 0);
    /* layer_types overrides the rule. */
    m = parse_ok("{\"model_type\": \"gemma3_text\", \"num_hidden_layers\": 3, \"layer_types\": "
                 "[\"full_attention\", \"sliding_attention\", \"full_attention\"]}");
    cr_assert_eq(m.layer_flags[0], 0);
    cr_assert_eq(m.layer_flags[1], HWFIT_MODEL_LAYER_SLIDING);
    cr_assert_eq(m.layer_flags[2], 0);
    /* Qwen-MoE: decoder_sparse_step 2 and mlp_only_layers. */
    m = parse_ok("{\"model_type\": \"qwen2_moe\", \"num_hidden_layers\": 6, "
                 "\"decoder_sparse_step\": 2, \"mlp_only_layers\": [3]}");
    cr_assert_eq(m.layer_flags[0], 0);
    cr_assert_eq(m.layer_flags[1], HWFIT_MODEL_LAYER_MOE);
    cr_assert_eq(m.layer_flags[3], 0);
    cr_assert_eq(m.layer_flags[5], HWFIT_MODEL_LAYER_MOE);
    /* DeepSeek: first_k_dense_replace and moe_layer_freq. */
    m = parse_ok("{\"model_type\": \"deepseek_v2\", \"num_hidden_layers\": 6, "
                 "\"num_experts_per_tok\": 2, \"first_k_dense_replace\": 1, "
                 "\"moe_layer_freq\": 2}");
    cr_assert_eq(m.layer_flags[0], 0);
    cr_assert_eq(m.layer_flags[1], 0);
    cr_assert_eq(m.layer_flags[2], HWFIT_MODEL_LAYER_MOE);
    cr_assert_eq(m.layer_flags[3], 0);
    cr_assert_eq(m.layer_flags[4], HWFIT_MODEL_LAYER_MOE);
    /* Llama attention_bias puts biases on q, k, v and o. */
    m = parse_ok("{\"model_type\": \"llama\", \"attention_bias\": true, \"mlp_bias\": true}");
    cr_assert(m.q_bias && m.k_bias && m.v_bias && m.o_bias && m.mlp_bias);
    /* A text_config of any supported type is followed. */
    m = parse_ok("{\"model_type\": \"llava\", \"text_config\": {\"model_type\": \"mistral\", "
                 "\"num_hidden_layers\": 2}}");
    cr_assert_str_eq(m.name, "mistral");
    cr_assert_eq(m.layers, 2);
}

Test(hf_config, loading_a_file_equals_parsing_its_bytes) {
    const char *path = MODELS "deepseek-v3.config.json";
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f);
    char buf[8192];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    hwfit_model a = load_ok(path), b;
    hwfit_error err;
    cr_assert_eq(hwfit_hf_config_parse(buf, n, path, &b, &err), HWFIT_OK);
    cr_assert_eq(memcmp(&a, &b, sizeof a), 0);
}

/* ---- refused input ----------------------------------------------------------------------------- */

typedef struct bad_case {
    const char *json;
    hwfit_status want;
    const char *mentions; /* a substring of the message */
    uint32_t line;        /* expected line, 0 = any */
} bad_case;

static void assert_refused(const bad_case *c, size_t length) {
    hwfit_model m, poison;
    memset(&m, 0x5a, sizeof m);
    memset(&poison, 0x5a, sizeof poison);
    hwfit_error err;
    hwfit_status st = hwfit_hf_config_parse(c->json, length, "bad.json", &m, &err);
    cr_assert_eq(st, c->want, "%.60s: got %s (%s)", c->json, hwfit_status_name(st), err.message);
    cr_assert_eq(err.status, c->want);
    cr_assert_eq(memcmp(&m, &poison, sizeof m), 0, "%.60s wrote the model", c->json);
    cr_assert(strncmp(err.message, "bad.json", 8) == 0, "message names the file: %s", err.message);
    cr_assert(strstr(err.message, c->mentions) != NULL, "'%s' not in '%s'", c->mentions,
              err.message);
    if (c->line) cr_assert_eq(err.line, c->line, "%s: line %u", err.message, err.line);
}

Test(hf_config, bad_values_are_refused_with_file_position_and_key) {
    static const bad_case cases[] = {
        {"{\"model_type\": \"bert\"}", HWFIT_EUNSUPPORTED, "\"bert\" is not supported", 1},
        {"{\"hidden_size\": 10}", HWFIT_EPARSE, "model_type", 1},
        {"{\"model_type\": 5}", HWFIT_EPARSE, "model_type", 1},
        {"{\"model_type\": \"llama\",\n \"num_hidden_layers\": \"32\"}", HWFIT_EPARSE,
         "num_hidden_layers", 2},
        {"{\"model_type\": \"llama\",\n\n \"hidden_size\": -4096}", HWFIT_EPARSE, "hidden_size", 3},
        {"{\"model_type\": \"llama\", \"hidden_size\": 4096.5}", HWFIT_EPARSE, "hidden_size", 1},
        {"{\"model_type\": \"llama\", \"hidden_size\": 1e30}", HWFIT_EPARSE, "hidden_size", 1},
        {"{\"model_type\": \"llama\", \"vocab_size\": 0}", HWFIT_EPARSE, "vocab_size", 1},
        {"{\"model_type\": \"llama\", \"num_hidden_layers\": 100000}", HWFIT_EPARSE,
         "num_hidden_layers", 1},
        {"{\"model_type\": \"llama\", \"tie_word_embeddings\": \"yes\"}", HWFIT_EPARSE,
         "tie_word_embeddings", 1},
        {"{\"model_type\": \"llama\", \"num_key_value_heads\": 5}", HWFIT_EPARSE,
         "num_key_value_heads", 1},
        {"{\"model_type\": \"llama\", \"num_key_value_heads\": 64}", HWFIT_EPARSE,
         "num_key_value_heads", 1},
        {"{\"model_type\": \"llama\", \"hidden_size\": 4097}", HWFIT_EPARSE,
         "num_attention_heads", 0},
        {"{\"model_type\": \"gemma3\", \"text_config\": 5}", HWFIT_EPARSE, "text_config", 1},
        {"{\"model_type\": \"gemma3\", \"text_config\": {\"model_type\": \"siglip\"}}",
         HWFIT_EUNSUPPORTED, "siglip", 1},
        {"{\"model_type\": \"gemma2\", \"num_hidden_layers\": 2, \"layer_types\": "
         "[\"full_attention\"]}",
         HWFIT_EPARSE, "layer_types", 1},
        {"{\"model_type\": \"gemma2\", \"num_hidden_layers\": 1, \"layer_types\": "
         "[\"linear_attention\"]}",
         HWFIT_EUNSUPPORTED, "linear_attention", 1},
        {"{\"model_type\": \"gemma2\", \"num_hidden_layers\": 1, \"layer_types\": [7]}",
         HWFIT_EPARSE, "layer_types", 1},
        {"{\"model_type\": \"qwen2_moe\", \"num_hidden_layers\": 4, \"mlp_only_layers\": [4]}",
         HWFIT_EPARSE, "mlp_only_layers", 1},
        {"{\"model_type\": \"qwen2_moe\", \"mlp_only_layers\": {}}", HWFIT_EPARSE,
         "mlp_only_layers", 1},
        {"{\"model_type\": \"mixtral\", \"num_experts_per_tok\": 9}", HWFIT_EPARSE,
         "num_experts_per_tok", 1},
        {"{\"model_type\": \"deepseek_v2\"}", HWFIT_EPARSE, "num_experts_per_tok", 1},
        {"{\"model_type\": \"deepseek_v3\", \"qk_nope_head_dim\": 0, \"qk_rope_head_dim\": 0}",
         HWFIT_EPARSE, "qk_nope_head_dim", 1},
        {"[1, 2]", HWFIT_EPARSE, "object", 1},
        /* Llama 4 and the chunked layer type */
        {"{\"model_type\": \"llama4_text\", \"num_hidden_layers\": 2, \"no_rope_layers\": "
         "[1, 2]}",
         HWFIT_EPARSE, "no_rope_layers", 1},
        {"{\"model_type\": \"llama4_text\", \"num_hidden_layers\": 2, \"no_rope_layers\": [1]}",
         HWFIT_EPARSE, "no_rope_layers", 1},
        {"{\"model_type\": \"llama4_text\", \"num_hidden_layers\": 2, \"moe_layers\": [2]}",
         HWFIT_EPARSE, "moe_layers", 1},
        {"{\"model_type\": \"llama4_text\", \"moe_layers\": 3}", HWFIT_EPARSE, "moe_layers", 1},
        {"{\"model_type\": \"llama4_text\", \"num_hidden_layers\": 1, \"layer_types\": "
         "[\"sliding_attention\"]}",
         HWFIT_EUNSUPPORTED, "chunked_attention", 1},
        {"{\"model_type\": \"gpt_oss\", \"num_hidden_layers\": 1, \"layer_types\": "
         "[\"chunked_attention\"]}",
         HWFIT_EUNSUPPORTED, "chunked_attention", 1},
        {"{\"model_type\": \"gpt_oss\", \"num_experts_per_tok\": 129}", HWFIT_EPARSE,
         "num_experts_per_tok", 1},
        {"{\"model_type\": \"glm4_moe\", \"head_dim\": 128, \"first_k_dense_replace\": -1}",
         HWFIT_EPARSE, "first_k_dense_replace", 1},
        {"{\"model_type\": \"glm4_moe\"}", HWFIT_EPARSE, "no head_dim", 0},
        /* malformed and truncated JSON */
        {"", HWFIT_EPARSE, "bad.json", 0},
        {"{\"model_type\": \"llama\",}", HWFIT_EPARSE, "bad.json", 1},
        {"{\"model_type\": \"llama\", \"hidden_size\": 40", HWFIT_EPARSE, "bad.json", 1},
        {"{\"model_type\": \"llama\"} {}", HWFIT_EPARSE, "bad.json", 1},
        {"{\"model_type\": \"llama\", \"model_type\": \"llama\"}", HWFIT_EPARSE, "bad.json", 1},
        /* hostile: a number beyond a double */
        {"{\"model_type\": \"llama\", \"hidden_size\": 1e999}", HWFIT_ERANGE, "bad.json", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        assert_refused(&cases[i], strlen(cases[i].json));
}

Test(hf_config, truncated_and_deeply_nested_files_are_refused) {
    /* Every prefix of a real config is refused, never read as a smaller model. */
    const char *path = MODELS "gemma-3-4b-it.config.json";
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f);
    char buf[4096];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    for (size_t cut = 0; cut + 2 < n; cut += 7) {
        bad_case c = {buf, HWFIT_EPARSE, "bad.json", 0};
        assert_refused(&c, cut);
    }
    /* 10,000 nested arrays under a key. */
    static char deep[20100];
    size_t k = (size_t)snprintf(deep, sizeof deep, "{\"model_type\": \"llama\", \"x\": ");
    for (int i = 0; i < 10000; i++) deep[k++] = '[';
    for (int i = 0; i < 10000; i++) deep[k++] = ']';
    deep[k++] = '}';
    deep[k] = '\0';
    bad_case c = {deep, HWFIT_ERANGE, "bad.json", 0};
    assert_refused(&c, k);
}

Test(hf_config, bad_arguments_and_missing_files) {
    hwfit_model m;
    hwfit_error err;
    memset(&m, 0x5a, sizeof m);
    cr_assert_eq(hwfit_hf_config_load(MODELS "no-such-model.config.json", &m, &err), HWFIT_EIO);
    cr_assert(strstr(err.message, "no-such-model") != NULL, "%s", err.message);
    cr_assert_eq(m.layers, 0x5a5a5a5au);
    cr_assert_eq(hwfit_hf_config_load(NULL, &m, &err), HWFIT_EINVAL);
    cr_assert_eq(hwfit_hf_config_load(MODELS "llama-3.1-8b.config.json", NULL, &err), HWFIT_EINVAL);
    cr_assert_eq(hwfit_hf_config_parse(NULL, 0, NULL, &m, &err), HWFIT_EINVAL);
    cr_assert_eq(hwfit_hf_config_parse("{}", 2, NULL, NULL, &err), HWFIT_EINVAL);
    cr_assert_eq(hwfit_hf_config_parse("{}", HWFIT_HF_CONFIG_MAX_BYTES + 1u, NULL, &m, &err),
                 HWFIT_ERANGE);
    /* A NULL error report is allowed; the name defaults to config.json. */
    cr_assert_eq(hwfit_hf_config_parse("{}", 2, NULL, &m, NULL), HWFIT_EPARSE);
    cr_assert_eq(hwfit_hf_config_parse("{}", 2, NULL, &m, &err), HWFIT_EPARSE);
    cr_assert(strncmp(err.message, "config.json: ", 13) == 0, "%s", err.message);
    /* The directory of configs is not a file. */
    cr_assert_neq(hwfit_hf_config_load(HWFIT_TEST_DATA "/models", &m, &err), HWFIT_OK);
}

/* attn_logit_softcapping: Gemma 2 writes 50.0 (soft-capped), Gemma 3 null, Llama none; a
 * value that is not a positive number is refused with the key named. */
Test(hf_config, attention_softcap_from_attn_logit_softcapping) {
    cr_assert_eq(load_ok(MODELS "gemma-2-9b-it.config.json").attention_softcap, 1);
    cr_assert_eq(load_ok(MODELS "gemma-3-1b-it.config.json").attention_softcap, 0);
    cr_assert_eq(load_ok(MODELS "llama-3.1-8b.config.json").attention_softcap, 0);
    const char *bad = "{\"model_type\": \"gemma2\", \"vocab_size\": 256000, \"hidden_size\": 2304,"
                      " \"intermediate_size\": 9216, \"num_hidden_layers\": 26,"
                      " \"num_attention_heads\": 8, \"num_key_value_heads\": 4,"
                      " \"head_dim\": 256, \"attn_logit_softcapping\": -1}";
    hwfit_model m;
    hwfit_error err;
    cr_assert_eq(hwfit_hf_config_parse(bad, strlen(bad), "bad.json", &m, &err), HWFIT_EPARSE);
    cr_assert(strstr(err.message, "attn_logit_softcapping") != NULL, "%s", err.message);
}

/* GLM-4-0414 (model_type glm4; transformers models/glm4/modular_glm4.py): GlmAttention's
 * q, k, v with bias (attention_bias, default True) and o without; Phi3MLP's fused gate_up
 * (2 x 13696 x 4096) and down; four norms a layer (input, post_self_attn, post_attention,
 * post_mlp); untied head. GLM-4-9B-0414 by hand: attention 4096 x 4096 + 4096 (q) +
 * 2 x (256 x 4096 + 256) (k, v) + 4096 x 4096 (o) = 35,656,192; MLP 3 x 4096 x 13696 =
 * 168,296,448; norms 4 x 4096; 40 layers + 2 x 151552 x 4096 + 4096 = 9,400,279,040. */
Test(hf_config, glm4_0414_has_four_norms_a_layer_and_qkv_bias) {
    hwfit_model m = load_ok(MODELS "glm-4-9b-0414.config.json");
    cr_assert_eq(m.norms_per_layer, 4);
    cr_assert_eq(m.q_bias, 1);
    cr_assert_eq(m.k_bias, 1);
    cr_assert_eq(m.v_bias, 1);
    cr_assert_eq(m.o_bias, 0);
    cr_assert_eq(m.tie_embeddings, 0);
    cr_assert_eq(m.head_dim, 128);
    hwfit_model_param_counts p = params_of(&m);
    cr_assert_eq(p.dense.attention, 35656192ull);
    cr_assert_eq(p.dense.mlp, 168296448ull);
    cr_assert_eq(p.dense.norms, 4ull * 4096);
    cr_assert_eq(p.total, 40ull * (35656192 + 168296448 + 4 * 4096) + 2ull * 151552 * 4096 + 4096);
    cr_assert_eq(p.total, 9400279040ull);
    cr_assert_eq(kv_of(&m, 1).bytes_per_token, 40u * 2 * 2 * 128 * 2); /* 40 x K,V x 2 x 128 x 2 B */
    /* Glm4Config() defaults: the 9B shapes, biased q/k/v. */
    hwfit_model d = parse_ok("{\"model_type\": \"glm4\"}");
    cr_assert_eq(d.layers, 40);
    cr_assert_eq(d.kv_heads, 2);
    cr_assert_eq(d.q_bias, 1);
    cr_assert_eq(params_of(&d).total, 9400279040ull);
    d = parse_ok("{\"model_type\": \"glm4\", \"attention_bias\": false}");
    cr_assert_eq(d.q_bias, 0);
}

/* The modules a checkpoint fuses (fused_modules), as its transformers modeling code builds
 * them: Phi3Attention.qkv_proj and Phi3MLP.gate_up_proj (phi3: Phi-3, Phi-3.5, Phi-4),
 * Glm4MLP.gate_up_proj (glm4; GlmAttention's q, k, v stay apart); Mistral (which shares
 * Phi-3's reading of sliding_window), Llama and GLM-4.5 (Glm4MoeMLP gate_proj, up_proj)
 * fuse nothing. The parameter counts do not change. */
Test(hf_config, fused_modules_of_the_checkpoint) {
    hwfit_model m = load_ok(MODELS "phi-3-mini-4k-instruct.config.json");
    cr_assert_eq(m.fused_modules, HWFIT_MODEL_FUSED_QKV | HWFIT_MODEL_FUSED_GATE_UP);
    cr_assert_eq(params_of(&m).total, 3821079552ull);
    m = load_ok(MODELS "phi-4.config.json");
    cr_assert_eq(m.fused_modules, HWFIT_MODEL_FUSED_ALL);
    m = load_ok(MODELS "glm-4-9b-0414.config.json");
    cr_assert_eq(m.fused_modules, HWFIT_MODEL_FUSED_GATE_UP);
    cr_assert_eq(params_of(&m).total, 9400279040ull);
    m = load_ok(MODELS "glm-4.5-air.config.json");
    cr_assert_eq(m.fused_modules, 0u);
    m = load_ok(MODELS "mistral-7b-v0.3.config.json");
    cr_assert_eq(m.fused_modules, 0u);
    m = load_ok(MODELS "llama-3.1-8b.config.json");
    cr_assert_eq(m.fused_modules, 0u);
}
