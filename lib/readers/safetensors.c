/* safetensors.c - exact sizes of a checkpoint from its safetensors headers (safetensors.h).
 * Format (huggingface/safetensors README, "Format"): 8 bytes, an unsigned little-endian
 * 64-bit N; N bytes of UTF-8 JSON, an object mapping each tensor name to {"dtype", "shape",
 * "data_offsets": [begin, end]} (offsets into the data after the header) and an optional
 * "__metadata__" object of strings; then the data. The index of a sharded checkpoint
 * (transformers' save_pretrained) is {"metadata": {"total_size": bytes}, "weight_map": ...}. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwfit/safetensors.h"
#include "hwfit/status.h"

#include "base/checked.h"
#include "base/internal.h"
#include "readers/json.h"

#if !defined(_WIN32)
#include <dirent.h>
#include <sys/stat.h>
#endif

#define INDEX_NAME "model.safetensors.index.json"
#define INDEX_MAX_BYTES (64u * 1024u * 1024u)

void hwfit_safetensors_init(hwfit_safetensors_info *info) {
    if (info != NULL) memset(info, 0, sizeof *info);
}

#define fail_at(err, where, st, v, ...) hwfit__json_fail_at(err, where, st, v, __VA_ARGS__)

/* Bytes per element of the safetensors dtypes (safetensors Dtype enum); 0 for sub-byte or
 * unknown dtypes, whose sizes are not checked against the shape. */
