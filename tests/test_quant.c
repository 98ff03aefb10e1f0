#define _POSIX_C_SOURCE 200809L /* mkdtemp */
/* test_quant.c - weights as checkpoints store them: quantization_config (hf_quant.h), the
 * tile and per-row formats (dtype.h), the stored formats applied to a workload
 * (hwfit_memory_use_stored), and exact sizes from safetensors headers (safetensors.h). */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hwfit.h"

#define MODELS HWFIT_TEST_DATA "/models/"

static hwfit_model *load(const char *path) {
    hwfit_model *m = malloc(sizeof *m);
    cr_assert_not_null(m);
    hwfit_error err;
    cr_assert_eq(hwfit_hf_config_load(path, m, &err), HWFIT_OK, "%s: %s", path, err.message);
    return m;
}

static hwfit_status quant(const char *json, hwfit_model_stored *s, hwfit_error *err) {
    return hwfit_hf_quant_parse(json, strlen(json), "q.json", s, err);
}

static int is(hwfit_dtype d, hwfit_dtype_id id, uint32_t group) {
    return d.id == id && d.group_size == group;
}

/* ---- the tile and row formats ------------------------------------------------------------ */

Test(quant, fp8_block_matrix_is_values_plus_one_fp32_per_128x128_tile) {
    /* DeepSeek-V3's mlp.down_proj of a dense layer: weight [7168, 18432] float8_e4m3fn and
     * weight_scale_inv [56, 144] float32 (DeepSeek-V3 inference/kernel.py weight_dequant). */
    hwfit_dtype d;
    cr_assert_eq(hwfit_dtype_parse("fp8-b128", &d), HWFIT_OK);
    uint64_t b;
    cr_assert_eq(hwfit_dtype_matrix_bytes(d, 7168, 18432, &b), HWFIT_OK);
    cr_assert_eq(b, 7168ull * 18432 + 56ull * 144 * 4);
    /* A partial tile has its own scale: kv_a_proj_with_mqa [576, 7168] -> [5, 56] scales. */
    cr_assert_eq(hwfit_dtype_matrix_bytes(d, 576, 7168, &b), HWFIT_OK);
    cr_assert_eq(b, 576ull * 7168 + 5ull * 56 * 4);
    /* Per-channel formats: one fp32 per row (fbgemm weight_scale [out, 1]; bnb SCB [out]). */
    cr_assert_eq(hwfit_dtype_parse("fp8-ch", &d), HWFIT_OK);
    cr_assert_eq(hwfit_dtype_matrix_bytes(d, 4096, 14336, &b), HWFIT_OK);
    cr_assert_eq(b, 4096ull * 14336 + 4096ull * 4);
    cr_assert_eq(hwfit_dtype_parse("int8-ch", &d), HWFIT_OK);
    cr_assert_eq(hwfit_dtype_matrix_bytes(d, 3, 5, &b), HWFIT_OK);
    cr_assert_eq(b, 15u + 12u);
    hwfit_dtype_info info;
    cr_assert_eq(hwfit_dtype_describe(d, &info), HWFIT_OK);
    cr_assert_eq(info.row_scale_bits, 32u);
    cr_assert(info.quantized);
}

/* ---- DeepSeek-V3: fp8 with 128x128 blocks -------------------------------------------------- */

/* One fp8 matrix with its fp32 tile scales, computed here from the shapes. */
static uint64_t fp8(uint64_t out, uint64_t in) {
    return out * in + ((out + 127) / 128) * ((in + 127) / 128) * 4;
}

