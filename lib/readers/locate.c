/* locate.c - a model's config.json from a path, a Hugging Face id or a short name
 * (include/hwfit/locate.h). */
#if !defined(_WIN32)
#define _GNU_SOURCE 1 /* dladdr: where the library itself was loaded from */
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwfit/locate.h"
#include "hwfit/status.h"

#if !defined(_WIN32)
#include <dirent.h>
#include <dlfcn.h>
#include <sys/stat.h>
#endif

#define NAME_MAX_BYTES 1024
#ifndef HWFIT_LIB_TO_MODELS
#define HWFIT_LIB_TO_MODELS "../share/hwfit/models"
#endif

#if defined(_WIN32)
static int is_file(const char *p) {
    FILE *f = fopen(p, "rb");
    if (f) fclose(f);
    return f != NULL;
}
static int is_dir(const char *p) { (void)p; return 0; }
#else
static int is_file(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}
static int is_dir(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}
#endif

/* out = a b c joined, when it fits and names a regular file. */
static int try_file(char *out, size_t size, const char *a, const char *b, const char *c) {
    int n = snprintf(out, size, "%s%s%s", a, b, c);
    return n > 0 && (size_t)n < size && is_file(out);
}

/* Copy found (a path that exists) to the caller's buffer. */
static hwfit_status deliver(const char *found, char *path, size_t size) {
    size_t n = strlen(found) + 1;
    if (n > size) return HWFIT_EBUFSIZE;
    memcpy(path, found, n);
    return HWFIT_OK;
}

/* The stem: the part after the last '/', in lower case. */
static void stem_of(const char *name, char *stem, size_t size) {
    const char *s = strrchr(name, '/');
    s = s ? s + 1 : name;
    size_t i = 0;
    for (; s[i] && i + 1 < size; i++)
        stem[i] = (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] - 'A' + 'a' : s[i]);
    stem[i] = '\0';
}

#if !defined(_WIN32)
/* The Hugging Face cache directory (hub), or 0. */
static int hf_hub(char *out, size_t size) {
    const char *v = getenv("HF_HUB_CACHE");
    if (v && v[0]) return snprintf(out, size, "%s", v) < (int)size;
    v = getenv("HF_HOME");
    if (v && v[0]) return snprintf(out, size, "%s/hub", v) < (int)size;
    v = getenv("HOME");
    if (v && v[0]) return snprintf(out, size, "%s/.cache/huggingface/hub", v) < (int)size;
    return 0;
}

/* models--org--name/snapshots/<rev>/config.json of an id org/name in the cache. */
static int from_hf_cache(const char *id, char *out, size_t size) {
    const char *slash = strchr(id, '/');
    if (slash == NULL || slash == id || slash[1] == '\0' || strchr(slash + 1, '/')) return 0;
    char hub[512], repo[1024];
    if (!hf_hub(hub, sizeof hub)) return 0;
    int n = snprintf(repo, sizeof repo, "%s/models--%.*s--%s", hub, (int)(slash - id), id,
                     slash + 1);
    if (n < 0 || (size_t)n >= sizeof repo || !is_dir(repo)) return 0;
    /* the revision refs/main names */
    char ref[1100], rev[128];
    snprintf(ref, sizeof ref, "%s/refs/main", repo);
    FILE *f = fopen(ref, "rb");
    if (f != NULL) {
        size_t got = fread(rev, 1, sizeof rev - 1, f);
        fclose(f);
        rev[got] = '\0';
        while (got > 0 && (rev[got - 1] == '\n' || rev[got - 1] == '\r')) rev[--got] = '\0';
        char sub[200];
        snprintf(sub, sizeof sub, "/snapshots/%s/config.json", rev);
        if (got > 0 && strchr(rev, '/') == NULL && try_file(out, size, repo, sub, ""))
            return 1;
    }
    /* else the first snapshot that holds a config (in name order, for the same answer on
     * every run) */
    char snaps[1100];
    snprintf(snaps, sizeof snaps, "%s/snapshots", repo);
    DIR *d = opendir(snaps);
    if (d == NULL) return 0;
    char best[256] = "";
    for (struct dirent *e = readdir(d); e != NULL; e = readdir(d)) {
        if (e->d_name[0] == '.' || strlen(e->d_name) >= sizeof best) continue;
        char probe[1400];
        snprintf(probe, sizeof probe, "%s/%s/config.json", snaps, e->d_name);
        if (is_file(probe) && (best[0] == '\0' || strcmp(e->d_name, best) < 0))
            snprintf(best, sizeof best, "%s", e->d_name);
    }
    closedir(d);
        if (!best[0]) return 0;
    char sub[300];
    snprintf(sub, sizeof sub, "/%s/config.json", best);
    return try_file(out, size, snaps, sub, "");
}
#endif

