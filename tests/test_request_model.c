/* The request layer's catalog and model commands (dtypes, gpus, link, model, memory): each
 * answer read back from its JSON equals the typed C API called directly (the same number
 * two ways), each refusal names its option, status and rule, each default_text is the
 * library's init() default, and a small buffer is refused with the size it needs. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "readers/json.h"
#include "hwfit/request.h"
#include "internal.h"
#include "hwfit.h"

#define CONFIG(name) HWFIT_TEST_DATA "/models/" name ".config.json"
#define LLAMA CONFIG("llama-3.1-8b")

/* ---- helpers -------------------------------------------------------------------------- */

/* A request for cmd with options (NULL-terminated name, value pairs; a NULL value is a
 * flag) all set successfully. */
static hwfit_request *request(const char *cmd, const char *const *opts) {
    hwfit_request *r = NULL;
    cr_assert_eq(hwfit_request_new(cmd, &r), HWFIT_OK, "%s", cmd);
    for (size_t i = 0; opts && opts[i]; i += 2) {
        hwfit_status st = hwfit_request_set(r, opts[i], opts[i + 1]);
        cr_assert_eq(st, HWFIT_OK, "%s --%s %s: %s %s", cmd, opts[i],
                     opts[i + 1] ? opts[i + 1] : "", hwfit_status_name(st),
                     hwfit_request_message(r));
    }
    return r;
}

/* Run cmd as JSON and parse the answer (free with hwfit__json_free). */
static hwfit__json_doc *run_json(const char *cmd, const char *const *opts) {
    hwfit_request *r = request(cmd, opts);
    hwfit_status st = hwfit_request_run(r, HWFIT_FORMAT_JSON, NULL, 0, NULL);
    cr_assert_eq(st, HWFIT_OK, "%s: %s %s", cmd, hwfit_status_name(st), hwfit_request_message(r));
    size_t n;
    const char *text = hwfit_request_output(r, &n);
    hwfit__json_doc *doc = NULL;
    hwfit_error err;
    cr_assert_eq(hwfit__json_parse(text, n, &doc, &err), HWFIT_OK, "%s: %s", cmd, err.message);
    hwfit_request_free(r);
    return doc;
}

static const hwfit__json_value *member(const hwfit__json_value *obj, const char *key) {
    const hwfit__json_value *v = hwfit__json_get(obj, key);
    cr_assert_not_null(v, "no key '%s'", key);
    return v;
}

static uint64_t u64_of(const hwfit__json_value *obj, const char *key) {
    const hwfit__json_value *v = member(obj, key);
    cr_assert_eq(v->type, HWFIT__JSON_NUMBER, "%s", key);
    cr_assert(v->u.number.is_integer, "%s is not an integer", key);
    return (uint64_t)v->u.number.integer;
}

static double num_of(const hwfit__json_value *obj, const char *key) {
    const hwfit__json_value *v = member(obj, key);
    cr_assert_eq(v->type, HWFIT__JSON_NUMBER, "%s", key);
    return v->u.number.value;
}

static const char *str_of(const hwfit__json_value *obj, const char *key) {
    const hwfit__json_value *v = member(obj, key);
    cr_assert_eq(v->type, HWFIT__JSON_STRING, "%s", key);
    return v->u.string.text;
}

/* Options are set in order; the refusal comes from the last set or from the run. It has
 * the status, names the option (NULL: none) and says words. */
static void refused(const char *cmd, const char *const *opts, hwfit_status status,
                    const char *option, const char *words) {
    hwfit_request *r = NULL;
    cr_assert_eq(hwfit_request_new(cmd, &r), HWFIT_OK);
    hwfit_status st = HWFIT_OK;
    for (size_t i = 0; opts && opts[i]; i += 2) {
        st = hwfit_request_set(r, opts[i], opts[i + 1]);
        if (st != HWFIT_OK) {
            cr_assert_null(opts[i + 2], "%s: --%s refused before the last option: %s", cmd,
                           opts[i], hwfit_request_message(r));
            break;
        }
    }
    if (st == HWFIT_OK) st = hwfit_request_run(r, HWFIT_FORMAT_JSON, NULL, 0, NULL);
    const char *msg = hwfit_request_message(r);
    cr_assert_eq(st, status, "%s: %s (want %s): %s", cmd, hwfit_status_name(st),
                 hwfit_status_name(status), msg);
    const hwfit_option *o = hwfit_request_option(r);
    const char *spelled = hwfit_request_option_name(r); /* the name or alias as set */
    if (option == NULL) cr_assert_null(o, "%s: names --%s: %s", cmd, o ? o->name : "", msg);
    else cr_assert(o != NULL && strcmp(spelled, option) == 0, "%s: names %s, want %s: %s", cmd,
                   o ? spelled : "(none)", option, msg);
    cr_assert_not_null(strstr(msg, words), "%s: '%s' lacks '%s'", cmd, msg, words);
    cr_assert_null(strstr(msg, "--"), "%s: '%s' spells a CLI option", cmd, msg);
    hwfit_request_free(r);
}

static const hwfit_option *option(const char *cmd, const char *name) {
    const hwfit_option *o = hwfit_option_by_name(hwfit_command_by_name(cmd), name);
    cr_assert_not_null(o, "%s has no option %s", cmd, name);
    return o;
}

static int same_dtype(hwfit_dtype a, hwfit_dtype b) {
    return a.id == b.id && a.group_size == b.group_size;
}

/* The dtype an option's default_text names. */
static hwfit_dtype default_dtype(const char *cmd, const char *name) {
    const hwfit_option *o = option(cmd, name);
    cr_assert_not_null(o->default_text, "%s --%s", cmd, name);
    hwfit_dtype d;
    cr_assert_eq(hwfit_dtype_parse(o->default_text, &d), HWFIT_OK);
    return d;
}

