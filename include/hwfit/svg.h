/**
 * @file svg.h
 * @brief Charts as SVG text: stacked bars, lines on linear or log axes, and budgets.
 *
 * Each chart function takes plain data (labels and values through const pointers and
 * counts) and writes a complete, standalone SVG 1.1 document into a buffer the caller
 * provides. Nothing is allocated. The protocol is that of snprintf, made safe:
 *
 * @code
 * size_t needed = 0;
 * hwfit_status st = hwfit_svg_lines(&in, NULL, 0, &needed);   // ask for the size
 * if (st == HWFIT_EBUFSIZE) {
 *     char *svg = malloc(needed);                             // needed counts the NUL
 *     st = hwfit_svg_lines(&in, svg, needed, NULL);            // HWFIT_OK
 * }
 * @endcode
 *
 * - On ::HWFIT_OK the buffer holds the NUL-terminated document and @c *needed (when
 *   @c needed is not NULL) its length plus one.
 * - On ::HWFIT_EBUFSIZE the buffer is left untouched (not even truncated: outputs are
 *   written only on success, as everywhere in hwfit) and @c *needed says how many bytes
 *   to provide. A NULL buffer with size 0 is the way to ask.
 * - On any other status neither the buffer nor @c *needed is touched.
 *
 * The output is deterministic: the same input gives the same bytes on every run and
 * machine. Numbers are written by hwfit itself, not by printf, so the process locale
 * never turns a decimal point into a comma; coordinates carry two decimals (1/100 px);
 * logarithms are computed by hwfit from IEEE 754 operations only.
 *
 * Text (titles, labels) must be UTF-8. It is escaped for XML: @c & @c < @c > @c " and
 * @c ' become entities, control characters (U+0000 to U+001F and U+007F) are dropped,
 * and any byte that is not part of valid UTF-8 (or encodes U+FFFE or U+FFFF) becomes
 * U+FFFD, so every chart is well-formed XML whatever the labels hold.
 *
 * Tick labels are short quantities in the axis unit ("48 GB", "1 MiB", "3.2 kW"): linear
 * axes place ticks with the "nice numbers" algorithm of P. S. Heckbert, "Nice Numbers for
 * Graph Labels", Graphics Gems (A. S. Glassner, ed.), Academic Press, 1990, pp. 61-63;
 * log axes place them at powers of 2 or 10 (see docs/formulas.md).
 *
 * Colours come from the palette of M. Okabe and K. Ito, "Color Universal Design (CUD):
 * how to make figures and presentations that are friendly to colorblind people" (2002,
 * revised 2008), which stays distinguishable under the common colour-vision deficiencies;
 * line series also differ in marker shape.
 *
 * Every value must be finite, non-negative and at most ::HWFIT_SVG_VALUE_MAX; values on a
 * log axis must also be at least ::HWFIT_SVG_LOG_MIN.
 */
#ifndef HWFIT_SVG_H
#define HWFIT_SVG_H

