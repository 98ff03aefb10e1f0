/*
 * svg_internal.h - the parts of lib/svg.c that tests reach directly: number formatting,
 * the deterministic logarithm and the tick algorithms. Never installed; not API.
 */
#ifndef HWFIT_SVG_INTERNAL_H
#define HWFIT_SVG_INTERNAL_H

#include <stddef.h>

#include "hwfit/status.h"
#include "hwfit/svg.h"

#define HWFIT__SVG_MAX_TICKS 32
#define HWFIT__SVG_MAX_MINOR 128
#define HWFIT__SVG_LABEL_SIZE 48

/* Ticks of one axis. Values are in the axis's base unit. */
typedef struct hwfit__svg_ticks {
    hwfit_svg_scale scale;
    double lo, hi;            /* the axis spans [lo, hi]; lo < hi */
    size_t count;             /* labelled ticks, lo <= value[i] <= hi, increasing */
    double value[HWFIT__SVG_MAX_TICKS];
    char label[HWFIT__SVG_MAX_TICKS][HWFIT__SVG_LABEL_SIZE];
    size_t minor_count;       /* unlabelled grid lines of log axes */
    double minor[HWFIT__SVG_MAX_MINOR];
    double step;              /* linear: tick spacing in base units; log: exponent step */
    int decimals;             /* linear: digits after the point in the labels */
} hwfit__svg_ticks;

/* Heckbert's nicenum: a number 1, 2, 5 or 10 times a power of ten near x > 0; rounded
 * when round != 0, else at or above x. */
double hwfit__svg_nice_number(double x, int round);

/* 10^e for an integer e, exact for 0 <= e <= 22 and correctly rounded for -22 <= e < 0;
 * beyond, a product of such factors. Only IEEE 754 operations: the same everywhere. */
double hwfit__svg_pow10(int e);

/* floor(log10(x)) for x > 0, exact at powers of ten. */
int hwfit__svg_floor_log10(double x);

/* log2(x) for x > 0 from frexp and a series with IEEE 754 operations only, so its bits
 * do not depend on the C library; within a few ulp of the true value. */
double hwfit__svg_log2(double x);

/* v with `decimals` (0..24) digits after the point, rounded half away from zero, "-0"
 * written as "0"; with trim, trailing zeros (and a trailing point) are removed. Fewer
 * decimals are written when v 10^decimals would reach 4e15. Independent of the locale.
 * out must hold HWFIT__SVG_LABEL_SIZE bytes. Returns the length. */
size_t hwfit__svg_format_fixed(double v, int decimals, int trim, char *out);

/* Ticks for data in [lo, hi] (0 <= lo <= hi, finite; lo > 0 on log axes) on an axis,
 * with about `target` labelled ticks (2..HWFIT__SVG_MAX_TICKS - 2). Returns HWFIT_OK,
 * or HWFIT_EINVAL for a bad axis enum. */
hwfit_status hwfit__svg_ticks_make(const hwfit_svg_axis *axis, double lo, double hi,
                                   size_t target, hwfit__svg_ticks *out);

/* Position of v on the axis as a fraction: 0 at lo, 1 at hi. */
double hwfit__svg_ticks_fraction(const hwfit__svg_ticks *t, double v);

/* A single value as short text in the axis's unit with up to 4 significant digits,
 * e.g. "71.3 GB", "3.2 kW". out holds HWFIT__SVG_LABEL_SIZE bytes. */
void hwfit__svg_format_value(const hwfit_svg_axis *axis, double v, char *out);

#endif /* HWFIT_SVG_INTERNAL_H */
