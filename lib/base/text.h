/*
 * text.h - the one text writer of lib/: appends to a caller's fixed buffer (counting what
 * would not fit, as snprintf does) or to a heap buffer that grows. The SVG writers, the
 * report and the request layer's output all write through it. Never installed; not API.
 */
#ifndef HWFIT_BASE_TEXT_H
#define HWFIT_BASE_TEXT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#  define HWFIT__TEXT_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#  define HWFIT__TEXT_PRINTF(f, a)
#endif

typedef struct hwfit__text {
    char *buf;    /* the bytes; NUL-terminated while len < cap */
    size_t cap;   /* bytes at buf */
    size_t len;   /* bytes written or, past cap, that would have been */
    int grow;     /* 1: buf is the writer's own heap buffer and grows */
    int nomem;    /* a growth failed: the text is cut */
} hwfit__text;

/* Write into buf[0..cap) (buf may be NULL when cap is 0); what does not fit is counted. */
void hwfit__text_fixed(hwfit__text *t, char *buf, size_t cap);
/* Write into a heap buffer of the writer's own; free it with hwfit__text_free. */
void hwfit__text_heap(hwfit__text *t);
void hwfit__text_free(hwfit__text *t);
/* Forget what was written (the buffer stays). */
void hwfit__text_reset(hwfit__text *t);

void hwfit__text_put(hwfit__text *t, const char *s, size_t n);
void hwfit__text_puts(hwfit__text *t, const char *s);
void hwfit__text_putc(hwfit__text *t, char c);
void hwfit__text_printf(hwfit__text *t, const char *fmt, ...) HWFIT__TEXT_PRINTF(2, 3);
void hwfit__text_vprintf(hwfit__text *t, const char *fmt, va_list ap) HWFIT__TEXT_PRINTF(2, 0);

/* Levenshtein distance of a[0..na) and b[0..nb) when both are at most 64 bytes, else
 * SIZE_MAX: the "did you mean" of the readers and the request layer. */
size_t hwfit__edit_distance(const char *a, size_t na, const char *b, size_t nb);

/* 1 when everything written is in the buffer (with its NUL). */
int hwfit__text_complete(const hwfit__text *t);

/* 1 when the length reached SIZE_MAX: the text can never be delivered (what a writer
 * that counts before it writes refuses with HWFIT_ERANGE). hwfit__text_give_up puts a
 * writer in that state, so that nothing more is written or counted. */
int hwfit__text_overflow(const hwfit__text *t);
void hwfit__text_give_up(hwfit__text *t);

/* Writing in place (for a function that writes into a caller's buffer): room for n bytes
 * and a NUL at the end of the text, or NULL when there is none (counting only, a fixed
 * buffer without the room). After writing there, hwfit__text_advance(t, n) takes the n
 * bytes in; without the room, it counts n bytes that were not written. */
char *hwfit__text_room(hwfit__text *t, size_t n);
void hwfit__text_advance(hwfit__text *t, size_t n);

#endif /* HWFIT_BASE_TEXT_H */