static uint64_t element_bytes(const char *d) {
    static const struct { const char *name; uint64_t bytes; } sizes[] = {
        {"BOOL", 1}, {"U8", 1}, {"I8", 1}, {"F8_E4M3", 1}, {"F8_E5M2", 1}, {"F8_E8M0", 1},
        {"I16", 2}, {"U16", 2}, {"F16", 2}, {"BF16", 2}, {"I32", 4}, {"U32", 4}, {"F32", 4},
        {"I64", 8}, {"U64", 8}, {"F64", 8}, {"C64", 8}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (strcmp(d, sizes[i].name) == 0) return sizes[i].bytes;
    return 0;
}

/* A whole number >= 0 that a double holds exactly (JSON integers up to 2^53). */
static int whole(const hwfit__json_value *v, uint64_t *out) {
    if (v == NULL || v->type != HWFIT__JSON_NUMBER || !v->u.number.is_integer ||
        v->u.number.integer < 0)
        return 0;
    *out = (uint64_t)v->u.number.integer;
    return 1;
}

/* The layer number of "...layers.<n>." in a tensor name, or -1. */
static long layer_of(const char *name) {
    const char *p = strstr(name, "layers.");
    if (p == NULL) return -1;
    p += 7;
    if (*p < '0' || *p > '9') return -1;
    long n = 0;
    for (; *p >= '0' && *p <= '9'; p++) {
        n = n * 10 + (*p - '0');
        if (n > 1000000) return -1;
    }
    return *p == '.' ? n : -1;
}

static hwfit_status add_root(const hwfit__json_value *root, uint64_t data_bytes,
                             uint32_t main_layers, const char *where,
                             hwfit_safetensors_info *acc, hwfit_error *err) {
    if (root->type != HWFIT__JSON_OBJECT)
        return fail_at(err, where, HWFIT_EPARSE, root, "a safetensors header must be a JSON "
                       "object, got %s", hwfit__json_type_name(root->type));
    for (size_t i = 0; i < root->u.object.count; i++) {
        const hwfit__json_member *m = &root->u.object.members[i];
        const hwfit__json_value *t = &m->value;
        if (strcmp(m->key, "__metadata__") == 0) continue;
        if (t->type != HWFIT__JSON_OBJECT)
            return fail_at(err, where, HWFIT_EPARSE, t, "tensor '%.80s' must be an object",
                           m->key);
        const hwfit__json_value *dt = hwfit__json_get(t, "dtype");
        const hwfit__json_value *shape = hwfit__json_get(t, "shape");
        const hwfit__json_value *off = hwfit__json_get(t, "data_offsets");
        if (dt == NULL || dt->type != HWFIT__JSON_STRING || dt->u.string.length == 0 ||
            dt->u.string.length >= HWFIT_SAFETENSORS_DTYPE_NAME)
            return fail_at(err, where, HWFIT_EPARSE, dt ? dt : t,
                           "tensor '%.80s': 'dtype' must be a dtype name such as \"BF16\"",
                           m->key);
        if (shape == NULL || shape->type != HWFIT__JSON_ARRAY)
            return fail_at(err, where, HWFIT_EPARSE, shape ? shape : t,
                           "tensor '%.80s': 'shape' must be a list of sizes", m->key);
        uint64_t n = 1;
        for (size_t k = 0; k < shape->u.array.count; k++) {
            uint64_t d;
            if (!whole(&shape->u.array.items[k], &d))
                return fail_at(err, where, HWFIT_EPARSE, &shape->u.array.items[k],
                               "tensor '%.80s': a shape entry must be a whole number >= 0",
                               m->key);
            if (hwfit__mul_u64(n, d, &n) != HWFIT_OK)
                return fail_at(err, where, HWFIT_ERANGE, shape,
                               "tensor '%.80s': the shape's product overflows 64 bits", m->key);
        }
        uint64_t begin, end;
        if (off == NULL || off->type != HWFIT__JSON_ARRAY || off->u.array.count != 2 ||
            !whole(&off->u.array.items[0], &begin) || !whole(&off->u.array.items[1], &end) ||
            end < begin)
            return fail_at(err, where, HWFIT_EPARSE, off ? off : t,
                           "tensor '%.80s': 'data_offsets' must be [begin, end] with begin <= "
                           "end", m->key);
        if (data_bytes != UINT64_MAX && end > data_bytes)
            return fail_at(err, where, HWFIT_EPARSE, off,
                           "tensor '%.80s' ends at byte %llu of %llu bytes of data", m->key,
                           (unsigned long long)end, (unsigned long long)data_bytes);
        uint64_t bytes = end - begin, per = element_bytes(dt->u.string.text), want;
        if (per != 0 && (hwfit__mul_u64(n, per, &want) != HWFIT_OK || want != bytes))
            return fail_at(err, where, HWFIT_EPARSE, off,
                           "tensor '%.80s': %llu bytes for %llu elements of %s", m->key,
                           (unsigned long long)bytes, (unsigned long long)n,
                           dt->u.string.text);
        uint32_t k = 0;
        while (k < acc->dtype_count && strcmp(acc->dtypes[k].name, dt->u.string.text) != 0) k++;
        if (k == acc->dtype_count) {
            if (k == HWFIT_SAFETENSORS_MAX_DTYPES)
                return fail_at(err, where, HWFIT_EPARSE, dt, "more than %d dtypes",
                               HWFIT_SAFETENSORS_MAX_DTYPES);
            memcpy(acc->dtypes[k].name, dt->u.string.text, dt->u.string.length + 1);
            acc->dtype_count++;
        }
        hwfit_safetensors_dtype *d = &acc->dtypes[k];
        long layer = layer_of(m->key);
        if (hwfit__add_u64(d->tensors, 1, &d->tensors) != HWFIT_OK ||
            hwfit__add_u64(d->elements, n, &d->elements) != HWFIT_OK ||
            hwfit__add_u64(d->bytes, bytes, &d->bytes) != HWFIT_OK ||
            hwfit__add_u64(acc->tensors, 1, &acc->tensors) != HWFIT_OK ||
            hwfit__add_u64(acc->elements, n, &acc->elements) != HWFIT_OK ||
            hwfit__add_u64(acc->bytes, bytes, &acc->bytes) != HWFIT_OK ||
            (main_layers > 0 && layer >= (long)main_layers &&
             hwfit__add_u64(acc->extra_bytes, bytes, &acc->extra_bytes) != HWFIT_OK))
            return fail_at(err, where, HWFIT_ERANGE, t, "the sizes overflow 64 bits");
    }
    return HWFIT_OK;
}

hwfit_status hwfit_safetensors_header_add(const char *header, size_t length,
                                          uint64_t data_bytes, uint32_t main_layers,
                                          const char *name, hwfit_safetensors_info *info,
                                          hwfit_error *err) {
    const char *where = name ? name : "safetensors";
    if (header == NULL || info == NULL)
        return hwfit__error_set(err, HWFIT_EINVAL, 0, 0, 0, "%s: NULL header or info", where);
    hwfit__json_doc *doc = NULL;
    hwfit_status st = hwfit__json_parse_file_text(header, length, HWFIT_SAFETENSORS_MAX_HEADER,
                                                  where, &doc, err);
    if (st != HWFIT_OK) return st;
    /* Into a copy: info changes only when the whole header is good. The copy lives on the
     * heap (the info is ~0.5 KB; the stack budget is the caller's). */
    hwfit_safetensors_info *acc = malloc(sizeof *acc);
    if (acc == NULL) {
        hwfit__json_free(doc);
        return hwfit__error_set(err, HWFIT_ENOMEM, 0, 0, 0, "%s: out of memory", where);
    }
    *acc = *info;
    st = add_root(hwfit__json_root(doc), data_bytes, main_layers, where, acc, err);
    hwfit__json_free(doc);
    if (st == HWFIT_OK && acc->files == UINT32_MAX)
        st = hwfit__error_set(err, HWFIT_ERANGE, 0, 0, 0, "%s: too many files", where);
    if (st == HWFIT_OK) {
        acc->files++;
        *info = *acc;
        hwfit_error_clear(err);
    }
    free(acc);
    return st;
}

hwfit_status hwfit_safetensors_file_add(const char *path, uint32_t main_layers,
                                        hwfit_safetensors_info *info, hwfit_error *err) {
    if (path == NULL || info == NULL)
        return hwfit__error_set(err, HWFIT_EINVAL, 0, 0, 0, "NULL path or info");
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return hwfit__error_set(err, HWFIT_EIO, 0, 0, 0, "%s: cannot open file", path);
    unsigned char len8[8];
    uint64_t n = 0, size = 0;
    int ok = fread(len8, 1, 8, f) == 8;
    for (int i = 7; ok && i >= 0; i--) n = (n << 8) | len8[i];
#if !defined(_WIN32)
    struct stat sb;
    if (ok && (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size < 8)) ok = 0;
    if (ok) size = (uint64_t)sb.st_size;
#else
    if (ok && (fseek(f, 0, SEEK_END) != 0 || ftell(f) < 8 || fseek(f, 8, SEEK_SET) != 0)) ok = 0;
    if (ok) size = (uint64_t)ftell(f);
#endif
    if (!ok) {
        fclose(f);
        return hwfit__error_set(err, HWFIT_EIO, 0, 0, 0,
                                "%s: not a safetensors file (shorter than its 8-byte header "
                                "length)", path);
    }
    if (n > HWFIT_SAFETENSORS_MAX_HEADER || n > size - 8) {
        fclose(f);
        return hwfit__error_set(err, n > size - 8 ? HWFIT_EIO : HWFIT_ERANGE, 0, 0, 0,
                                "%s: header length %llu %s", path, (unsigned long long)n,
                                n > size - 8 ? "is beyond the end of the file"
                                             : "is above the 64 MiB read");
    }
    char *header = malloc((size_t)n + 1);
    if (header == NULL) {
        fclose(f);
        return hwfit__error_set(err, HWFIT_ENOMEM, 0, 0, 0, "%s: out of memory", path);
    }
    ok = fread(header, 1, (size_t)n, f) == (size_t)n;
    fclose(f);
    hwfit_status st = ok ? hwfit_safetensors_header_add(header, (size_t)n, size - 8 - n,
                                                        main_layers, path, info, err)
                         : hwfit__error_set(err, HWFIT_EIO, 0, 0, 0,
                                            "%s: cannot read the header", path);
    free(header);
    return st;
}

static int ends_with(const char *s, const char *tail) {
    size_t a = strlen(s), b = strlen(tail);
    return a >= b && strcmp(s + a - b, tail) == 0;
}

static hwfit_status read_index(const char *path, hwfit_safetensors_info *info,
                               hwfit_error *err) {
    char *data = NULL;
    size_t length = 0;
    hwfit_status st = hwfit__read_file(path, INDEX_MAX_BYTES, &data, &length, err);
    if (st != HWFIT_OK) return st;
    hwfit__json_doc *doc = NULL;
    st = hwfit__json_parse_file_text(data, length, INDEX_MAX_BYTES, path, &doc, err);
    free(data);
    if (st != HWFIT_OK) return st;
    const hwfit__json_value *root = hwfit__json_root(doc);
    const hwfit__json_value *meta = hwfit__json_get(root, "metadata");
    uint64_t total = 0;
    if (meta == NULL || !whole(hwfit__json_get(meta, "total_size"), &total))
        st = fail_at(err, path, HWFIT_EPARSE, meta ? meta : root,
                     "'metadata.total_size' must be a whole number of bytes");
    hwfit__json_free(doc);
    if (st != HWFIT_OK) return st;
    info->index_found = 1;
    info->index_total_size = total;
    return HWFIT_OK;
}

hwfit_status hwfit_safetensors_dir_read(const char *dir, uint32_t main_layers,
                                        hwfit_safetensors_info *info, hwfit_error *err) {
    if (dir == NULL || info == NULL)
        return hwfit__error_set(err, HWFIT_EINVAL, 0, 0, 0, "NULL directory or info");
#if defined(_WIN32)
    (void)main_layers;
    return hwfit__error_set(err, HWFIT_ENOTFOUND, 0, 0, 0, "%s: not listed on this system", dir);
#else
    hwfit_safetensors_info *acc = malloc(sizeof *acc);
    char *path = malloc(4096);
    if (acc == NULL || path == NULL) {
        free(acc);
        free(path);
        return hwfit__error_set(err, HWFIT_ENOMEM, 0, 0, 0, "%s: out of memory", dir);
    }
    hwfit_safetensors_init(acc);
    hwfit_status st = HWFIT_OK;
    DIR *d = opendir(dir);
    if (d == NULL) {
        st = hwfit__error_set(err, HWFIT_ENOTFOUND, 0, 0, 0, "%s: cannot list", dir);
    } else {
        struct dirent *e;
        while (st == HWFIT_OK && (e = readdir(d)) != NULL) {
            int is_index = strcmp(e->d_name, INDEX_NAME) == 0;
            if (!is_index && !ends_with(e->d_name, ".safetensors")) continue;
            int n = snprintf(path, 4096, "%s/%s", dir, e->d_name);
            if (n < 0 || n >= 4096) {
                st = hwfit__error_set(err, HWFIT_ERANGE, 0, 0, 0, "%s: path too long", dir);
                break;
            }
            st = is_index ? read_index(path, acc, err)
                          : hwfit_safetensors_file_add(path, main_layers, acc, err);
        }
        closedir(d);
        if (st == HWFIT_OK && acc->files == 0)
            st = hwfit__error_set(err, HWFIT_ENOTFOUND, 0, 0, 0, "%s: no .safetensors file", dir);
    }
    if (st == HWFIT_OK) {
        *info = *acc;
        hwfit_error_clear(err);
    }
    free(acc);
    free(path);
    return st;
#endif
}
