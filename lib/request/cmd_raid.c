/* cmd_raid.c - `raid`: usable capacity, speed, rebuild time, URE risk and MTTDL of a RAID or
 * ZFS array; its chart draws raw against usable capacity. */
#include <stdlib.h>
#include <string.h>

#include "hwfit/chart.h"
#include "hwfit/storage.h"
#include "request_internal.h"

enum {
    O_LEVEL, O_DRIVES, O_DRIVE_SIZE, O_SPARES, O_GROUPS, O_COPIES, O_RECORDSIZE, O_SECTOR,
    O_FILL, O_READ_RATE, O_WRITE_RATE, O_READ_IOPS, O_WRITE_IOPS, O_READ_FRACTION,
    O_REBUILD_RATE, O_REPLACE_DELAY, O_BER, O_MTTF, O_MISSION
};
#define MAX_DRIVES 1000000.0
static const hwfit_option options[] = {
    [O_LEVEL] = {.name = "level", .kind = HWFIT_OPTION_TEXT, .metavar = "LEVEL",
                 .flags = HWFIT_OPTION_REQUIRED, .example = "6",
                 .help = "0, 1, 5, 6, 10, 50, 60, raidz1-3 or draid[P][:Dd][:Cc][:Ss]"},
    [O_DRIVES] = {.name = "drives", .kind = HWFIT_OPTION_COUNT, .metavar = "N", .min = 1,
                  .max = MAX_DRIVES, .flags = HWFIT_OPTION_REQUIRED, .example = "4",
                  .help = "drives in the array, hot spares included"},
    [O_DRIVE_SIZE] = {.name = "drive-size", .kind = HWFIT_OPTION_QUANTITY,
                      .unit = HWFIT_UNIT_BYTES, .metavar = "SIZE", .min = 0, .max = 1e18,
                      .flags = HWFIT_OPTION_REQUIRED, .example = "15.36TB",
                      .help = "capacity of one drive"},
    [O_SPARES] = {.name = "spares", .kind = HWFIT_OPTION_COUNT, .metavar = "N",
                  .default_text = "0", .min = 0, .max = MAX_DRIVES,
                  .help = "dedicated hot spares"},
    [O_GROUPS] = {.name = "groups", .kind = HWFIT_OPTION_COUNT, .metavar = "N", .min = 1,
                  .max = 1.8446744073709552e19, .default_help = "2 for RAID 50/60, 1 for raidz",
                  .help = "RAID 50/60 parity groups or raidz vdevs"},
    [O_COPIES] = {.name = "copies", .kind = HWFIT_OPTION_COUNT, .metavar = "N",
                  .default_text = "2", .min = 2, .max = 1.8446744073709552e19,
                  .help = "RAID 10 copies of each block"},
    [O_RECORDSIZE] = {.name = "recordsize", .kind = HWFIT_OPTION_QUANTITY,
                      .unit = HWFIT_UNIT_BYTES, .metavar = "SIZE", .default_text = "128KiB",
                      .min = 512, .max = 16777216, .help = "ZFS record size (a power of two)"},
    [O_SECTOR] = {.name = "sector", .kind = HWFIT_OPTION_QUANTITY, .unit = HWFIT_UNIT_BYTES,
                  .metavar = "SIZE", .default_text = "4KiB", .min = 512, .max = 65536,
                  .help = "ZFS sector size 2^ashift (a power of two)"},
    [O_FILL] = {.name = "fill", .kind = HWFIT_OPTION_RATIO, .metavar = "X", .default_text = "1",
                .min = 0, .max = 1,
                .help = "ZFS: allocated share of the pool, which a resilver copies"},
    [O_READ_RATE] = {.name = "read-rate", .kind = HWFIT_OPTION_QUANTITY,
                     .unit = HWFIT_UNIT_BYTES_PER_S, .metavar = "RATE", .min = 0, .max = 1e15,
                     .default_help = "not given",
                     .help = "sequential read of one drive, e.g. 14GB/s"},
    [O_WRITE_RATE] = {.name = "write-rate", .kind = HWFIT_OPTION_QUANTITY,
                      .unit = HWFIT_UNIT_BYTES_PER_S, .metavar = "RATE", .min = 0, .max = 1e15,
                      .default_help = "not given",
                      .help = "sequential write of one drive"},
    [O_READ_IOPS] = {.name = "read-iops", .kind = HWFIT_OPTION_RATIO, .metavar = "N", .min = 0,
                     .max = 1e12, .default_help = "not given",
                     .help = "random read IOPS of one drive"},
    [O_WRITE_IOPS] = {.name = "write-iops", .kind = HWFIT_OPTION_RATIO, .metavar = "N",
                      .min = 0, .max = 1e12, .default_help = "not given",
                      .help = "random write IOPS of one drive"},
    [O_READ_FRACTION] = {.name = "read-fraction", .kind = HWFIT_OPTION_RATIO, .metavar = "X",
                         .default_text = "0.7", .min = 0, .max = 1,
                         .help = "share of reads in the mixed random workload"},
    [O_REBUILD_RATE] = {.name = "rebuild-rate", .kind = HWFIT_OPTION_QUANTITY,
                        .unit = HWFIT_UNIT_BYTES_PER_S, .metavar = "RATE",
                        .default_text = "1GB/s", .min = 0, .max = 1e15,
                        .help = "rebuild (resilver) rate onto the replacement drive"},
    [O_REPLACE_DELAY] = {.name = "replace-delay", .kind = HWFIT_OPTION_QUANTITY,
                         .unit = HWFIT_UNIT_SECONDS, .metavar = "TIME", .default_text = "24h",
                         .min = 0, .max = 1e15,
                         .help = "wait for a replacement drive when there is no spare"},
    [O_BER] = {.name = "ber", .kind = HWFIT_OPTION_RATIO, .metavar = "X",
               .default_text = "1e-15", .min = 0, .max = 1,
               .help = "unrecoverable read errors per bit read"},
    [O_MTTF] = {.name = "mttf", .kind = HWFIT_OPTION_QUANTITY, .unit = HWFIT_UNIT_SECONDS,
                .metavar = "TIME", .default_text = "2e6h", .min = 0, .max = 1e15,
                .help = "mean time to failure of one drive"},
    [O_MISSION] = {.name = "mission", .kind = HWFIT_OPTION_QUANTITY, .unit = HWFIT_UNIT_SECONDS,
                   .metavar = "TIME", .default_text = "1y", .min = 0, .max = 1e15,
                   .help = "period for the probability of data loss"},
};