static uint64_t default_u64(const char *cmd, const char *name) {
    const hwfit_option *o = option(cmd, name);
    cr_assert_not_null(o->default_text, "%s --%s", cmd, name);
    cr_assert(o->kind == HWFIT_OPTION_COUNT || o->kind == HWFIT_OPTION_TOKENS);
    char *end;
    unsigned long long v = strtoull(o->default_text, &end, 10);
    cr_assert_eq(*end, '\0', "%s --%s default '%s'", cmd, name, o->default_text);
    return (uint64_t)v;
}

static const char *default_text(const char *cmd, const char *name) {
    const char *t = option(cmd, name)->default_text;
    cr_assert_not_null(t, "%s --%s has no default_text", cmd, name);
    return t;
}

static hwfit_model *load(const char *path) {
    hwfit_model *m = malloc(sizeof *m);
    cr_assert_not_null(m);
    hwfit_error err;
    cr_assert_eq(hwfit_hf_config_load(path, m, &err), HWFIT_OK, "%s: %s", path, err.message);
    return m;
}

/* ---- dtypes --------------------------------------------------------------------------- */

Test(request_dtypes, every_row_is_the_describe_of_its_format) {
    hwfit__json_doc *doc = run_json("dtypes", NULL);
    const hwfit__json_value *rows = member(hwfit__json_root(doc), "dtypes");
    cr_assert_eq(rows->type, HWFIT__JSON_ARRAY);
    cr_assert_eq(rows->u.array.count, hwfit_dtype_count());
    for (size_t i = 0; i < rows->u.array.count; i++) {
        const hwfit__json_value *row = &rows->u.array.items[i];
        hwfit_dtype d;
        hwfit_dtype_info info;
        char name[HWFIT_DTYPE_NAME_SIZE];
        cr_assert_eq(hwfit_dtype_at(i, &d), HWFIT_OK);
        cr_assert_eq(hwfit_dtype_format(d, name, sizeof name), HWFIT_OK);
        cr_assert_eq(hwfit_dtype_describe(d, &info), HWFIT_OK);
        cr_assert_str_eq(str_of(row, "name"), name);
        cr_assert_eq(num_of(row, "bits_per_element"), info.bits_per_element, "%s", name);
        cr_assert_eq(u64_of(row, "block_elements"), info.block_elements, "%s", name);
        cr_assert_eq(u64_of(row, "block_bits"), info.block_bits, "%s", name);
        cr_assert_eq(member(row, "quantized")->u.boolean, info.quantized, "%s", name);
        cr_assert_str_eq(str_of(row, "description"), info.description);
    }
    hwfit__json_free(doc);
}

Test(request_dtypes, csv_has_a_header_and_a_line_per_format) {
    hwfit_request *r = request("dtypes", NULL);
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_CSV, NULL, 0, NULL), HWFIT_OK);
    const char *csv = hwfit_request_output(r, NULL);
    cr_assert(strncmp(csv, "name,bits_per_element,block_elements,block_bits,quantized,"
                           "description\n", 66) == 0, "%.80s", csv);
    size_t lines = 0;
    for (const char *p = csv; *p; p++) lines += *p == '\n';
    cr_assert_eq(lines, hwfit_dtype_count() + 1);
    cr_assert_not_null(strstr(csv, "\nq4_k,4.5,256,1152,true,"));
    hwfit_request_free(r);
}

Test(request_dtypes, takes_no_options) {
    refused("dtypes", (const char *const[]){"weights", "bf16", NULL}, HWFIT_ENOTFOUND, NULL,
            "dtypes has no option 'weights'");
}

/* ---- gpus ----------------------------------------------------------------------------- */

Test(request_gpus, lists_the_catalog_and_one_card) {
    hwfit__json_doc *doc = run_json("gpus", NULL);
    const hwfit__json_value *rows = member(hwfit__json_root(doc), "gpus");
    cr_assert_eq(rows->u.array.count, hwfit_gpu_count());
    for (size_t i = 0; i < rows->u.array.count; i++) {
        const hwfit_gpu *g = hwfit_gpu_at(i);
        const hwfit__json_value *row = &rows->u.array.items[i];
        cr_assert_str_eq(str_of(row, "name"), g->name);
        cr_assert_eq(u64_of(row, "memory_bytes"), g->memory_bytes, "%s", g->name);
        cr_assert_eq(num_of(row, "memory_bandwidth_bytes_per_s"),
                     g->memory_bandwidth_bytes_per_s, "%s", g->name);
        cr_assert_eq(num_of(row, "fp16_bf16_flop_per_s"), g->fp16_bf16_flop_per_s);
        cr_assert_str_eq(str_of(row, "peer_link"), hwfit_gpu_peer_link_name(g->peer_link));
    }
    hwfit__json_free(doc);

    const hwfit_gpu *h100;
    cr_assert_eq(hwfit_gpu_find("h100-sxm", &h100), HWFIT_OK);
    doc = run_json("gpus", (const char *const[]){"name", "h100-sxm", NULL});
    rows = member(hwfit__json_root(doc), "gpus");
    cr_assert_eq(rows->u.array.count, 1);
    cr_assert_str_eq(str_of(&rows->u.array.items[0], "name"), "h100-sxm");
    cr_assert_eq(num_of(&rows->u.array.items[0], "tdp_w"), h100->tdp_w);
    cr_assert_str_eq(str_of(&rows->u.array.items[0], "source"), h100->source);
    hwfit__json_free(doc);
}

