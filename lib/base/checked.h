/*
 * base/checked.h - the small helpers every layer of lib/ used to copy: checked 64-bit
 * arithmetic, a rounding-up division, status propagation and an array's element count.
 * Never installed; not API.
 */
#ifndef HWFIT_BASE_CHECKED_H
#define HWFIT_BASE_CHECKED_H

#include <stddef.h>
#include <stdint.h>

#include "hwfit/status.h"

/* Elements of an array (not of a pointer). */
#define HWFIT__COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* Return the status of expr from the enclosing function unless it is HWFIT_OK. */
#define HWFIT__TRY(expr)                                                                    \
    do {                                                                                    \
        hwfit_status hwfit__try_st_ = (expr);                                               \
        if (hwfit__try_st_ != HWFIT_OK) return hwfit__try_st_;                              \
    } while (0)

/* ---- checked arithmetic: HWFIT_ERANGE on overflow, *out untouched then ------------------ */

/* With GCC and Clang the overflow builtins: the same answer without the division of the
 * portable test (a 64-bit division costs tens of cycles, and the shard search multiplies
 * in checked arithmetic for every card it evaluates). */
static inline hwfit_status hwfit__add_u64(uint64_t a, uint64_t b, uint64_t *out) {
#if defined(__GNUC__)
    uint64_t r;
    if (__builtin_add_overflow(a, b, &r)) return HWFIT_ERANGE;
    *out = r;
#else
    if (a > UINT64_MAX - b) return HWFIT_ERANGE;
    *out = a + b;
#endif
    return HWFIT_OK;
}

static inline hwfit_status hwfit__mul_u64(uint64_t a, uint64_t b, uint64_t *out) {
#if defined(__GNUC__)
    uint64_t r;
    if (__builtin_mul_overflow(a, b, &r)) return HWFIT_ERANGE;
    *out = r;
#else
    if (a != 0 && b > UINT64_MAX / a) return HWFIT_ERANGE;
    *out = a * b;
#endif
    return HWFIT_OK;
}

/* *acc += a * b */
static inline hwfit_status hwfit__mac_u64(uint64_t *acc, uint64_t a, uint64_t b) {
    uint64_t p;
    if (hwfit__mul_u64(a, b, &p) != HWFIT_OK) return HWFIT_ERANGE;
    return hwfit__add_u64(*acc, p, acc);
}

/* n / d rounded up (d > 0); never overflows. */
static inline uint64_t hwfit__ceil_div_u64(uint64_t n, uint64_t d) {
    return n / d + (n % d != 0);
}

#endif /* HWFIT_BASE_CHECKED_H */
