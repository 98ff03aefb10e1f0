/* GPU files: cards of one's own read from JSON into a set (include/hwfit/gpu_file.h). */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwfit.h"

static hwfit_gpu_set *new_set(void) {
    hwfit_gpu_set *set = NULL;
    cr_assert_eq(hwfit_gpu_set_new(&set), HWFIT_OK);
    return set;
}

static const char *const l20 =
    "{\"name\": \"my-l20\", \"vendor\": \"nvidia\", \"memory_bytes\": \"48GB\",\n"
    " \"memory_bandwidth_bytes_per_s\": \"864GB/s\", \"tdp_w\": \"275W\",\n"
    " \"fp32_flop_per_s\": \"59.8TFLOPS\", \"fp16_bf16_flop_per_s\": \"119.5TFLOPS\",\n"
    " \"fp8_flop_per_s\": \"239TFLOPS\", \"int8_op_per_s\": \"239TOPS\", \"sparsity\": true,\n"
    " \"source\": \"NVIDIA L20 datasheet\"}\n";

Test(gpu_file, one_card_with_units_and_defaults) {
    hwfit_gpu_set *set = new_set();
    hwfit_error e;
    cr_assert_eq(hwfit_gpu_file_parse(l20, strlen(l20), "l20.json", set, &e), HWFIT_OK, "%s",
                 e.message);
    cr_assert_eq(e.status, HWFIT_OK);
    cr_assert_eq(hwfit_gpu_set_count(set), 1);
    const hwfit_gpu *g = NULL;
    cr_assert_eq(hwfit_gpu_lookup(set, "my-l20", &g), HWFIT_OK);
    cr_assert_eq(g->memory_bytes, 48ull << 30); /* marketed GB read as GiB, as the catalog */
    cr_assert_eq(g->memory_bandwidth_bytes_per_s, 864e9);
    cr_assert_eq(g->tdp_w, 275.0);
    cr_assert_eq(g->fp32_flop_per_s, 59.8e12);
    cr_assert_eq(g->fp16_bf16_flop_per_s, 119.5e12);
    cr_assert_eq(g->int8_op_per_s, 239e12);
    cr_assert_eq(g->sparsity, 1);
    cr_assert_eq(g->sparse_speedup, 2.0);
    /* Defaults: edition = name, PCIe Gen4 x16, no peer link, no P2P, no NVLS. */
    cr_assert_str_eq(g->edition, "my-l20");
    cr_assert_str_eq(g->source, "NVIDIA L20 datasheet");
    cr_assert_str_eq(g->notes, "");
    cr_assert_eq(g->vendor, HWFIT_GPU_VENDOR_NVIDIA);
    cr_assert_eq(g->form_factor, HWFIT_GPU_FORM_PCIE_CARD);
    cr_assert_eq(g->pcie_gen, 4);
    cr_assert_eq(g->pcie_lanes, 16);
    cr_assert_eq(g->peer_link, HWFIT_GPU_PEER_NONE);
    cr_assert_eq(g->p2p_pcie, 0);
    cr_assert_eq(g->fp4_flop_per_s, 0.0);
    cr_assert_eq(hwfit_gpu_validate(g, NULL), HWFIT_OK);
    hwfit_gpu_set_free(set);
}

