/**
 * @file report.h
 * @brief A self-contained HTML report of a node's assessment: its specification, the
 *        findings grouped by topic with their figures, and charts of the results.
 *
 * ::hwfit_report_html writes one HTML5 document that a person can open in any browser,
 * mail or archive: the styles are inline, the charts are inline SVG (chart.h), and it
 * loads nothing (no script, font, image or style sheet from elsewhere). It contains:
 *
 * - a title and a summary (nodes, GPUs, GPU memory; counts of strengths, weaknesses and
 *   notes);
 * - the specification of the node, from the node and ::hwfit_node_evaluate;
 * - the target workloads;
 * - the findings of ::hwfit_assess, grouped by topic in its order, each marked strength,
 *   weakness or note, with its sentence, its rule id and its figures
 *   (::hwfit_figure_format);
 * - charts, each in its topic's section: the memory per card of the first workload on the
 *   layout the VRAM finding names (::hwfit_chart_memory), the all-reduce sweep on the
 *   node's interconnect with, when NCCL's default stages PCIe traffic through host
 *   memory, the same with P2P forced on (::hwfit_chart_collective), the RAID capacity of
 *   the local drives (::hwfit_chart_raid) and the power budget against the PSUs
 *   (::hwfit_chart_power).
 *
 * The findings are the caller's (from ::hwfit_assess with the same node, workloads and
 * options), so that the report shows exactly what the caller printed or stored; the
 * report recomputes only what the charts draw, with the same modules and options.
 *
 * The buffer protocol is that of svg.h: call with a NULL buffer and size 0 to learn the
 * size (::HWFIT_EBUFSIZE with @c *needed set), then again with a buffer that large. The
 * output is written only on ::HWFIT_OK and is deterministic. Only the charts allocate
 * (see chart.h), freeing what they take before they return; ::HWFIT_ENOMEM when that fails.
 */
#ifndef HWFIT_REPORT_H
#define HWFIT_REPORT_H

#include "hwfit/assess.h"
#include "hwfit/node.h"
#include "hwfit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup report HTML report
 *  @brief A node's assessment as one self-contained HTML document. Thread safety: all
 *  functions are reentrant; none keeps state (the charts allocate: see above).
 *  @{ */

/** @brief What the report shows and how. Fill with ::hwfit_report_options_init. */
typedef struct hwfit_report_options {
    /** Title of the document, UTF-8; NULL for "Assessment of <node name>". Default NULL. */
    const char *title;
    /** The options the findings were computed with: the memory chart takes its card
     *  utilization and the all-reduce sweep ends at its message size. Default
     *  ::hwfit_assess_options_init. */
    hwfit_assess_options assess;
    int charts;             /**< 1 to draw the charts, 0 for text only. Default 1. */
    double chart_width_px;  /**< Width of each chart, px (svg.h range). Default 800. */
    double chart_height_px; /**< Height of each chart, px (svg.h range). Default 440. */
} hwfit_report_options;

/**
 * @brief Fill report options with their defaults (see the fields).
 * @param[out] opt The options; NULL is ignored.
 */
HWFIT_API void hwfit_report_options_init(hwfit_report_options *opt);

/**
 * @brief Write the HTML report of a node's assessment.
 *
 * @param[in]  node           The node; NULL gives ::HWFIT_EINVAL.
 * @param[in]  workloads      The workloads the findings were computed for, or NULL when
 *                            @p workload_count is 0.
 * @param[in]  workload_count Workloads, 0 to ::HWFIT_ASSESS_MAX_WORKLOADS.
 * @param[in]  findings       The findings of ::hwfit_assess, or NULL when @p finding_count
 *                            is 0.
 * @param[in]  finding_count  Findings.
 * @param[in]  opt            Options; NULL for ::hwfit_report_options_init's.
 * @param[out] buf            Destination of the NUL-terminated UTF-8 document; may be NULL
 *                            only when @p size is 0. Written only on ::HWFIT_OK.
 * @param[in]  size           Size of @p buf in bytes.
 * @param[out] needed         Bytes the document needs, NUL included; set on ::HWFIT_OK and
 *                            ::HWFIT_EBUFSIZE. May be NULL.
 * @retval HWFIT_OK           written.
 * @retval HWFIT_EINVAL       @p node is NULL; @p workloads or @p findings is NULL with a
 *                            count above 0; a workload has no model; @p buf is NULL with
 *                            @p size > 0; or an enum (of the node, a finding or a
 *                            workload) is out of range.
 * @retval HWFIT_EDOM         the node is invalid (::hwfit_node_check says why), too many
 *                            workloads, a finding names a workload beyond
 *                            @p workload_count, an option is out of range, or a chart's
 *                            inputs are (see chart.h).
 * @retval HWFIT_ENOTFOUND    the node's GPU is not in the catalog.
 * @retval HWFIT_EUNSUPPORTED a PSU efficiency curve is missing, or a workload the memory
 *                            module cannot estimate (full training of quantized weights).
 * @retval HWFIT_ERANGE       a count overflows, or the document would exceed SIZE_MAX bytes.
 * @retval HWFIT_EBUFSIZE     @p size is smaller than @c *needed; @p buf is untouched.
 */
HWFIT_API hwfit_status hwfit_report_html(const hwfit_node *node,
                                         const hwfit_assess_workload *workloads,
                                         size_t workload_count, const hwfit_finding *findings,
                                         size_t finding_count, const hwfit_report_options *opt,
                                         char *buf, size_t size, size_t *needed);

/**
 * @brief The heading of a topic in reports, e.g. "Power supplies" for ::HWFIT_ASSESS_POWER.
 * @param[in] topic Any value; others give "Other".
 * @return A static string; never NULL.
 */
HWFIT_API const char *hwfit_report_topic_title(hwfit_assess_topic topic);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* HWFIT_REPORT_H */
