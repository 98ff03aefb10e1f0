/**
 * @file storage.h
 * @brief RAID and ZFS capacity, speed and reliability; time to move data.
 *
 * ::hwfit_raid_evaluate answers, for one array of equal drives: how many bytes it holds
 * (classic RAID 0, 1, 5, 6, 10, 50, 60; ZFS raidz1-3 with the OpenZFS allocation rule
 * and slop space; dRAID), how fast it reads and writes, how long a rebuild takes, how
 * likely an unrecoverable read error (URE) is during that rebuild, its mean time to data
 * loss (MTTDL) and the probability of losing data over a period.
 * ::hwfit_transfer_estimate answers how long it takes to stream a data set or to save or
 * load a checkpoint at a given rate, locally or over NVMe-oF, and whether it fits.
 *
 * Formulas and their sources: docs/formulas.md, section "storage".
 */
#ifndef HWFIT_STORAGE_H
#define HWFIT_STORAGE_H

#include "hwfit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup storage Storage
 *  @brief RAID/ZFS capacity, rebuild, URE and MTTDL; data-transfer times.
 *
 *  Thread safety: every function is pure and reentrant; nothing allocates.
 *  @{ */

/** @brief A rate, size or count that was not given: the results that need it are 0. */
#define HWFIT_STORAGE_UNSET 0

/** @brief Data devices per dRAID redundancy group when none is given (OpenZFS default). */
#define HWFIT_STORAGE_DRAID_DEFAULT_DATA 8

/** @brief The layout of an array: RAID level or ZFS vdev type. */
typedef enum hwfit_raid_level {
    HWFIT_STORAGE_RAID0 = 0,   /**< Striping, no redundancy; at least 2 drives. */
    HWFIT_STORAGE_RAID1 = 1,   /**< One N-way mirror of all member drives; at least 2. */
    HWFIT_STORAGE_RAID10 = 2,  /**< Striped mirrors with hwfit_raid_layout::copies copies
                                    (Linux md "near" layout, which also allows odd counts);
                                    at least @c copies drives. */
    HWFIT_STORAGE_RAID5 = 3,   /**< Single rotating parity; at least 3 drives. */
    HWFIT_STORAGE_RAID6 = 4,   /**< Double parity; at least 4 drives. */
    HWFIT_STORAGE_RAID50 = 5,  /**< Stripe over hwfit_raid_layout::groups RAID 5 groups;
                                    at least 3 drives per group. */
    HWFIT_STORAGE_RAID60 = 6,  /**< Stripe over hwfit_raid_layout::groups RAID 6 groups;
                                    at least 4 drives per group. */
    HWFIT_STORAGE_RAIDZ1 = 7,  /**< ZFS raidz1 vdevs (1 parity); at least 2 drives per vdev. */
    HWFIT_STORAGE_RAIDZ2 = 8,  /**< ZFS raidz2 vdevs (2 parity); at least 3 drives per vdev. */
    HWFIT_STORAGE_RAIDZ3 = 9,  /**< ZFS raidz3 vdevs (3 parity); at least 4 drives per vdev. */
    HWFIT_STORAGE_DRAID1 = 10, /**< ZFS dRAID, 1 parity per group of D data devices. */
    HWFIT_STORAGE_DRAID2 = 11, /**< ZFS dRAID, 2 parity. */
    HWFIT_STORAGE_DRAID3 = 12  /**< ZFS dRAID, 3 parity. */
} hwfit_raid_level;

/**
 * @brief A RAID level with its shape parameters, as ::hwfit_raid_level_parse reads them.
 *
 * Fields a level does not use are ignored.
 */
typedef struct hwfit_raid_layout {
    hwfit_raid_level level; /**< The level. Default ::HWFIT_STORAGE_RAID6. */
    uint64_t copies;        /**< RAID 10 only: copies of each block (>= 2). Default 2. */
    uint64_t groups;        /**< RAID 50/60: number of parity groups (default 2); raidz:
                                 number of vdevs (default 1). 0 means that default. The
                                 member drives must divide evenly into the groups. */
    uint64_t draid_data;    /**< dRAID: data devices D per redundancy group; 0 means the
                                 OpenZFS default, 8, or fewer when N - P - S < 8. */
    uint64_t draid_children; /**< dRAID: expected number of children (a cross-check; it must
                                  equal the member drives), or 0 for no check. */
    uint64_t draid_spares;  /**< dRAID: distributed spares S. Default 0. */
} hwfit_raid_layout;

/**
 * @brief Parse a level name into a layout with default shape parameters.
 *
 * Accepted (case-insensitive): "0", "1", "5", "6", "10", "50", "60", each optionally
 * prefixed "raid" or "raid-" ("raid6", "RAID-6"); "raidz" (= raidz1), "raidz1", "raidz2",
 * "raidz3"; and the OpenZFS dRAID syntax "draid[P][:Dd][:Cc][:Ss]", e.g. "draid2:8d:1s",
 * "draid:4d:11c:1s", with parity P in 1..3 (default 1).
 *
 * @param[in]  text   NUL-terminated name; NULL gives ::HWFIT_EINVAL.
 * @param[out] layout Filled on success (level, copies 2, groups 0, dRAID fields from the
 *                    text or 0); NULL gives ::HWFIT_EINVAL.
 * @retval HWFIT_OK        parsed.
 * @retval HWFIT_EINVAL    @p text or @p layout is NULL.
 * @retval HWFIT_ENOTFOUND not a level hwfit knows.
 * @retval HWFIT_EPARSE    a dRAID option is malformed or repeated, e.g. "draid2:xd".
 * @retval HWFIT_EDOM      a dRAID parity outside 1..3 or a zero data count.
 */
HWFIT_API hwfit_status hwfit_raid_level_parse(const char *text, hwfit_raid_layout *layout);

/**
 * @brief The canonical name of a level: "raid0" ... "raid60", "raidz1".."raidz3",
 *        "draid1".."draid3".
 * @param[in] level Any value; values outside ::hwfit_raid_level give "unknown".
 * @return A static string; never NULL.
 */
HWFIT_API const char *hwfit_raid_level_name(hwfit_raid_level level);

/**
 * @brief The fewest member drives (hot spares not counted) a layout accepts.
 *
 * RAID 0, 1 and raidz1: 2; RAID 10: copies; RAID 5: 3 and RAID 6: 4, per group for RAID
 * 50/60 (groups default 2); raidz-p: p + 1 per vdev; dRAID: D + P + S, with D = 1 when
 * not given. The member count must also divide evenly into groups and vdevs.
 *
 * @param[in]  layout The layout; NULL gives ::HWFIT_EINVAL.
 * @param[out] drives The minimum; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK     computed.
 * @retval HWFIT_EINVAL a pointer is NULL or the level is not a ::hwfit_raid_level.
 * @retval HWFIT_EDOM   RAID 10 with fewer than 2 copies.
 * @retval HWFIT_ERANGE the minimum overflows (absurd group or copy counts).
 */
HWFIT_API hwfit_status hwfit_raid_min_drives(const hwfit_raid_layout *layout, uint64_t *drives);

/**
 * @brief Inputs of ::hwfit_raid_evaluate. Initialise with ::hwfit_raid_init.
 *
 * The drive count and size are required. Rates and IOPS of one drive are optional
 * (::HWFIT_STORAGE_UNSET): the results that need them are then 0.
 */
typedef struct hwfit_raid_in {
    hwfit_raid_layout layout;   /**< Level and shape. Default: RAID 6, see
                                     ::hwfit_raid_layout. */
    uint64_t drives;            /**< All drives of the array, hot spares included
                                     (>= 1). Required; default 0. */
    uint64_t spares;            /**< Dedicated hot spares among @c drives; they hold no
                                     data (dRAID distributed spares are
                                     hwfit_raid_layout::draid_spares). Default 0. */
    double drive_bytes;         /**< Capacity of one drive in bytes, e.g. 15.36e12.
                                     Required (> 0); default 0. */
    double record_bytes;        /**< ZFS only: record size in bytes, a power of two from
                                     512 B to 16 MiB. Default 131072 (128 KiB, the
                                     OpenZFS default recordsize). */
    double sector_bytes;        /**< ZFS only: sector size 2^ashift in bytes, a power of
                                     two from 512 B to 64 KiB. Default 4096 (ashift 12). */
    double fill_fraction;       /**< ZFS only: allocated fraction of the pool, in (0, 1];
                                     a resilver copies only allocated data. Default 1. */
    double drive_read_bytes_per_s;  /**< Sequential read rate of one drive, bytes/s, or
                                         ::HWFIT_STORAGE_UNSET. Default unset. */
    double drive_write_bytes_per_s; /**< Sequential write rate of one drive, bytes/s, or
                                         unset. Default unset. */
    double drive_read_iops;     /**< Random read I/O operations per second of one drive,
                                     or unset. Default unset. */
    double drive_write_iops;    /**< Random write IOPS of one drive, or unset. Default
                                     unset. */
    double read_fraction;       /**< Share of reads in the mixed random workload, in
                                     [0, 1]. Default 0.7 (the common 70/30 mix). */
    double rebuild_bytes_per_s; /**< Rebuild (resilver) rate onto the replacement drive,
                                     bytes/s (> 0). Default 1e9 (1 GB/s; an assumption
                                     for NVMe; Linux md throttles to 200 MB/s per device
                                     unless speed_limit_max is raised). */
    double replace_delay_s;     /**< Time until a failed drive is replaced when the array
                                     has no hot or distributed spare, s (>= 0). Default
                                     86400 (next-day replacement; an assumption). */
    double bit_error_rate;      /**< Unrecoverable read errors per bit read, in [0, 1].
                                     Default 1e-15 (enterprise HDD specification;
                                     enterprise NVMe often states 1e-17). */
    double drive_mttf_s;        /**< Mean time to failure of one drive, s (> 0). Default
                                     2e6 h = 7.2e9 s (Micron 9550 specification). */
    double mission_s;           /**< Period for the probability of data loss, s (>= 0).
                                     Default 1 year (8760 h). */
} hwfit_raid_in;

/**
 * @brief Results of ::hwfit_raid_evaluate. All sizes in bytes (decimal TB = 1e12 B and
 *        binary TiB = 2^40 B are only ways of printing them).
 */
typedef struct hwfit_raid_out {
    hwfit_raid_level level;       /**< The level evaluated. */
    uint64_t drives;              /**< All drives, spares included. */
    uint64_t member_drives;       /**< Drives that hold data: drives - hot spares. */
    uint64_t groups;              /**< Parity groups (RAID 50/60), vdevs (raidz), mirror
                                       sets (RAID 10: member_drives / copies, rounded
                                       down), or 1. */
    uint64_t group_width;         /**< Member drives per group (RAID 10: copies; dRAID:
                                       D + P, the stripe width). */
    uint64_t parity;              /**< Parity drives per group (mirrors: copies - 1). */
    uint64_t draid_data;          /**< dRAID: data devices D used (after the default);
                                       0 for other levels. */
    uint64_t tolerated_failures;  /**< Drive failures the array always survives, whatever
                                       drives fail (worst case). */
    double raw_bytes;             /**< drives x drive_bytes, spares included. */
    double usable_bytes;          /**< Data the array holds: after parity or mirroring,
                                       ZFS padding and slop space, without spares. */
    double space_efficiency;      /**< usable_bytes / raw_bytes, in [0, 1]. */
    double allocation_efficiency; /**< Data bytes per allocated byte of one record: ZFS
                                       psize / asize for record_bytes; classic levels the
                                       data share of a stripe. */
    double slop_bytes;            /**< ZFS slop space reserved by the pool; 0 otherwise. */
    double read_bytes_per_s;      /**< Sequential read of the array; 0 if the drive rate
                                       is unset. */
    double write_bytes_per_s;     /**< Sequential (full-stripe) write; 0 if unset. */
    double read_iops;             /**< Random read IOPS; 0 if unset. */
    double write_iops;            /**< Random write IOPS after the write penalty; 0 if a
                                       drive rate it needs is unset. */
    double mixed_iops;            /**< Random IOPS of the read_fraction mix; 0 if unset. */
    uint64_t write_penalty;       /**< Back-end I/Os per small random write: 1 (RAID 0),
                                       copies (mirrors), 4 (RAID 5/50), 6 (RAID 6/60);
                                       1 for ZFS (copy-on-write full stripes; IOPS follow
                                       the per-vdev rule instead). */
    double rebuild_bytes;         /**< Bytes written to rebuild one failed drive (ZFS:
                                       only allocated data); 0 for RAID 0. */
    double rebuild_s;             /**< Time to rebuild one failed drive, s; 0 for RAID 0. */
    double rebuild_read_bytes;    /**< Bytes read from the surviving drives during that
                                       rebuild. */
    double ure_probability;       /**< Probability of at least one URE while reading
                                       rebuild_read_bytes, in [0, 1]. */
    double ure_loss_probability;  /**< The same, counted only where it loses data: arrays
                                       left without redundancy by one failure (tolerated
                                       failures = 1); 0 otherwise. */
    double mttr_s;                /**< Mean time to repair: rebuild_s plus replace_delay_s
                                       when no spare is present. */
    double mttdl_s;               /**< Mean time to data loss, s (independent exponential
                                       failures; see the caveats in docs/formulas.md). */
    double mttdl_h;               /**< The same in hours, as drive MTTF is usually stated. */
    double loss_probability;      /**< Probability of data loss within mission_s:
                                       1 - exp(-mission_s / mttdl_s). */
    double drive_afr;             /**< Annualised failure rate of one drive from its MTTF:
                                       1 - exp(-8760 h / MTTF). */
} hwfit_raid_out;

/**
 * @brief Fill @p in with the documented defaults (RAID 6, no drives yet).
 * @param[out] in The inputs to initialise; NULL is ignored.
 */
HWFIT_API void hwfit_raid_init(hwfit_raid_in *in);

/**
 * @brief Capacity, throughput, rebuild, URE risk, MTTDL and loss probability of an array.
 *
 * @param[in]  in  Inputs; NULL gives ::HWFIT_EINVAL.
 * @param[out] out Results, written only on success; NULL gives ::HWFIT_EINVAL.
 * @retval HWFIT_OK      computed; every result is finite.
 * @retval HWFIT_EINVAL  @p in or @p out is NULL, or the level is not a ::hwfit_raid_level.
 * @retval HWFIT_EDOM    too few drives for the level, spares leaving no member, drives that
 *                       do not divide into the groups, a dRAID shape that does not fit the
 *                       drives, or a number that is NaN, infinite, negative, zero where it
 *                       must be positive, or out of its documented range.
 * @retval HWFIT_ERANGE  the MTTDL is too large to represent (very wide mirrors), or a result
 *                       overflows a double (a rate or time near 1e-300).
 */
HWFIT_API hwfit_status hwfit_raid_evaluate(const hwfit_raid_in *in, hwfit_raid_out *out);

/**
 * @brief Check the inputs of ::hwfit_raid_evaluate: which field is wrong, and why.
 *
 * Runs the same code as ::hwfit_raid_evaluate on the same inputs without writing results, so it
 * returns exactly the status that ::hwfit_raid_evaluate returns (given a non-NULL output).
 * @param[in]  in      Inputs; NULL gives ::HWFIT_EINVAL (field "in").
 * @param[out] problem The field at fault and the rule it breaks, or cleared when the inputs
 *                     are valid; may be NULL.
 * @return The status of ::hwfit_raid_evaluate for @p in.
 */
HWFIT_API hwfit_status hwfit_raid_validate(const hwfit_raid_in *in, hwfit_problem *problem);

/** @brief How data moves between storage and the host or the GPUs. */
typedef enum hwfit_storage_transport {
    HWFIT_STORAGE_TRANSPORT_LOCAL = 0,       /**< Local drives: efficiency
                                                  hwfit_transfer_in::local_efficiency. */
    HWFIT_STORAGE_TRANSPORT_NVMEOF_ROCE = 1, /**< NVMe over Fabrics on RDMA (RoCE v2):
                                                  hwfit_transfer_in::roce_efficiency. */
    HWFIT_STORAGE_TRANSPORT_NVMEOF_TCP = 2   /**< NVMe over Fabrics on TCP:
                                                  hwfit_transfer_in::tcp_efficiency. */
} hwfit_storage_transport;

/**
 * @brief Parse a transport name: "local", "nvmeof-roce" (also "roce", "rdma"),
 *        "nvmeof-tcp" (also "tcp"); case-insensitive.
 * @param[in]  text      NUL-terminated name; NULL gives ::HWFIT_EINVAL.
 * @param[out] transport The transport; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK        parsed.
 * @retval HWFIT_EINVAL    a pointer is NULL.
 * @retval HWFIT_ENOTFOUND not a transport name.
 */
HWFIT_API hwfit_status hwfit_storage_transport_parse(const char *text,
                                                     hwfit_storage_transport *transport);

/**
 * @brief The canonical name of a transport: "local", "nvmeof-roce", "nvmeof-tcp".
 * @param[in] transport Any value; others give "unknown".
 * @return A static string; never NULL.
 */
HWFIT_API const char *hwfit_storage_transport_name(hwfit_storage_transport transport);

/** @brief Inputs of ::hwfit_transfer_estimate. Initialise with ::hwfit_transfer_init. */
typedef struct hwfit_transfer_in {
    double bytes;                  /**< Bytes to move (a data set, a checkpoint), >= 0.
                                        Default 0. */
    double rate_bytes_per_s;       /**< Rate of the path before protocol efficiency:
                                        the array's read or write rate (local) or the
                                        network line rate of all ports (NVMe-oF), > 0.
                                        Required; default 0. */
    hwfit_storage_transport transport; /**< Which efficiency applies. Default local. */
    double local_efficiency;       /**< Share of the rate achieved locally, (0, 1].
                                        Default 1. */
    double roce_efficiency;        /**< Share of the line rate NVMe/RoCE v2 achieves,
                                        (0, 1]. Default 0.95 (low end of the 0.95-0.98
                                        reported; 4 KiB-MTU RoCE v2 framing alone
                                        allows 0.98). */
    double tcp_efficiency;         /**< Share of the line rate NVMe/TCP achieves, (0, 1].
                                        Default 0.85 (low end of the 0.85-0.95 reported;
                                        host CPU cost dominates at >= 100 Gb/s). */
    double backend_bytes_per_s;    /**< Rate limit of the remote storage itself (a NAS),
                                        or ::HWFIT_STORAGE_UNSET for none. Default unset. */
    double capacity_bytes;         /**< Capacity of the destination for a fit check, or
                                        unset for none. Default unset. */
} hwfit_transfer_in;

/** @brief Results of ::hwfit_transfer_estimate. */
typedef struct hwfit_transfer_out {
    double efficiency;             /**< The efficiency applied, (0, 1]. */
    double effective_bytes_per_s;  /**< min(rate x efficiency, backend rate). */
    double time_s;                 /**< bytes / effective rate, s. */
    int backend_limited;           /**< 1 when the backend rate is the bottleneck. */
    int capacity_checked;          /**< 1 when a capacity was given. */
    int fits;                      /**< 1 when bytes <= capacity (1 if unchecked). */
    double fill_fraction;          /**< bytes / capacity (0 if unchecked). */
} hwfit_transfer_out;

/**
 * @brief Fill @p in with the documented defaults (local, efficiencies as documented).
 * @param[out] in The inputs to initialise; NULL is ignored.
 */
HWFIT_API void hwfit_transfer_init(hwfit_transfer_in *in);

/**
 * @brief Time to move @c bytes at a rate, and whether they fit a capacity.
 *
 * @param[in]  in  Inputs; NULL gives ::HWFIT_EINVAL.
 * @param[out] out Results, written only on success; NULL gives ::HWFIT_EINVAL.
 * @retval HWFIT_OK      computed; every result is finite.
 * @retval HWFIT_EINVAL  @p in or @p out is NULL, or the transport is not a
 *                       ::hwfit_storage_transport.
 * @retval HWFIT_EDOM    a size or rate is NaN, infinite or negative, the rate is zero, or
 *                       an efficiency is outside (0, 1].
 * @retval HWFIT_ERANGE  the time or the fill fraction overflows a double (a rate or a
 *                       capacity near 1e-300).
 */
HWFIT_API hwfit_status hwfit_transfer_estimate(const hwfit_transfer_in *in,
                                               hwfit_transfer_out *out);

/**
 * @brief Check the inputs of ::hwfit_transfer_estimate: which field is wrong, and why.
 *
 * Runs the same code as ::hwfit_transfer_estimate on the same inputs without writing results, so it
 * returns exactly the status that ::hwfit_transfer_estimate returns (given a non-NULL output).
 * @param[in]  in      Inputs; NULL gives ::HWFIT_EINVAL (field "in").
 * @param[out] problem The field at fault and the rule it breaks, or cleared when the inputs
 *                     are valid; may be NULL.
 * @return The status of ::hwfit_transfer_estimate for @p in.
 */
HWFIT_API hwfit_status hwfit_transfer_validate(const hwfit_transfer_in *in,
                                               hwfit_problem *problem);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* HWFIT_STORAGE_H */