static int is_zfs(hwfit_raid_level l) { return l >= HWFIT_STORAGE_RAIDZ1; }
static int is_raidz(hwfit_raid_level l) {
    return l == HWFIT_STORAGE_RAIDZ1 || l == HWFIT_STORAGE_RAIDZ2 || l == HWFIT_STORAGE_RAIDZ3;
}
static int is_draid(hwfit_raid_level l) { return l >= HWFIT_STORAGE_DRAID1; }

/* An option given that the array does not use: refused with the reason. */
static hwfit_status not_applicable(hwfit_request *r, const hwfit_raid_in *in) {
    hwfit_raid_level l = in->layout.level;
    const char *level = hwfit_raid_level_name(l);
    if (hwfit__req_given(r, &options[O_GROUPS]) && l != HWFIT_STORAGE_RAID50 &&
        l != HWFIT_STORAGE_RAID60 && !is_raidz(l))
        return hwfit__req_fail(r, &options[O_GROUPS], HWFIT_EINVAL,
                               "applies only to RAID 50, RAID 60 and raidz, not %s", level);
    if (hwfit__req_given(r, &options[O_COPIES]) && l != HWFIT_STORAGE_RAID10)
        return hwfit__req_fail(r, &options[O_COPIES], HWFIT_EINVAL,
                               "applies only to RAID 10, not %s", level);
    static const int zfs_only[] = {O_RECORDSIZE, O_SECTOR, O_FILL};
    for (size_t i = 0; i < HWFIT__COUNT_OF(zfs_only); i++)
        if (hwfit__req_given(r, &options[zfs_only[i]]) && !is_zfs(l))
            return hwfit__req_fail(r, &options[zfs_only[i]], HWFIT_EINVAL,
                                   "applies only to ZFS (raidz, draid), not %s", level);
    if (hwfit__req_given(r, &options[O_READ_FRACTION]) &&
        !(hwfit__req_given(r, &options[O_READ_IOPS]) &&
          hwfit__req_given(r, &options[O_WRITE_IOPS])))
        return hwfit__req_fail(r, &options[O_READ_FRACTION], HWFIT_EINVAL,
                               "applies only to the mixed IOPS, which need read-iops and "
                               "write-iops");
    if (l == HWFIT_STORAGE_RAID0) {
        static const int redundant_only[] = {O_REBUILD_RATE, O_REPLACE_DELAY, O_BER};
        for (size_t i = 0; i < HWFIT__COUNT_OF(redundant_only); i++)
            if (hwfit__req_given(r, &options[redundant_only[i]]))
                return hwfit__req_fail(r, &options[redundant_only[i]], HWFIT_EINVAL,
                                       "applies only to a level with redundancy: RAID 0 has "
                                       "no rebuild");
    }
    if (hwfit__req_given(r, &options[O_REPLACE_DELAY]) &&
        (in->spares > 0 || (is_draid(l) && in->layout.draid_spares > 0)))
        return hwfit__req_fail(r, &options[O_REPLACE_DELAY], HWFIT_EINVAL,
                               "applies only to an array without spares: a spare starts the "
                               "rebuild at once");
    return HWFIT_OK;
}