Test(quant, deepseek_v3_weights_are_fp8_blocks_and_bf16_rest) {
    hwfit_model *m = load(MODELS "deepseek-v3.config.json");
    const hwfit_model_stored *s = &m->stored;
    cr_assert_eq(s->method, HWFIT_MODEL_QUANT_FP8);
    cr_assert(s->flags & HWFIT_STORED_QUANTIZED);
    cr_assert(s->flags & HWFIT_STORED_DTYPE_GIVEN);
    cr_assert(is(s->checkpoint, HWFIT_DTYPE_BF16, 0));
    cr_assert(is(s->attention, HWFIT_DTYPE_FP8_B128, 0));
    cr_assert(is(s->mlp, HWFIT_DTYPE_FP8_B128, 0));
    cr_assert(is(s->experts, HWFIT_DTYPE_FP8_B128, 0));
    char text[192];
    cr_assert_eq(hwfit_hf_quant_describe(s, text, sizeof text), HWFIT_OK);
    cr_assert(strstr(text, "fp8 block 128x128") != NULL, "%s", text);

    /* Expected, tensor by tensor (config: h 7168, V 129280, 61 layers of which 3 dense,
     * q_lora 1536, kv_lora 512, 128 heads of 128 + 64 rope, v 128, 256 experts of 2048, one
     * shared, dense MLP 18432): fp8 linear weights, bf16 embedding, head, norms and router
     * (hwfit counts the router's e_score_correction_bias in the checkpoint dtype; the
     * checkpoint keeps it in fp32: 2 bytes x 256 x 58 layers more, 29,696 bytes). */
    const uint64_t h = 7168, V = 129280;
    uint64_t attn = fp8(1536, h) + fp8(128 * 192, 1536) + fp8(576, h) + fp8(128 * 256, 512) +
                    fp8(h, 128 * 128) + 2 * (1536 + 512);
    uint64_t norms = 2 * 2 * h;
    uint64_t dense = attn + 3 * fp8(18432, h) + norms;
    uint64_t moe = attn + 257 * 3 * fp8(2048, h) + 2 * (256 * h + 256) + norms;
    uint64_t want = 2 * (2 * V * h) + 2 * h + 3 * dense + 58 * moe;
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    int applied = 0;
    cr_assert_eq(hwfit_memory_use_stored(m, &in, &applied), HWFIT_OK);
    cr_assert_eq(applied, 1);
    hwfit_memory_out out;
    cr_assert_eq(hwfit_memory_estimate(m, &in, &out), HWFIT_OK);
    cr_assert_eq(out.weights_bytes, want, "%llu != %llu", (unsigned long long)out.weights_bytes,
                 (unsigned long long)want);
    cr_assert_eq(out.weights_bytes, 673150582112ull); /* 0.673 TB, not 1.342 TB in bf16 */

    /* The published checkpoint: the files of deepseek-ai/DeepSeek-V3 at afb92e1 hold
     * 688,586,727,753 bytes (safetensors; a public artifact ledger, S_ARTIFACT_DEEPSEEK_V3,
     * found through the code search; DeepSeek-R1 at 56d4cbb, same architecture and formats,
     * the same figure). They add the MTP layer 61 (hwfit's mtp, with copies of the
     * embedding and the head, 2 V h bf16, that hwfit shares with the main model), whose
     * eh_proj is bf16 (fp8 here), the router biases in fp32, and the JSON headers of 163
     * files (~92,000 tensor entries). Within 12 MB (0.002 %): */
    in.mtp = 1;
    cr_assert_eq(hwfit_memory_estimate(m, &in, &out), HWFIT_OK);
    uint64_t files = 688586727753ull;
    uint64_t ours = out.weights_bytes + 2 * (2 * V * h) + (2 * h * h * 2 - fp8(h, 2 * h)) +
                    59 * 256 * 2;
    cr_assert_eq(ours, 688574839360ull);
    cr_assert(ours < files && files - ours < 12000000ull);
    free(m);
}

Test(quant, given_weights_are_not_replaced_and_full_training_keeps_plain_weights) {
    hwfit_model *m = load(MODELS "deepseek-v3.config.json");
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_FULL;
    int applied = 1;
    cr_assert_eq(hwfit_memory_use_stored(m, &in, &applied), HWFIT_OK);
    cr_assert_eq(applied, 0);
    cr_assert_eq(in.module_formats, 0);
    in.mode = HWFIT_MEMORY_QLORA;
    cr_assert_eq(hwfit_memory_use_stored(m, &in, &applied), HWFIT_OK);
    cr_assert_eq(applied, 0);
    in.mode = HWFIT_MEMORY_LORA;
    cr_assert_eq(hwfit_memory_use_stored(m, &in, &applied), HWFIT_OK);
    cr_assert_eq(applied, 1);
    cr_assert_eq(hwfit_memory_use_stored(NULL, &in, &applied), HWFIT_EINVAL);
    cr_assert_eq(hwfit_memory_use_stored(m, NULL, &applied), HWFIT_EINVAL);
    /* A model without quantization_config changes nothing. */
    hwfit_model *l = load(MODELS "llama-3.1-8b.config.json");
    cr_assert_eq(l->stored.method, HWFIT_MODEL_QUANT_NONE);
    cr_assert_eq(l->stored.flags & HWFIT_STORED_QUANTIZED, 0u);
    hwfit_memory_init(&in);
    cr_assert_eq(hwfit_memory_use_stored(l, &in, &applied), HWFIT_OK);
    cr_assert_eq(applied, 0);
    free(m);
    free(l);
}

