/* catalog: every config.json shipped in tests/data/models (the catalog installed under
 * share/hwfit/models) loads through the public API, its exact parameter count is the one
 * recorded in tests/data/models/counts.json, the count agrees with the published figure
 * within that figure's rounding, the checkpoint totals agree exactly once what the checkpoint
 * stores beyond the decoder is added, and its Hugging Face id finds it. A config without an
 * entry in counts.json fails; so does an entry without a config. Sources of every figure:
 * counts.json and tests/data/models/README.md. */
#define _POSIX_C_SOURCE 200809L /* setenv, opendir */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwfit.h"
#include "readers/json.h"

#define MODELS_DIR HWFIT_TEST_DATA "/models"
#define SUFFIX ".config.json"
/* The catalog holds at least this many models (issue #15: at least 40 popular models). */
#define CATALOG_MIN 42

/* ---- published figures --------------------------------------------------------------------- */

/* Parse a published figure "72.7B", "0.49B", "1T", "671B" into mantissa digits, the number of
 * decimals and the unit; 0 when it is not of that form. */
static int parse_figure(const char *s, uint64_t *mantissa, unsigned *decimals, uint64_t *unit) {
    uint64_t m = 0;
    unsigned d = 0, digits = 0;
    int dot = 0;
    const char *p = s;
    for (; *p != '\0'; p++) {
        if (*p >= '0' && *p <= '9') {
            if (digits++ >= 15) return 0;
            m = m * 10u + (uint64_t)(*p - '0');
            if (dot) d++;
        } else if (*p == '.' && !dot && digits > 0) {
            dot = 1;
        } else {
            break;
        }
    }
    if (digits == 0 || (dot && d == 0) || p[0] == '\0' || p[1] != '\0') return 0;
    switch (*p) {
    case 'K': *unit = 1000ull; break;
    case 'M': *unit = 1000000ull; break;
    case 'B': *unit = 1000000000ull; break;
    case 'T': *unit = 1000000000000ull; break;
    default: return 0;
    }
    for (unsigned i = 0; i < d; i++) {
        if (*unit % 10u != 0) return 0; /* more decimals than the unit has digits */
        *unit /= 10u;
    }
    *mantissa = m;
    *decimals = d;
    return 1;
}

/* Does count agree with figure? "nearest": the figure is count rounded to its last digit,
 * [v - ulp/2, v + ulp/2); "down": the source cuts, [v, v + ulp). */
static int figure_agrees(const char *figure, const char *rounding, uint64_t count) {
    uint64_t m, ulp;
    unsigned d;
    if (!parse_figure(figure, &m, &d, &ulp)) return 0;
    if (strcmp(rounding, "down") == 0) return count >= m * ulp && count < (m + 1u) * ulp;
    if (strcmp(rounding, "nearest") != 0) return 0;
    return 2u * count >= 2u * m * ulp - ulp && 2u * count < 2u * m * ulp + ulp;
}

/* The checker itself can fail: the bounds are the stated rounding, not a tolerance. */
Test(catalog, published_figures_are_read_with_their_rounding) {
    cr_assert(figure_agrees("72.7B", "nearest", 72650000000ull));
    cr_assert(figure_agrees("72.7B", "nearest", 72749999999ull));
    cr_assert(!figure_agrees("72.7B", "nearest", 72750000000ull));
    cr_assert(!figure_agrees("72.7B", "nearest", 72649999999ull));
    cr_assert(figure_agrees("7.61B", "down", 7615616512ull));
    cr_assert(!figure_agrees("7.61B", "nearest", 7615616512ull));
    cr_assert(!figure_agrees("7.61B", "down", 7620000000ull));
    cr_assert(figure_agrees("1T", "nearest", 1026408232448ull));
    cr_assert(!figure_agrees("1T", "nearest", 1500000000000ull));
    cr_assert(figure_agrees("0.49B", "nearest", 494032768ull));
    cr_assert(!figure_agrees("0.49B", "up", 494032768ull)); /* unknown rounding */
    cr_assert(!figure_agrees("72.B", "nearest", 72000000000ull));
    cr_assert(!figure_agrees("72.7", "nearest", 72700000000ull));
    cr_assert(!figure_agrees("72.7GB", "nearest", 72700000000ull));
    cr_assert(!figure_agrees("1.2345K", "nearest", 1234ull)); /* finer than one parameter */
}

/* ---- counts.json --------------------------------------------------------------------------- */

