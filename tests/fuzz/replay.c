/* replay.c - run a fuzz target over files without libFuzzer (gcc builds, CTest).
 *
 * Usage: replay_<name> PATH...  Each PATH is a file or a directory whose regular files
 * (not starting with '.') are fed, one by one, to LLVMFuzzerTestOneInput. Each input is
 * copied into a buffer of exactly its size, so a sanitizer catches any read past the end.
 * Exits 0 when every input ran, 1 when a path cannot be read or no input was found.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return 0;
    }
    size_t cap = 4096, len = 0;
    uint8_t *buf = malloc(cap);
    for (;;) {
        if (buf == NULL) break;
        if (len == cap) {
            uint8_t *nbuf = realloc(buf, cap * 2);
            if (nbuf == NULL) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nbuf;
            cap *= 2;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0) break;
    }
    int bad = buf == NULL || ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        fprintf(stderr, "replay: cannot read %s\n", path);
        return 0;
    }
    uint8_t *exact = malloc(len ? len : 1);
    if (exact == NULL) {
        free(buf);
        return 0;
    }
    if (len) memcpy(exact, buf, len);
    free(buf);
    LLVMFuzzerTestOneInput(exact, len);
    free(exact);
    return 1;
}

static int run_path(const char *path, size_t *count) {
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "replay: no such file or directory: %s\n", path);
        return 0;
    }
    if (!S_ISDIR(st.st_mode)) {
        if (!run_file(path)) return 0;
        ++*count;
        return 1;
    }
    DIR *dir = opendir(path);
    if (dir == NULL) {
        fprintf(stderr, "replay: cannot open directory %s\n", path);
        return 0;
    }
    int ok = 1;
    struct dirent *e;
    while (ok && (e = readdir(dir)) != NULL) {
        if (e->d_name[0] == '.') continue;
        size_t n = strlen(path) + strlen(e->d_name) + 2;
        char *child = malloc(n);
        if (child == NULL) {
            ok = 0;
            break;
        }
        snprintf(child, n, "%s/%s", path, e->d_name);
        if (stat(child, &st) == 0 && S_ISREG(st.st_mode)) {
            ok = run_file(child);
            if (ok) ++*count;
        }
        free(child);
    }
    closedir(dir);
    return ok;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE_OR_DIRECTORY...\n", argv[0]);
        return 1;
    }
    size_t count = 0;
    for (int i = 1; i < argc; i++)
        if (!run_path(argv[i], &count)) return 1;
    if (count == 0) {
        fprintf(stderr, "replay: no inputs found\n");
        return 1;
    }
    printf("replay: %zu inputs ran\n", count);
    return 0;
}
