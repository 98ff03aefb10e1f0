/* status.c - names and messages of the status codes, generated from HWFIT_STATUS_MAP. */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* open, fstat, fdopen: refuse what is not a regular file */
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwfit/status.h"

#include "base/internal.h"

#if !defined(_WIN32)
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

/* The documented enum and the table must agree value for value. */
#define HWFIT__CHECK_VALUE(name, value, message) \
    _Static_assert(HWFIT_##name == (value), "status " #name " differs from the table");
HWFIT_STATUS_MAP(HWFIT__CHECK_VALUE)
#undef HWFIT__CHECK_VALUE

const char *hwfit_status_name(hwfit_status status) {
    switch (status) {
#define HWFIT__NAME_CASE(name, value, message) \
    case HWFIT_##name:                         \
        return "HWFIT_" #name;
        HWFIT_STATUS_MAP(HWFIT__NAME_CASE)
#undef HWFIT__NAME_CASE
    default:
        return "HWFIT_UNKNOWN";
    }
}

const char *hwfit_status_str(hwfit_status status) {
    switch (status) {
#define HWFIT__STR_CASE(name, value, message) \
    case HWFIT_##name:                        \
        return message;
        HWFIT_STATUS_MAP(HWFIT__STR_CASE)
#undef HWFIT__STR_CASE
    default:
        return "unknown status";
    }
}

void hwfit_error_clear(hwfit_error *error) {
    if (error == NULL) return;
    error->status = HWFIT_OK;
    error->line = 0;
    error->column = 0;
    error->offset = 0;
    error->message[0] = '\0';
}

void hwfit_problem_clear(hwfit_problem *problem) {
    if (problem == NULL) return;
    problem->status = HWFIT_OK;
    problem->field = "";
    problem->rule = "";
    problem->index = 0;
}

hwfit_status hwfit__why(hwfit_problem *problem, hwfit_status status, const char *field,
                        const char *rule) {
    if (problem != NULL && problem->status == HWFIT_OK) {
        problem->status = status;
        problem->field = field;
        problem->rule = rule;
        problem->index = 0;
    }
    return status;
}

hwfit_status hwfit__why_at(hwfit_problem *problem, hwfit_status status, const char *field,
                           size_t index, const char *rule) {
    if (problem != NULL && problem->status == HWFIT_OK) {
        problem->status = status;
        problem->field = field;
        problem->rule = rule;
        problem->index = index;
    }
    return status;
}

hwfit_status hwfit__error_set(hwfit_error *err, hwfit_status status, uint32_t line,
                              uint32_t column, size_t offset, const char *fmt, ...) {
    if (err == NULL) return status;
    err->status = status;
    err->line = line;
    err->column = column;
    err->offset = offset;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    if (n < 0) err->message[0] = '\0';
    return status;
}

hwfit_status hwfit__error_vset(hwfit_error *err, hwfit_status status, uint32_t line,
                               uint32_t column, size_t offset, const char *prefix,
                               const char *fmt, va_list ap) {
    char message[HWFIT_ERROR_MESSAGE_SIZE];
    int n = vsnprintf(message, sizeof message, fmt, ap);
    if (n < 0) message[0] = '\0';
    if (prefix != NULL)
        return hwfit__error_set(err, status, line, column, offset, "%s: %s", prefix, message);
    return hwfit__error_set(err, status, line, column, offset, "%s", message);
}

/* Why a file operation failed, in words (errno's usual values; thread-safe, unlike
 * strerror's buffer for the unusual ones). */
static const char *reason(int e) {
    switch (e) {
    case ENOENT: return "no such file";
    case EACCES: return "permission denied";
    case EISDIR: return "is a directory";
    case ENOTDIR: return "a part of the path is not a directory";
    case ENAMETOOLONG: return "the name is too long";
    case EMFILE:
    case ENFILE: return "too many open files";
    case ENOMEM: return "out of memory";
    case EIO: return "input/output error";
#if !defined(_WIN32)
    case ELOOP: return "too many symbolic links";
    case ENXIO: return "no such device";
#endif
    default: return "the system refused it";
    }
}

/* The file at path opened for reading, or NULL with err set. Only regular files are read:
 * a FIFO, a device or a directory is refused before anything blocks on it (opened without
 * blocking, then fstat). */
static FILE *open_regular(const char *path, hwfit_error *err) {
#if !defined(_WIN32)
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0) {
        (void)hwfit__error_set(err, HWFIT_EIO, 0, 0, 0, "%s: cannot open file: %s", path,
                               reason(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        const char *what = S_ISDIR(st.st_mode)    ? "is a directory"
                           : S_ISFIFO(st.st_mode) ? "is a FIFO (named pipe)"
                           : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "is a device"
                                                                         : "is not a regular file";
        (void)close(fd);
        (void)hwfit__error_set(err, HWFIT_EIO, 0, 0, 0, "%s: cannot read: %s", path, what);
        return NULL;
    }
    /* Reads of a regular file do not block: the flag may stay. */
    FILE *f = fdopen(fd, "rb");
    if (f == NULL) {
        int e = errno;
        (void)close(fd);
        (void)hwfit__error_set(err, HWFIT_EIO, 0, 0, 0, "%s: cannot open file: %s", path,
                               reason(e));
    }
    return f;
#else
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        (void)hwfit__error_set(err, HWFIT_EIO, 0, 0, 0, "%s: cannot open file: %s", path,
                               reason(errno));
    return f;
#endif
}

hwfit_status hwfit__read_file(const char *path, size_t max_bytes, char **data, size_t *length,
                              hwfit_error *err) {
    if (path == NULL || data == NULL || length == NULL)
        return hwfit__error_set(err, HWFIT_EINVAL, 0, 0, 0, "file path is NULL");
    FILE *f = open_regular(path, err);
    if (f == NULL) return err != NULL ? err->status : HWFIT_EIO;
    size_t cap = max_bytes < 4096 ? max_bytes : 4096, len = 0;
    char *buf = malloc(cap + 1);
    if (buf == NULL) {
        fclose(f);
        return hwfit__error_set(err, HWFIT_ENOMEM, 0, 0, 0, "%s: out of memory", path);
    }
    for (;;) {
        if (len == cap) {
            if (cap >= max_bytes) {
                if (fgetc(f) == EOF) break; /* exactly max_bytes long */
                free(buf);
                fclose(f);
                return hwfit__error_set(err, HWFIT_ERANGE, 0, 0, 0,
                                        "%s: file larger than %zu bytes", path, max_bytes);
            }
            size_t ncap = cap * 2 > max_bytes ? max_bytes : cap * 2;
            char *nbuf = realloc(buf, ncap + 1);
            if (nbuf == NULL) {
                free(buf);
                fclose(f);
                return hwfit__error_set(err, HWFIT_ENOMEM, 0, 0, 0, "%s: out of memory", path);
            }
            buf = nbuf;
            cap = ncap;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0) break;
    }
    int bad = ferror(f), e = errno;
    fclose(f);
    if (bad) {
        free(buf);
        return hwfit__error_set(err, HWFIT_EIO, 0, 0, 0, "%s: read error: %s", path, reason(e));
    }
    buf[len] = '\0';
    *data = buf;
    *length = len;
    hwfit_error_clear(err);
    return HWFIT_OK;
}