/* The chart of the array into the result (SVG). */
static hwfit_status chart(hwfit_request *r, const hwfit_raid_in *in) {
    size_t need = 0;
    hwfit_status st = hwfit_chart_raid(in, NULL, NULL, 0, &need);
    if (st == HWFIT_EBUFSIZE) {
        char *svg = malloc(need);
        st = svg == NULL ? HWFIT_ENOMEM : hwfit_chart_raid(in, NULL, svg, need, NULL);
        if (st == HWFIT_OK) hwfit__text_put(hwfit__req_text_out(r), svg, need - 1);
        free(svg);
    }
    return st == HWFIT_OK ? HWFIT_OK : hwfit__req_fail_status(r, "chart", st);
}

static hwfit_status run(hwfit_request *r, hwfit__out *o, void *state) {
    (void)state;
    hwfit_raid_in in;
    hwfit_raid_init(&in);
    const char *level = hwfit__req_text(r, &options[O_LEVEL]);
    hwfit_status st = hwfit_raid_level_parse(level, &in.layout);
    if (st != HWFIT_OK) {
#define LEVELS "0, 1, 5, 6, 10, 50, 60, raidz1-3, or draid[P][:Dd][:Cc][:Ss] with parity P 1-3 " \
               "and non-zero counts"
        const hwfit_option *opt = &options[O_LEVEL];
        if (st == HWFIT_ENOTFOUND)
            return hwfit__req_fail(r, opt, st, "unknown value '%s' (expected " LEVELS ")", level);
        if (st == HWFIT_EPARSE)
            return hwfit__req_fail(r, opt, st, "cannot read '%s' (expected " LEVELS ")", level);
        return hwfit__req_fail(r, opt, st, "'%s' is out of range (expected " LEVELS ")", level);
#undef LEVELS
    }
    in.drives = hwfit__req_u64(r, &options[O_DRIVES]);
    in.drive_bytes = hwfit__req_double(r, &options[O_DRIVE_SIZE]);
    in.spares = hwfit__req_u64(r, &options[O_SPARES]);
    if (hwfit__req_given(r, &options[O_GROUPS]))
        in.layout.groups = hwfit__req_u64(r, &options[O_GROUPS]);
    if (hwfit__req_given(r, &options[O_COPIES]))
        in.layout.copies = hwfit__req_u64(r, &options[O_COPIES]);
    in.record_bytes = hwfit__req_double(r, &options[O_RECORDSIZE]);
    in.sector_bytes = hwfit__req_double(r, &options[O_SECTOR]);
    in.fill_fraction = hwfit__req_double(r, &options[O_FILL]);
    in.drive_read_bytes_per_s = hwfit__req_double(r, &options[O_READ_RATE]);
    in.drive_write_bytes_per_s = hwfit__req_double(r, &options[O_WRITE_RATE]);
    in.drive_read_iops = hwfit__req_double(r, &options[O_READ_IOPS]);
    in.drive_write_iops = hwfit__req_double(r, &options[O_WRITE_IOPS]);
    in.read_fraction = hwfit__req_double(r, &options[O_READ_FRACTION]);
    in.rebuild_bytes_per_s = hwfit__req_double(r, &options[O_REBUILD_RATE]);
    in.replace_delay_s = hwfit__req_double(r, &options[O_REPLACE_DELAY]);
    in.bit_error_rate = hwfit__req_double(r, &options[O_BER]);
    in.drive_mttf_s = hwfit__req_double(r, &options[O_MTTF]);
    in.mission_s = hwfit__req_double(r, &options[O_MISSION]);

    hwfit_raid_out a;
    if (hwfit_raid_evaluate(&in, &a) != HWFIT_OK) {
        hwfit_problem why;
        st = hwfit_raid_validate(&in, &why);
        uint64_t min_drives;
        if (strcmp(why.field, "drives") == 0 && in.spares < in.drives &&
            hwfit_raid_min_drives(&in.layout, &min_drives) == HWFIT_OK &&
            in.drives - in.spares < min_drives)
            return hwfit__req_fail(r, &options[O_DRIVES], st,
                                   "%s needs at least %llu drives besides hot spares, got %llu",
                                   hwfit_raid_level_name(in.layout.level),
                                   (unsigned long long)min_drives,
                                   (unsigned long long)(in.drives - in.spares));
        /* The MTTDL out of a double's range comes from every input together: name the
         * mttf only when it was given, else the drive size or count that was (issue 21:
         * a refusal names what the user gave). */
        if (strcmp(why.field, "drive_mttf_s") == 0 && !hwfit__req_given(r, &options[O_MTTF]) &&
            !hwfit__req_given(r, &options[O_REBUILD_RATE])) {
            int size_given = hwfit__req_given(r, &options[O_DRIVE_SIZE]);
            return hwfit__req_fail(r, &options[size_given ? O_DRIVE_SIZE : O_DRIVES], st,
                                   "with the default mttf and rebuild-rate gives a mean time "
                                   "to data loss too small for a double (give mttf or "
                                   "rebuild-rate)");
        }
        static const char *const aliases[] = {
            "drive_bytes", "drive-size", "record_bytes", "recordsize", "sector_bytes", "sector",
            "fill_fraction", "fill", "drive_read_bytes_per_s", "read-rate",
            "drive_write_bytes_per_s", "write-rate", "drive_read_iops", "read-iops",
            "drive_write_iops", "write-iops", "rebuild_bytes_per_s", "rebuild-rate",
            "replace_delay_s", "replace-delay", "bit_error_rate", "ber", "drive_mttf_s", "mttf",
            "mission_s", "mission", "layout.draid_children", "level", "layout.draid_data",
            "level", "layout.draid_spares", "level", NULL};
        return hwfit__req_fail_problem(r, aliases, &why);
    }
    st = not_applicable(r, &in);
    if (st != HWFIT_OK) return st;
    if (hwfit__req_format(r) == HWFIT_FORMAT_SVG) return chart(r, &in);

    char usable_text[64];
    st = hwfit_units_format(a.usable_bytes, HWFIT_UNIT_BYTES, usable_text, sizeof usable_text);
    if (st != HWFIT_OK) return hwfit__req_fail_status(r, "usable", st);
    int json = hwfit__out_json(o);
    hwfit__out_str(o, "level", "level", hwfit_raid_level_name(a.level));
    hwfit__out_u64(o, "drives", "drives", a.drives);
    hwfit__out_u64(o, "member_drives", "drives holding data", a.member_drives);
    hwfit__out_u64(o, "spares", "hot spares", in.spares);
    hwfit__out_u64(o, "groups", "groups (vdevs, mirror sets)", a.groups);
    hwfit__out_u64(o, "group_width", "drives per group", a.group_width);
    hwfit__out_u64(o, "parity", "parity per group", a.parity);
    hwfit__out_u64(o, "draid_data", "dRAID data per group", a.draid_data);
    hwfit__out_u64(o, "draid_spares", "dRAID distributed spares", in.layout.draid_spares);
    hwfit__out_u64(o, "tolerated_failures", "failures always survived", a.tolerated_failures);
    hwfit__out_qty(o, "raw_bytes", "raw", a.raw_bytes, HWFIT_UNIT_BYTES);
    hwfit__out_qty(o, "usable_bytes", "usable", a.usable_bytes, HWFIT_UNIT_BYTES);
    hwfit__out_str(o, "usable_text", "usable (TB and TiB)", usable_text);
    hwfit__out_pct(o, "space_efficiency", "usable / raw", a.space_efficiency);
    hwfit__out_pct(o, "allocation_efficiency", "data per allocated byte",
                   a.allocation_efficiency);
    hwfit__out_qty(o, "slop_bytes", "ZFS slop space", a.slop_bytes, HWFIT_UNIT_BYTES);
    /* Rates are 0 when the drive's rate was not given: JSON keeps them, tables skip them. */
    if (json || a.read_bytes_per_s > 0)
        hwfit__out_qty(o, "read_bytes_per_s", "sequential read", a.read_bytes_per_s,
                       HWFIT_UNIT_BYTES_PER_S);
    if (json || a.write_bytes_per_s > 0)
        hwfit__out_qty(o, "write_bytes_per_s", "sequential write", a.write_bytes_per_s,
                       HWFIT_UNIT_BYTES_PER_S);
    if (json || a.read_iops > 0) hwfit__out_num(o, "read_iops", "random read IOPS", a.read_iops);
    if (json || a.write_iops > 0)
        hwfit__out_num(o, "write_iops", "random write IOPS", a.write_iops);
    if (json || a.mixed_iops > 0) hwfit__out_num(o, "mixed_iops", "mixed IOPS", a.mixed_iops);
    hwfit__out_u64(o, "write_penalty", "write penalty", a.write_penalty);
    hwfit__out_qty(o, "rebuild_bytes", "rebuild writes", a.rebuild_bytes, HWFIT_UNIT_BYTES);
    hwfit__out_qty(o, "rebuild_read_bytes", "rebuild reads", a.rebuild_read_bytes,
                   HWFIT_UNIT_BYTES);
    hwfit__out_qty(o, "rebuild_s", "rebuild time", a.rebuild_s, HWFIT_UNIT_SECONDS);
    hwfit__out_num(o, "bit_error_rate", "bit error rate", in.bit_error_rate);
    hwfit__out_pct(o, "ure_probability", "P(URE during rebuild)", a.ure_probability);
    hwfit__out_pct(o, "ure_loss_probability", "P(URE loses data)", a.ure_loss_probability);
    hwfit__out_qty(o, "mttr_s", "MTTR", a.mttr_s, HWFIT_UNIT_SECONDS);
    hwfit__out_qty(o, "mttdl_s", "MTTDL", a.mttdl_s, HWFIT_UNIT_SECONDS);
    hwfit__out_num(o, "mttdl_h", "MTTDL in hours", a.mttdl_h);
    hwfit__out_qty(o, "mission_s", "period", in.mission_s, HWFIT_UNIT_SECONDS);
    hwfit__out_pct(o, "loss_probability", "P(data loss in period)", a.loss_probability);
    hwfit__out_pct(o, "drive_afr", "drive AFR", a.drive_afr);
    return HWFIT_OK;
}

const hwfit__command hwfit__cmd_raid = {
    .pub = {.name = "raid",
            .summary = "Usable capacity, speed, rebuild time, URE risk and MTTDL of a drive "
                       "array.",
            .details = "Sizes print in TB and TiB. MTTDL assumes independent exponential "
                       "failures and underestimates correlated and latent failures (see "
                       "docs/formulas.md). Time to stream a data set or save a checkpoint: "
                       "hwfit transfer. The chart draws raw against usable capacity.",
            .formats = 1u << HWFIT_FORMAT_JSON | 1u << HWFIT_FORMAT_TEXT |
                       1u << HWFIT_FORMAT_SVG},
    .sets = {HWFIT__SET(options)},
    .run = run,
};