Test(request_gpus, csv_and_text) {
    hwfit_request *r = request("gpus", NULL);
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_CSV, NULL, 0, NULL), HWFIT_OK);
    const char *csv = hwfit_request_output(r, NULL);
    cr_assert(strncmp(csv, "name,vendor,edition,", 20) == 0, "%.40s", csv);
    size_t lines = 0;
    for (const char *p = csv; *p; p++) lines += *p == '\n';
    cr_assert_eq(lines, hwfit_gpu_count() + 1);
    hwfit_request_free(r);
    r = request("gpus", (const char *const[]){"name", "h100-sxm", NULL});
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_TEXT, NULL, 0, NULL), HWFIT_OK);
    cr_assert_not_null(strstr(hwfit_request_output(r, NULL), "\nsource: "));
    hwfit_request_free(r);
}

Test(request_gpus, refusals) {
    refused("gpus", (const char *const[]){"name", "h100", NULL}, HWFIT_ENOTFOUND, "name",
            "unknown GPU 'h100'");
    refused("gpus", (const char *const[]){"name", "", NULL}, HWFIT_EPARSE, "name", "is empty");
}

/* ---- link ----------------------------------------------------------------------------- */

static void check_link(const char *name, const char *payload, double payload_bytes) {
    hwfit_link_in in;
    cr_assert_eq(hwfit_link_parse(name, &in), HWFIT_OK);
    in.payload_bytes = payload_bytes;
    hwfit_link_out want;
    cr_assert_eq(hwfit_link_rate(&in, &want), HWFIT_OK);
    const char *opts[] = {"name", name, payload ? "payload" : NULL, payload, NULL};
    hwfit__json_doc *doc = run_json("link", opts);
    const hwfit__json_value *root = hwfit__json_root(doc);
    cr_assert_str_eq(str_of(root, "input"), name);
    cr_assert_str_eq(str_of(root, "name"), want.name);
    cr_assert_str_eq(str_of(root, "kind"), hwfit_link_kind_name(in.kind));
    cr_assert_eq(u64_of(root, "width"), in.width);
    cr_assert_eq(u64_of(root, "lanes"), want.lanes);
    cr_assert_eq(num_of(root, "lane_raw_bits_per_s"), want.lane_raw_bits_per_s);
    cr_assert_eq(num_of(root, "encoding_efficiency"), want.encoding_efficiency);
    cr_assert_eq(num_of(root, "line_bytes_per_s"), want.line_bytes_per_s);
    cr_assert_eq(num_of(root, "line_bytes_per_s_bidir"), want.line_bytes_per_s_bidir);
    cr_assert_eq(num_of(root, "payload_bytes"), want.payload_bytes);
    cr_assert_eq(num_of(root, "overhead_bytes"), want.overhead_bytes);
    cr_assert_eq(num_of(root, "protocol_efficiency"), want.protocol_efficiency);
    cr_assert_eq(num_of(root, "payload_bytes_per_s"), want.payload_bytes_per_s);
    cr_assert_eq(num_of(root, "payload_bytes_per_s_bidir"), want.payload_bytes_per_s_bidir);
    hwfit__json_free(doc);
}

Test(request_link, rates_are_hwfit_link_rate) {
    check_link("pcie5x16", NULL, 0.0);
    check_link("nvlink4x18", NULL, 0.0);
    check_link("8x400g-ib", NULL, 0.0);
    check_link("2x400g-roce", "2KiB", 2048.0);
    check_link("100g-tcp", "9000", 9000.0);
    check_link("pcie4x8", "0", 0.0); /* 0 given: the kind's, as the library reads it */
}

Test(request_link, refusals) {
    refused("link", NULL, HWFIT_EINVAL, "name", "is required, e.g. pcie5x16");
    refused("link", (const char *const[]){"name", "foo", NULL}, HWFIT_EPARSE, "name",
            "cannot read 'foo'");
    refused("link", (const char *const[]){"name", "pcie7x16", NULL}, HWFIT_EDOM, "name",
            "'pcie7x16' is out of range");
    refused("link", (const char *const[]){"name", "300g-ib", NULL}, HWFIT_EDOM, "name",
            "out of range");
    refused("link", (const char *const[]){"name", "pcie5x16", "payload", "1B", NULL},
            HWFIT_EDOM, "payload", "must be 0 (default) or a PCIe max payload");
    refused("link", (const char *const[]){"name", "pcie5x16", "payload", "-1", NULL},
            HWFIT_EDOM, "payload", "expected a size");
    refused("link", (const char *const[]){"name", "pcie5x16", "payload", "lots", NULL},
            HWFIT_EPARSE, "payload", "expected a size");
}

Test(request_link, defaults_are_hwfit_link_init) {
    hwfit_link_in in;
    hwfit_link_init(&in);
    const hwfit_option *o = option("link", "payload");
    cr_assert_null(o->default_text);            /* 0: the kind's default ... */
    cr_assert_eq(in.payload_bytes, 0.0);
    cr_assert_str_eq(o->default_help, "the kind's"); /* ... said in words */
    cr_assert(o->min <= 0.0 && o->max >= 1e300);
    cr_assert(option("link", "name")->flags & HWFIT_OPTION_REQUIRED);
}

Test(request_link, no_csv) {
    hwfit_request *r = request("link", (const char *const[]){"name", "pcie5x16", NULL});
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_CSV, NULL, 0, NULL), HWFIT_EUNSUPPORTED);
    hwfit_request_free(r);
}

/* ---- model ---------------------------------------------------------------------------- */

