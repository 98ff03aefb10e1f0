/* The model cache of the request layer (request.h, hwfit_model_cache): a request that reads
 * its model through a cache answers what it answers without one, and sees a config.json
 * that changed and a checkpoint that appeared beside it. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hwfit.h"

#ifndef HWFIT_TEST_DATA
#define HWFIT_TEST_DATA "tests/data"
#endif

/* The JSON answer of `memory` for model (a path), through cache (may be NULL); heap. */
static char *answer(hwfit_model_cache *cache, const char *command, const char *model,
                    const char *const *options) {
    hwfit_request *r;
    cr_assert_eq(hwfit_request_new(command, &r), HWFIT_OK);
    if (cache != NULL) cr_assert_eq(hwfit_request_use_cache(r, cache), HWFIT_OK);
    cr_assert_eq(hwfit_request_set(r, "model", model), HWFIT_OK, "%s", hwfit_request_message(r));
    for (size_t i = 0; options != NULL && options[i] != NULL; i += 2)
        cr_assert_eq(hwfit_request_set(r, options[i], options[i + 1]), HWFIT_OK, "%s",
                     hwfit_request_message(r));
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_JSON, NULL, 0, NULL), HWFIT_OK, "%s",
                 hwfit_request_message(r));
    size_t n;
    const char *out = hwfit_request_output(r, &n);
    char *copy = malloc(n + 1);
    cr_assert_not_null(copy);
    memcpy(copy, out, n + 1);
    hwfit_request_free(r);
    return copy;
}

static void same_answer(hwfit_model_cache *cache, const char *command, const char *model,
                        const char *const *options) {
    char *plain = answer(NULL, command, model, options);
    char *cached = answer(cache, command, model, options);
    cr_assert_str_eq(cached, plain, "%s %s", command, model);
    free(plain);
    free(cached);
}

static char *read_all(const char *path) {
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s", path);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *copy = malloc(n + 1);
    cr_assert_not_null(copy);
    memcpy(copy, buf, n + 1);
    return copy;
}

static void write_all(const char *path, const char *text, size_t n) {
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f, "%s", path);
    cr_assert_eq(fwrite(text, 1, n, f), n);
    cr_assert_eq(fclose(f), 0);
}

Test(request_cache, answers_equal_those_without_a_cache) {
    hwfit_model_cache *cache;
    cr_assert_eq(hwfit_model_cache_new(&cache), HWFIT_OK);
    static const char *const mem[] = {"context", "8192", "batch", "8", NULL};
    static const char *const fit[] = {"gpu", "h100-sxm", "gpus", "8", "tp", "8", NULL};
    static const char *const files[] = {"llama-3.1-70b",    "mixtral-8x7b-instruct-v0.1",
                                        "deepseek-v3",      "llama-3.1-8b",
                                        "qwen1.5-moe-a2.7b", "gemma-2-9b-it",
                                        "llama-3.1-405b",   "mistral-7b-v0.3",
                                        "gpt-oss-120b"};
    /* More models than the cache keeps, twice: entries are replaced and found again. */
    for (int round = 0; round < 2; round++)
        for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
            char path[1024];
            snprintf(path, sizeof path, "%s/models/%s.config.json", HWFIT_TEST_DATA, files[i]);
            cr_assert_eq(access(path, R_OK), 0, "%s", path);
            same_answer(cache, "memory", path, mem);
            same_answer(cache, "fit", path, fit);
            same_answer(cache, "model", path, NULL);
        }
    hwfit_model_cache_free(cache);
    hwfit_model_cache_free(NULL);
    cr_assert_eq(hwfit_model_cache_new(NULL), HWFIT_EINVAL);
    cr_assert_eq(hwfit_request_use_cache(NULL, NULL), HWFIT_EINVAL);
}

/* A config edited between two requests, and a checkpoint put beside it: the cached answer
 * follows both (the cache's signature is the file's and the directory's). */