/* ---- GPTQ: Qwen/Qwen3-30B-A3B-GPTQ-Int4 --------------------------------------------------- */

/* int4, groups of 128 along the input: per group 64 bytes of values, an fp16 scale and a
 * 4-bit zero (qweight int32 [in/8, out], scales fp16 [in/128, out], qzeros int32
 * [in/128, out/8]: AutoGPTQ QuantLinear). */
static uint64_t int4(uint64_t out, uint64_t in) {
    return out * (in / 128) * (64 * 8 + 16 + 4) / 8;
}

Test(quant, gptq_qwen3_moe_is_int4_groups_of_128_with_fp16_rest) {
    hwfit_model *m = load(MODELS "qwen3-30b-a3b-gptq-int4.config.json");
    const hwfit_model_stored *s = &m->stored;
    cr_assert_eq(s->method, HWFIT_MODEL_QUANT_GPTQ);
    cr_assert(is(s->checkpoint, HWFIT_DTYPE_FP16, 0));
    cr_assert(is(s->attention, HWFIT_DTYPE_INT4, 128));
    cr_assert(is(s->experts, HWFIT_DTYPE_INT4, 128));
    cr_assert_eq(s->flags & HWFIT_STORED_ACT_ORDER, 0u);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    cr_assert_eq(hwfit_memory_use_stored(m, &in, NULL), HWFIT_OK);
    hwfit_memory_out out;
    cr_assert_eq(hwfit_memory_estimate(m, &in, &out), HWFIT_OK);
    /* h 2048, 32 heads and 4 KV heads of 128, q/k norms, 128 experts of 768, fp16 router
     * [128, 2048], vocab 151936 untied. */
    const uint64_t h = 2048, V = 151936;
    uint64_t attn = int4(4096, h) + 2 * int4(512, h) + int4(h, 4096) + 2 * (2 * 128);
    uint64_t layer = attn + 128 * 3 * int4(768, h) + 2 * 128 * h + 2 * (2 * h);
    uint64_t want = 2 * (2 * V * h) + 2 * h + 48 * layer;
    cr_assert_eq(out.weights_bytes, want, "%llu != %llu", (unsigned long long)out.weights_bytes,
                 (unsigned long long)want);
    free(m);
}

/* ---- the other methods, on their quantization_config alone ------------------------------- */

