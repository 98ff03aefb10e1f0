/**
 * @file assess.h
 * @brief A server's strengths and weaknesses, with the figures behind each, for a node and
 *        a set of target workloads.
 *
 * ::hwfit_assess evaluates a ::hwfit_node (node.h) with every domain module and writes a
 * list of findings into a caller array: each has a rule id ("psu.redundancy",
 * "vram.serve_llama_3_1_70b_bf16_128k"), a topic, a kind (strength, weakness or
 * information), up to ::HWFIT_FINDING_MAX_FIGURES named figures in SI base units, and one
 * sentence. The topics are those a hardware assessment of a GPU server covers: VRAM and
 * what fits, memory bandwidth and decode speed, tensor throughput, P2P and collective
 * cost, x8 bifurcation, CPU cores per GPU, host RAM, host memory bandwidth and DIMMs per
 * channel, the PCIe lane budget, storage throughput against the data pipeline, RAID
 * capacity and risk, network storage, the network, PSU redundancy and headroom, cooling,
 * energy and cost.
 *
 * Workloads (::hwfit_assess_workload) carry a model (model.h, read by the caller, e.g.
 * with hwfit_hf_config_load()) and a ::hwfit_memory_in that says what runs: serving with
 * a weight and KV format, a context and a batch, or full, LoRA or QLoRA fine-tuning.
 * Reading "serve:llama-3.1-70b:bf16:128K" into a workload is the readers' job
 * (hwfit_assess_workload_parse() in node_spec.h); assess reads no files.
 *
 * Rules of thumb are inputs: those of the node (cores per GPU, RAM to VRAM, the PSU
 * headroom ratio, the cooling thresholds) live in the node, the others in
 * ::hwfit_assess_options.
 *
 * Thread safety: every function is reentrant. Only ::hwfit_assess allocates: its workspace
 * (the figures of every workload, ::hwfit_assess_workspace_size bytes, about 200 KB), freed
 * before it returns. ::hwfit_assess_ws takes that workspace from the caller (zstd's
 * ZSTD_estimateCCtxSize / ZSTD_initStaticCCtx pattern) and allocates nothing.
 */
#ifndef HWFIT_ASSESS_H
#define HWFIT_ASSESS_H

