/* fuzz_request.c - libFuzzer target for the request layer (lib/request/): every command,
 * every option set from hostile text, every format.
 *
 * Bytes: the first picks a command; then records of (option byte, text up to a NUL) set
 * options by index (file options get one of the shipped model configs or node files, by
 * the text's first byte, so the calculations are reached); the last byte picks the format.
 * Checks: every status is one request.h documents; a refusal has a one-line message under
 * 512 bytes; an answer is non-empty, NUL-terminated at its length, and in JSON a document
 * the strict reader takes; the same request run twice gives the same bytes.
 */
#include <string.h>

#include "fuzz_input.h"
#include "hwfit/request.h"
#include "readers/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#ifndef HWFIT_TEST_DATA
#define HWFIT_TEST_DATA "tests/data"
#endif
#ifndef HWFIT_SOURCE_DIR
#define HWFIT_SOURCE_DIR "."
#endif

static const char *const files[] = {
    HWFIT_TEST_DATA "/models/llama-3.1-8b.config.json",
    HWFIT_TEST_DATA "/models/llama-3.1-70b.config.json",
    HWFIT_TEST_DATA "/models/mixtral-8x7b-instruct-v0.1.config.json",
    HWFIT_TEST_DATA "/models/deepseek-v3.config.json",
    HWFIT_TEST_DATA "/models/qwen3-coder-30b-a3b-instruct.config.json",
    HWFIT_SOURCE_DIR "/examples/specs/seed-server.json",
    HWFIT_SOURCE_DIR "/examples/specs/hgx-h100.json",
    HWFIT_TEST_DATA "/models/README.md",
};

#define DOCUMENTED                                                                        \
    ((1u << HWFIT_OK) | (1u << HWFIT_EINVAL) | (1u << HWFIT_EDOM) | (1u << HWFIT_ERANGE) |   \
     (1u << HWFIT_ENOTFOUND) | (1u << HWFIT_EPARSE) | (1u << HWFIT_ENOMEM) |              \
     (1u << HWFIT_EIO) | (1u << HWFIT_EUNSUPPORTED) | (1u << HWFIT_ELAYOUT))

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz f = {data, size};
    size_t ncommands = 0;
    for (const hwfit_command *c = hwfit_command_next(NULL); c; c = hwfit_command_next(c))
        ncommands++;
    if (ncommands == 0) return 0;
    size_t pick = fz_u8(&f) % ncommands;
    const hwfit_command *c = hwfit_command_next(NULL);
    while (pick--) c = hwfit_command_next(c);
    size_t noptions = 0;
    for (const hwfit_option *o = hwfit_option_next(c, NULL); o; o = hwfit_option_next(c, o))
        noptions++;
    hwfit_request *r;
    FZ_CHECK(hwfit_request_new(c->name, &r) == HWFIT_OK);
    char text[256];
    while (f.n > 1 && noptions > 0) {
        size_t k = fz_u8(&f) % noptions;
        size_t len = 0;
        while (f.n > 1 && len + 1 < sizeof text) {
            uint8_t b = fz_u8(&f);
            if (b == 0) break;
            text[len++] = (char)b;
        }
        text[len] = '\0';
        const hwfit_option *o = hwfit_option_next(c, NULL);
        while (k--) o = hwfit_option_next(c, o);
        const char *value = text;
        if (o->kind == HWFIT_OPTION_FILE) value = files[(unsigned char)text[0] % 8];
        hwfit_status st = hwfit_request_set(r, o->name, o->kind == HWFIT_OPTION_FLAG && len == 0
                                                            ? NULL : value);
        FZ_CHECK((DOCUMENTED >> st) & 1u);
        if (st != HWFIT_OK) {
            const char *m = hwfit_request_message(r);
            FZ_CHECK(m[0] != '\0' && strlen(m) < 512 && strchr(m, '\n') == NULL);
        }
    }
    hwfit_format format = (hwfit_format)(fz_u8(&f) % 6);
    hwfit_status st = hwfit_request_run(r, format, NULL, 0, NULL);
    FZ_CHECK((DOCUMENTED >> st) & 1u);
    if (st == HWFIT_OK) {
        size_t len;
        const char *out = hwfit_request_output(r, &len);
        FZ_CHECK(len > 0 && strlen(out) == len);
        if (format == HWFIT_FORMAT_JSON) {
            hwfit__json_doc *doc;
            hwfit_error err;
            FZ_CHECK(hwfit__json_parse(out, len, &doc, &err) == HWFIT_OK);
            hwfit__json_free(doc);
        }
        /* a copy into a caller's buffer gives the same bytes */
        char *copy = malloc(len + 1);
        size_t need = 0;
        FZ_CHECK(copy != NULL);
        FZ_CHECK(hwfit_request_run(r, format, copy, len + 1, &need) == HWFIT_OK);
        FZ_CHECK(need == len + 1 && memcmp(copy, out, len + 1) == 0);
        free(copy);
    } else {
        const char *m = hwfit_request_message(r);
        FZ_CHECK(m[0] != '\0' && strlen(m) < 512 && strchr(m, '\n') == NULL);
    }
    hwfit_request_free(r);
    return 0;
}