static void check_model(const char *path, const char *weights, const char *kv, uint64_t batch,
                        uint64_t context, const char *context_text, int mtp) {
    char batch_text[32];
    snprintf(batch_text, sizeof batch_text, "%llu", (unsigned long long)batch);
    const char *opts[] = {"config", path, "weights", weights, "kv", kv, "batch", batch_text,
                          "context", context_text, mtp ? "mtp" : NULL, NULL, NULL};
    hwfit__json_doc *doc = run_json("model", opts);
    const hwfit__json_value *root = hwfit__json_root(doc);

    hwfit_model *m = load(path);
    hwfit_memory_in mem;
    hwfit_memory_init(&mem);
    cr_assert_eq(hwfit_dtype_parse(weights, &mem.weights), HWFIT_OK);
    cr_assert_eq(hwfit_dtype_parse(kv, &mem.kv), HWFIT_OK);
    mem.batch = batch;
    mem.context = context;
    mem.mtp = mtp;
    hwfit_model_param_counts p;
    cr_assert_eq(hwfit_model_params(m, &p), HWFIT_OK);
    hwfit_memory_out fp;
    cr_assert_eq(hwfit_memory_estimate(m, &mem, &fp), HWFIT_OK);
    hwfit_model_kv_in kin;
    hwfit_model_kv_init(&kin);
    kin.dtype = mem.kv;
    kin.batch = batch;
    kin.context = context;
    kin.include_mtp = mtp;
    hwfit_model_kv_out kvo;
    cr_assert_eq(hwfit_model_kv(m, &kin, &kvo), HWFIT_OK);
    hwfit_model_flops_out fl;
    cr_assert_eq(hwfit_model_flops(m, context, &fl), HWFIT_OK);

    cr_assert_str_eq(str_of(root, "model_type"), m->name);
    cr_assert_eq(u64_of(root, "layers"), m->layers);
    cr_assert_eq(u64_of(root, "moe_layers"), p.moe_layers);
    cr_assert_eq(u64_of(root, "sliding_layers"), kvo.sliding_layers);
    cr_assert_eq(u64_of(root, "params_total"), p.total);
    cr_assert_eq(u64_of(root, "params_active"), p.active);
    cr_assert_eq(u64_of(root, "params_head"), p.head);
    cr_assert_eq(u64_of(root, "params_experts"), p.experts);
    cr_assert_eq(u64_of(root, "params_mtp"), p.mtp);
    cr_assert_eq(u64_of(root, "weights_bytes"), fp.weights_bytes);
    cr_assert_eq(u64_of(root, "batch"), batch);
    cr_assert_eq(u64_of(root, "context"), context);
    cr_assert_eq(u64_of(root, "kv_bytes_per_token"), kvo.bytes_per_token);
    cr_assert_eq(u64_of(root, "kv_bytes"), kvo.bytes);
    cr_assert_eq(num_of(root, "forward_flop_per_token"), fl.forward_flop);
    char name[HWFIT_DTYPE_NAME_SIZE];
    cr_assert_eq(hwfit_dtype_format(mem.weights, name, sizeof name), HWFIT_OK);
    cr_assert_str_eq(str_of(root, "weights"), name);
    free(m);
    hwfit__json_free(doc);
}

Test(request_model, counts_are_the_typed_api) {
    check_model(LLAMA, "bf16", "bf16", 1, 4096, "4096", 0);
    check_model(LLAMA, "q4_k", "fp8", 2, 131072, "128K", 0);
    check_model(CONFIG("deepseek-v3"), "fp8", "bf16", 1, 131072, "128K", 1);
    check_model(CONFIG("gemma-2-9b-it"), "bf16", "q8_0", 4, 8192, "8192", 1);
}

Test(request_model, published_counts) {
    hwfit__json_doc *doc = run_json("model", (const char *const[]){"config", LLAMA, NULL});
    const hwfit__json_value *root = hwfit__json_root(doc);
    cr_assert_eq(u64_of(root, "params_total"), 8030261248ull);
    cr_assert_eq(u64_of(root, "kv_bytes"), 4096ull * 131072);
    hwfit__json_free(doc);
}

Test(request_model, defaults_are_the_init_values) {
    hwfit_memory_in mem;
    hwfit_memory_init(&mem);
    hwfit_model_kv_in kin;
    hwfit_model_kv_init(&kin);
    cr_assert(same_dtype(default_dtype("model", "weights"), mem.weights));
    cr_assert(same_dtype(default_dtype("model", "kv"), mem.kv));
    cr_assert(same_dtype(default_dtype("model", "kv"), kin.dtype));
    cr_assert_eq(default_u64("model", "batch"), mem.batch);
    cr_assert_eq(default_u64("model", "batch"), kin.batch);
    cr_assert_eq(default_u64("model", "context"), mem.context);
    cr_assert_eq(default_u64("model", "context"), kin.context);
    cr_assert_eq(mem.mtp, 0); /* the flag's "not given" */
    cr_assert_eq(option("model", "weights")->kind, HWFIT_OPTION_NAME);
    cr_assert_str_eq(option("model", "weights")->catalog, "dtype");
    cr_assert_eq(option("model", "model")->kind, HWFIT_OPTION_FILE);
}

Test(request_model, refusals) {
    refused("model", NULL, HWFIT_EINVAL, "model", "is required, e.g. meta-llama/Llama-3.1-70B");
    refused("model", (const char *const[]){"config", "/nonexistent/c.json", NULL}, HWFIT_EIO,
            "config", "cannot open");
    refused("model", (const char *const[]){"config", LLAMA, "weights", "fp4", NULL},
            HWFIT_ENOTFOUND, "weights", "unknown number format 'fp4'");
    refused("model", (const char *const[]){"config", LLAMA, "kv", "int4-g2000000", NULL},
            HWFIT_EDOM, "kv", "'int4-g2000000' is out of range");
    refused("model", (const char *const[]){"config", LLAMA, "batch", "0", NULL}, HWFIT_EDOM,
            "batch", "must be at least 1, got 0");
    refused("model", (const char *const[]){"config", LLAMA, "context", "0", NULL}, HWFIT_EDOM,
            "context", "must be at least 1");
    refused("model", (const char *const[]){"config", LLAMA, "context", "lots", NULL},
            HWFIT_EPARSE, "context", "expected a whole number");
    refused("model", (const char *const[]){"config", LLAMA, "mtp", "yes", NULL}, HWFIT_EPARSE,
            "mtp", "takes no value");
}