Test(quant, awq_bnb_mxfp4_and_compressed_tensors) {
    hwfit_model_stored s;
    hwfit_error err;
    /* AWQ: TheBloke/zephyr-7B-alpha-AWQ's quantization_config as the transformers
     * documentation quotes it (https://huggingface.co/docs/transformers/quantization/awq). */
    cr_assert_eq(quant("{\"quant_method\": \"awq\", \"zero_point\": true, \"group_size\": 128, "
                       "\"bits\": 4, \"version\": \"gemm\"}", &s, &err), HWFIT_OK, "%s",
                 err.message);
    cr_assert_eq(s.method, HWFIT_MODEL_QUANT_AWQ);
    cr_assert(is(s.mlp, HWFIT_DTYPE_INT4, 128));
    cr_assert(is(s.checkpoint, HWFIT_DTYPE_BF16, 0));
    cr_assert_eq(s.flags & HWFIT_STORED_DTYPE_GIVEN, 0u);
    /* AWQ of Mixtral leaves the router out ("gate"): the experts stay int4. */
    cr_assert_eq(quant("{\"quantization_config\": {\"quant_method\": \"awq\", \"bits\": 4, "
                       "\"group_size\": 64, \"modules_to_not_convert\": [\"gate\"]}, "
                       "\"torch_dtype\": \"float16\"}", &s, &err), HWFIT_OK);
    cr_assert(is(s.experts, HWFIT_DTYPE_INT4, 64));
    cr_assert(is(s.checkpoint, HWFIT_DTYPE_FP16, 0));
    /* bitsandbytes, as BitsAndBytesConfig.to_dict() writes it (transformers
     * utils/quantization_config.py): 4-bit nf4 with double quant. */
    cr_assert_eq(quant("{\"quant_method\": \"bitsandbytes\", \"_load_in_4bit\": true, "
                       "\"_load_in_8bit\": false, \"bnb_4bit_compute_dtype\": \"bfloat16\", "
                       "\"bnb_4bit_quant_storage\": \"uint8\", \"bnb_4bit_quant_type\": "
                       "\"nf4\", \"bnb_4bit_use_double_quant\": true, \"llm_int8_skip_modules\": "
                       "null, \"load_in_4bit\": true, \"load_in_8bit\": false}", &s, &err),
                 HWFIT_OK, "%s", err.message);
    cr_assert(is(s.attention, HWFIT_DTYPE_NF4_DQ, 0));
    /* fp4 codes (the default type) take the same bytes as nf4; 8-bit is LLM.int8. */
    cr_assert_eq(quant("{\"quant_method\": \"bitsandbytes\", \"load_in_4bit\": true}", &s, &err),
                 HWFIT_OK);
    cr_assert(is(s.mlp, HWFIT_DTYPE_NF4, 0));
    cr_assert(s.flags & HWFIT_STORED_BNB_FP4);
    cr_assert_eq(quant("{\"quant_method\": \"bitsandbytes\", \"load_in_8bit\": true, "
                       "\"llm_int8_skip_modules\": [\"lm_head\"]}", &s, &err), HWFIT_OK);
    cr_assert(is(s.mlp, HWFIT_DTYPE_INT8_CH, 0));
    /* Unsloth's Dynamic 4-bit (huggingface.co/unsloth/phi-4-unsloth-bnb-4bit config.json):
     * single layers' modules in llm_int8_skip_modules are counted per matrix, the kinds stay
     * nf4; a layer named twice counts once. */
    cr_assert_eq(quant("{\"quant_method\": \"bitsandbytes\", \"load_in_4bit\": true, "
                       "\"bnb_4bit_quant_type\": \"nf4\", \"bnb_4bit_use_double_quant\": true, "
                       "\"llm_int8_skip_modules\": [\"lm_head\", \"multi_modal_projector\", "
                       "\"model.layers.1.mlp\", \"model.layers.2.mlp\", \"model.layers.3.mlp\", "
                       "\"model.layers.3.mlp.down_proj\", \"model.layers.37.self_attn.o_proj\", "
                       "\"model.layers.39.self_attn.o_proj\", \"model.layers.0.self_attn\"]}",
                       &s, &err), HWFIT_OK, "%s", err.message);
    cr_assert(is(s.attention, HWFIT_DTYPE_NF4_DQ, 0));
    cr_assert(is(s.mlp, HWFIT_DTYPE_NF4_DQ, 0));
    cr_assert(s.flags & HWFIT_STORED_SINGLE_LAYER);
    const uint16_t want[HWFIT_KEPT_MATRICES] = {1, 1, 1, 3, 3, 3, 3};
    for (int k = 0; k < HWFIT_KEPT_MATRICES; k++) cr_assert_eq(s.kept_layers[k], want[k], "%d", k);
    /* The same list as names (--kept-modules); a module of every layer is refused. */
    uint16_t kept[HWFIT_KEPT_MATRICES];
    cr_assert_eq(hwfit_hf_quant_kept_layers("lm_head,model.layers.1.mlp model.layers.37."
                                            "self_attn.o_proj,model.layers.1.mlp.up_proj",
                                            40, kept), HWFIT_OK);
    const uint16_t want2[HWFIT_KEPT_MATRICES] = {0, 0, 0, 1, 1, 1, 1};
    for (int k = 0; k < HWFIT_KEPT_MATRICES; k++) cr_assert_eq(kept[k], want2[k], "%d", k);
    cr_assert_eq(hwfit_hf_quant_kept_layers("model.layers.*.mlp", 40, kept), HWFIT_EPARSE);
    cr_assert_eq(hwfit_hf_quant_kept_layers("model.layers.2.mlp.experts", 40, kept),
                 HWFIT_EPARSE);
    /* A layer the model does not have: refused, and kept is untouched. The last layer of a
     * model of 38 (index 37) is counted; of 37 it is not a layer. Word edges: 64, 65. */
    cr_assert_eq(hwfit_hf_quant_kept_layers("model.layers.37.self_attn.o_proj", 38, kept),
                 HWFIT_OK);
    cr_assert_eq(kept[HWFIT_KEPT_O], 1);
    cr_assert_eq(hwfit_hf_quant_kept_layers("model.layers.37.self_attn.o_proj", 37, kept),
                 HWFIT_EDOM);
    cr_assert_eq(kept[HWFIT_KEPT_O], 1);
    cr_assert_eq(hwfit_hf_quant_kept_layers("model.layers.64.mlp", 64, kept), HWFIT_EDOM);
    cr_assert_eq(hwfit_hf_quant_kept_layers("model.layers.64.mlp", 65, kept), HWFIT_OK);
    cr_assert_eq(hwfit_hf_quant_kept_layers("model.layers.1023.mlp", 1024, kept), HWFIT_OK);
    cr_assert_eq(hwfit_hf_quant_kept_layers("model.layers.1.mlp", 0, kept), HWFIT_EINVAL);
    cr_assert_eq(hwfit_hf_quant_kept_layers("model.layers.1.mlp", 1025, kept), HWFIT_EINVAL);
    /* gpt-oss (https://huggingface.co/openai/gpt-oss-120b/raw/main/config.json): the experts
     * in MXFP4, attention, router, embedding and head as the checkpoint. */
    cr_assert_eq(quant("{\"modules_to_not_convert\": [\"model.layers.*.self_attn\", "
                       "\"model.layers.*.mlp.router\", \"model.embed_tokens\", \"lm_head\"], "
                       "\"quant_method\": \"mxfp4\"}", &s, &err), HWFIT_OK, "%s", err.message);
    cr_assert_eq(s.method, HWFIT_MODEL_QUANT_MXFP4);
    cr_assert(is(s.experts, HWFIT_DTYPE_MXFP4, 0));
    cr_assert(is(s.attention, HWFIT_DTYPE_BF16, 0));
    cr_assert(is(s.mlp, HWFIT_DTYPE_BF16, 0));
    /* compressed-tensors FP8 dynamic (llm-compressor's FP8_DYNAMIC scheme): channel scales,
     * lm_head ignored; and W4A16 (group 128) with the attention ignored. */
    cr_assert_eq(quant("{\"quant_method\": \"compressed-tensors\", \"format\": "
                       "\"float-quantized\", \"config_groups\": {\"group_0\": {\"targets\": "
                       "[\"Linear\"], \"weights\": {\"num_bits\": 8, \"type\": \"float\", "
                       "\"strategy\": \"channel\", \"symmetric\": true, \"dynamic\": false}, "
                       "\"input_activations\": {\"num_bits\": 8, \"type\": \"float\", "
                       "\"strategy\": \"token\", \"dynamic\": true}}}, \"ignore\": "
                       "[\"lm_head\"]}", &s, &err), HWFIT_OK, "%s", err.message);
    cr_assert(is(s.attention, HWFIT_DTYPE_FP8_CH, 0));
    cr_assert_eq(quant("{\"quant_method\": \"compressed-tensors\", \"config_groups\": "
                       "{\"group_0\": {\"targets\": [\"Linear\"], \"weights\": {\"num_bits\": 4, "
                       "\"type\": \"int\", \"strategy\": \"group\", \"group_size\": 128}}}, "
                       "\"ignore\": [\"lm_head\", \"re:.*self_attn.*\"]}", &s, &err), HWFIT_OK);
    cr_assert(is(s.mlp, HWFIT_DTYPE_INT4, 128));
    cr_assert(is(s.attention, HWFIT_DTYPE_BF16, 0));
    cr_assert_eq(hwfit_hf_quant_describe(&s, NULL, 0), HWFIT_EINVAL);
    char small[8];
    cr_assert_eq(hwfit_hf_quant_describe(&s, small, sizeof small), HWFIT_EBUFSIZE);
}