Test(gpu_file, lists_and_the_gpus_object) {
    const char *list =
        "[{\"name\": \"a\", \"memory_bytes\": 1073741824, \"memory_bandwidth_bytes_per_s\": 1e11,"
        " \"tdp_w\": 100, \"fp32_flop_per_s\": 1e13, \"fp16_bf16_flop_per_s\": 2e13},\n"
        " {\"name\": \"b\", \"memory_bytes\": \"2GiB\", \"memory_bandwidth_bytes_per_s\": \"1TB/s\","
        " \"tdp_w\": \"1kW\", \"fp32_flop_per_s\": \"10TFLOP/s\", \"fp16_bf16_flop_per_s\": \"1PFLOPS\","
        " \"vendor\": \"amd\", \"form_factor\": \"oam\", \"peer_link\": \"xgmi\","
        " \"peer_topology\": \"mesh\", \"peer_generation\": 3, \"peer_links\": 7,"
        " \"peer_bytes_per_s_bidir\": \"896GB/s\", \"peer_domain_gpus\": 8, \"p2p_pcie\": 1,"
        " \"pcie_gen\": 5}]";
    hwfit_gpu_set *set = new_set();
    hwfit_error e;
    cr_assert_eq(hwfit_gpu_file_parse(list, strlen(list), NULL, set, &e), HWFIT_OK, "%s", e.message);
    cr_assert_eq(hwfit_gpu_set_count(set), 2);
    const hwfit_gpu *b = hwfit_gpu_set_at(set, 1);
    cr_assert_str_eq(b->name, "b");
    cr_assert_eq(b->memory_bytes, 2ull << 30);
    cr_assert_eq(b->vendor, HWFIT_GPU_VENDOR_AMD);
    cr_assert_eq(b->peer_bytes_per_s, 448e9); /* half the bidirectional figure */
    cr_assert_eq(b->p2p_pcie, 1);
    cr_assert_eq(b->pcie_gen, 5);
    /* {"gpus": [...]}, as `hwfit gpus --json` writes; a second file adds to the set. */
    const char *obj = "{\"gpus\": [{\"name\": \"c\", \"memory_bytes\": \"8GB\","
                      " \"memory_bandwidth_bytes_per_s\": \"400GB/s\", \"tdp_w\": \"70W\","
                      " \"fp32_flop_per_s\": \"8TFLOPS\", \"fp16_bf16_flop_per_s\": \"65TFLOPS\","
                      " \"pcie_gen\": 0}], \"notes\": \"mine\"}";
    cr_assert_eq(hwfit_gpu_file_parse(obj, strlen(obj), "c.json", set, &e), HWFIT_OK, "%s", e.message);
    cr_assert_eq(hwfit_gpu_set_count(set), 3);
    cr_assert_eq(hwfit_gpu_set_at(set, 2)->pcie_lanes, 0); /* gen 0: no lanes */
    cr_assert_str_eq(hwfit_gpu_set_at(set, 2)->source, "GPU file c.json");
    hwfit_gpu_set_free(set);
}

/* The file is refused with status, a position and words; the set is left as it was. */
static void refused(const char *text, hwfit_status status, uint32_t line, uint32_t column,
                    const char *words) {
    hwfit_gpu_set *set = new_set();
    hwfit_error e;
    cr_assert_eq(hwfit_gpu_file_parse(l20, strlen(l20), "l20.json", set, &e), HWFIT_OK);
    hwfit_status st = hwfit_gpu_file_parse(text, strlen(text), "bad.json", set, &e);
    cr_assert_eq(st, status, "%s: %s", hwfit_status_name(st), e.message);
    cr_assert_eq(e.status, status);
    cr_assert_eq(e.line, line, "line %u, want %u: %s", e.line, line, e.message);
    cr_assert_eq(e.column, column, "column %u, want %u: %s", e.column, column, e.message);
    cr_assert_not_null(strstr(e.message, words), "'%s' lacks '%s'", e.message, words);
    cr_assert_not_null(strstr(e.message, "bad.json"), "%s", e.message);
    cr_assert_eq(hwfit_gpu_set_count(set), 1, "a refused file left cards behind");
    hwfit_gpu_set_free(set);
}

#define CARD_(name, tdp)                                                                    \
    "{\"name\": \"" name "\", \"memory_bytes\": \"24GB\",\n"                                \
    " \"memory_bandwidth_bytes_per_s\": \"1TB/s\",\n \"tdp_w\": " tdp ",\n"                 \
    " \"fp32_flop_per_s\": 1e13, \"fp16_bf16_flop_per_s\": 2e13"