Test(request_model, config_reader_errors_name_the_file_and_position) {
    char path[] = "/tmp/hwfit_request_model_XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("{\"model_type\": \"llama\",\n \"num_hidden_layers\": \"32\"}", f);
    fclose(f);
    refused("model", (const char *const[]){"config", path, NULL}, HWFIT_EPARSE, "config",
            "2:");
    refused("model", (const char *const[]){"config", path, NULL}, HWFIT_EPARSE, "config",
            "num_hidden_layers");
    refused("memory", (const char *const[]){"config", path, NULL}, HWFIT_EPARSE, "config",
            path);
    f = fopen(path, "w");
    fputs("{\"model_type\": \"bert\"}", f);
    fclose(f);
    refused("model", (const char *const[]){"config", path, NULL}, HWFIT_EUNSUPPORTED, "config",
            "not supported");
    remove(path);
}

/* ---- memory --------------------------------------------------------------------------- */

/* memory's JSON for opts equals hwfit_memory_estimate of in on the config at path. */
static void check_memory(const char *path, const char *const *opts, const hwfit_memory_in *in) {
    const char *all[64] = {"config", path};
    size_t n = 2;
    for (size_t i = 0; opts && opts[i]; i += 2) all[n++] = opts[i], all[n++] = opts[i + 1];
    all[n] = NULL;
    hwfit__json_doc *doc = run_json("memory", all);
    const hwfit__json_value *root = hwfit__json_root(doc);
    hwfit_model *m = load(path);
    hwfit_memory_out want;
    cr_assert_eq(hwfit_memory_estimate(m, in, &want), HWFIT_OK);
    cr_assert_str_eq(str_of(root, "model_type"), m->name);
    cr_assert_eq(u64_of(root, "params"), want.params);
    cr_assert_eq(u64_of(root, "trainable_params"), want.trainable_params);
    cr_assert_eq(u64_of(root, "adapter_params"), want.adapter_params);
    cr_assert_eq(u64_of(root, "weights_bytes"), want.weights_bytes);
    cr_assert_eq(u64_of(root, "kv_bytes"), want.kv_bytes);
    cr_assert_eq(u64_of(root, "activation_bytes"), want.activation_bytes);
    cr_assert_eq(u64_of(root, "gradient_bytes"), want.gradient_bytes);
    cr_assert_eq(u64_of(root, "optimizer_bytes"), want.optimizer_bytes);
    cr_assert_eq(u64_of(root, "overhead_bytes"), want.overhead_bytes);
    cr_assert_eq(u64_of(root, "total_bytes"), want.total_bytes);
    char name[HWFIT_DTYPE_NAME_SIZE];
    hwfit_dtype base = in->mode == HWFIT_MEMORY_QLORA ? in->qlora_base : in->weights;
    cr_assert_eq(hwfit_dtype_format(base, name, sizeof name), HWFIT_OK);
    cr_assert_str_eq(str_of(root, "weights"), name);
    if (in->mode == HWFIT_MEMORY_INFERENCE) {
        cr_assert_eq(u64_of(root, "batch"), in->batch);
        cr_assert_eq(member(root, "kv")->type, HWFIT__JSON_STRING);
    } else {
        cr_assert_eq(u64_of(root, "micro_batch"), in->micro_batch);
        cr_assert_eq(member(root, "kv")->type, HWFIT__JSON_NULL);
    }
    cr_assert_eq(u64_of(root, "context"), in->context);
    free(m);
    hwfit__json_free(doc);
}

Test(request_memory, footprints_are_hwfit_memory_estimate) {
    hwfit_memory_in in;
    hwfit_memory_init(&in); /* nothing given: every default is the init value */
    check_memory(LLAMA, NULL, &in);

    hwfit_memory_init(&in);
    in.context = 8192;
    in.overhead_bytes = 0;
    check_memory(LLAMA, (const char *const[]){"context", "8K", "overhead", "0", NULL}, &in);

    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_FULL;
    cr_assert_eq(hwfit_dtype_parse("fp32", &in.gradients), HWFIT_OK);
    check_memory(LLAMA, (const char *const[]){"mode", "full", "gradients", "fp32", NULL}, &in);

    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_QLORA; /* base nf4-dq: weights not given */
    in.lora_rank = 64;
    cr_assert_eq(hwfit_memory_lora_targets_parse("q_proj,v_proj", &in.lora_targets), HWFIT_OK);
    in.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    in.micro_batch = 2;
    check_memory(LLAMA,
                 (const char *const[]){"mode", "qlora", "lora-rank", "64", "lora_targets",
                                       "q_proj,v_proj", "recompute", "full", "micro-batch", "2",
                                       NULL},
                 &in);

    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_QLORA; /* weights given in qlora: the base */
    in.recompute = HWFIT_MEMORY_RECOMPUTE_FULL; /* the LoRA/QLoRA recipes' default */
    cr_assert_eq(hwfit_dtype_parse("nf4", &in.qlora_base), HWFIT_OK);
    check_memory(LLAMA, (const char *const[]){"mode", "qlora", "weights", "nf4", NULL}, &in);

    hwfit_memory_init(&in);
    cr_assert_eq(hwfit_dtype_parse("q4_k", &in.weights), HWFIT_OK);
    cr_assert_eq(hwfit_dtype_parse("fp8", &in.kv), HWFIT_OK);
    in.batch = 8;
    in.context = 32768;
    in.overhead_bytes = 2147483648.0;
    in.flash_attention = 0;
    in.keep_embeddings = 0;
    in.prefill_chunk = 0;
    check_memory(CONFIG("mixtral-8x7b-instruct-v0.1"),
                 (const char *const[]){"weights", "q4_k", "kv", "fp8", "batch", "8", "context",
                                       "32K", "overhead", "2GiB", "no-flash-attention", NULL,
                                       "quantize-embeddings", NULL, "prefill-chunk", "0", NULL},
                 &in);

    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_FULL;
    in.optimizer = HWFIT_MEMORY_ADAMW_8BIT;
    in.tensor_parallel = 2;
    in.dropout = 0;
    in.master_weights = 0;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_SELECTIVE;
    check_memory(CONFIG("qwen3-8b"),
                 (const char *const[]){"mode", "full", "optimizer", "adamw-8bit",
                                       "tensor-parallel", "2", "no-dropout", NULL,
                                       "no-master-weights", NULL, "recompute", "selective",
                                       NULL},
                 &in);

    hwfit_memory_init(&in);
    in.mtp = 1;
    in.mode = HWFIT_MEMORY_LORA;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    /* LoRA keeps the base as the checkpoint stores it: fp8 128x128 blocks (quantization_config). */
    int applied = 0;
    hwfit_model *ds = load(CONFIG("deepseek-v3"));
    cr_assert_eq(hwfit_memory_use_stored(ds, &in, &applied), HWFIT_OK);
    free(ds);
    cr_assert_eq(applied, 1);
    cr_assert_eq(in.expert_weights.id, HWFIT_DTYPE_FP8_B128);
    check_memory(CONFIG("deepseek-v3"), (const char *const[]){"mtp", NULL, "mode", "lora", NULL},
                 &in);
    /* A given weights format overrides the stored one. */
    hwfit_memory_init(&in);
    in.mtp = 1;
    in.mode = HWFIT_MEMORY_LORA;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    check_memory(CONFIG("deepseek-v3"),
                 (const char *const[]){"mtp", NULL, "mode", "lora", "weights", "bf16", NULL}, &in);
}

