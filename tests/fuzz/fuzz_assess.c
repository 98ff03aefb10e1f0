/* fuzz_assess.c - libFuzzer target from a node file to the assessment and its reports:
 * hwfit_node_parse -> hwfit_assess -> hwfit_report_html, and the request layer's `assess`
 * (the same node as a file) in JSON, text, Markdown and HTML.
 *
 * Bytes: the first picks the workloads (none, serving llama-3.1-8b, QLoRA fine-tuning
 * of it, or both), whether the report draws its charts and the request's format; the rest
 * is the node file, at most 64 KiB (larger inputs are skipped: the reader refuses files
 * above HWFIT_NODE_SPEC_MAX_BYTES anyway, and a bounded input keeps each run short).
 *
 * Checks: a node the reader takes is assessed (any documented refusal is fine) with
 * finite figures, a known topic, kind and rule id; the HTML report's size query and its
 * document agree (NUL at needed - 1, one byte too few is HWFIT_EBUFSIZE with the buffer
 * untouched); the request layer answers or refuses with one line, and its answer is
 * NUL-terminated at its length. Run with libFuzzer's -timeout= (run.sh gives 2 s) so that
 * a slow node is a finding. Always built as `replay_assess`, which CTest runs over
 * tests/fuzz/corpus/assess/ (the example node files with a leading byte).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_input.h"
#include "hwfit/request.h"

#ifndef HWFIT_TEST_DATA
#define HWFIT_TEST_DATA "tests/data"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_INPUT (64u * 1024u)
#define MAX_FINDINGS 256

static hwfit_model model8b;
static int model_state; /* 0 not read, 1 read, -1 failed */

static const hwfit_model *model(void) {
    if (model_state == 0) {
        hwfit_error err;
        model_state = hwfit_hf_config_load(HWFIT_TEST_DATA "/models/llama-3.1-8b.config.json",
                                           &model8b, &err) == HWFIT_OK ? 1 : -1;
    }
    FZ_CHECK(model_state == 1);
    return &model8b;
}

#define ASSESS_DOCUMENTED                                                                  \
    ((1u << HWFIT_OK) | (1u << HWFIT_EINVAL) | (1u << HWFIT_EDOM) | (1u << HWFIT_ENOTFOUND) | \
     (1u << HWFIT_EUNSUPPORTED) | (1u << HWFIT_ERANGE) | (1u << HWFIT_ENOMEM))

static void check_findings(const hwfit_finding *f, size_t count, size_t workloads) {
    for (size_t i = 0; i < count; i++) {
        FZ_CHECK((unsigned)f[i].topic < (unsigned)HWFIT_ASSESS_TOPIC_COUNT_);
        FZ_CHECK((unsigned)f[i].kind <= (unsigned)HWFIT_FINDING_INFO);
        FZ_CHECK(f[i].workload <= workloads);
        FZ_CHECK(memchr(f[i].rule, '\0', sizeof f[i].rule) != NULL);
        FZ_CHECK(f[i].rule[0] != '\0' && strchr(f[i].rule, '.') != NULL);
        FZ_CHECK(memchr(f[i].text, '\0', sizeof f[i].text) != NULL && f[i].text[0] != '\0');
        FZ_CHECK(f[i].figure_count <= HWFIT_FINDING_MAX_FIGURES);
        for (uint32_t k = 0; k < f[i].figure_count; k++) {
            FZ_CHECK(hwfit__finite(f[i].figures[k].value));
            FZ_CHECK(f[i].figures[k].key[0] != '\0');
        }
    }
}