Test(gpu_file, errors_say_where) {
    refused("{\"name\": \"x\",\n \"memory_bytes\": 1,}", HWFIT_EPARSE, 2, 20, "");
    refused(CARD_("x", "\"-5W\"") "}", HWFIT_EPARSE, 3, 11, "key 'tdp_w'");
    refused(CARD_("x", "0") "}", HWFIT_EPARSE, 3, 11, "key 'tdp_w' must be a power above 0");
    refused(CARD_("x", "5") ",\n \"tdpw\": 1}", HWFIT_EPARSE, 5, 2, "did you mean 'tdp_w'");
    refused(CARD_("x", "5") ",\n \"vendor\": \"intel\"}", HWFIT_EPARSE, 5, 12,
            "unknown value \"intel\" (accepted: nvidia, amd)");
    refused(CARD_("X Y", "5") "}", HWFIT_EPARSE, 1, 10, "key 'name' must be 1-63");
    refused(CARD_("h100-sxm", "5") "}", HWFIT_EPARSE, 1, 10, "built-in card");
    refused(CARD_("my-l20", "5") "}", HWFIT_EPARSE, 1, 10, "already taken");
    refused("[" CARD_("ok-1", "5") "},\n" CARD_("ok-1", "5") "}]", HWFIT_EPARSE, 5, 10,
            "gpus[1] \"ok-1\": name is already taken");
    refused("{\"name\": \"x\"}", HWFIT_EPARSE, 1, 1, "missing required key 'memory_bytes'");
    refused(CARD_("x", "5") ",\n \"peer_link\": \"nvlink\"}", HWFIT_EPARSE, 1, 1,
            "peer_topology must be switch, bridge or mesh");
    refused(CARD_("x", "5") ",\n \"sparsity\": 2}", HWFIT_EPARSE, 5, 14, "true or false");
    refused(CARD_("x", "5") ",\n \"memory_bytes\": 1}", HWFIT_EPARSE, 5, 2, "duplicate");
    refused("[]", HWFIT_EPARSE, 1, 1, "no card");
    refused("42", HWFIT_EPARSE, 1, 1, "a GPU file must be");
    refused("{\"gpus\": 3}", HWFIT_EPARSE, 1, 10, "key 'gpus' must be an array");
    refused(CARD_("x", "5") ",\n \"int8_op_per_s\": \"12 parsecs\"}", HWFIT_EPARSE, 5, 19,
            "key 'int8_op_per_s' must be a rate");
}

/* s as a JSON string body (quotes and backslashes escaped) in a static-free buffer. */
static const char *esc(const char *s, char *buf, size_t size) {
    size_t k = 0;
    for (; *s && k + 3 < size; s++) {
        if (*s == '"' || *s == '\\') buf[k++] = '\\';
        buf[k++] = *s;
    }
    buf[k] = '\0';
    return buf;
}

/* Every built-in row, written in the file format under another name, reads back equal. */
static void write_row(char *buf, size_t size, const hwfit_gpu *g, int units) {
    char mem[64], bw[64], tdp[64], ed[256], arch[256], src[2048], notes[2048];
    if (units) {
        snprintf(mem, sizeof mem, "\"%lluGiB\"", (unsigned long long)(g->memory_bytes >> 30));
        snprintf(bw, sizeof bw, "\"%.17gGB/s\"", g->memory_bandwidth_bytes_per_s / 1e9);
        snprintf(tdp, sizeof tdp, "\"%.17gW\"", g->tdp_w);
    } else {
        snprintf(mem, sizeof mem, "%llu", (unsigned long long)g->memory_bytes);
        snprintf(bw, sizeof bw, "%.17g", g->memory_bandwidth_bytes_per_s);
        snprintf(tdp, sizeof tdp, "%.17g", g->tdp_w);
    }
    int n = snprintf(
        buf, size,
        "{\"gpus\": [{\"name\": \"my-%s\", \"vendor\": \"%s\", \"edition\": \"%s\",\n"
        " \"architecture\": \"%s\", \"compute_capability\": %u, \"form_factor\": \"%s\",\n"
        " \"memory_bytes\": %s, \"memory_bandwidth_bytes_per_s\": %s, \"tdp_w\": %s,\n"
        " \"fp64_flop_per_s\": %.17g, \"fp64_tensor_flop_per_s\": %.17g,\n"
        " \"fp32_flop_per_s\": %.17g, \"tf32_flop_per_s\": %.17g,\n"
        " \"fp16_bf16_flop_per_s\": %.17g, \"fp8_flop_per_s\": %.17g,\n"
        " \"int8_op_per_s\": %.17g, \"fp4_flop_per_s\": %.17g, \"sparsity\": %s,\n"
        " \"sparse_speedup\": %.17g, \"pcie_gen\": %u, \"pcie_lanes\": %u,\n"
        " \"peer_link\": \"%s\", \"peer_topology\": \"%s\", \"peer_generation\": %u,\n"
        " \"peer_links\": %u, \"peer_bytes_per_s\": %.17g, \"peer_bytes_per_s_bidir\": %.17g,\n"
        " \"peer_domain_gpus\": %u, \"p2p_pcie\": %s, \"nvls\": %s,\n"
        " \"source\": \"%s\", \"notes\": \"%s\"}]}\n",
        g->name, hwfit_gpu_vendor_name(g->vendor), esc(g->edition, ed, sizeof ed),
        esc(g->architecture, arch, sizeof arch),
        (unsigned)g->compute_capability, hwfit_gpu_form_factor_name(g->form_factor), mem, bw,
        tdp, g->fp64_flop_per_s, g->fp64_tensor_flop_per_s, g->fp32_flop_per_s,
        g->tf32_flop_per_s, g->fp16_bf16_flop_per_s, g->fp8_flop_per_s, g->int8_op_per_s,
        g->fp4_flop_per_s, g->sparsity ? "true" : "false", g->sparse_speedup,
        (unsigned)g->pcie_gen, (unsigned)g->pcie_lanes, hwfit_gpu_peer_link_name(g->peer_link),
        hwfit_gpu_peer_topology_name(g->peer_topology), (unsigned)g->peer_generation,
        (unsigned)g->peer_links, g->peer_bytes_per_s, g->peer_bytes_per_s_bidir,
        (unsigned)g->peer_domain_gpus, g->p2p_pcie ? "true" : "false", g->nvls ? "true" : "false",
        esc(g->source, src, sizeof src), esc(g->notes, notes, sizeof notes));
    cr_assert(n > 0 && (size_t)n < size, "%s: row too long for the buffer", g->name);
}