#include "hwfit/status.h"
#include "hwfit/units.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup svg SVG charts
 *  @brief Deterministic SVG charts into caller buffers. Thread safety: all functions are
 *  reentrant; none keeps state or allocates.
 *  @{ */

/** Largest value a chart accepts, in the axis's base unit (10^30). */
#define HWFIT_SVG_VALUE_MAX 1e30
/** Smallest value a log axis accepts, in the axis's base unit (10^-30). */
#define HWFIT_SVG_LOG_MIN 1e-30
/** Smallest width or height of a chart, in px. */
#define HWFIT_SVG_SIZE_MIN_PX 200.0
/** Largest width or height of a chart, in px. */
#define HWFIT_SVG_SIZE_MAX_PX 16384.0
/** Number of distinct colours in the palette before ::hwfit_svg_color repeats. */
#define HWFIT_SVG_PALETTE_SIZE 7

/** @brief How an axis maps values to positions. */
typedef enum hwfit_svg_scale {
    HWFIT_SVG_SCALE_LINEAR = 0, /**< Linear; ticks at Heckbert's nice numbers. */
    HWFIT_SVG_SCALE_LOG2 = 1,   /**< Logarithmic; ticks at powers of 2 (every 1, 2, 5 or 10k octaves). */
    HWFIT_SVG_SCALE_LOG10 = 2   /**< Logarithmic; ticks at powers of 10 (every 1 or 3k decades). */
} hwfit_svg_scale;

/** @brief Which prefixes tick labels use for bytes, bytes/s and plain numbers. */
typedef enum hwfit_svg_prefix {
    /** Binary (KiB, MiB, GiB) for bytes and bytes/s on a ::HWFIT_SVG_SCALE_LOG2 axis;
     *  decimal (kB, MB, GB) everywhere else. */
    HWFIT_SVG_PREFIX_AUTO = 0,
    HWFIT_SVG_PREFIX_DECIMAL = 1, /**< Always decimal: k, M, G, T, P, E. */
    /** Binary (Ki, Mi, Gi, Ti, Pi, Ei) for bytes, bytes/s and plain numbers. Bits/s, watts,
     *  seconds and FLOP always use decimal prefixes, whatever this says. */
    HWFIT_SVG_PREFIX_BINARY = 2
} hwfit_svg_prefix;

/**
 * @brief One value axis: its title, the unit of its values, its scale and tick prefixes.
 *
 * Tick labels carry the unit ("40 GB"), so the title need not repeat it. Plain numbers
 * (::HWFIT_UNIT_NONE) get a prefix letter only from 10^4 up ("20k").
 */
typedef struct hwfit_svg_axis {
    const char *label;       /**< Axis title, UTF-8; "" for none; NULL gives ::HWFIT_EINVAL. */
    hwfit_unit unit;         /**< Unit of the values, for tick labels. Default ::HWFIT_UNIT_NONE. */
    hwfit_svg_scale scale;   /**< Default ::HWFIT_SVG_SCALE_LINEAR. */
    hwfit_svg_prefix prefix; /**< Default ::HWFIT_SVG_PREFIX_AUTO. */
    /** Linear axes only: 1 to extend the range down to zero, 0 to start near the smallest
     *  value. Value axes of bar and budget charts always start at zero. Default 1. */
    int include_zero;
} hwfit_svg_axis;

/**
 * @brief A stacked bar chart: N bars (e.g. GPU 0..7), each a stack of M segments (e.g.
 * weights, KV cache, activations, gradients, optimizer, overhead, free), with an optional
 * horizontal capacity line (e.g. the card's memory).
 *
 * Segment 0 sits at the bottom of each stack. The legend lists segments top down, in the
 * order they appear in the stacks. Legends narrower than a quarter of the picture stand
 * at the right, wider ones in columns under the plot (in all three charts).
 */
typedef struct hwfit_svg_stacked_bars_in {
    const char *title;   /**< Chart title, UTF-8; "" for none; NULL gives ::HWFIT_EINVAL. Default "". */
    const char *x_label; /**< Title of the category (bar) axis; "" for none; NULL gives ::HWFIT_EINVAL. Default "". */
    /** The value axis (vertical). Its scale must be ::HWFIT_SVG_SCALE_LINEAR; it always
     *  starts at zero. Default: label "", unit ::HWFIT_UNIT_NONE, linear, auto prefixes. */
    hwfit_svg_axis y;
    size_t bar_count;                  /**< N, at least 1. Default 0 (must be set). */
    const char *const *bar_labels;     /**< N labels, none NULL. Default NULL (must be set). */
    size_t segment_count;              /**< M, at least 1. Default 0 (must be set). */
    const char *const *segment_labels; /**< M legend labels, none NULL. Default NULL (must be set). */
    /** N x M values in the unit of @c y, bar by bar: values[bar * M + segment]. Zero
     *  values draw nothing. Default NULL (must be set). */
    const double *values;
    /** M colours as 0xRRGGBB, or NULL for the palette (::hwfit_svg_color). Default NULL. */
    const uint32_t *segment_colors;
    int capacity_set;           /**< 1 to draw the capacity line. Default 0. */
    double capacity;            /**< Height of the capacity line, in the unit of @c y. Default 0. */
    const char *capacity_label; /**< Legend label of the capacity line; its value is appended. Default "Capacity". */
    /** 1 to write each bar's total above it (where it fits), 0 not to. Totals count every
     *  segment, a "free" one included. Default 1. */
    int show_totals;
    double width_px;            /**< Width of the picture, px. Default 800. */
    double height_px;           /**< Height of the picture, px. Default 480. */
} hwfit_svg_stacked_bars_in;

/** @brief One line of a line chart: @c count points (x[i], y[i]), drawn in this order. */
typedef struct hwfit_svg_series {
    const char *label; /**< Legend label, UTF-8; NULL gives ::HWFIT_EINVAL. */
    const double *x;   /**< @c count x values in the unit of the x axis. */
    const double *y;   /**< @c count y values in the unit of the y axis. */
    size_t count;      /**< Number of points, at least 1. */
} hwfit_svg_series;

/**
 * @brief A line chart: K series of points, each axis linear or logarithmic; e.g. bus
 * bandwidth against message size for PCIe and NVLink, as nccl-tests sweeps print them.
 *
 * Series i has palette colour i and marker shape i mod 4 (circle, square, triangle,
 * diamond).
 */
typedef struct hwfit_svg_lines_in {
    const char *title;       /**< Chart title; "" for none; NULL gives ::HWFIT_EINVAL. Default "". */
    hwfit_svg_axis x;        /**< Horizontal axis. Default as ::hwfit_svg_axis but @c include_zero 0. */
    hwfit_svg_axis y;        /**< Vertical axis. Default as ::hwfit_svg_axis (@c include_zero 1). */
    size_t series_count;     /**< K, at least 1. Default 0 (must be set). */
    const hwfit_svg_series *series; /**< K series. Default NULL (must be set). */
    int markers;             /**< 1 to mark every point, 0 for lines only. Default 1. */
    double width_px;         /**< Width of the picture, px. Default 800. */
    double height_px;        /**< Height of the picture, px. Default 480. */
} hwfit_svg_lines_in;

/** @brief A vertical reference line of a budget chart, e.g. "Usable PSU capacity". */
typedef struct hwfit_svg_reference {
    const char *label; /**< Legend label, UTF-8; the value is appended ("Wall power: 6.1 kW"). */
    double value;      /**< Where the line stands, in the unit of the value axis. */
} hwfit_svg_reference;

/**
 * @brief A budget chart: one horizontal bar per component (GPUs, CPUs, DIMMs, fans...),
 * an optional total bar stacking all components, and vertical reference lines (DC total,
 * wall power, usable PSU capacity, a headroom line at usable / 1.3). Also fits capacity
 * accounts such as RAID raw against usable bytes.
 *
 * Bar i has palette colour i (or @c bar_colors[i]); the total bar stacks the components in
 * the same colours. Each bar's value is written at its end. Reference lines are black with
 * distinct dash patterns and listed in the legend with their values.
 */
typedef struct hwfit_svg_budget_in {
    const char *title;  /**< Chart title; "" for none; NULL gives ::HWFIT_EINVAL. Default "". */
    /** The value axis (horizontal). Its scale must be ::HWFIT_SVG_SCALE_LINEAR; it always
     *  starts at zero. Default: label "", unit ::HWFIT_UNIT_NONE, linear, auto prefixes. */
    hwfit_svg_axis x;
    size_t bar_count;              /**< Number of components, at least 1. Default 0 (must be set). */
    const char *const *bar_labels; /**< @c bar_count labels, none NULL. Default NULL (must be set). */
    const double *values;          /**< @c bar_count values in the unit of @c x. Default NULL (must be set). */
    const uint32_t *bar_colors;    /**< @c bar_count colours 0xRRGGBB, or NULL for the palette. Default NULL. */
    int show_total;                /**< 1 to add the stacked total bar below the components. Default 1. */
    const char *total_label;       /**< Label of the total bar. Default "Total". */
    size_t reference_count;        /**< Number of reference lines, 0 or more. Default 0. */
    /** @c reference_count lines; may be NULL when @c reference_count is 0. Default NULL. */
    const hwfit_svg_reference *references;
    double width_px;               /**< Width of the picture, px. Default 800. */
    double height_px;              /**< Height of the picture, px. Default 480. */
} hwfit_svg_budget_in;

/**
 * @brief Fill a stacked bar chart input with its defaults (see the fields).
 * @param[out] in The input to fill; NULL is ignored.
 */
HWFIT_API void hwfit_svg_stacked_bars_init(hwfit_svg_stacked_bars_in *in);

/**
 * @brief Write a stacked bar chart as an SVG document.
 * @param[in]  in     The chart; NULL gives ::HWFIT_EINVAL.
 * @param[out] buf    Destination of the NUL-terminated document; may be NULL only when
 *                    @p size is 0. Written only on ::HWFIT_OK.
 * @param[in]  size   Size of @p buf in bytes.
 * @param[out] needed Bytes the document needs, its terminating NUL included; set on
 *                    ::HWFIT_OK and ::HWFIT_EBUFSIZE. May be NULL.
 * @retval HWFIT_OK        written.
 * @retval HWFIT_EINVAL    @p in, a label, a label array or @c values is NULL; @p buf is
 *                         NULL with @p size > 0; an enum is out of range; a colour is
 *                         above 0xFFFFFF; or the y axis is not linear.
 * @retval HWFIT_EDOM      @c bar_count or @c segment_count is 0; a value or the capacity
 *                         is NaN, infinite, negative or above ::HWFIT_SVG_VALUE_MAX; the
 *                         size is outside [::HWFIT_SVG_SIZE_MIN_PX, ::HWFIT_SVG_SIZE_MAX_PX];
 *                         or the labels leave no room for the plot.
 * @retval HWFIT_ERANGE    @c bar_count x @c segment_count overflows, or a bar's total
 *                         exceeds ::HWFIT_SVG_VALUE_MAX.
 * @retval HWFIT_EBUFSIZE  @p size is smaller than @c *needed; @p buf is untouched.
 */
HWFIT_API hwfit_status hwfit_svg_stacked_bars(const hwfit_svg_stacked_bars_in *in, char *buf,
                                              size_t size, size_t *needed);

/**
 * @brief Fill a line chart input with its defaults (see the fields).
 * @param[out] in The input to fill; NULL is ignored.
 */
HWFIT_API void hwfit_svg_lines_init(hwfit_svg_lines_in *in);

/**
 * @brief Write a line chart as an SVG document.
 *
 * Each axis spans the data: a linear axis from Heckbert's nice number at or below the
 * smallest value (or zero) to the one at or above the largest; a log axis from the power
 * of its base at or below the smallest value to the one at or above the largest.
 *
 * @param[in]  in     The chart; NULL gives ::HWFIT_EINVAL.
 * @param[out] buf    Destination, as for ::hwfit_svg_stacked_bars.
 * @param[in]  size   Size of @p buf in bytes.
 * @param[out] needed Bytes needed, NUL included; set on ::HWFIT_OK and ::HWFIT_EBUFSIZE.
 *                    May be NULL.
 * @retval HWFIT_OK        written.
 * @retval HWFIT_EINVAL    @p in, the title, an axis label, @c series, a series label or
 *                         its x or y array is NULL; @p buf is NULL with @p size > 0; or an
 *                         enum is out of range.
 * @retval HWFIT_EDOM      @c series_count or a series' @c count is 0; a value is NaN,
 *                         infinite, negative or above ::HWFIT_SVG_VALUE_MAX, or on a log
 *                         axis below ::HWFIT_SVG_LOG_MIN; the size is out of range; or
 *                         the labels leave no room for the plot.
 * @retval HWFIT_ERANGE    the document would exceed SIZE_MAX bytes.
 * @retval HWFIT_EBUFSIZE  @p size is smaller than @c *needed; @p buf is untouched.
 */
HWFIT_API hwfit_status hwfit_svg_lines(const hwfit_svg_lines_in *in, char *buf, size_t size,
                                       size_t *needed);

/**
 * @brief Fill a budget chart input with its defaults (see the fields).
 * @param[out] in The input to fill; NULL is ignored.
 */
HWFIT_API void hwfit_svg_budget_init(hwfit_svg_budget_in *in);

/**
 * @brief Write a budget chart as an SVG document.
 * @param[in]  in     The chart; NULL gives ::HWFIT_EINVAL.
 * @param[out] buf    Destination, as for ::hwfit_svg_stacked_bars.
 * @param[in]  size   Size of @p buf in bytes.
 * @param[out] needed Bytes needed, NUL included; set on ::HWFIT_OK and ::HWFIT_EBUFSIZE.
 *                    May be NULL.
 * @retval HWFIT_OK        written.
 * @retval HWFIT_EINVAL    @p in, a label, @c bar_labels or @c values is NULL;
 *                         @c references is NULL with @c reference_count > 0; @p buf is
 *                         NULL with @p size > 0; an enum is out of range; a colour is
 *                         above 0xFFFFFF; or the x axis is not linear.
 * @retval HWFIT_EDOM      @c bar_count is 0; a value or reference is NaN, infinite,
 *                         negative or above ::HWFIT_SVG_VALUE_MAX; the size is out of
 *                         range; or the labels leave no room for the plot.
 * @retval HWFIT_ERANGE    the total exceeds ::HWFIT_SVG_VALUE_MAX.
 * @retval HWFIT_EBUFSIZE  @p size is smaller than @c *needed; @p buf is untouched.
 */
HWFIT_API hwfit_status hwfit_svg_budget(const hwfit_svg_budget_in *in, char *buf, size_t size,
                                        size_t *needed);

/**
 * @brief Escape UTF-8 text for XML exactly as the charts do (see the file description).
 * @param[in]  text   NUL-terminated text; NULL gives ::HWFIT_EINVAL.
 * @param[out] buf    Destination, as for ::hwfit_svg_stacked_bars.
 * @param[in]  size   Size of @p buf in bytes.
 * @param[out] needed Bytes needed, NUL included; set on ::HWFIT_OK and ::HWFIT_EBUFSIZE.
 *                    May be NULL.
 * @retval HWFIT_OK        written.
 * @retval HWFIT_EINVAL    @p text is NULL, or @p buf is NULL with @p size > 0.
 * @retval HWFIT_ERANGE    the escaped text would exceed SIZE_MAX bytes.
 * @retval HWFIT_EBUFSIZE  @p size is smaller than @c *needed; @p buf is untouched.
 */
HWFIT_API hwfit_status hwfit_svg_escape(const char *text, char *buf, size_t size,
                                        size_t *needed);

/**
 * @brief The palette colour of series (or segment, or bar) @p index, as 0xRRGGBB.
 *
 * The Okabe-Ito colours without black, in this order: blue 0x0072B2, orange 0xE69F00,
 * bluish green 0x009E73, vermillion 0xD55E00, reddish purple 0xCC79A7, sky blue
 * 0x56B4E9, yellow 0xF0E442; index 7 starts again at blue. Black is kept for axes,
 * capacity and reference lines.
 *
 * @param[in] index Any value.
 * @return The colour, 0xRRGGBB.
 */
HWFIT_API uint32_t hwfit_svg_color(size_t index);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* HWFIT_SVG_H */
