/*
 * chart_internal.h - the data each chart of lib/chart.c draws, built by the same helpers
 * the public functions use, so that tests can check the numbers without parsing SVG.
 * Never installed; not API.
 */
#ifndef HWFIT_CHART_INTERNAL_H
#define HWFIT_CHART_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "hwfit/chart.h"
#include "hwfit/model.h"
#include "hwfit/power.h"
#include "hwfit/shard.h"
#include "hwfit/status.h"
#include "hwfit/storage.h"

#define HWFIT__CHART_LABEL_SIZE 128
#define HWFIT__CHART_TITLE_SIZE 192
/* Parts of a card's memory, in stacking order: weights, KV cache, activations, gradients,
 * optimizer states, communication buffers, runtime overhead, free. */
#define HWFIT__CHART_MEMORY_PARTS 8
#define HWFIT__CHART_FREE_PART 7
/* Reference lines of the power chart: usable capacity, headroom limit, wall power, peak. */
#define HWFIT__CHART_POWER_REFS 4
/* Bars of the RAID chart: usable, redundancy, slop, hot spares. */
#define HWFIT__CHART_RAID_PARTS 4

/* A memory chart: bar b stands for stages first_stage[b]..last_stage[b], whose cards are
 * alike; values[b * segment_count + s] is part part[s] of that card, in bytes. */
typedef struct hwfit__chart_memory {
    hwfit_shard_out shard;    /* the estimate of the whole layout */
    size_t bar_count;
    uint32_t first_stage[HWFIT_CHART_MAX_BARS];
    uint32_t last_stage[HWFIT_CHART_MAX_BARS];
    uint64_t used_bytes[HWFIT_CHART_MAX_BARS]; /* hwfit_shard_card::total_bytes */
    char bar_labels[HWFIT_CHART_MAX_BARS][HWFIT__CHART_LABEL_SIZE];
    size_t segment_count;     /* parts that are not zero on every card */
    size_t part[HWFIT__CHART_MEMORY_PARTS];
    double values[HWFIT_CHART_MAX_BARS * HWFIT__CHART_MEMORY_PARTS];
    double usable_bytes;      /* the capacity line */
    char title[HWFIT__CHART_TITLE_SIZE];
    char x_label[HWFIT__CHART_LABEL_SIZE];
    double parts[HWFIT_CHART_MAX_BARS][HWFIT__CHART_MEMORY_PARTS]; /* scratch: every part of
                                                  each bar's card (4 KB: not on the stack) */
} hwfit__chart_memory;

/* A collective sweep: point i of series s is at bytes[i]. */
typedef struct hwfit__chart_collective {
    size_t series_count, point_count;
    double bytes[HWFIT_CHART_MAX_POINTS];
    double time_s[HWFIT_CHART_MAX_SERIES][HWFIT_CHART_MAX_POINTS];
    double algbw_bytes_per_s[HWFIT_CHART_MAX_SERIES][HWFIT_CHART_MAX_POINTS];
    double busbw_bytes_per_s[HWFIT_CHART_MAX_SERIES][HWFIT_CHART_MAX_POINTS];
    char labels[HWFIT_CHART_MAX_SERIES][HWFIT__CHART_LABEL_SIZE];
    char title[HWFIT__CHART_TITLE_SIZE];
} hwfit__chart_collective;

/* A power chart: bar b is kind[b] of the budget (or the PSU load alone, kind -1). */
typedef struct hwfit__chart_power {
    int has_budget;
    hwfit_power_budget_out budget;
    hwfit_psu_in psu_in;      /* with the budget's load filled */
    hwfit_psu_out psu;
    size_t bar_count;
    int kind[HWFIT_POWER_COMPONENT_KINDS];
    char bar_labels[HWFIT_POWER_COMPONENT_KINDS][HWFIT__CHART_LABEL_SIZE];
    double values[HWFIT_POWER_COMPONENT_KINDS];
    uint32_t colors[HWFIT_POWER_COMPONENT_KINDS];
    size_t reference_count;
    char reference_labels[HWFIT__CHART_POWER_REFS][HWFIT__CHART_LABEL_SIZE];
    double reference_values[HWFIT__CHART_POWER_REFS];
    char title[HWFIT__CHART_TITLE_SIZE];
} hwfit__chart_power;

/* A RAID chart: bar b is part part[b] (0 usable, 1 redundancy, 2 slop, 3 hot spares). */
typedef struct hwfit__chart_raid {
    hwfit_raid_out raid;
    size_t bar_count;
    int part[HWFIT__CHART_RAID_PARTS];
    char bar_labels[HWFIT__CHART_RAID_PARTS][HWFIT__CHART_LABEL_SIZE];
    double values[HWFIT__CHART_RAID_PARTS];
    char total_label[HWFIT__CHART_LABEL_SIZE];
    char title[HWFIT__CHART_TITLE_SIZE];
} hwfit__chart_raid;

/* Each builder runs the domain module and fills *out (only on HWFIT_OK), with the same
 * statuses as the public function short of the SVG ones. opt may be NULL. */
hwfit_status hwfit__chart_memory_data(const hwfit_model *model, const hwfit_shard_in *in,
                                      const hwfit_chart_options *opt, hwfit__chart_memory *out);
hwfit_status hwfit__chart_collective_data(const hwfit_chart_collective_in *in,
                                          hwfit__chart_collective *out);
hwfit_status hwfit__chart_power_data(const hwfit_power_budget_in *budget,
                                     const hwfit_psu_in *psu, const hwfit_chart_options *opt,
                                     hwfit__chart_power *out);
hwfit_status hwfit__chart_raid_data(const hwfit_raid_in *in, const hwfit_chart_options *opt,
                                    hwfit__chart_raid *out);

#endif /* HWFIT_CHART_INTERNAL_H */