hwfit_status hwfit_model_catalog_dir(char *path, size_t size) {
    if (path == NULL) return HWFIT_EINVAL;
    char dir[1536];
#if !defined(_WIN32)
    /* Installed: the library in <prefix>/<libdir> (or the program in <prefix>/bin when
     * linked statically) and the catalog in <prefix>/share/hwfit/models. */
    Dl_info info;
    if (dladdr((void *)(size_t)&hwfit_model_catalog_dir, &info) != 0 && info.dli_fname != NULL) {
        const char *slash = strrchr(info.dli_fname, '/');
        if (slash != NULL) {
            int n = snprintf(dir, sizeof dir, "%.*s/" HWFIT_LIB_TO_MODELS,
                             (int)(slash - info.dli_fname), info.dli_fname);
            if (n > 0 && (size_t)n < sizeof dir && is_dir(dir)) return deliver(dir, path, size);
        }
    }
#endif
#ifdef HWFIT_SOURCE_MODELS_DIR
    /* An uninstalled build: the configs the tests use. */
    if (is_dir(HWFIT_SOURCE_MODELS_DIR)) return deliver(HWFIT_SOURCE_MODELS_DIR, path, size);
#endif
    (void)dir;
    return HWFIT_ENOTFOUND;
}

hwfit_status hwfit_model_locate(const char *name, char *path, size_t size) {
    if (name == NULL || path == NULL) return HWFIT_EINVAL;
    size_t len = strlen(name);
    if (len == 0 || len > NAME_MAX_BYTES) return HWFIT_EDOM;
    char found[1536]; /* paths beyond it are not searched (the caller's may be longer) */
    /* 1. a path */
    if (is_file(name)) return deliver(name, path, size);
    if (is_dir(name) && try_file(found, sizeof found, name, "/config.json", ""))
        return deliver(found, path, size);
    char stem[256];
    stem_of(name, stem, sizeof stem);
    if (stem[0] == '\0') return HWFIT_ENOTFOUND;
#if !defined(_WIN32)
    /* 2. the Hugging Face cache */
    if (from_hf_cache(name, found, sizeof found)) return deliver(found, path, size);
#endif
    /* 3. HWFIT_MODEL_PATH */
    const char *env = getenv("HWFIT_MODEL_PATH");
    while (env != NULL && *env) {
        const char *end = strchr(env, ':');
        size_t n = end ? (size_t)(end - env) : strlen(env);
        char dir[1024];
        if (n > 0 && n < sizeof dir) {
            memcpy(dir, env, n);
            dir[n] = '\0';
            char a[300], b[300];
            snprintf(a, sizeof a, "/%s.config.json", stem);
            snprintf(b, sizeof b, "/%s/config.json", stem);
            if (try_file(found, sizeof found, dir, a, "") ||
                try_file(found, sizeof found, dir, b, ""))
                return deliver(found, path, size);
        }
        env = end ? end + 1 : NULL;
    }
    /* 4. the installed catalog */
    char dir[1024], file[300];
    snprintf(file, sizeof file, "%s.config.json", stem);
    if (hwfit_model_catalog_dir(dir, sizeof dir) == HWFIT_OK &&
        try_file(found, sizeof found, dir, "/", file))
        return deliver(found, path, size);
    return HWFIT_ENOTFOUND;
}
