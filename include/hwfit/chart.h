/**
 * @file chart.h
 * @brief Pictures of hwfit results: per-card memory, collective sweeps, the power budget
 *        and RAID capacity, as SVG documents.
 *
 * Each function takes the inputs of a domain module, runs that module (shard.h,
 * collective.h, power.h, storage.h) and draws its results with the charts of svg.h:
 *
 * | function | draws | svg.h chart |
 * |---|---|---|
 * | ::hwfit_chart_memory | the footprint of each distinct card of a layout (weights, KV cache, activations, gradients, optimizer states, buffers, overhead, free) against the usable memory | stacked bars |
 * | ::hwfit_chart_collective | bus bandwidth, algorithm bandwidth or time against message size for one or more topologies, as nccl-tests sweeps print them, on log axes | lines |
 * | ::hwfit_chart_power | the DC draw of each kind of component and their total against wall power, usable PSU capacity and the headroom limit | budget |
 * | ::hwfit_chart_raid | raw capacity split into usable space, redundancy, ZFS slop and hot spares | budget |
 *
 * Every number drawn comes from the domain module; the charts add no formula of their own
 * beyond sums and differences of its results (free = usable - used; redundancy = raw -
 * usable - slop - spares) and the headroom limit usable / ratio (docs/formulas.md,
 * section "chart").
 *
 * The buffer protocol is that of svg.h: call with a NULL buffer and size 0 to learn the
 * size (::HWFIT_EBUFSIZE with @c *needed set), then again with a buffer that large. The
 * output is written only on ::HWFIT_OK and is deterministic. The chart data live in fixed
 * arrays, whence the maxima below; ::hwfit_chart_memory and ::hwfit_chart_collective
 * allocate theirs (about 18 and 14 KB; the memory chart's shard engine is on the stack) and
 * free them before they return, so that no call needs more than 16 KiB of stack; they
 * give ::HWFIT_ENOMEM when that fails. The power and RAID charts allocate nothing.
 */
#ifndef HWFIT_CHART_H
#define HWFIT_CHART_H