Test(quant, unknown_methods_and_settings_are_refused_by_name) {
    hwfit_model_stored s;
    memset(&s, 0x5a, sizeof s);
    hwfit_model_stored before = s;
    hwfit_error err;
    static const struct { const char *json, *mentions; hwfit_status st; } bad[] = {
        {"{\"quantization_config\": {\"quant_method\": \"hqq\"}}", "quant_method \"hqq\"",
         HWFIT_EUNSUPPORTED},
        {"{\"quant_method\": \"gptq\", \"bits\": 3}", "bits 3", HWFIT_EUNSUPPORTED},
        {"{\"quant_method\": \"gptq\", \"bits\": 4, \"group_size\": -1}", "group_size -1",
         HWFIT_EUNSUPPORTED},
        {"{\"quant_method\": \"fp8\", \"weight_block_size\": [64, 64]}", "weight_block_size",
         HWFIT_EUNSUPPORTED},
        {"{\"quant_method\": \"fp8\", \"fmt\": \"e5m2\"}", "fmt \"e5m2\"", HWFIT_EUNSUPPORTED},
        {"{\"quant_method\": \"bitsandbytes\"}", "load_in_4bit", HWFIT_EUNSUPPORTED},
        {"{\"torch_dtype\": \"float8_e4m3fn\"}", "torch_dtype \"float8_e4m3fn\"",
         HWFIT_EUNSUPPORTED},
        {"{\"quant_method\": \"compressed-tensors\", \"config_groups\": {\"a\": {\"weights\": "
         "{\"num_bits\": 8, \"type\": \"float\", \"strategy\": \"channel\"}}, \"b\": "
         "{\"weights\": {\"num_bits\": 4, \"type\": \"int\", \"strategy\": \"group\"}}}}",
         "several weight formats", HWFIT_EUNSUPPORTED},
        {"{\"quantization_config\": [1]}", "must be an object", HWFIT_EPARSE},
        {"{\"quantization_config\": {\"bits\": 4}}", "quant_method", HWFIT_EPARSE},
        {"{\"quant_method\": \"awq\", \"modules_to_not_convert\": \"lm_head\"}",
         "modules_to_not_convert", HWFIT_EPARSE},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_assert_eq(quant(bad[i].json, &s, &err), bad[i].st, "%s", bad[i].json);
        cr_assert(strstr(err.message, bad[i].mentions) != NULL, "%s: %s", bad[i].json,
                  err.message);
        cr_assert_eq(memcmp(&s, &before, sizeof s), 0);
    }
    /* Through the config reader, the model is refused as a whole, naming the method. */
    hwfit_model m;
    const char *cfg = "{\"model_type\": \"llama\", \"hidden_size\": 64, \"num_hidden_layers\": 2, "
                      "\"num_attention_heads\": 4, \"intermediate_size\": 128, \"vocab_size\": "
                      "100, \"quantization_config\": {\"quant_method\": \"eetq\"}}";
    cr_assert_eq(hwfit_hf_config_parse(cfg, strlen(cfg), "c.json", &m, &err), HWFIT_EUNSUPPORTED);
    cr_assert(strstr(err.message, "eetq") != NULL, "%s", err.message);
    cr_assert_eq(hwfit_hf_quant_parse(NULL, 0, NULL, &s, &err), HWFIT_EINVAL);
    cr_assert_eq(hwfit_hf_quant_parse("{}", 2, NULL, NULL, &err), HWFIT_EINVAL);
}