Test(request_cache, a_changed_config_and_a_new_checkpoint_are_read_again) {
    char dir[] = "/tmp/hwfit-cache-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char config[128], tensors[128], src[1024];
    snprintf(config, sizeof config, "%s/config.json", dir);
    snprintf(tensors, sizeof tensors, "%s/model.safetensors", dir);
    snprintf(src, sizeof src, "%s/models/llama-3.1-8b.config.json", HWFIT_TEST_DATA);
    char *text = read_all(src);
    write_all(config, text, strlen(text));

    hwfit_model_cache *cache;
    cr_assert_eq(hwfit_model_cache_new(&cache), HWFIT_OK);
    static const char *const mem[] = {"context", "4096", NULL};
    char *first = answer(cache, "memory", config, mem);
    same_answer(cache, "memory", config, mem);

    /* 32 layers -> 31 (the same length, and maybe the same second: the signature also
     * holds nanoseconds and the change time). */
    char *at = strstr(text, "\"num_hidden_layers\": 32");
    cr_assert_not_null(at, "the 8B config names its 32 layers");
    at[strlen("\"num_hidden_layers\": 3")] = '1';
    write_all(config, text, strlen(text));
    char *second = answer(cache, "memory", config, mem);
    cr_assert_str_neq(second, first, "the edited config is read again");
    same_answer(cache, "memory", config, mem);

    /* A checkpoint appears: one bf16 tensor of 2 x 2 (a safetensors file: an 8-byte
     * little-endian header length, the JSON header, the data). */
    static const char header[] =
        "{\"model.layers.0.mlp.up_proj.weight\":{\"dtype\":\"BF16\",\"shape\":[2,2],"
        "\"data_offsets\":[0,8]}}";
    unsigned char file[256];
    uint64_t hn = sizeof header - 1;
    for (int i = 0; i < 8; i++) file[i] = (unsigned char)(hn >> (8 * i));
    memcpy(file + 8, header, hn);
    memset(file + 8 + hn, 0, 8);
    write_all(tensors, (const char *)file, 8 + hn + 8);
    char *third = answer(cache, "memory", config, mem);
    cr_assert(strstr(third, "\"files\": 1") != NULL, "the checkpoint is seen: %s", third);
    same_answer(cache, "memory", config, mem);

    free(first);
    free(second);
    free(third);
    free(text);
    hwfit_model_cache_free(cache);
    unlink(tensors);
    unlink(config);
    rmdir(dir);
}

/* hwfit_request_reset: a request reset and asked again answers as a new one; an option
 * given before the reset (a flag, a choice, a list) is back to its default and no longer
 * counts as given. */
Test(request_cache, a_reset_request_answers_as_a_new_one) {
    char path[1024];
    snprintf(path, sizeof path, "%s/models/llama-3.1-70b.config.json", HWFIT_TEST_DATA);
    static const char *const first[] = {"context", "8192", "batch", "8", "mode", "full",
                                        "recompute", "full", "no-dropout", "true",
                                        "kv", "fp8", NULL};
    static const char *const second[] = {"context", "4096", NULL};
    char *want_first = answer(NULL, "memory", path, first);
    char *want_second = answer(NULL, "memory", path, second);
    cr_assert_str_neq(want_first, want_second);

    hwfit_request *r;
    cr_assert_eq(hwfit_request_new("memory", &r), HWFIT_OK);
    for (int round = 0; round < 3; round++) {
        const char *const *sets[2] = {first, second};
        const char *want[2] = {want_first, want_second};
        for (int q = 0; q < 2; q++) {
            cr_assert_eq(hwfit_request_reset(r), HWFIT_OK);
            cr_assert_eq(hwfit_request_set(r, "model", path), HWFIT_OK);
            for (size_t i = 0; sets[q][i] != NULL; i += 2) {
                cr_assert_eq(hwfit_request_set(r, sets[q][i], sets[q][i + 1]), HWFIT_OK, "%s",
                             hwfit_request_message(r));
            }
            cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_JSON, NULL, 0, NULL), HWFIT_OK, "%s",
                         hwfit_request_message(r));
            cr_assert_str_eq(hwfit_request_output(r, NULL), want[q], "round %d question %d",
                             round, q);
        }
    }
    /* A reset forgets a failure and the result. */
    cr_assert_eq(hwfit_request_set(r, "context", "0"), HWFIT_EDOM);
    cr_assert_eq(hwfit_request_reset(r), HWFIT_OK);
    cr_assert_str_eq(hwfit_request_message(r), "");
    size_t n = 1;
    hwfit_request_output(r, &n);
    cr_assert_eq(n, 0);
    /* Without the model the reset request refuses, naming it (it is not kept). */
    cr_assert_neq(hwfit_request_run(r, HWFIT_FORMAT_JSON, NULL, 0, NULL), HWFIT_OK);
    hwfit_request_free(r);

    /* A list option (fit's gpu-file) is emptied. */
    cr_assert_eq(hwfit_request_new("fit", &r), HWFIT_OK);
    const hwfit_option *files = hwfit_option_by_name(hwfit_request_command(r), "gpu-file");
    cr_assert_not_null(files);
    cr_assert_eq(hwfit_request_set(r, "gpu-file", "/nonexistent/cards.json"), HWFIT_OK);
    cr_assert_eq(hwfit_request_set(r, "model", path), HWFIT_OK);
    cr_assert_eq(hwfit_request_set(r, "gpu", "h100-sxm"), HWFIT_OK);
    cr_assert_neq(hwfit_request_run(r, HWFIT_FORMAT_JSON, NULL, 0, NULL), HWFIT_OK,
                  "the missing GPU file is read");
    cr_assert_eq(hwfit_request_reset(r), HWFIT_OK);
    cr_assert_eq(hwfit_request_set(r, "model", path), HWFIT_OK);
    cr_assert_eq(hwfit_request_set(r, "gpu", "h100-sxm"), HWFIT_OK);
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_JSON, NULL, 0, NULL), HWFIT_OK, "%s",
                 hwfit_request_message(r));
    hwfit_request_free(r);
    cr_assert_eq(hwfit_request_reset(NULL), HWFIT_EINVAL);
    free(want_first);
    free(want_second);
}