static void check_report(const hwfit_node *n, const hwfit_assess_workload *w, size_t nw,
                         const hwfit_finding *f, size_t count, int charts) {
    hwfit_report_options opt;
    hwfit_report_options_init(&opt);
    opt.charts = charts;
    size_t needed = 0;
    hwfit_status st = hwfit_report_html(n, w, nw, f, count, &opt, NULL, 0, &needed);
    if (st != HWFIT_EBUFSIZE) {
        FZ_CHECK(st != HWFIT_OK); /* an empty document is never right */
        return;
    }
    FZ_CHECK(needed > 1);
    char *buf = malloc(needed);
    FZ_CHECK(buf != NULL);
    memset(buf, 0x5a, needed);
    size_t again = 0;
    FZ_CHECK(hwfit_report_html(n, w, nw, f, count, &opt, buf, needed - 1, &again) ==
             HWFIT_EBUFSIZE);
    FZ_CHECK(again == needed);
    for (size_t i = 0; i < needed; i++) FZ_CHECK((unsigned char)buf[i] == 0x5a);
    FZ_CHECK(hwfit_report_html(n, w, nw, f, count, &opt, buf, needed, &again) == HWFIT_OK);
    FZ_CHECK(again == needed && buf[needed - 1] == '\0' && strlen(buf) == needed - 1);
    FZ_CHECK(strstr(buf, "</html>") != NULL);
    free(buf);
}

/* The same node through the request layer, from a file. */
static void check_request(const uint8_t *text, size_t len, unsigned pick) {
    char path[64];
    snprintf(path, sizeof path, "/tmp/hwfit-fuzz-assess-%ld.json", (long)getpid());
    FILE *f = fopen(path, "wb");
    if (f == NULL) return;
    int ok = fwrite(text, 1, len, f) == len;
    if (fclose(f) != 0 || !ok) return;
    hwfit_request *r;
    FZ_CHECK(hwfit_request_new("assess", &r) == HWFIT_OK);
    FZ_CHECK(hwfit_request_set(r, "node", path) == HWFIT_OK);
    FZ_CHECK(hwfit_request_set(r, "models-dir", HWFIT_TEST_DATA "/models") == HWFIT_OK);
    if (pick & 1u) FZ_CHECK(hwfit_request_set(r, "workload", "serve:llama-3.1-8b") == HWFIT_OK);
    if (pick & 2u)
        FZ_CHECK(hwfit_request_set(r, "workload", "qlora:llama-3.1-8b:nf4-dq:2K") == HWFIT_OK);
    static const hwfit_format formats[] = {HWFIT_FORMAT_JSON, HWFIT_FORMAT_TEXT,
                                           HWFIT_FORMAT_MARKDOWN, HWFIT_FORMAT_HTML};
    hwfit_format format = formats[(pick >> 3) % 4u];
    hwfit_status st = hwfit_request_run(r, format, NULL, 0, NULL);
    if (st == HWFIT_OK) {
        size_t n = 0;
        const char *out = hwfit_request_output(r, &n);
        FZ_CHECK(n > 0 && strlen(out) == n);
    } else {
        const char *m = hwfit_request_message(r);
        FZ_CHECK(m[0] != '\0' && strlen(m) < 512 && strchr(m, '\n') == NULL);
    }
    hwfit_request_free(r);
    (void)remove(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > MAX_INPUT) return 0;
    unsigned pick = data[0];
    const char *text = (const char *)data + 1;
    size_t len = size - 1;

    static hwfit_node n;
    hwfit_error err;
    if (hwfit_node_parse(text, len, "fuzz.json", &n, &err) == HWFIT_OK) {
        hwfit_assess_workload w[2];
        size_t nw = 0;
        if (pick & 1u) {
            hwfit_assess_workload_init(&w[nw]);
            w[nw].model = model();
            nw++;
        }
        if (pick & 2u) {
            hwfit_assess_workload_init(&w[nw]);
            w[nw].model = model();
            w[nw].memory.mode = HWFIT_MEMORY_QLORA;
            w[nw].memory.context = 2048;
            nw++;
        }
        static hwfit_finding findings[MAX_FINDINGS];
        FZ_CHECK(hwfit_assess_max_findings(nw) <= MAX_FINDINGS);
        size_t count = 0;
        hwfit_status st = hwfit_assess(&n, w, nw, NULL, findings, MAX_FINDINGS, &count);
        FZ_CHECK((ASSESS_DOCUMENTED >> st) & 1u);
        if (st == HWFIT_OK) {
            check_findings(findings, count, nw);
            check_report(&n, w, nw, findings, count, (pick & 4u) != 0);
        }
    }
    check_request((const uint8_t *)text, len, pick);
    return 0;
}
