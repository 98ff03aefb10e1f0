/* text.c - the bounded or growing text writer (text.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"

void hwfit__text_fixed(hwfit__text *t, char *buf, size_t cap) {
    t->buf = cap ? buf : NULL;
    t->cap = t->buf ? cap : 0;
    t->len = 0;
    t->grow = 0;
    t->nomem = 0;
    if (t->cap) t->buf[0] = '\0';
}

void hwfit__text_heap(hwfit__text *t) {
    t->buf = NULL;
    t->cap = 0;
    t->len = 0;
    t->grow = 1;
    t->nomem = 0;
}

void hwfit__text_free(hwfit__text *t) {
    if (t->grow) free(t->buf);
    hwfit__text_heap(t);
}

void hwfit__text_reset(hwfit__text *t) {
    t->len = 0;
    t->nomem = 0;
    if (t->cap) t->buf[0] = '\0';
}

/* Room for n more bytes and the NUL; 0 when there is none (fixed buffer full, no memory). */
static int reserve(hwfit__text *t, size_t n) {
    if (t->len <= t->cap && n < t->cap - t->len) return 1;
    if (!t->grow || t->nomem) return 0;
    if (n > ((size_t)-1) / 2 - t->len) {
        t->nomem = 1;
        return 0;
    }
    size_t cap = t->cap ? t->cap : 256;
    while (cap <= t->len + n) cap *= 2;
    char *b = realloc(t->buf, cap);
    if (b == NULL) {
        t->nomem = 1;
        return 0;
    }
    t->buf = b;
    t->cap = cap;
    return 1;
}

void hwfit__text_put(hwfit__text *t, const char *s, size_t n) {
    if (reserve(t, n)) {
        memcpy(t->buf + t->len, s, n);
        t->buf[t->len + n] = '\0';
    } else if (t->len < t->cap) {
        /* Fixed buffer: keep what fits, NUL-terminated, and count the rest. */
        size_t room = t->cap - t->len - 1;
        memcpy(t->buf + t->len, s, room);
        t->buf[t->cap - 1] = '\0';
    }
    t->len = n > ((size_t)-1) - t->len ? (size_t)-1 : t->len + n;
}

void hwfit__text_puts(hwfit__text *t, const char *s) { hwfit__text_put(t, s, strlen(s)); }

void hwfit__text_putc(hwfit__text *t, char c) { hwfit__text_put(t, &c, 1); }

void hwfit__text_vprintf(hwfit__text *t, const char *fmt, va_list ap) {
    char small[256];
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(small, sizeof small, fmt, copy);
    va_end(copy);
    if (n < 0) return;
    if ((size_t)n < sizeof small) {
        hwfit__text_put(t, small, (size_t)n);
        return;
    }
    if (reserve(t, (size_t)n)) {
        (void)vsnprintf(t->buf + t->len, (size_t)n + 1, fmt, ap);
        t->len += (size_t)n;
        return;
    }
    /* No room for all of it: write the part that fits through the small copy. */
    hwfit__text_put(t, small, sizeof small - 1);
    t->len += (size_t)n - (sizeof small - 1);
}

void hwfit__text_printf(hwfit__text *t, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    hwfit__text_vprintf(t, fmt, ap);
    va_end(ap);
}

int hwfit__text_complete(const hwfit__text *t) { return !t->nomem && t->len < t->cap; }

int hwfit__text_overflow(const hwfit__text *t) { return t->len == SIZE_MAX; }

void hwfit__text_give_up(hwfit__text *t) { t->len = SIZE_MAX; }

char *hwfit__text_room(hwfit__text *t, size_t n) {
    if (t->buf == NULL && !t->grow) return NULL; /* counting only */
    return reserve(t, n) ? t->buf + t->len : NULL;
}

void hwfit__text_advance(hwfit__text *t, size_t n) {
    t->len = n > SIZE_MAX - t->len ? SIZE_MAX : t->len + n;
    if (t->len < t->cap) t->buf[t->len] = '\0';
}

size_t hwfit__edit_distance(const char *a, size_t na, const char *b, size_t nb) {
    enum { MAX_LEN = 64 };
    size_t row[MAX_LEN + 1];
    if (na > MAX_LEN || nb > MAX_LEN) return (size_t)-1;
    for (size_t j = 0; j <= nb; j++) row[j] = j;
    for (size_t i = 1; i <= na; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= nb; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[nb];
}