/* A revalidation window (hwfit_model_cache_set_window): inside it an edited config and a
 * checkpoint put beside it are not seen (what the window gives up); back to 0, both are
 * seen at once. No assertion on time: an hour is longer than the test. */
Test(request_cache, a_window_keeps_the_checked_model_until_it_is_set_back_to_0) {
    char dir[] = "/tmp/hwfit-window-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char config[128], tensors[128], src[1024];
    snprintf(config, sizeof config, "%s/config.json", dir);
    snprintf(tensors, sizeof tensors, "%s/model.safetensors", dir);
    snprintf(src, sizeof src, "%s/models/llama-3.1-8b.config.json", HWFIT_TEST_DATA);
    char *text = read_all(src);
    write_all(config, text, strlen(text));

    hwfit_model_cache *cache;
    cr_assert_eq(hwfit_model_cache_new(&cache), HWFIT_OK);
    cr_assert_eq(hwfit_model_cache_window(cache), 0.0, "0 by default");
    cr_assert_eq(hwfit_model_cache_set_window(cache, 3600.0), HWFIT_OK);
    cr_assert_eq(hwfit_model_cache_window(cache), 3600.0);
    static const char *const mem[] = {"context", "4096", NULL};
    char *first = answer(cache, "memory", config, mem);
    same_answer(cache, "memory", config, mem); /* unchanged: the same answer */

    /* 32 layers -> 31: inside the window the cached model answers. */
    char *at = strstr(text, "\"num_hidden_layers\": 32");
    cr_assert_not_null(at, "the 8B config names its 32 layers");
    at[strlen("\"num_hidden_layers\": 3")] = '1';
    write_all(config, text, strlen(text));
    char *kept = answer(cache, "memory", config, mem);
    cr_assert_str_eq(kept, first, "inside the window the edit is not seen");

    /* A checkpoint appears beside it: not seen either. */
    static const char header[] =
        "{\"model.layers.0.mlp.up_proj.weight\":{\"dtype\":\"BF16\",\"shape\":[2,2],"
        "\"data_offsets\":[0,8]}}";
    unsigned char file[256];
    uint64_t hn = sizeof header - 1;
    for (int i = 0; i < 8; i++) file[i] = (unsigned char)(hn >> (8 * i));
    memcpy(file + 8, header, hn);
    memset(file + 8 + hn, 0, 8);
    write_all(tensors, (const char *)file, 8 + hn + 8);
    char *still = answer(cache, "memory", config, mem);
    cr_assert_str_eq(still, first, "inside the window the checkpoint is not seen");

    /* Another name of the same file is checked (the window keeps the name asked). */
    char other[160];
    snprintf(other, sizeof other, "%s/./config.json", dir);
    char *by_other = answer(cache, "memory", other, mem);
    cr_assert_str_neq(by_other, first, "a name not asked before checks the file");
    same_answer(cache, "memory", other, mem);

    /* Back to 0: the next use checks, and sees both. */
    cr_assert_eq(hwfit_model_cache_set_window(cache, 0.0), HWFIT_OK);
    char *seen = answer(cache, "memory", config, mem);
    cr_assert_str_neq(seen, first, "window 0: the edit is seen at once");
    cr_assert(strstr(seen, "\"files\": 1") != NULL, "the checkpoint is seen: %s", seen);
    same_answer(cache, "memory", config, mem);

    /* Setting a window again makes every entry check at its next use. */
    cr_assert_eq(hwfit_model_cache_set_window(cache, 3600.0), HWFIT_OK);
    unlink(tensors);
    char *after = answer(cache, "memory", config, mem);
    cr_assert(strstr(after, "\"files\": 1") == NULL, "the checkpoint's removal is seen");
    same_answer(cache, "memory", config, mem);

    free(first);
    free(kept);
    free(still);
    free(by_other);
    free(seen);
    free(after);
    free(text);
    hwfit_model_cache_free(cache);
    unlink(config);
    rmdir(dir);
}