Test(request_memory, published_figures) {
    hwfit__json_doc *doc = run_json("memory", (const char *const[]){"config", LLAMA, "mode",
                                                                    "full", NULL});
    const hwfit__json_value *root = hwfit__json_root(doc);
    uint64_t p = 8030261248ull;
    cr_assert_eq(u64_of(root, "weights_bytes") + u64_of(root, "gradient_bytes") +
                     u64_of(root, "optimizer_bytes"),
                 16 * p);
    cr_assert_str_eq(str_of(root, "optimizer"), "adamw");
    cr_assert_str_eq(str_of(root, "recompute"), "none");
    hwfit__json_free(doc);
}

Test(request_memory, defaults_are_hwfit_memory_init) {
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    cr_assert_str_eq(default_text("memory", "mode"), "inference");
    cr_assert_eq(in.mode, HWFIT_MEMORY_INFERENCE);
    cr_assert_str_eq(default_text("memory", "optimizer"), "adamw");
    cr_assert_eq(in.optimizer, HWFIT_MEMORY_ADAMW);
    /* recompute: none as hwfit_memory_init, except LoRA and QLoRA (request_memory,
     * adapters_default_to_full_recomputation) */
    cr_assert_null(option("memory", "recompute")->default_text);
    cr_assert_eq(in.recompute, HWFIT_MEMORY_RECOMPUTE_NONE);
    cr_assert(same_dtype(default_dtype("memory", "kv"), in.kv));
    cr_assert(same_dtype(default_dtype("memory", "gradients"), in.gradients));
    cr_assert_eq(default_u64("memory", "batch"), in.batch);
    cr_assert_eq(default_u64("memory", "context"), in.context);
    cr_assert_eq(default_u64("memory", "prefill-chunk"), in.prefill_chunk);
    cr_assert_eq(default_u64("memory", "micro-batch"), in.micro_batch);
    cr_assert_eq(default_u64("memory", "tensor-parallel"), in.tensor_parallel);
    cr_assert_eq(default_u64("memory", "lora-rank"), in.lora_rank);
    double overhead;
    cr_assert_eq(hwfit_units_parse(default_text("memory", "overhead"), HWFIT_UNIT_BYTES,
                                   &overhead), HWFIT_OK);
    cr_assert_eq(overhead, in.overhead_bytes);
    unsigned targets;
    cr_assert_eq(hwfit_memory_lora_targets_parse(default_text("memory", "lora-targets"),
                                                 &targets), HWFIT_OK);
    cr_assert_eq(targets, in.lora_targets);
    /* weights: no default_text (it depends on the mode); the words say both */
    const hwfit_option *w = option("memory", "weights");
    cr_assert_null(w->default_text);
    char name[HWFIT_DTYPE_NAME_SIZE];
    cr_assert_eq(hwfit_dtype_format(in.weights, name, sizeof name), HWFIT_OK);
    cr_assert_not_null(strstr(w->default_help, name));
    cr_assert_eq(hwfit_dtype_format(in.qlora_base, name, sizeof name), HWFIT_OK);
    cr_assert_not_null(strstr(w->default_help, name));
    /* flags off = the init values */
    cr_assert_eq(in.master_weights, 1);
    cr_assert_eq(in.flash_attention, 1);
    cr_assert_eq(in.dropout, 1);
    cr_assert_eq(in.keep_embeddings, 1);
    cr_assert_eq(in.mtp, 0);
    /* bounds: at least the library's domain */
    cr_assert_eq(option("memory", "overhead")->max, 9007199254740992.0);
    cr_assert_eq(option("memory", "tensor-parallel")->max, 4294967295.0);
    cr_assert_eq(option("memory", "lora-rank")->max, 4294967295.0);
}

