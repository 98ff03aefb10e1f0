/* fixtures.h - the two hand-built models the C tests share.
 *
 * Llama-3.1-8B (meta-llama/Llama-3.1-8B config.json: 32 layers, hidden 4096, 32 heads,
 * 8 KV heads, intermediate 14336, vocab 128256; untied head) and DeepSeek-V3
 * (deepseek-ai/DeepSeek-V3 config.json: MLA with q_lora_rank 1536, kv_lora_rank 512,
 * qk_nope/rope 128/64, v 128; 61 layers of which the first 3 dense with intermediate 18432;
 * 256 routed experts of 2048, 8 per token, 1 shared expert; a router bias; one multi-token
 * prediction layer). Built field by field, so that a test of the library's model
 * arithmetic does not depend on its config reader. The parameter counts these give are
 * pinned in tests/test_model.c against the published counts.
 */
#ifndef HWFIT_TESTS_FIXTURES_H
#define HWFIT_TESTS_FIXTURES_H

#include <hwfit/model.h>

static inline void fixture_llama_3_1_8b(hwfit_model *m) {
    hwfit_model_init(m);
    m->layers = 32;
    m->hidden = 4096;
    m->heads = 32;
    m->kv_heads = 8;
    m->intermediate = 14336;
    m->vocab = 128256;
}

/* Returns hwfit_model_set_moe_layers' status: the caller checks it its own way. */
static inline hwfit_status fixture_deepseek_v3(hwfit_model *m) {
    hwfit_model_init(m);
    m->attention = HWFIT_MODEL_ATTENTION_MLA;
    m->layers = 61;
    m->hidden = 7168;
    m->vocab = 129280;
    m->heads = 128;
    m->q_lora_rank = 1536;
    m->kv_lora_rank = 512;
    m->qk_nope_head_dim = 128;
    m->qk_rope_head_dim = 64;
    m->v_head_dim = 128;
    m->intermediate = 18432;
    m->experts = 256;
    m->experts_per_token = 8;
    m->expert_intermediate = 2048;
    m->shared_experts = 1;
    m->shared_expert_intermediate = 2048;
    m->router_bias = 1;
    m->mtp_layers = 1;
    return hwfit_model_set_moe_layers(m, 3, 1, 0);
}

#endif