/* Bad windows are refused and leave the window as it was. */
Test(request_cache, a_window_that_is_not_a_time_of_at_most_a_day_is_refused) {
    hwfit_model_cache *cache;
    cr_assert_eq(hwfit_model_cache_new(&cache), HWFIT_OK);
    cr_assert_eq(hwfit_model_cache_set_window(cache, 60.0), HWFIT_OK);
    static const double bad[] = {NAN, INFINITY, -INFINITY, -1.0, -1e-9, 86400.001, 1e300};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_assert_eq(hwfit_model_cache_set_window(cache, bad[i]), HWFIT_EDOM, "%g", bad[i]);
        cr_assert_eq(hwfit_model_cache_window(cache), 60.0, "%g leaves it", bad[i]);
    }
    cr_assert_eq(hwfit_model_cache_set_window(cache, 86400.0), HWFIT_OK, "a day is allowed");
    cr_assert_eq(hwfit_model_cache_set_window(cache, 0.0), HWFIT_OK);
    cr_assert_eq(hwfit_model_cache_window(cache), 0.0);
    cr_assert_eq(hwfit_model_cache_set_window(NULL, 1.0), HWFIT_EINVAL);
    cr_assert_eq(hwfit_model_cache_window(NULL), 0.0);
    hwfit_model_cache_free(cache);
}

/* hwfit_request_ask_record: set_all then run_record in one call, the same record; an
 * option refused is not run (needed untouched, the refusal described); the buffer rules
 * of run_record (too small: HWFIT_EBUFSIZE, kept, copied by run_record). */
Test(request_cache, ask_record_answers_as_set_all_then_run_record) {
    char path[1024];
    snprintf(path, sizeof path, "%s/models/llama-3.1-70b.config.json", HWFIT_TEST_DATA);
    const char *const pairs[] = {"config", path, "context", "8192", "batch", "8"};
    hwfit_request *a, *b;
    cr_assert_eq(hwfit_request_new("memory", &a), HWFIT_OK);
    cr_assert_eq(hwfit_request_new("memory", &b), HWFIT_OK);
    static char want[1 << 16], got[1 << 16];
    size_t nwant = 0, ngot = 0;
    cr_assert_eq(hwfit_request_set_all(a, pairs, 3), HWFIT_OK);
    cr_assert_eq(hwfit_request_run_record(a, want, sizeof want, &nwant), HWFIT_OK);
    for (int round = 0; round < 2; round++) {
        cr_assert_eq(hwfit_request_ask_record(b, pairs, 3, got, sizeof got, &ngot), HWFIT_OK,
                     "%s", hwfit_request_message(b));
        cr_assert_eq(ngot, nwant);
        cr_assert(memcmp(got, want, nwant) == 0, "the same record");
    }
    /* too small: kept, and run_record copies it */
    char tiny[8];
    cr_assert_eq(hwfit_request_ask_record(b, pairs, 3, tiny, sizeof tiny, &ngot),
                 HWFIT_EBUFSIZE);
    cr_assert_eq(ngot, nwant);
    cr_assert_eq(hwfit_request_run_record(b, got, sizeof got, &ngot), HWFIT_OK);
    cr_assert(memcmp(got, want, nwant) == 0);
    /* a refused option: not run */
    const char *const bad[] = {"config", path, "context", "0"};
    size_t untold = 7;
    cr_assert_eq(hwfit_request_ask_record(b, bad, 2, got, sizeof got, &untold), HWFIT_EDOM);
    cr_assert_eq(untold, 7);
    cr_assert_str_eq(hwfit_request_option_name(b), "context");
    cr_assert_neq(hwfit_request_message(b)[0], '\0');
    cr_assert_eq(hwfit_request_ask_record(NULL, pairs, 3, got, sizeof got, NULL), HWFIT_EINVAL);
    cr_assert_eq(hwfit_request_ask_record(b, NULL, 1, got, sizeof got, NULL), HWFIT_EINVAL);
    cr_assert_eq(hwfit_request_ask_record(b, pairs, 3, NULL, 1, NULL), HWFIT_EINVAL);
    hwfit_request_free(a);
    hwfit_request_free(b);
}
