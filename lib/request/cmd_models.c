/* cmd_models.c - `models`: the model catalog installed with hwfit (hwfit/locate.h), with
 * each model's exact parameter counts. Any name listed works as fit's, memory's or model's
 * config (so do paths, Hugging Face ids in the local cache and HWFIT_MODEL_PATH). */
#if !defined(_WIN32)
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwfit/hf_config.h"
#include "hwfit/locate.h"
#include "hwfit/model.h"
#include "request_internal.h"

#define MAX_MODELS 512
#define SUFFIX ".config.json"

static const hwfit__col cols[] = {
    {"name", "name", 34},          {"model_type", "type", 16},  {"layers", "layers", 6},
    {"params", "parameters", 19},  {"active_params", "active", 19},
    {"context", "context", 9},
};

typedef struct models_state {
    char names[MAX_MODELS][128];
    char dir[1024];
    char path[1200];
    hwfit_model model;
    hwfit_error err;
} models_state;

static int by_name(const void *a, const void *b) { return strcmp(a, b); }

static hwfit_status run(hwfit_request *r, hwfit__out *o, void *state) {
    models_state *s = state;
    hwfit_status st = hwfit_model_catalog_dir(s->dir, sizeof s->dir);
    if (st != HWFIT_OK)
        return hwfit__req_fail(r, NULL, st, "no model catalog: neither installed "
                               "(share/hwfit/models beside the library) nor in the source tree");
    size_t n = 0;
#if !defined(_WIN32)
    DIR *d = opendir(s->dir);
    if (d == NULL) return hwfit__req_fail(r, NULL, HWFIT_EIO, "%s: cannot list", s->dir);
    for (struct dirent *e = readdir(d); e != NULL && n < MAX_MODELS; e = readdir(d)) {
        size_t len = strlen(e->d_name), sl = strlen(SUFFIX);
        if (len <= sl || len - sl >= sizeof s->names[0] ||
            strcmp(e->d_name + len - sl, SUFFIX) != 0)
            continue;
        memcpy(s->names[n], e->d_name, len - sl);
        s->names[n][len - sl] = '\0';
        n++;
    }
    closedir(d);
#endif
    qsort(s->names, n, sizeof s->names[0], by_name);
    hwfit__out_str(o, "catalog", "catalog", s->dir);
    hwfit__out_table(o, "models", NULL, cols, (int)HWFIT__COUNT_OF(cols));
    for (size_t i = 0; i < n; i++) {
        snprintf(s->path, sizeof s->path, "%s/%s" SUFFIX, s->dir, s->names[i]);
        hwfit_model_param_counts p;
        if ((st = hwfit_hf_config_load(s->path, &s->model, &s->err)) != HWFIT_OK ||
            (st = hwfit_model_params(&s->model, &p)) != HWFIT_OK)
            continue; /* a file hwfit cannot read is not a model it offers */
        hwfit__out_row(o);
        hwfit__out_cell_str(o, s->names[i]);
        hwfit__out_cell_str(o, s->model.name);
        hwfit__out_cell_u64(o, s->model.layers);
        hwfit__out_cell_u64(o, p.total);
        hwfit__out_cell_u64(o, p.active);
        if (s->model.max_context) hwfit__out_cell_u64(o, s->model.max_context);
        else hwfit__out_cell_null(o);
    }
    hwfit__out_table_end(o);
    return HWFIT_OK;
}

const hwfit__command hwfit__cmd_models = {
    .pub = {.name = "models",
            .summary = "The model catalog: names that work as config, with exact parameter "
                       "counts.",
            .details = "config also takes a path, a Hugging Face id found in the local cache "
                       "(HF_HUB_CACHE, HF_HOME/hub or ~/.cache/huggingface/hub) or a name in a "
                       "directory of HWFIT_MODEL_PATH; see docs/cli.md.",
            .formats = 1u << HWFIT_FORMAT_JSON | 1u << HWFIT_FORMAT_TEXT |
                       1u << HWFIT_FORMAT_CSV},
    .state_size = sizeof(models_state),
    .run = run,
};