Test(request_memory, refusals) {
#define MEM(...) ((const char *const[]){"config", LLAMA, __VA_ARGS__, NULL})
    refused("memory", NULL, HWFIT_EINVAL, "model", "is required, e.g. meta-llama/Llama-3.1-70B");
    refused("memory", MEM("mode", "pretrain"), HWFIT_ENOTFOUND, "mode",
            "unknown value 'pretrain'");
    refused("memory", MEM("kv", "fp4"), HWFIT_ENOTFOUND, "kv", "unknown number format 'fp4'");
    refused("memory", MEM("mode", "full", "gradients", "q8_0"), HWFIT_EDOM, "gradients",
            "must be a plain format");
    refused("memory", MEM("mode", "full", "weights", "q4_k"), HWFIT_EUNSUPPORTED, "weights",
            "must be a plain format");
    refused("memory", MEM("tensor-parallel", "0"), HWFIT_EDOM, "tensor-parallel",
            "must be between 1 and 4294967295");
    refused("memory", MEM("lora-rank", "8589934592"), HWFIT_EDOM, "lora-rank",
            "must be between 1 and 4294967295");
    refused("memory", MEM("mode", "lora", "lora-targets", "q,,v"), HWFIT_EPARSE, "lora-targets",
            "'q,,v' is not a list");
    refused("memory", MEM("mode", "lora", "lora-targets", "lm_head"), HWFIT_ENOTFOUND, "lora-targets",
            "is not a list");
    refused("memory", MEM("overhead", "1e300"), HWFIT_EDOM, "overhead", "must be between 0 B");
    /* What a mode does not use is refused, not ignored (issue 21). */
    refused("memory", MEM("recompute", "full"), HWFIT_EINVAL, "recompute",
            "applies only to training");
    refused("memory", MEM("micro-batch", "4"), HWFIT_EINVAL, "micro-batch",
            "applies only to training");
    refused("perf", MEM("gpu", "h100-sxm", "moe-imbalance", "2"), HWFIT_EINVAL, "moe-imbalance",
            "applies only to training");
    refused("plan", MEM("gpu", "h100-sxm", "gpus", "8", "training-efficiency", "0.5"),
            HWFIT_EINVAL, "training-efficiency", "applies only to training");
    refused("memory", MEM("mode", "full", "lora-rank", "8"), HWFIT_EINVAL, "lora-rank",
            "applies only to mode lora or qlora");
    refused("memory", MEM("mode", "lora", "qlora-inputs-kept", "true"), HWFIT_EINVAL,
            "qlora-inputs-kept", "applies only to mode qlora");
    refused("memory", MEM("overhead", "-1GB"), HWFIT_EDOM, "overhead", "expected a size");
    refused("memory", MEM("micro-batch", "0"), HWFIT_EDOM, "micro-batch", "must be at least 1");
    refused("memory", MEM("batch", "18446744073709551616"), HWFIT_ERANGE, "batch",
            "beyond a 64-bit count");
    refused("memory", MEM("batch", "9223372036854775807", "context", "1M"), HWFIT_ERANGE, NULL,
            "64-bit");
    refused("memory", MEM("no-dropout", "yes"), HWFIT_EPARSE, "no-dropout", "takes no value");
#undef MEM
}

/* ---- every command: a small buffer, the table's shape --------------------------------- */

Test(request_model_area, small_buffer_says_the_size_it_needs) {
    static const char *const cmds[] = {"dtypes", "gpus", "link", "model", "memory"};
    static const char *const first[][2] = {{NULL, NULL}, {"name", "b200"}, {"name", "pcie5x16"},
                                           {"config", LLAMA}, {"config", LLAMA}};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        const char *opts[] = {first[i][0], first[i][1], NULL};
        hwfit_request *r = request(cmds[i], opts);
        size_t need = 0;
        cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_JSON, NULL, 0, &need), HWFIT_OK);
        size_t len;
        const char *full = hwfit_request_output(r, &len);
        cr_assert_eq(need, len + 1, "%s", cmds[i]);
        char *copy = malloc(need);
        memcpy(copy, full, need);
        char small[16];
        size_t need2 = 0;
        cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_JSON, small, sizeof small, &need2),
                     HWFIT_EBUFSIZE, "%s", cmds[i]);
        cr_assert_eq(need2, need, "%s", cmds[i]);
        char *buf = malloc(need);
        cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_JSON, buf, need, NULL), HWFIT_OK);
        cr_assert_str_eq(buf, copy, "%s", cmds[i]);
        free(buf);
        free(copy);
        hwfit_request_free(r);
    }
}

Test(request_model_area, option_tables_are_well_formed) {
    static const char *const cmds[] = {"dtypes", "gpus", "link", "model", "memory"};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        const hwfit_command *c = hwfit_command_by_name(cmds[i]);
        cr_assert_not_null(c, "%s", cmds[i]);
        cr_assert(c->formats & (1u << HWFIT_FORMAT_JSON));
        cr_assert(c->formats & (1u << HWFIT_FORMAT_TEXT));
        int csv = strcmp(cmds[i], "dtypes") == 0 || strcmp(cmds[i], "gpus") == 0;
        cr_assert_eq(!!(c->formats & (1u << HWFIT_FORMAT_CSV)), csv, "%s", cmds[i]);
        for (const hwfit_option *o = hwfit_option_next(c, NULL); o; o = hwfit_option_next(c, o)) {
            cr_assert(o->help && o->help[0], "%s --%s", cmds[i], o->name);
            cr_assert_null(strstr(o->help, "(default"), "%s --%s", cmds[i], o->name);
            int bounded = o->kind == HWFIT_OPTION_COUNT || o->kind == HWFIT_OPTION_TOKENS ||
                          o->kind == HWFIT_OPTION_QUANTITY || o->kind == HWFIT_OPTION_RATIO;
            if (bounded) {
                cr_assert(o->min <= o->max && o->max > 0, "%s --%s", cmds[i], o->name);
                cr_assert(o->default_text || o->default_help, "%s --%s", cmds[i], o->name);
            }
            if (o->flags & HWFIT_OPTION_REQUIRED)
                cr_assert_not_null(o->example, "%s --%s", cmds[i], o->name);
            if (o->kind == HWFIT_OPTION_NAME) cr_assert_not_null(o->catalog);
        }
    }
}

