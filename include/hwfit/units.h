/**
 * @file units.h
 * @brief Unit constants, and parsing and formatting of quantities for people.
 *
 * hwfit computes in SI base units throughout: bytes, seconds, watts, bytes per second,
 * FLOP per second. Decimal (SI) and binary (IEC) prefixes are distinct named constants:
 * a "GB" is 10^9 bytes and a "GiB" is 2^30 bytes. See docs/units.md.
 */
#ifndef HWFIT_UNITS_H
#define HWFIT_UNITS_H

#include "hwfit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup units Units
 *  @brief Constants, parsing and formatting. Thread safety: all functions are reentrant.
 *  @{ */

/** @name Decimal (SI) multiples, e.g. bytes in a GB.
 *  @{ */
#define HWFIT_KILO 1e3  /**< k: 10^3 */
#define HWFIT_MEGA 1e6  /**< M: 10^6 */
#define HWFIT_GIGA 1e9  /**< G: 10^9 */
#define HWFIT_TERA 1e12 /**< T: 10^12 */
#define HWFIT_PETA 1e15 /**< P: 10^15 */
#define HWFIT_EXA 1e18  /**< E: 10^18 */
/** @} */

/** @name Binary (IEC 80000-13) multiples, e.g. bytes in a GiB.
 *  @{ */
#define HWFIT_KIBI 1024.0                 /**< Ki: 2^10 */
#define HWFIT_MEBI 1048576.0              /**< Mi: 2^20 */
#define HWFIT_GIBI 1073741824.0           /**< Gi: 2^30 */
#define HWFIT_TEBI 1099511627776.0        /**< Ti: 2^40 */
#define HWFIT_PEBI 1125899906842624.0     /**< Pi: 2^50 */
#define HWFIT_EXBI 1152921504606846976.0  /**< Ei: 2^60 */
/** @} */

/** @name Conversions
 *  @{ */
#define HWFIT_BITS_PER_BYTE 8.0            /**< bits in a byte */
#define HWFIT_SECONDS_PER_MINUTE 60.0      /**< s in a minute */
#define HWFIT_SECONDS_PER_HOUR 3600.0      /**< s in an hour */
#define HWFIT_SECONDS_PER_DAY 86400.0      /**< s in a day */
#define HWFIT_HOURS_PER_YEAR 8760.0        /**< h in a 365-day year */
#define HWFIT_SECONDS_PER_YEAR 31536000.0  /**< s in a 365-day year */
/** BTU/h per W, with the International Table BTU (1055.05585262 J):
 *  3600 / 1055.05585262. Source: NIST SP 811 (2008), Appendix B. */
#define HWFIT_BTU_PER_H_PER_W 3.4121416331279418
/** m^3/s in one cubic foot per minute: 0.3048^3 / 60. Source: NIST SP 811, Appendix B. */
#define HWFIT_M3_PER_S_PER_CFM 4.719474432e-4
/** @} */

/** @brief The kind of quantity a value is, for parsing and formatting. */
typedef enum hwfit_unit {
    HWFIT_UNIT_NONE = 0,        /**< A plain number; parsing accepts a trailing "%" (x 0.01). */
    HWFIT_UNIT_BYTES = 1,       /**< Bytes: B, kB..EB, KiB..EiB; "b" suffixes are bits. */
    HWFIT_UNIT_BYTES_PER_S = 2, /**< Bytes/s: "GB/s", "GiB/s", and bits as "Gb/s" or "Gbps". */
    HWFIT_UNIT_BITS_PER_S = 3,  /**< Bits/s, formatted "400 Gb/s"; parsing as for bytes/s, in bits. */
    HWFIT_UNIT_WATTS = 4,       /**< Watts: W, kW, MW. */
    HWFIT_UNIT_SECONDS = 5,     /**< Seconds: ns, us, ms, s, min, h, d, y (365 days). */
    HWFIT_UNIT_FLOP_PER_S = 6,  /**< FLOP/s: "989TFLOPS", "4 PFLOP/s". */
    HWFIT_UNIT_FLOP = 7         /**< FLOP (a count of operations). */
} hwfit_unit;

/**
 * @brief Parse a quantity such as "15.36TB", "96GiB", "1GB/s", "400Gb/s", "3200W", "2e6h".
 *
 * A plain number is in the base unit of @p unit (bytes, bytes/s, W, s, FLOP/s).
 * White space around the number and between number and unit is allowed. Prefixes
 * k/K, M, G, T, P, E are decimal; Ki, Mi, Gi, Ti, Pi, Ei are binary (bytes and rates
 * only); m, u and n (milli, micro, nano) apply to seconds and watts. A lower-case
 * "b" means bits and is divided by 8 for bytes and bytes/s.
 *
 * @param[in]  text   NUL-terminated text; NULL gives ::HWFIT_EINVAL.
 * @param[in]  unit   The quantity expected.
 * @param[out] value  The value in base units; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK      parsed.
 * @retval HWFIT_EINVAL  @p text or @p value is NULL, or @p unit is not a ::hwfit_unit.
 * @retval HWFIT_EPARSE  not a number, or a unit that does not fit @p unit.
 * @retval HWFIT_EDOM    negative, NaN or infinite.
 * @retval HWFIT_ERANGE  the value overflows a double, or a value written as non-zero
 *                       ("1e-400GB") would round to 0.
 */
HWFIT_API hwfit_status hwfit_units_parse(const char *text, hwfit_unit unit, double *value);

/**
 * @brief Format a quantity for people, e.g. "141.1 GB (131.4 GiB)", "6.5 kW", "1.25 h".
 *
 * Bytes show the decimal and the binary form; rates, watts and FLOP/s show an SI prefix;
 * seconds pick ns, us, ms, s, min, h or d. The text is always NUL-terminated when
 * @p size > 0.
 *
 * @param[in]  value  The value in base units; must be finite (negative values get a sign).
 * @param[in]  unit   The quantity.
 * @param[out] buf    Destination; NULL gives ::HWFIT_EINVAL.
 * @param[in]  size   Size of @p buf in bytes; 48 always suffices.
 * @retval HWFIT_OK        formatted.
 * @retval HWFIT_EINVAL    @p buf is NULL or @p unit is not a ::hwfit_unit.
 * @retval HWFIT_EDOM      @p value is NaN or infinite.
 * @retval HWFIT_EBUFSIZE  @p size too small; @p buf holds a truncated text if @p size > 0.
 */
HWFIT_API hwfit_status hwfit_units_format(double value, hwfit_unit unit, char *buf, size_t size);

/**
 * @brief Format an exact count with thousands separators, e.g. "70,553,706,496".
 * @param[in]  count  Any value.
 * @param[out] buf    Destination; NULL gives ::HWFIT_EINVAL.
 * @param[in]  size   Size of @p buf; 27 always suffices.
 * @retval HWFIT_OK        formatted.
 * @retval HWFIT_EINVAL    @p buf is NULL.
 * @retval HWFIT_EBUFSIZE  @p size too small; @p buf holds a truncated text if @p size > 0.
 */
HWFIT_API hwfit_status hwfit_units_format_count(uint64_t count, char *buf, size_t size);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* HWFIT_UNITS_H */