static char *slurp(const char *path, size_t *length) {
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot open %s", path);
    cr_assert_eq(fseek(f, 0, SEEK_END), 0);
    long n = ftell(f);
    cr_assert(n > 0);
    cr_assert_eq(fseek(f, 0, SEEK_SET), 0);
    char *text = malloc((size_t)n);
    cr_assert_not_null(text);
    cr_assert_eq(fread(text, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *length = (size_t)n;
    return text;
}

static const char *str_of(const hwfit__json_value *obj, const char *key, const char *file) {
    const hwfit__json_value *v = hwfit__json_get(obj, key);
    cr_assert(v != NULL && v->type == HWFIT__JSON_STRING && v->u.string.length > 0,
              "counts.json, %s: '%s' must be a non-empty string", file, key);
    return v->u.string.text;
}

static uint64_t u64_of(const hwfit__json_value *obj, const char *key, const char *file) {
    const hwfit__json_value *v = hwfit__json_get(obj, key);
    cr_assert(v != NULL && v->type == HWFIT__JSON_NUMBER && v->u.number.is_integer &&
                  v->u.number.integer >= 0,
              "counts.json, %s: '%s' must be a non-negative integer", file, key);
    return (uint64_t)v->u.number.integer;
}

static const hwfit__json_value *entry_for(const hwfit__json_value *models, const char *file) {
    for (size_t i = 0; i < models->u.array.count; i++) {
        const hwfit__json_value *f = hwfit__json_get(&models->u.array.items[i], "file");
        if (f != NULL && f->type == HWFIT__JSON_STRING && strcmp(f->u.string.text, file) == 0)
            return &models->u.array.items[i];
    }
    return NULL;
}

static int has_suffix(const char *name, const char *suffix) {
    size_t n = strlen(name), s = strlen(suffix);
    return n > s && strcmp(name + n - s, suffix) == 0;
}

/* One entry: the config loads, its count is the table's, the published figure and the
 * checkpoint total agree, and its Hugging Face id finds this very file. */
static void check_entry(const hwfit__json_value *e) {
    const char *file = str_of(e, "file", "(entry)");
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", MODELS_DIR, file);
    hwfit_model m;
    hwfit_error err;
    hwfit_status st = hwfit_hf_config_load(path, &m, &err);
    cr_assert_eq(st, HWFIT_OK, "%s: %s: %s", file, hwfit_status_name(st), err.message);
    hwfit_model_param_counts p;
    cr_assert_eq(hwfit_model_params(&m, &p), HWFIT_OK, "%s", file);

    uint64_t recorded = u64_of(e, "parameters", file);
    cr_expect_eq(p.total, recorded, "%s: hwfit counts %llu parameters, counts.json says %llu",
                 file, (unsigned long long)p.total, (unsigned long long)recorded);

    uint64_t extra = 0;
    const hwfit__json_value *st_v = hwfit__json_get(e, "safetensors");
    if (st_v != NULL) {
        cr_assert_eq(st_v->type, HWFIT__JSON_OBJECT, "%s: 'safetensors' must be an object", file);
        uint64_t total = u64_of(st_v, "total", file);
        extra = u64_of(st_v, "extra", file);
        const char *what = str_of(st_v, "extra_is", file);
        (void)str_of(st_v, "source", file);
        cr_expect_eq(p.total + extra, total,
                     "%s: parameters %llu + extra %llu != checkpoint total %llu", file,
                     (unsigned long long)p.total, (unsigned long long)extra,
                     (unsigned long long)total);
        if (strcmp(what, "none") == 0) {
            cr_expect_eq(extra, 0, "%s: extra_is none with extra %llu", file,
                         (unsigned long long)extra);
        } else if (strcmp(what, "tied_head") == 0) {
            /* The checkpoint stores the tied head once more: exactly the embedding. */
            cr_expect(m.tie_embeddings, "%s: tied_head on untied embeddings", file);
            cr_expect_eq(extra, p.embedding, "%s: tied head %llu != embedding %llu", file,
                         (unsigned long long)extra, (unsigned long long)p.embedding);
        } else {
            cr_expect(strcmp(what, "vision") == 0 || strcmp(what, "rotary_buffers") == 0,
                      "%s: unknown extra_is '%s'", file, what);
            cr_expect(extra > 0, "%s: extra_is %s without extra", file, what);
            (void)str_of(e, "note", file); /* what the extra holds is explained */
        }
    }

    const hwfit__json_value *pub = hwfit__json_get(e, "published");
    cr_assert_not_null(pub, "%s: 'published' missing (null when none is published)", file);
    if (pub->type == HWFIT__JSON_NULL) {
        (void)str_of(e, "note", file); /* why there is none */
    } else {
        const char *figure = str_of(e, "published", file);
        const char *rounding = str_of(e, "rounding", file);
        const char *counts = str_of(e, "published_counts", file);
        (void)str_of(e, "published_source", file);
        uint64_t n = p.total;
        if (strcmp(counts, "checkpoint") == 0) {
            cr_assert_not_null(st_v, "%s: a checkpoint figure needs the checkpoint total", file);
            n += extra;
        } else {
            cr_expect_str_eq(counts, "decoder", "%s: published_counts", file);
        }
        cr_expect(figure_agrees(figure, rounding, n),
                  "%s: %llu parameters do not round (%s) to the published %s", file,
                  (unsigned long long)n, rounding, figure);
    }

    /* hwfit fit --config <hf_id> finds this file: the id's last part in lower case is its
     * name (lib/readers/locate.c). A few files named before that rule declare the short
     * name that finds them instead ('found_by'), and only when the id does not. */
    const char *hf_id = str_of(e, "hf_id", file);
    cr_expect(strchr(hf_id, '/') != NULL, "%s: hf_id '%s' is not org/name", file, hf_id);
    char found[HWFIT_LOCATE_PATH_SIZE];
    const char *name = hf_id;
    if (hwfit__json_get(e, "found_by") != NULL) {
        name = str_of(e, "found_by", file);
        cr_expect_neq(hwfit_model_locate(hf_id, found, sizeof found), HWFIT_OK,
                      "%s: %s finds it: drop 'found_by'", file, hf_id);
    }
    st = hwfit_model_locate(name, found, sizeof found);
    cr_expect_eq(st, HWFIT_OK, "%s: %s not found: %s", file, name, hwfit_status_name(st));
    if (st == HWFIT_OK) cr_expect_str_eq(found, path, "%s: %s finds %s", file, name, found);
}

Test(catalog, every_config_has_its_counts_and_they_agree) {
    /* Look only in the catalog folder: no Hugging Face cache may answer first. */
    cr_assert_eq(setenv("HF_HUB_CACHE", MODELS_DIR "/no-such-cache", 1), 0);
    cr_assert_eq(setenv("HWFIT_MODEL_PATH", MODELS_DIR, 1), 0);

    size_t length = 0;
    char *text = slurp(MODELS_DIR "/counts.json", &length);
    hwfit__json_doc *doc = NULL;
    hwfit_error err;
    hwfit_status st = hwfit__json_parse_file_text(text, length, HWFIT__JSON_MAX_BYTES,
                                                  "counts.json", &doc, &err);
    cr_assert_eq(st, HWFIT_OK, "%s", err.message);
    const hwfit__json_value *models = hwfit__json_get(hwfit__json_root(doc), "models");
    cr_assert(models != NULL && models->type == HWFIT__JSON_ARRAY, "counts.json: 'models'");

    /* Every config in the folder has an entry. */
    DIR *dir = opendir(MODELS_DIR);
    cr_assert_not_null(dir, "cannot list %s", MODELS_DIR);
    size_t configs = 0;
    for (struct dirent *de = readdir(dir); de != NULL; de = readdir(dir)) {
        if (!has_suffix(de->d_name, SUFFIX)) continue;
        configs++;
        cr_expect_not_null(entry_for(models, de->d_name),
                           "%s is in the catalog but not in counts.json", de->d_name);
    }
    closedir(dir);
    cr_expect_eq(configs, models->u.array.count,
                 "%zu configs in the folder, %zu entries in counts.json", configs,
                 models->u.array.count);
    cr_expect_geq(configs, CATALOG_MIN, "the catalog holds %zu models, fewer than %d",
                  configs, CATALOG_MIN);

    /* Every entry names a config in the folder, once, and agrees. */
    for (size_t i = 0; i < models->u.array.count; i++) {
        const hwfit__json_value *e = &models->u.array.items[i];
        cr_assert_eq(e->type, HWFIT__JSON_OBJECT, "counts.json: models[%zu]", i);
        const char *file = str_of(e, "file", "(entry)");
        cr_expect(has_suffix(file, SUFFIX), "%s: not a %s file", file, SUFFIX);
        for (size_t j = 0; j < i; j++)
            cr_expect(strcmp(file, str_of(&models->u.array.items[j], "file", "(entry)")) != 0,
                      "%s listed twice", file);
        check_entry(e);
    }
    hwfit__json_free(doc);
    free(text);
}

/* Kimi-K2's config.json says model_type "kimi_k2"; its architecture is DeepseekV3ForCausalLM
 * and its auto_map names configuration_deepseek.DeepseekV3Config, so it reads as deepseek_v3,
 * defaults included (DeepseekV3Config(): 671,026,419,200, as test_hf_config.c), and keeps its
 * own name as the label. */
Test(catalog, kimi_k2_reads_as_deepseek_v3) {
    const char *json = "{\"model_type\": \"kimi_k2\"}";
    hwfit_model m;
    hwfit_error err;
    cr_assert_eq(hwfit_hf_config_parse(json, strlen(json), "kimi.json", &m, &err), HWFIT_OK,
                 "%s", err.message);
    cr_expect_str_eq(m.name, "kimi_k2");
    cr_expect_eq(m.attention, HWFIT_MODEL_ATTENTION_MLA);
    hwfit_model_param_counts p;
    cr_assert_eq(hwfit_model_params(&m, &p), HWFIT_OK);
    cr_expect_eq(p.total, 671026419200ull);
    const char *other = "{\"model_type\": \"kimi_k3\"}";
    cr_expect_eq(hwfit_hf_config_parse(other, strlen(other), "k3.json", &m, &err),
                 HWFIT_EUNSUPPORTED);
}
