/*
 * pictures/svg_internal.h - the parts of svg.c that tests reach directly: the deterministic
 * logarithm and the tick algorithms (and, through draw.h, number formatting). The other
 * pictures (chart.c, report.c) use draw.h only. Never installed; not API.
 */
#ifndef HWFIT_SVG_INTERNAL_H
#define HWFIT_SVG_INTERNAL_H

#include <stddef.h>

#include "hwfit/status.h"
#include "hwfit/svg.h"

#include "pictures/draw.h"

#define HWFIT__SVG_MAX_TICKS 32
#define HWFIT__SVG_MAX_MINOR 128

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

/* Ticks for data in [lo, hi] (0 <= lo <= hi, finite; lo > 0 on log axes) on an axis,
 * with about `target` labelled ticks (2..HWFIT__SVG_MAX_TICKS - 2). Returns HWFIT_OK,
 * or HWFIT_EINVAL for a bad axis enum. */
hwfit_status hwfit__svg_ticks_make(const hwfit_svg_axis *axis, double lo, double hi,
                                   size_t target, hwfit__svg_ticks *out);

/* Position of v on the axis as a fraction: 0 at lo, 1 at hi. */
double hwfit__svg_ticks_fraction(const hwfit__svg_ticks *t, double v);

#endif /* HWFIT_SVG_INTERNAL_H */