#include "hwfit/collective.h"
#include "hwfit/model.h"
#include "hwfit/power.h"
#include "hwfit/shard.h"
#include "hwfit/status.h"
#include "hwfit/storage.h"
#include "hwfit/svg.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup chart Charts of results
 *  @brief SVG pictures of shard, collective, power and storage results. Thread safety:
 *  all functions are reentrant; none keeps state (see above for what they allocate).
 *  @{ */

/** Most bars of a memory chart: distinct cards (pipeline stages whose cards differ from
 *  the stage before; consecutive identical stages share one bar). */
#define HWFIT_CHART_MAX_BARS 64
/** Most topologies (lines) of a collective chart. */
#define HWFIT_CHART_MAX_SERIES 8
/** Most message sizes of a collective sweep; sizes from 1 B to 1e18 B by factors of 2 (61)
 *  never exceed it. */
#define HWFIT_CHART_MAX_POINTS 64

/** @brief What a collective chart plots against the message size. */
typedef enum hwfit_chart_metric {
    HWFIT_CHART_BUSBW = 0, /**< Bus bandwidth (nccl-tests busbw), bytes/s. */
    HWFIT_CHART_ALGBW = 1, /**< Algorithm bandwidth S / time (nccl-tests algbw), bytes/s. */
    HWFIT_CHART_TIME = 2   /**< Time of one operation, s. */
} hwfit_chart_metric;

/** @brief Title and size of a chart. Fill with ::hwfit_chart_options_init. */
typedef struct hwfit_chart_options {
    /** Chart title, UTF-8; NULL for the chart's own title (which names what is drawn),
     *  "" for none. Default NULL. */
    const char *title;
    double width_px;  /**< Width of the picture, px, in [::HWFIT_SVG_SIZE_MIN_PX,
                           ::HWFIT_SVG_SIZE_MAX_PX]. Default 800. */
    double height_px; /**< Height of the picture, px, same range. Default 480. */
} hwfit_chart_options;

/** @brief A collective sweep to draw. Fill with ::hwfit_chart_collective_init. */
typedef struct hwfit_chart_collective_in {
    size_t series_count; /**< Topologies (lines), 1 to ::HWFIT_CHART_MAX_SERIES. Default 0
                              (must be set). */
    /** @c series_count collectives: operation, topology, ranks, algorithm and protocol of
     *  each line (collective.h); their @c bytes is ignored (the sweep sets it). Default
     *  NULL (must be set). */
    const hwfit_collective_in *series;
    /** @c series_count names (e.g. the GPU), UTF-8, none NULL; or NULL for none. The
     *  legend labels each line with its name, then what the topology is: ranks, nodes and
     *  the path the data takes, e.g. "h100-sxm: 8 ranks, NVLink" or "16 ranks on 2 nodes,
     *  PCIe Gen5 x16, P2P within nodes". Default NULL. */
    const char *const *names;
    /** Smallest message size S, bytes, in [1, 1e18]. Sizes go from here up by a factor of
     *  2 (nccl-tests -f 2) while they do not exceed @c max_bytes. Default 8. */
    double min_bytes;
    double max_bytes;          /**< Largest message size, bytes, in [min_bytes, 1e18].
                                    Default 1 GiB. */
    hwfit_chart_metric metric; /**< What is drawn. Default ::HWFIT_CHART_BUSBW. */
    hwfit_chart_options options; /**< Title and size. Default: ::hwfit_chart_options_init. */
} hwfit_chart_collective_in;

/**
 * @brief Fill chart options with their defaults: own title, 800 x 480 px.
 * @param[out] opt The options; NULL is ignored.
 */
HWFIT_API void hwfit_chart_options_init(hwfit_chart_options *opt);

/**
 * @brief Per-card memory of a workload under a layout, as stacked bars.
 *
 * Runs ::hwfit_shard_estimate and ::hwfit_shard_card_at for every pipeline stage. Each bar
 * is one distinct card: a stage whose cards differ from those of the stage before (stages
 * alike in every byte share a bar). Bars are labelled with the cards they stand for (ranks
 * ordered as Megatron-LM orders them: a stage's cards are consecutive) and the bytes each
 * uses, e.g. "GPU 0-3: 68.37 GB". Segments, bottom up: weights, KV cache,
 * activations, gradients, optimizer states, communication buffers, runtime overhead and
 * free memory (usable - in use, when positive); parts that are zero on every card are
 * left out of the legend. The dashed line is the usable memory per card
 * (hwfit_shard_out::usable_bytes: capacity x utilization - reserve). The y axis is in
 * decimal bytes (GB).
 *
 * @param[in]  model  The model; NULL gives ::HWFIT_EINVAL.
 * @param[in]  in     Workload, layout and card, as for ::hwfit_shard_estimate; NULL gives
 *                    ::HWFIT_EINVAL.
 * @param[in]  opt    Title and size; NULL for ::hwfit_chart_options_init's.
 * @param[out] buf    Destination of the NUL-terminated SVG document; may be NULL only
 *                    when @p size is 0. Written only on ::HWFIT_OK.
 * @param[in]  size   Size of @p buf in bytes.
 * @param[out] needed Bytes the document needs, NUL included; set on ::HWFIT_OK and
 *                    ::HWFIT_EBUFSIZE. May be NULL.
 * @retval HWFIT_OK           written.
 * @retval HWFIT_EINVAL       a pointer is NULL (or @p buf is NULL with @p size > 0), an
 *                            enum is out of range or a dtype unknown.
 * @retval HWFIT_EDOM         an input is out of range (see ::hwfit_shard_estimate), or the
 *                            size of the picture is out of range or leaves no room for the
 *                            plot.
 * @retval HWFIT_ELAYOUT      the layout is invalid (::hwfit_shard_check says why).
 * @retval HWFIT_EUNSUPPORTED as for ::hwfit_shard_estimate.
 * @retval HWFIT_ERANGE       a size overflows, or more than ::HWFIT_CHART_MAX_BARS
 *                            distinct cards.
 * @retval HWFIT_EBUFSIZE     @p size is smaller than @c *needed; @p buf is untouched.
 */
HWFIT_API hwfit_status hwfit_chart_memory(const hwfit_model *model, const hwfit_shard_in *in,
                                          const hwfit_chart_options *opt, char *buf,
                                          size_t size, size_t *needed);

/**
 * @brief Fill a collective chart with its defaults: no series, 8 B to 1 GiB, bus
 *        bandwidth, ::hwfit_chart_options_init.
 * @param[out] in The input; NULL is ignored.
 */
HWFIT_API void hwfit_chart_collective_init(hwfit_chart_collective_in *in);

/**
 * @brief A collective's bus bandwidth, algorithm bandwidth or time against message size,
 *        one line per topology, on log axes (sizes in powers of 2 with binary prefixes,
 *        the metric in powers of 10), as nccl-tests sweeps.
 *
 * Every point is ::hwfit_collective_estimate at that size.
 *
 * @param[in]  in     The sweep; NULL gives ::HWFIT_EINVAL.
 * @param[out] buf    Destination, as for ::hwfit_chart_memory.
 * @param[in]  size   Size of @p buf in bytes.
 * @param[out] needed Bytes needed, NUL included; set on ::HWFIT_OK and ::HWFIT_EBUFSIZE.
 *                    May be NULL.
 * @retval HWFIT_OK           written.
 * @retval HWFIT_EINVAL       @p in, @c series or a name is NULL; @p buf is NULL with
 *                            @p size > 0; the metric or an enum of a collective is out of
 *                            range.
 * @retval HWFIT_EDOM         @c series_count is 0 or above ::HWFIT_CHART_MAX_SERIES; a
 *                            size is out of range; a collective is out of its domain (see
 *                            ::hwfit_collective_estimate); or the picture's size is out of
 *                            range.
 * @retval HWFIT_EUNSUPPORTED a forced algorithm or protocol does not apply to a topology.
 * @retval HWFIT_ERANGE       the document would exceed SIZE_MAX bytes.
 * @retval HWFIT_EBUFSIZE     @p size is smaller than @c *needed; @p buf is untouched.
 */
HWFIT_API hwfit_status hwfit_chart_collective(const hwfit_chart_collective_in *in, char *buf,
                                              size_t size, size_t *needed);

/**
 * @brief The power budget against the power supplies, as horizontal bars.
 *
 * Runs ::hwfit_power_budget_evaluate and ::hwfit_psu_evaluate as `hwfit power` does: the
 * PSUs carry the budget's DC total, and its peak when @p psu has no peak load. One bar
 * per kind of component ("8 x GPU"), then the DC total stacking them; without a budget
 * (NULL or no lines) one bar of hwfit_psu_in::load_w. Reference lines: wall (AC) power,
 * usable PSU capacity (N x rating), the headroom limit (usable / headroom ratio: the
 * largest load the rule allows) and the peak DC load when it exceeds the sustained one.
 * The x axis is in watts.
 *
 * @param[in]  budget The components; NULL (or no lines) to draw @p psu's load alone.
 * @param[in]  psu    The power supplies (its @c load_w is replaced by the budget's total
 *                    when there is a budget); NULL gives ::HWFIT_EINVAL.
 * @param[in]  opt    Title and size; NULL for ::hwfit_chart_options_init's.
 * @param[out] buf    Destination, as for ::hwfit_chart_memory.
 * @param[in]  size   Size of @p buf in bytes.
 * @param[out] needed Bytes needed, NUL included; set on ::HWFIT_OK and ::HWFIT_EBUFSIZE.
 *                    May be NULL.
 * @retval HWFIT_OK           written.
 * @retval HWFIT_EINVAL       @p psu is NULL, @p buf is NULL with @p size > 0, or an enum
 *                            is out of range.
 * @retval HWFIT_EDOM         an input is out of range (see ::hwfit_power_budget_evaluate
 *                            and ::hwfit_psu_evaluate), or the picture's size is.
 * @retval HWFIT_EUNSUPPORTED no efficiency curve for the PSU class and table, or low-line
 *                            input without a low-line rating.
 * @retval HWFIT_ERANGE       the document would exceed SIZE_MAX bytes.
 * @retval HWFIT_EBUFSIZE     @p size is smaller than @c *needed; @p buf is untouched.
 */
HWFIT_API hwfit_status hwfit_chart_power(const hwfit_power_budget_in *budget,
                                         const hwfit_psu_in *psu, const hwfit_chart_options *opt,
                                         char *buf, size_t size, size_t *needed);

/**
 * @brief Raw against usable capacity of a drive array, as horizontal bars.
 *
 * Runs ::hwfit_raid_evaluate. Bars: usable space, redundancy (raw - usable - slop -
 * spares: parity, mirror copies, ZFS padding and dRAID distributed spares), ZFS slop
 * space and hot spares (parts that are zero are left out, except usable space), then the
 * raw capacity stacking them. The x axis is in decimal bytes (TB).
 *
 * @param[in]  in     The array; NULL gives ::HWFIT_EINVAL.
 * @param[in]  opt    Title and size; NULL for ::hwfit_chart_options_init's.
 * @param[out] buf    Destination, as for ::hwfit_chart_memory.
 * @param[in]  size   Size of @p buf in bytes.
 * @param[out] needed Bytes needed, NUL included; set on ::HWFIT_OK and ::HWFIT_EBUFSIZE.
 *                    May be NULL.
 * @retval HWFIT_OK        written.
 * @retval HWFIT_EINVAL    @p in is NULL, @p buf is NULL with @p size > 0, or the level is
 *                         out of range.
 * @retval HWFIT_EDOM      an input is out of range (see ::hwfit_raid_evaluate), or the
 *                         picture's size is.
 * @retval HWFIT_ERANGE    a count overflows, or the document would exceed SIZE_MAX bytes.
 * @retval HWFIT_EBUFSIZE  @p size is smaller than @c *needed; @p buf is untouched.
 */
HWFIT_API hwfit_status hwfit_chart_raid(const hwfit_raid_in *in, const hwfit_chart_options *opt,
                                        char *buf, size_t size, size_t *needed);

/**
 * @brief Name of a metric: "busbw", "algbw", "time".
 * @param[in] metric Any value; others give "unknown".
 * @return A static string; never NULL.
 */
HWFIT_API const char *hwfit_chart_metric_name(hwfit_chart_metric metric);

/**
 * @brief Read a metric from its name (as ::hwfit_chart_metric_name gives).
 * @param[in]  name   Name; NULL gives ::HWFIT_EINVAL.
 * @param[out] metric The metric; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK        found.
 * @retval HWFIT_EINVAL    a pointer is NULL.
 * @retval HWFIT_ENOTFOUND no such metric.
 */
HWFIT_API hwfit_status hwfit_chart_metric_from_name(const char *name, hwfit_chart_metric *metric);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* HWFIT_CHART_H */