/* --model is the model option of every command that reads one; --config, its old name,
 * stays an alias, and a refusal names the option as it was spelled. */
Test(request_model, model_option_and_its_config_alias) {
    static const char *const with_model[] = {"fit", "plan", "perf", "memory", "model", "serve"};
    for (size_t i = 0; i < sizeof with_model / sizeof with_model[0]; i++) {
        const hwfit_command *c = hwfit_command_by_name(with_model[i]);
        const hwfit_option *m = hwfit_option_by_name(c, "model");
        cr_assert_not_null(m, "%s has no model option", with_model[i]);
        cr_assert_eq(hwfit_option_by_name(c, "config"), m, "%s: config is not model's alias",
                     with_model[i]);
        cr_assert_str_eq(m->alias, "config");
    }
    /* No other option of any command answers to "config" or "model" under another name. */
    for (const hwfit_command *c = hwfit_command_next(NULL); c; c = hwfit_command_next(c))
        for (const hwfit_option *o = hwfit_option_next(c, NULL); o; o = hwfit_option_next(c, o))
            cr_assert(o->alias == NULL || strcmp(o->name, "model") == 0, "%s --%s", c->name,
                      o->name);
    refused("memory", (const char *const[]){"config", "/nonexistent/c.json", NULL}, HWFIT_EIO,
            "config", "cannot open");
    refused("memory", (const char *const[]){"model", "/nonexistent/c.json", NULL}, HWFIT_EIO,
            "model", "cannot open");
    /* The same answer either way. */
    hwfit__json_doc *a = run_json("model", (const char *const[]){"config", LLAMA, NULL});
    hwfit__json_doc *b = run_json("model", (const char *const[]){"model", LLAMA, NULL});
    cr_assert_eq(u64_of(hwfit__json_root(a), "params_total"), u64_of(hwfit__json_root(b), "params_total"));
    hwfit__json_free(a);
    hwfit__json_free(b);
}

/* The model option also takes the config.json text itself: the same model as the file. */
Test(request_model, model_option_takes_the_config_text) {
    FILE *f = fopen(LLAMA, "rb");
    cr_assert_not_null(f);
    static char text[65536];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    while (n > 0 && text[0] != '{') memmove(text, text + 1, n--); /* no leading space */
    hwfit__json_doc *a = run_json("model", (const char *const[]){"model", LLAMA, NULL});
    hwfit__json_doc *b = run_json("model", (const char *const[]){"model", text, NULL});
    cr_assert_eq(u64_of(hwfit__json_root(a), "params_total"), u64_of(hwfit__json_root(b), "params_total"));
    cr_assert_eq(u64_of(hwfit__json_root(b), "params_total"), 8030261248ull);
    hwfit__json_free(a);
    hwfit__json_free(b);
    refused("model", (const char *const[]){"model", "{\"model_type\": \"llama\",", NULL},
            HWFIT_EPARSE, "model", "config JSON text");
}

/* LoRA and QLoRA default to full recomputation, as PEFT's prepare_model_for_kbit_training
 * (use_gradient_checkpointing=True) and torchtune's LoRA/QLoRA configs
 * (enable_activation_checkpointing: True) do; the answer says so. A 70B QLoRA on one card
 * at 4,096 tokens: 52.7 GB, not the 141.5 GB of stored activations (issue #15). */
Test(request_memory, adapters_default_to_full_recomputation) {
    static const struct { const char *mode, *want, *source; } cases[] = {
        {"lora", "full", "LoRA/QLoRA recipes' default"},
        {"qlora", "full", "LoRA/QLoRA recipes' default"},
        {"full", "none", "default"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hwfit__json_doc *doc = run_json("memory", (const char *const[]){"config", LLAMA, "mode",
                                                                        cases[i].mode, NULL});
        const hwfit__json_value *root = hwfit__json_root(doc);
        cr_assert_str_eq(str_of(root, "recompute"), cases[i].want, "%s", cases[i].mode);
        cr_assert_str_eq(str_of(root, "recompute_source"), cases[i].source, "%s", cases[i].mode);
        const hwfit__json_value *a = member(root, "assumptions");
        cr_assert_str_eq(str_of(a, "recompute"), cases[i].want);
        cr_assert_str_eq(str_of(a, "recompute_source"), cases[i].source);
        hwfit__json_free(doc);
    }
    hwfit__json_doc *doc = run_json("memory", (const char *const[]){"config", LLAMA, "mode",
                                                                    "qlora", "recompute", "none",
                                                                    NULL});
    cr_assert_str_eq(str_of(hwfit__json_root(doc), "recompute"), "none");
    cr_assert_str_eq(str_of(hwfit__json_root(doc), "recompute_source"), "given");
    hwfit__json_free(doc);
    doc = run_json("memory", (const char *const[]){"config", CONFIG("llama-3.1-70b"), "mode",
                                                   "qlora", NULL});
    uint64_t total = u64_of(hwfit__json_root(doc), "total_bytes");
    cr_assert(total > 52.6e9 && total < 52.8e9, "70B QLoRA: %llu bytes, want about 52.7 GB",
              (unsigned long long)total);
    hwfit__json_free(doc);
    doc = run_json("memory", (const char *const[]){"config", CONFIG("llama-3.1-70b"), "mode",
                                                   "qlora", "recompute", "none", NULL});
    total = u64_of(hwfit__json_root(doc), "total_bytes");
    cr_assert(total > 141.4e9 && total < 141.6e9, "without recomputation: %llu",
              (unsigned long long)total);
    hwfit__json_free(doc);
}