#include "hwfit/memory.h"
#include "hwfit/model.h"
#include "hwfit/node.h"
#include "hwfit/perf.h"
#include "hwfit/shard.h"
#include "hwfit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup assess Assessment
 *  @brief Findings for a node and its target workloads. Thread safety: all functions are
 *  reentrant.
 *  @{ */

/** @brief Most figures one finding carries. */
#define HWFIT_FINDING_MAX_FIGURES 8
/** @brief Size of hwfit_finding::rule, including the NUL. */
#define HWFIT_FINDING_RULE_SIZE 64
/** @brief Size of hwfit_finding::text, including the NUL. */
#define HWFIT_FINDING_TEXT_SIZE 400
/** @brief Size of hwfit_figure::key, including the NUL. */
#define HWFIT_FIGURE_KEY_SIZE 40
/** @brief Size of hwfit_figure::unit, including the NUL. */
#define HWFIT_FIGURE_UNIT_SIZE 12
/** @brief Size of hwfit_assess_workload::label, including the NUL. */
#define HWFIT_WORKLOAD_LABEL_SIZE 64
/** @brief Most workloads one assessment takes. */
#define HWFIT_ASSESS_MAX_WORKLOADS 64

/** @brief What a finding is about. */
typedef enum hwfit_assess_topic {
    HWFIT_ASSESS_VRAM = 0,          /**< GPU memory and what fits in it. */
    HWFIT_ASSESS_BANDWIDTH = 1,     /**< GPU memory bandwidth and decode speed. */
    HWFIT_ASSESS_COMPUTE = 2,       /**< Tensor throughput. */
    HWFIT_ASSESS_INTERCONNECT = 3,  /**< GPU-to-GPU links, P2P and collective cost. */
    HWFIT_ASSESS_BIFURCATION = 4,   /**< Slots split to fewer lanes (x16 to x8). */
    HWFIT_ASSESS_CPU = 5,           /**< CPU cores per GPU and clocks. */
    HWFIT_ASSESS_HOST_RAM = 6,      /**< Host RAM against the GPU memory. */
    HWFIT_ASSESS_HOST_MEMORY = 7,   /**< Host memory bandwidth and DIMMs per channel. */
    HWFIT_ASSESS_PCIE_LANES = 8,    /**< The PCIe lane budget. */
    HWFIT_ASSESS_STORAGE = 9,       /**< Local storage throughput and checkpoints. */
    HWFIT_ASSESS_RAID = 10,         /**< RAID capacity and the risk of data loss. */
    HWFIT_ASSESS_NAS = 11,          /**< Network storage. */
    HWFIT_ASSESS_NETWORK = 12,      /**< The node's network ports. */
    HWFIT_ASSESS_POWER = 13,        /**< Power supplies: redundancy, headroom, efficiency. */
    HWFIT_ASSESS_COOLING = 14,      /**< Heat and cooling. */
    HWFIT_ASSESS_ENERGY = 15,       /**< Energy and cost. */
    HWFIT_ASSESS_TOPIC_COUNT_       /**< Number of topics; not a topic. */
} hwfit_assess_topic;

/** @brief Whether a finding speaks for or against the server. */
typedef enum hwfit_finding_kind {
    HWFIT_FINDING_STRENGTH = 0, /**< The server meets or exceeds what the rule asks. */
    HWFIT_FINDING_WEAKNESS = 1, /**< It falls short, or carries a risk. */
    HWFIT_FINDING_INFO = 2      /**< A figure worth knowing, without a verdict. */
} hwfit_finding_kind;

/** @brief One named figure of a finding. */
typedef struct hwfit_figure {
    char key[HWFIT_FIGURE_KEY_SIZE];   /**< Name with its unit, e.g. "usable_w",
                                            "busbw_bytes_per_s", "dimms_per_channel". */
    double value;                      /**< The value in SI base units (always finite). */
    char unit[HWFIT_FIGURE_UNIT_SIZE]; /**< "B", "B/s", "W", "s", "FLOP/s", "token/s",
                                            "b/s", "Hz", "MT/s", "BTU/h", "m3/s", "CFM", "kWh",
                                            "1" (a count or ratio), or the node's currency
                                            code (money). */
} hwfit_figure;

/** @brief One finding. */
typedef struct hwfit_finding {
    char rule[HWFIT_FINDING_RULE_SIZE]; /**< Rule id, "<topic-ish>.<name>"; per workload
                                             "<rule>.<workload label in snake case>". */
    hwfit_assess_topic topic;     /**< Topic. */
    hwfit_finding_kind kind;      /**< Strength, weakness or information. */
    uint32_t workload;            /**< 1 + index of the workload it is about, or 0. */
    uint32_t figure_count;        /**< Figures in use, 0 to ::HWFIT_FINDING_MAX_FIGURES. */
    hwfit_figure figures[HWFIT_FINDING_MAX_FIGURES]; /**< The figures. */
    char text[HWFIT_FINDING_TEXT_SIZE]; /**< One sentence for people, with the figures. */
} hwfit_finding;

/** @brief A target workload. Fill with ::hwfit_assess_workload_init. */
typedef struct hwfit_assess_workload {
    char label[HWFIT_WORKLOAD_LABEL_SIZE]; /**< For people and rule ids, e.g.
                                                "serve:llama-3.1-70b:bf16:128K"; may be
                                                empty (then "workload<N>"). */
    const hwfit_model *model;     /**< The model; not owned; required. */
    hwfit_memory_in memory;       /**< What runs: mode, formats, context, batch, LoRA
                                       settings (::hwfit_memory_init; see memory.h). For
                                       serving, @c batch sequences of @c context tokens;
                                       for training, @c micro_batch sequences of @c context. */
} hwfit_assess_workload;

/** @brief Rules of thumb and sizes assess uses beyond those of the node. */
typedef struct hwfit_assess_options {
    double pipeline_bytes_per_s;  /**< Read rate a training data pipeline needs from local
                                       storage, bytes/s (> 0). Default 7e9 (the "7 GB/s
                                       non-blocking pipeline threshold" of the seed
                                       documents; no primary source: set your own). */
    double allreduce_bytes;       /**< Message size of the all-reduce figures, bytes (> 0).
                                       Default 1 GiB (large enough for the bandwidth to
                                       dominate, as nccl-tests' plateau). */
    double gpu_utilization;       /**< Share of each card a job may fill, (0, 1]. Default
                                       0.9 (vLLM's gpu_memory_utilization). */
    uint64_t checkpoints_to_keep; /**< Checkpoints of a job the local drives must hold at
                                       once, 1 to 1e6. Default 2 (the last good one while
                                       the next is written). */
    double max_time_per_output_token_s; /**< Serving: slowest acceptable decode step, s
                                       (> 0). Default 0.05 (20 tokens/s per sequence, a
                                       common interactive serving target; an assumption). */
    double max_comm_share;        /**< Training: largest share of the step time that exposed
                                       communication may take before the interconnect counts
                                       as a weakness, [0, 1]. Default 0.25 (an assumption). */
} hwfit_assess_options;

/**
 * @brief Reset a workload: empty label, no model, ::hwfit_memory_init (serving bf16 with
 *        a bf16 KV cache, batch 1, context 4096).
 * @param[out] workload The workload; NULL is ignored.
 */
HWFIT_API void hwfit_assess_workload_init(hwfit_assess_workload *workload);

/**
 * @brief Fill the options with their documented defaults.
 * @param[out] options The options; NULL is ignored.
 */
HWFIT_API void hwfit_assess_options_init(hwfit_assess_options *options);

/**
 * @brief The most findings ::hwfit_assess writes for a number of workloads: size the
 *        caller's array with it.
 * @param[in] workloads Workloads, 0 to ::HWFIT_ASSESS_MAX_WORKLOADS (more are counted as
 *                      that many).
 * @return The bound; never 0.
 */
HWFIT_API size_t hwfit_assess_max_findings(size_t workloads);

/**
 * @brief Assess a node for a set of workloads.
 *
 * Findings are written in topic order, node-wide findings before per-workload ones of the
 * same topic. Every figure is computed by the domain modules from the node and the
 * workloads.
 *
 * @param[in]  node           The node; NULL gives ::HWFIT_EINVAL.
 * @param[in]  workloads      Workloads, or NULL when @p workload_count is 0.
 * @param[in]  workload_count Workloads, 0 to ::HWFIT_ASSESS_MAX_WORKLOADS.
 * @param[in]  options        Options, or NULL for ::hwfit_assess_options_init's.
 * @param[out] findings       Caller array of @p capacity findings; NULL gives
 *                            ::HWFIT_EINVAL. Written only on success.
 * @param[in]  capacity       Findings the array holds; ::hwfit_assess_max_findings
 *                            (workload_count) always suffices.
 * @param[out] count          Findings written; NULL gives ::HWFIT_EINVAL. Written only
 *                            on success.
 * @retval HWFIT_OK           assessed.
 * @retval HWFIT_EINVAL       a required pointer is NULL, a workload has no model, or an
 *                            enum is out of range.
 * @retval HWFIT_EDOM         too many workloads, an option out of range, a node that
 *                            ::hwfit_node_check refuses, or a workload the memory module
 *                            refuses.
 * @retval HWFIT_ENOTFOUND    the node's GPU is not in the catalog.
 * @retval HWFIT_EUNSUPPORTED a PSU efficiency curve is missing, or full training of
 *                            quantized weights.
 * @retval HWFIT_ERANGE       a size overflows.
 * @retval HWFIT_EBUFSIZE     @p capacity is too small; nothing is written.
 * @retval HWFIT_ENOMEM       the workspace could not be allocated (see ::hwfit_assess_ws).
 */
HWFIT_API hwfit_status hwfit_assess(const hwfit_node *node,
                                    const hwfit_assess_workload *workloads,
                                    size_t workload_count, const hwfit_assess_options *options,
                                    hwfit_finding *findings, size_t capacity, size_t *count);

/**
 * @brief Bytes of workspace ::hwfit_assess_ws needs (for any number of workloads up to
 *        ::HWFIT_ASSESS_MAX_WORKLOADS). Constant for a build of the library.
 * @return The size; never 0.
 */
HWFIT_API size_t hwfit_assess_workspace_size(void);

/**
 * @brief ::hwfit_assess with a caller's workspace: the same findings, no allocation, and
 *        a small stack (for worker threads with small stacks).
 * @param[in]  node           As ::hwfit_assess.
 * @param[in]  workloads      As ::hwfit_assess.
 * @param[in]  workload_count As ::hwfit_assess.
 * @param[in]  options        As ::hwfit_assess.
 * @param[out] findings       As ::hwfit_assess.
 * @param[in]  capacity       As ::hwfit_assess.
 * @param[out] count          As ::hwfit_assess.
 * @param[in]  workspace      At least ::hwfit_assess_workspace_size bytes, aligned as
 *                            malloc aligns (max_align_t); its contents on entry do not
 *                            matter and are scratch afterwards. NULL gives ::HWFIT_EINVAL.
 * @param[in]  workspace_size Bytes at @p workspace; smaller than
 *                            ::hwfit_assess_workspace_size gives ::HWFIT_EINVAL.
 * @return As ::hwfit_assess (never ::HWFIT_ENOMEM), and ::HWFIT_EINVAL for a workspace
 *         that is NULL, too small or misaligned.
 */
HWFIT_API hwfit_status hwfit_assess_ws(const hwfit_node *node,
                                       const hwfit_assess_workload *workloads,
                                       size_t workload_count,
                                       const hwfit_assess_options *options,
                                       hwfit_finding *findings, size_t capacity, size_t *count,
                                       void *workspace, size_t workspace_size);

/**
 * @brief Name of a topic: "vram", "bandwidth", "compute", "interconnect", "bifurcation",
 *        "cpu", "host-ram", "host-memory", "pcie-lanes", "storage", "raid", "nas",
 *        "network", "power", "cooling", "energy".
 * @param[in] topic Any value; others give "unknown".
 * @return A static string; never NULL.
 */
HWFIT_API const char *hwfit_assess_topic_name(hwfit_assess_topic topic);

/**
 * @brief Name of a kind: "strength", "weakness", "info".
 * @param[in] kind Any value; others give "unknown".
 * @return A static string; never NULL.
 */
HWFIT_API const char *hwfit_finding_kind_name(hwfit_finding_kind kind);

/**
 * @brief A finding's figure by key.
 * @param[in]  finding The finding; NULL gives ::HWFIT_EINVAL.
 * @param[in]  key     The key; NULL gives ::HWFIT_EINVAL.
 * @param[out] value   The value; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK        found.
 * @retval HWFIT_EINVAL    a pointer is NULL.
 * @retval HWFIT_ENOTFOUND the finding has no such figure.
 */
HWFIT_API hwfit_status hwfit_finding_figure(const hwfit_finding *finding, const char *key,
                                            double *value);

/**
 * @brief Format a figure for people: sizes as "768 GiB (824.6 GB)"-style text, rates,
 *        powers and times with SI prefixes, ratios and counts as plain numbers, money with
 *        its currency.
 * @param[in]  figure The figure; NULL gives ::HWFIT_EINVAL.
 * @param[out] buf    Destination; NULL gives ::HWFIT_EINVAL.
 * @param[in]  size   Size of @p buf; 64 always suffices.
 * @retval HWFIT_OK        formatted.
 * @retval HWFIT_EINVAL    a pointer is NULL.
 * @retval HWFIT_EDOM      the value is not finite.
 * @retval HWFIT_EBUFSIZE  @p size is too small; @p buf holds a truncated text if size > 0.
 */
HWFIT_API hwfit_status hwfit_figure_format(const hwfit_figure *figure, char *buf, size_t size);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* HWFIT_ASSESS_H */