Test(gpu_file, every_builtin_row_round_trips) {
    static char buf[16384];
    for (int units = 0; units < 2; units++) {
        hwfit_gpu_set *set = new_set();
        for (size_t i = 0; i < hwfit_gpu_count(); i++) {
            const hwfit_gpu *g = hwfit_gpu_at(i);
            write_row(buf, sizeof buf, g, units);
            hwfit_error e;
            cr_assert_eq(hwfit_gpu_file_parse(buf, strlen(buf), "row.json", set, &e), HWFIT_OK,
                         "%s: %s", g->name, e.message);
            const hwfit_gpu *r = hwfit_gpu_set_at(set, i);
            char want[80];
            snprintf(want, sizeof want, "my-%s", g->name);
            cr_assert_str_eq(r->name, want);
            cr_assert_str_eq(r->edition, g->edition);
            cr_assert_str_eq(r->architecture, g->architecture);
            cr_assert_str_eq(r->source, g->source);
            cr_assert_str_eq(r->notes, g->notes);
            cr_assert_eq(r->vendor, g->vendor, "%s", g->name);
            cr_assert_eq(r->compute_capability, g->compute_capability, "%s", g->name);
            cr_assert_eq(r->form_factor, g->form_factor, "%s", g->name);
            cr_assert_eq(r->memory_bytes, g->memory_bytes, "%s", g->name);
            const double got[] = {r->memory_bandwidth_bytes_per_s, r->tdp_w, r->fp64_flop_per_s,
                                  r->fp64_tensor_flop_per_s, r->fp32_flop_per_s,
                                  r->tf32_flop_per_s, r->fp16_bf16_flop_per_s, r->fp8_flop_per_s,
                                  r->int8_op_per_s, r->fp4_flop_per_s, r->sparse_speedup,
                                  r->peer_bytes_per_s, r->peer_bytes_per_s_bidir};
            const double exp[] = {g->memory_bandwidth_bytes_per_s, g->tdp_w, g->fp64_flop_per_s,
                                  g->fp64_tensor_flop_per_s, g->fp32_flop_per_s,
                                  g->tf32_flop_per_s, g->fp16_bf16_flop_per_s, g->fp8_flop_per_s,
                                  g->int8_op_per_s, g->fp4_flop_per_s, g->sparse_speedup,
                                  g->peer_bytes_per_s, g->peer_bytes_per_s_bidir};
            for (size_t k = 0; k < sizeof got / sizeof got[0]; k++) {
                /* Numbers are exact; "GB/s" strings are exact to the last bit or two. */
                double tol = units && k == 0 ? 1e-15 * exp[k] : 0.0;
                cr_assert(got[k] >= exp[k] - tol && got[k] <= exp[k] + tol,
                          "%s field %zu: %.17g vs %.17g", g->name, k, got[k], exp[k]);
            }
            cr_assert_eq(r->sparsity, g->sparsity);
            cr_assert_eq(r->pcie_gen, g->pcie_gen);
            cr_assert_eq(r->pcie_lanes, g->pcie_lanes);
            cr_assert_eq(r->peer_link, g->peer_link);
            cr_assert_eq(r->peer_topology, g->peer_topology);
            cr_assert_eq(r->peer_generation, g->peer_generation);
            cr_assert_eq(r->peer_links, g->peer_links);
            cr_assert_eq(r->peer_domain_gpus, g->peer_domain_gpus);
            cr_assert_eq(r->p2p_pcie, g->p2p_pcie);
            cr_assert_eq(r->nvls, g->nvls);
        }
        cr_assert_eq(hwfit_gpu_set_count(set), hwfit_gpu_count());
        hwfit_gpu_set_free(set);
    }
}

