/* fuzz_input.h - typed values decoded from fuzz bytes, and the checks every target shares.
 *
 * A target reads its inputs field by field: fz_keep() says whether to leave a field at its
 * documented default (most of the time, so that inputs stay mostly valid and reach deep
 * code), and fz_u64() / fz_u32() / fz_double() / fz_enum() give hostile values often: 0,
 * 1, the maximum, powers of two, NaN, +-Inf, -0, subnormals, huge and tiny numbers. Past
 * the end of the bytes every read returns 0 and fz_keep() keeps, so short inputs are
 * valid inputs.
 *
 * Header-only (static functions) so that tests/fuzz/CMakeLists.txt needs no change: a new
 * target is one more tests/fuzz/fuzz_<name>.c that includes this file.
 */
#ifndef HWFIT_FUZZ_INPUT_H
#define HWFIT_FUZZ_INPUT_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwfit.h"
#include "base/internal.h"

#define FZ_CHECK(cond)                                                                    \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);      \
            abort();                                                                      \
        }                                                                                 \
    } while (0)

typedef struct fz {
    const uint8_t *p;
    size_t n;
} fz;

static inline uint8_t fz_u8(fz *f) {
    if (f->n == 0) return 0;
    f->n--;
    return *f->p++;
}

/* 1 (keep the default) for about 7 bytes in 8. */
static inline int fz_keep(fz *f) { return f->n == 0 || fz_u8(f) < 224; }

/* Two bytes, big-endian (reads in sequence: gcc and clang decode the same value). */
static inline uint32_t fz_u16(fz *f) {
    uint32_t hi = fz_u8(f);
    return hi << 8 | fz_u8(f);
}

static inline uint64_t fz_raw64(fz *f) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = v << 8 | fz_u8(f);
    return v;
}

static inline uint64_t fz_u64(fz *f) {
    uint8_t k = fz_u8(f);
    switch (k % 10) {
    case 0: return 0;
    case 1: return 1;
    case 2: return UINT64_MAX;
    case 3: return (uint64_t)1 << (fz_u8(f) % 64);
    case 4: return ((uint64_t)1 << (fz_u8(f) % 64)) - 1;
    case 5: return fz_raw64(f);
    case 6: return fz_u16(f);
    case 7: return (uint64_t)UINT32_MAX + (k >> 4);
    default: return fz_u8(f);
    }
}

static inline uint32_t fz_u32(fz *f) {
    uint8_t k = fz_u8(f);
    switch (k % 6) {
    case 0: return 0;
    case 1: return UINT32_MAX;
    case 2: return (uint32_t)1 << (fz_u8(f) % 32);
    case 3: return (uint32_t)fz_raw64(f);
    case 4: return fz_u16(f);
    default: return fz_u8(f);
    }
}

static inline double fz_double(fz *f) {
    uint8_t k = fz_u8(f);
    switch (k % 14) {
    case 0: return NAN;
    case 1: return INFINITY;
    case 2: return -INFINITY;
    case 3: return 0.0;
    case 4: return -0.0;
    case 5: return DBL_MAX;
    case 6: return DBL_MIN / 4.0; /* subnormal */
    case 7: return -(double)fz_u8(f);
    case 8: {
        uint64_t bits = fz_raw64(f);
        double d;
        memcpy(&d, &bits, sizeof d);
        return d;
    }
    case 9: {
        double e = (double)((int)(fz_u8(f) % 48) - 24);
        return pow(10.0, e) * (1 + fz_u8(f));
    }
    case 10: return (double)fz_u8(f) / 256.0;
    case 11: return ldexp(1.0, (int)(fz_u8(f) % 128) - 30);
    default: return (double)fz_u16(f);
    }
}

/* An enum value: mostly in [0, count), sometimes just outside or absurd. */
static inline int fz_enum(fz *f, int count) {
    uint8_t k = fz_u8(f);
    if (k < 240) return (int)(k % (unsigned)count);
    if (k < 248) return count;
    if (k < 252) return -1;
    return INT32_MAX;
}

/* Every double in [first, first + count) is finite; with `nonneg` also >= 0. A macro, so
 * that a failure reports the caller's line and the index of the first bad value. */
#define fz_check_doubles(first, count, nonneg)                                             \
    do {                                                                                   \
        const double *fz_d_ = (first);                                                     \
        for (size_t fz_i_ = 0; fz_i_ < (size_t)(count); fz_i_++) {                        \
            if (!hwfit__finite(fz_d_[fz_i_]) || ((nonneg) && !(fz_d_[fz_i_] >= 0.0))) {   \
                fprintf(stderr, "%s:%d: double #%zu of %s is %g\n", __FILE__, __LINE__,    \
                        fz_i_, #first, fz_d_[fz_i_]);                                      \
                abort();                                                                   \
            }                                                                              \
        }                                                                                  \
    } while (0)

/* A problem report from a _validate function agrees with the status it returned. */
static inline void fz_check_problem(hwfit_status st, hwfit_status validated,
                                    const hwfit_problem *p) {
    FZ_CHECK(st == validated);
    FZ_CHECK(p->status == st);
    FZ_CHECK(p->field != NULL && p->rule != NULL);
    if (st == HWFIT_OK) FZ_CHECK(p->field[0] == '\0' && p->rule[0] == '\0');
    else FZ_CHECK(p->rule[0] != '\0');
}

#endif /* HWFIT_FUZZ_INPUT_H */
