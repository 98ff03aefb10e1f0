/*
 * pictures/draw.h - what the pictures of lib/ draw with, from svg.c: numbers formatted the
 * same way in every chart and report, and caller text escaped for XML and HTML, written
 * through the base text writer. chart.c and report.c use this, not svg_internal.h.
 * Never installed; not API.
 */
#ifndef HWFIT_DRAW_H
#define HWFIT_DRAW_H

#include <stddef.h>

#include "hwfit/svg.h"

#include "base/text.h"

/* Bytes of a formatted number or value (hwfit__svg_format_fixed, hwfit__svg_format_value). */
#define HWFIT__SVG_LABEL_SIZE 48

/* v with `decimals` (0..24) digits after the point, rounded half away from zero, "-0"
 * written as "0"; with trim, trailing zeros (and a trailing point) are removed. Fewer
 * decimals are written when v 10^decimals would reach 4e15. Independent of the locale.
 * out must hold HWFIT__SVG_LABEL_SIZE bytes. Returns the length. */
size_t hwfit__svg_format_fixed(double v, int decimals, int trim, char *out);

/* A single value as short text in the axis's unit with up to 4 significant digits,
 * e.g. "71.3 GB", "3.2 kW". out holds HWFIT__SVG_LABEL_SIZE bytes. */
void hwfit__svg_format_value(const hwfit_svg_axis *axis, double v, char *out);

/* Text content or attribute value, escaped as svg.h describes (& < > " ' as entities,
 * control characters dropped, invalid UTF-8 and U+FFFE/U+FFFF replaced by U+FFFD): the
 * bytes hwfit_svg_escape gives. s must not be NULL. */
void hwfit__draw_text(hwfit__text *t, const char *s);

#endif /* HWFIT_DRAW_H */