Test(gpu_file, load_reads_a_file_and_names_it) {
    char path[] = "/tmp/hwfit_gpu_file_XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    FILE *f = fdopen(fd, "w");
    cr_assert_not_null(f);
    fputs(l20, f);
    fclose(f);
    hwfit_gpu_set *set = new_set();
    hwfit_error e;
    cr_assert_eq(hwfit_gpu_file_load(path, set, &e), HWFIT_OK, "%s", e.message);
    cr_assert_eq(hwfit_gpu_set_count(set), 1);
    char expect[64];
    snprintf(expect, sizeof expect, "%s", path);
    cr_assert_str_eq(hwfit_gpu_set_at(set, 0)->source, "NVIDIA L20 datasheet");
    /* Loading it again: the name is taken now; the message starts with the path. */
    cr_assert_eq(hwfit_gpu_file_load(path, set, &e), HWFIT_EPARSE);
    cr_assert(strncmp(e.message, expect, strlen(expect)) == 0, "%s", e.message);
    remove(path);
    cr_assert_eq(hwfit_gpu_file_load(path, set, &e), HWFIT_EIO);
    cr_assert_eq(hwfit_gpu_file_load(NULL, set, &e), HWFIT_EINVAL);
    cr_assert_eq(hwfit_gpu_file_load(path, NULL, &e), HWFIT_EINVAL);
    cr_assert_eq(hwfit_gpu_file_parse(NULL, 0, NULL, set, &e), HWFIT_EINVAL);
    cr_assert_eq(hwfit_gpu_set_count(set), 1);
    hwfit_gpu_set_free(set);
}

/* The request layer: gpu-file's cards are known to gpu once the file is given. */
Test(gpu_file, requests_look_names_up_in_the_files) {
    char path[] = "/tmp/hwfit_gpu_req_XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    FILE *f = fdopen(fd, "w");
    fputs(l20, f);
    fclose(f);
    hwfit_request *r = NULL;
    cr_assert_eq(hwfit_request_new("gpus", &r), HWFIT_OK);
    /* Before the file: unknown at once, as any misspelt name. */
    cr_assert_eq(hwfit_request_set(r, "name", "my-l20"), HWFIT_ENOTFOUND);
    cr_assert_str_eq(hwfit_request_option(r)->name, "name");
    cr_assert_eq(hwfit_request_set(r, "gpu-file", path), HWFIT_OK);
    cr_assert_eq(hwfit_request_set(r, "name", "my-l20"), HWFIT_OK, "%s", hwfit_request_message(r));
    cr_assert_eq(hwfit_request_set(r, "name", "my-l2"), HWFIT_ENOTFOUND);
    cr_assert(strstr(hwfit_request_message(r), "did you mean 'my-l20'?") != NULL, "%s",
              hwfit_request_message(r));
    cr_assert_eq(hwfit_request_set(r, "name", "my-l20"), HWFIT_OK);
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_JSON, NULL, 0, NULL), HWFIT_OK, "%s",
                 hwfit_request_message(r));
    const char *out = hwfit_request_output(r, NULL);
    cr_assert(strstr(out, "\"my-l20\"") != NULL && strstr(out, "\"h100-sxm\"") == NULL, "%s", out);
    hwfit_request_free(r);
    /* fit: the card's memory is the capacity, the same number as the typed call. */
    cr_assert_eq(hwfit_request_new("fit", &r), HWFIT_OK);
    cr_assert_eq(hwfit_request_set(r, "config", HWFIT_TEST_DATA "/models/llama-3.1-8b.config.json"),
                 HWFIT_OK);
    cr_assert_eq(hwfit_request_set(r, "gpu-file", path), HWFIT_OK);
    cr_assert_eq(hwfit_request_set(r, "gpu", "my-l20"), HWFIT_OK);
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_JSON, NULL, 0, NULL), HWFIT_OK, "%s",
                 hwfit_request_message(r));
    char want[64];
    snprintf(want, sizeof want, "\"gpu_capacity_bytes\": %llu", 48ull << 30);
    cr_assert(strstr(hwfit_request_output(r, NULL), want) != NULL, "%s",
              hwfit_request_output(r, NULL));
    /* The file gone: run says so and names gpu-file. */
    remove(path);
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_TEXT, NULL, 0, NULL), HWFIT_EIO);
    cr_assert_str_eq(hwfit_request_option(r)->name, "gpu-file");
    hwfit_request_free(r);
}