/* ---- safetensors headers ------------------------------------------------------------------ */

/* A safetensors file: the 8-byte length, the header, then data_bytes zero bytes. */
static void write_st(const char *path, const char *header, size_t data_bytes) {
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    uint64_t n = strlen(header);
    for (int i = 0; i < 8; i++) fputc((int)((n >> (8 * i)) & 0xff), f);
    fputs(header, f);
    for (size_t i = 0; i < data_bytes; i++) fputc(0, f);
    fclose(f);
}

static void tmpdir(char *dir, size_t size) {
    snprintf(dir, size, "/tmp/hwfit-st-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

Test(safetensors, a_sharded_checkpoint_is_summed_per_dtype_without_reading_weights) {
    char dir[64], p[128];
    tmpdir(dir, sizeof dir);
    /* Shard 1: a bf16 embedding [10, 4] (80 B) and an fp8 matrix [4, 4] with its fp32
     * block scale [1, 1]; shard 2: layer 2 (the extra prediction layer of a 2-layer model). */
    snprintf(p, sizeof p, "%s/model-00001-of-00002.safetensors", dir);
    write_st(p, "{\"__metadata__\": {\"format\": \"pt\"}, \"model.embed_tokens.weight\": "
                "{\"dtype\": \"BF16\", \"shape\": [10, 4], \"data_offsets\": [0, 80]}, "
                "\"model.layers.0.mlp.up_proj.weight\": {\"dtype\": \"F8_E4M3\", \"shape\": "
                "[4, 4], \"data_offsets\": [80, 96]}, \"model.layers.0.mlp.up_proj."
                "weight_scale_inv\": {\"dtype\": \"F32\", \"shape\": [1, 1], \"data_offsets\": "
                "[96, 100]}}", 100);
    snprintf(p, sizeof p, "%s/model-00002-of-00002.safetensors", dir);
    write_st(p, "{\"model.layers.2.eh_proj.weight\": {\"dtype\": \"BF16\", \"shape\": [2, 3], "
                "\"data_offsets\": [0, 12]}}", 12);
    snprintf(p, sizeof p, "%s/model.safetensors.index.json", dir);
    FILE *f = fopen(p, "w");
    fputs("{\"metadata\": {\"total_size\": 112}, \"weight_map\": {}}", f);
    fclose(f);
    hwfit_safetensors_info info;
    hwfit_error err;
    cr_assert_eq(hwfit_safetensors_dir_read(dir, 2, &info, &err), HWFIT_OK, "%s", err.message);
    cr_assert_eq(info.files, 2u);
    cr_assert_eq(info.tensors, 4u);
    cr_assert_eq(info.bytes, 112u);
    cr_assert_eq(info.elements, 40u + 16u + 1u + 6u);
    cr_assert_eq(info.extra_bytes, 12u);
    cr_assert(info.index_found);
    cr_assert_eq(info.index_total_size, info.bytes);
    cr_assert_eq(info.dtype_count, 3u);
    uint64_t bf16 = 0;
    for (uint32_t i = 0; i < info.dtype_count; i++)
        if (strcmp(info.dtypes[i].name, "BF16") == 0) bf16 = info.dtypes[i].bytes;
    cr_assert_eq(bf16, 92u);
    /* Without the main layer count, nothing is set apart. */
    cr_assert_eq(hwfit_safetensors_dir_read(dir, 0, &info, &err), HWFIT_OK);
    cr_assert_eq(info.extra_bytes, 0u);
    /* A directory without safetensors files. */
    char empty[64];
    tmpdir(empty, sizeof empty);
    cr_assert_eq(hwfit_safetensors_dir_read(empty, 0, &info, &err), HWFIT_ENOTFOUND);
    rmdir(empty);
    snprintf(p, sizeof p, "%s/model-00001-of-00002.safetensors", dir);
    remove(p);
    snprintf(p, sizeof p, "%s/model-00002-of-00002.safetensors", dir);
    remove(p);
    snprintf(p, sizeof p, "%s/model.safetensors.index.json", dir);
    remove(p);
    rmdir(dir);
}

Test(safetensors, malformed_files_are_clear_errors) {
    char dir[64], p[128];
    tmpdir(dir, sizeof dir);
    snprintf(p, sizeof p, "%s/x.safetensors", dir);
    hwfit_safetensors_info info;
    hwfit_safetensors_init(&info);
    hwfit_error err;
    static const struct { const char *header; size_t data; hwfit_status st; const char *says; }
    bad[] = {
        {"{\"a\": {\"dtype\": \"BF16\", \"shape\": [4], \"data_offsets\": [0, 8]}}", 4,
         HWFIT_EPARSE, "ends at byte 8 of 4"},
        {"{\"a\": {\"dtype\": \"BF16\", \"shape\": [4], \"data_offsets\": [0, 6]}}", 8,
         HWFIT_EPARSE, "6 bytes for 4 elements of BF16"},
        {"{\"a\": {\"dtype\": \"BF16\", \"shape\": [4], \"data_offsets\": [8, 0]}}", 8,
         HWFIT_EPARSE, "begin <= end"},
        {"{\"a\": {\"shape\": [4], \"data_offsets\": [0, 8]}}", 8, HWFIT_EPARSE, "'dtype'"},
        {"{\"a\": {\"dtype\": \"BF16\", \"shape\": [-4], \"data_offsets\": [0, 8]}}", 8,
         HWFIT_EPARSE, "whole number"},
        {"{\"a\": {\"dtype\": \"BF16\", \"shape\": [4294967296, 4294967296, 16], "
         "\"data_offsets\": [0, 8]}}", 8, HWFIT_ERANGE, "overflows"},
        {"{\"a\": [1, 2]", 0, HWFIT_EPARSE, "x.safetensors"},
        {"[]", 0, HWFIT_EPARSE, "JSON object"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_st(p, bad[i].header, bad[i].data);
        cr_assert_eq(hwfit_safetensors_file_add(p, 0, &info, &err), bad[i].st, "%s: %s",
                     bad[i].header, err.message);
        cr_assert(strstr(err.message, bad[i].says) != NULL, "%s: %s", bad[i].header,
                  err.message);
        cr_assert_eq(info.files, 0u);
    }
    /* A length beyond the end of the file, and a file shorter than 8 bytes. */
    FILE *f = fopen(p, "wb");
    const unsigned char big[8] = {0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0};
    fwrite(big, 1, 8, f);
    fputs("{}", f);
    fclose(f);
    cr_assert_eq(hwfit_safetensors_file_add(p, 0, &info, &err), HWFIT_EIO);
    cr_assert(strstr(err.message, "beyond the end") != NULL, "%s", err.message);
    f = fopen(p, "wb");
    fputs("abc", f);
    fclose(f);
    cr_assert_eq(hwfit_safetensors_file_add(p, 0, &info, &err), HWFIT_EIO);
    cr_assert_eq(hwfit_safetensors_file_add("/nonexistent/x.safetensors", 0, &info, &err),
                 HWFIT_EIO);
    cr_assert_eq(hwfit_safetensors_header_add(NULL, 0, 0, 0, NULL, &info, &err), HWFIT_EINVAL);
    /* A good header after the bad ones: added. */
    write_st(p, "{\"a\": {\"dtype\": \"F8_E4M3\", \"shape\": [2, 2], \"data_offsets\": [0, 4]}}",
             4);
    cr_assert_eq(hwfit_safetensors_file_add(p, 0, &info, &err), HWFIT_OK, "%s", err.message);
    cr_assert_eq(info.files, 1u);
    cr_assert_eq(info.bytes, 4u);
    remove(p);
    rmdir(dir);
}

Test(quant, exact_checkpoint_bytes_are_the_weights_of_a_whole_model_in_its_formats) {
    hwfit_model *m = load(MODELS "llama-3.1-8b.config.json");
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.fragmentation = 0.1;
    hwfit_memory_out out, exact;
    cr_assert_eq(hwfit_memory_estimate(m, &in, &out), HWFIT_OK);
    exact = out;
    int applied = 0;
    cr_assert_eq(hwfit_memory_use_exact(m, &in, out.weights_bytes + 4096, &exact, &applied),
                 HWFIT_OK);
    cr_assert_eq(applied, 1);
    cr_assert_eq(exact.weights_bytes, out.weights_bytes + 4096);
    cr_assert_eq(exact.total_bytes, out.total_bytes + 4096);
    cr_assert_eq(exact.forward_bytes, out.forward_bytes + 4096);
    cr_assert_eq(exact.allocated_bytes, out.allocated_bytes + 4096);
    /* The reserve is recomputed: the same as an estimate whose weights were that large. */
    uint64_t alloc = exact.allocated_bytes;
    double extra = (double)alloc * 0.1;
    uint64_t ex = (uint64_t)extra + ((double)(uint64_t)extra < extra ? 1 : 0);
    cr_assert_eq(exact.reserved_bytes, alloc + ex);
    cr_assert_eq(exact.peak_bytes, exact.reserved_bytes + exact.overhead_bytes);
    /* Fewer bytes than computed work too. */
    exact = out;
    cr_assert_eq(hwfit_memory_use_exact(m, &in, out.weights_bytes - 100, &exact, &applied),
                 HWFIT_OK);
    cr_assert_eq(exact.total_bytes, out.total_bytes - 100);
    /* Not the whole model, not its formats, or training: unchanged. */
    hwfit_memory_in part = in;
    part.layer_count = 4;
    exact = out;
    cr_assert_eq(hwfit_memory_use_exact(m, &part, 1, &exact, &applied), HWFIT_OK);
    cr_assert_eq(applied, 0);
    cr_assert_eq(memcmp(&exact, &out, sizeof out), 0);
    part = in;
    part.weights = hwfit_dtype_make(HWFIT_DTYPE_FP32);
    cr_assert_eq(hwfit_memory_use_exact(m, &part, 1, &exact, &applied), HWFIT_OK);
    cr_assert_eq(applied, 0);
    part = in;
    part.mode = HWFIT_MEMORY_LORA;
    cr_assert_eq(hwfit_memory_use_exact(m, &part, 1, &exact, &applied), HWFIT_OK);
    cr_assert_eq(applied, 0);
    cr_assert_eq(hwfit_memory_use_exact(m, &in, 1, NULL, &applied), HWFIT_EINVAL);
    free(m);
}

/* An unquantized checkpoint's description is joined without snprintf (issue 19): the same
 * text, and cut as snprintf cuts it (what fits, NUL-terminated, HWFIT_EBUFSIZE). */
Test(quant, an_unquantized_description_is_cut_as_snprintf_cuts) {
    hwfit_model_stored s;
    memset(&s, 0, sizeof s);
    s.method = HWFIT_MODEL_QUANT_NONE;
    s.checkpoint = s.attention = s.mlp = s.experts = hwfit_dtype_make(HWFIT_DTYPE_BF16);
    char text[64], want[64];
    for (int given = 0; given < 2; given++) {
        s.flags = given ? HWFIT_STORED_DTYPE_GIVEN : 0;
        const char *full = given ? "bf16, not quantized" : "bf16 (default), not quantized";
        cr_assert_eq(hwfit_hf_quant_describe(&s, text, sizeof text), HWFIT_OK);
        cr_assert_str_eq(text, full);
        size_t len = strlen(full);
        for (size_t size = 1; size <= len + 1; size++) {
            memset(text, 'x', sizeof text);
            cr_assert_eq(hwfit_hf_quant_describe(&s, text, size),
                         size > len ? HWFIT_OK : HWFIT_EBUFSIZE);
            snprintf(want, size, "%s", full);
            cr_assert_str_eq(text, want, "size %zu", size);
            cr_assert_eq(text[size], 'x', "size %zu: wrote past the buffer", size);
        }
    }
}
