/* raid.c - `hwfit raid`: capacity, speed, rebuild, URE risk and MTTDL of a RAID/ZFS array;
 * --svg draws raw against usable capacity. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cmd_raid(int argc, char **argv) {
    hwfit_raid_in in;
    hwfit_raid_init(&in);
    const char *level = NULL, *svg_path = NULL;
    uint64_t groups = 0, copies = 0;
    int seen_groups = 0, seen_copies = 0, seen_drives = 0, seen_size = 0;
    const cli_opt opts[] = {
        {"level", CLI_STRING, &level, "LEVEL",
         "0, 1, 5, 6, 10, 50, 60, raidz1-3 or draid[P][:Dd][:Cc][:Ss] (required)", 0, NULL, NULL},
        {"drives", CLI_U64, &in.drives, "N", "drives in the array, hot spares included (required)",
         0, NULL, &seen_drives},
        {"drive-size", CLI_QUANTITY, &in.drive_bytes, "SIZE", "capacity of one drive (required)",
         HWFIT_UNIT_BYTES, NULL, &seen_size},
        {"spares", CLI_U64, &in.spares, "N", "dedicated hot spares (default 0)", 0, NULL, NULL},
        {"groups", CLI_U64, &groups, "N", "RAID 50/60 parity groups (2) or raidz vdevs (1)", 0,
         NULL, &seen_groups},
        {"copies", CLI_U64, &copies, "N", "RAID 10 copies of each block (default 2)", 0, NULL,
         &seen_copies},
        {"recordsize", CLI_QUANTITY, &in.record_bytes, "SIZE", "ZFS record size (default 128KiB)",
         HWFIT_UNIT_BYTES, NULL, NULL},
        {"sector", CLI_QUANTITY, &in.sector_bytes, "SIZE", "ZFS sector size 2^ashift (default 4KiB)",
         HWFIT_UNIT_BYTES, NULL, NULL},
        {"fill", CLI_DOUBLE, &in.fill_fraction, "X",
         "ZFS: allocated share of the pool, for the resilver (default 1)", 0, NULL, NULL},
        {"read-rate", CLI_QUANTITY, &in.drive_read_bytes_per_s, "RATE",
         "sequential read of one drive, e.g. 14GB/s", HWFIT_UNIT_BYTES_PER_S, NULL, NULL},
        {"write-rate", CLI_QUANTITY, &in.drive_write_bytes_per_s, "RATE",
         "sequential write of one drive", HWFIT_UNIT_BYTES_PER_S, NULL, NULL},
        {"read-iops", CLI_DOUBLE, &in.drive_read_iops, "N", "random read IOPS of one drive", 0,
         NULL, NULL},
        {"write-iops", CLI_DOUBLE, &in.drive_write_iops, "N", "random write IOPS of one drive", 0,
         NULL, NULL},
        {"read-fraction", CLI_DOUBLE, &in.read_fraction, "X",
         "share of reads in the mixed workload (default 0.7)", 0, NULL, NULL},
        {"rebuild-rate", CLI_QUANTITY, &in.rebuild_bytes_per_s, "RATE",
         "rebuild rate (default 1GB/s)", HWFIT_UNIT_BYTES_PER_S, NULL, NULL},
        {"replace-delay", CLI_QUANTITY, &in.replace_delay_s, "TIME",
         "wait for a replacement drive without spares (default 24h)", HWFIT_UNIT_SECONDS, NULL,
         NULL},
        {"ber", CLI_DOUBLE, &in.bit_error_rate, "X",
         "unrecoverable read errors per bit (default 1e-15)", 0, NULL, NULL},
        {"mttf", CLI_QUANTITY, &in.drive_mttf_s, "TIME", "drive MTTF (default 2e6h)",
         HWFIT_UNIT_SECONDS, NULL, NULL},
        {"mission", CLI_QUANTITY, &in.mission_s, "TIME",
         "period for the loss probability (default 1y)", HWFIT_UNIT_SECONDS, NULL, NULL},
        {"svg", CLI_STRING, &svg_path, "FILE", "also draw raw against usable capacity as an SVG chart",
         0, NULL, NULL},
    };
    const cli_spec spec = {
        "raid", "Usable capacity, speed, rebuild time, URE risk and MTTDL of a drive array.",
        "--level LEVEL --drives N --drive-size SIZE [options]",
        "Sizes print in TB and TiB. MTTDL assumes independent exponential failures and\n"
        "underestimates correlated and latent failures (see docs/formulas.md). Time to\n"
        "stream a data set or save a checkpoint: hwfit transfer.",
        opts, (int)(sizeof opts / sizeof opts[0]), 0, NULL};
    cli_args args;
    int rc = cli_parse(&spec, argc, argv, &args);
    if (rc != 0) return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
    if (level == NULL) return cli_fail("raid", "--level is required, e.g. --level 6");
    if (!seen_drives) return cli_fail("raid", "--drives is required, e.g. --drives 4");
    if (!seen_size)
        return cli_fail("raid", "--drive-size is required, e.g. --drive-size 15.36TB");

    hwfit_status st = hwfit_raid_level_parse(level, &in.layout);
    if (st != HWFIT_OK)
        return cli_fail_value("raid", "--level", level, st,
                              "0, 1, 5, 6, 10, 50, 60, raidz1-3, or draid[P][:Dd][:Cc][:Ss] with "
                              "parity P 1-3 and non-zero counts");
    if (seen_groups) in.layout.groups = groups;
    if (seen_copies) in.layout.copies = copies;
    hwfit_raid_out r;
    if (hwfit_raid_evaluate(&in, &r) != HWFIT_OK) {
        hwfit_problem why;
        (void)hwfit_raid_validate(&in, &why);
        uint64_t min_drives;
        if (strcmp(why.field, "drives") == 0 && in.spares < in.drives &&
            hwfit_raid_min_drives(&in.layout, &min_drives) == HWFIT_OK &&
            in.drives - in.spares < min_drives)
            return cli_fail("raid", "%s needs at least %llu drives besides hot spares, got %llu",
                            hwfit_raid_level_name(in.layout.level),
                            (unsigned long long)min_drives,
                            (unsigned long long)(in.drives - in.spares));
        static const char *const aliases[] = {
            "drive_bytes", "--drive-size", "record_bytes", "--recordsize", "sector_bytes",
            "--sector", "fill_fraction", "--fill", "drive_read_bytes_per_s", "--read-rate",
            "drive_write_bytes_per_s", "--write-rate", "drive_read_iops", "--read-iops",
            "drive_write_iops", "--write-iops", "rebuild_bytes_per_s", "--rebuild-rate",
            "replace_delay_s", "--replace-delay", "bit_error_rate", "--ber", "drive_mttf_s",
            "--mttf", "mission_s", "--mission", "layout.draid_children", "--level's :Cc children",
            NULL};
        return cli_fail_problem(&spec, aliases, &why);
    }
    char usable_text[64];
    st = hwfit_units_format(r.usable_bytes, HWFIT_UNIT_BYTES, usable_text, sizeof usable_text);
    if (st != HWFIT_OK) return cli_fail_status("raid", "usable", st);
    if (svg_path != NULL) {
        size_t need = 0;
        st = hwfit_chart_raid(&in, NULL, NULL, 0, &need);
        char *svg = st == HWFIT_EBUFSIZE ? malloc(need) : NULL;
        if (svg != NULL) st = hwfit_chart_raid(&in, NULL, svg, need, NULL);
        if (st != HWFIT_OK) {
            free(svg);
            return cli_fail_status("raid", "--svg", st == HWFIT_EBUFSIZE ? HWFIT_ENOMEM : st);
        }
        rc = cli_write_file("raid", "svg", svg_path, svg);
        free(svg);
        if (rc != 0) return rc;
    }

    cli_out o;
    out_begin(&o, args.json, NULL);
    out_str(&o, "level", "level", hwfit_raid_level_name(r.level));
    out_u64(&o, "drives", "drives", r.drives);
    out_u64(&o, "member_drives", "drives holding data", r.member_drives);
    out_u64(&o, "spares", "hot spares", in.spares);
    out_u64(&o, "groups", "groups (vdevs, mirror sets)", r.groups);
    out_u64(&o, "group_width", "drives per group", r.group_width);
    out_u64(&o, "parity", "parity per group", r.parity);
    out_u64(&o, "draid_data", "dRAID data per group", r.draid_data);
    out_u64(&o, "draid_spares", "dRAID distributed spares", in.layout.draid_spares);
    out_u64(&o, "tolerated_failures", "failures always survived", r.tolerated_failures);
    out_qty(&o, "raw_bytes", "raw", r.raw_bytes, HWFIT_UNIT_BYTES);
    out_qty(&o, "usable_bytes", "usable", r.usable_bytes, HWFIT_UNIT_BYTES);
    out_str(&o, "usable_text", "usable (TB and TiB)", usable_text);
    out_num(&o, "space_efficiency", "usable / raw", r.space_efficiency);
    out_num(&o, "allocation_efficiency", "data per allocated byte", r.allocation_efficiency);
    out_qty(&o, "slop_bytes", "ZFS slop space", r.slop_bytes, HWFIT_UNIT_BYTES);
    /* Rates are 0 when the drive's rate was not given: JSON keeps them, tables skip them. */
    if (args.json || r.read_bytes_per_s > 0)
        out_qty(&o, "read_bytes_per_s", "sequential read", r.read_bytes_per_s,
                HWFIT_UNIT_BYTES_PER_S);
    if (args.json || r.write_bytes_per_s > 0)
        out_qty(&o, "write_bytes_per_s", "sequential write", r.write_bytes_per_s,
                HWFIT_UNIT_BYTES_PER_S);
    if (args.json || r.read_iops > 0) out_num(&o, "read_iops", "random read IOPS", r.read_iops);
    if (args.json || r.write_iops > 0) out_num(&o, "write_iops", "random write IOPS", r.write_iops);
    if (args.json || r.mixed_iops > 0) out_num(&o, "mixed_iops", "mixed IOPS", r.mixed_iops);
    out_u64(&o, "write_penalty", "write penalty", r.write_penalty);
    out_qty(&o, "rebuild_bytes", "rebuild writes", r.rebuild_bytes, HWFIT_UNIT_BYTES);
    out_qty(&o, "rebuild_read_bytes", "rebuild reads", r.rebuild_read_bytes, HWFIT_UNIT_BYTES);
    out_qty(&o, "rebuild_s", "rebuild time", r.rebuild_s, HWFIT_UNIT_SECONDS);
    out_num(&o, "bit_error_rate", "bit error rate", in.bit_error_rate);
    out_num(&o, "ure_probability", "P(URE during rebuild)", r.ure_probability);
    out_num(&o, "ure_loss_probability", "P(URE loses data)", r.ure_loss_probability);
    out_qty(&o, "mttr_s", "MTTR", r.mttr_s, HWFIT_UNIT_SECONDS);
    out_qty(&o, "mttdl_s", "MTTDL", r.mttdl_s, HWFIT_UNIT_SECONDS);
    out_num(&o, "mttdl_h", "MTTDL in hours", r.mttdl_h);
    out_qty(&o, "mission_s", "period", in.mission_s, HWFIT_UNIT_SECONDS);
    out_num(&o, "loss_probability", "P(data loss in period)", r.loss_probability);
    out_num(&o, "drive_afr", "drive AFR", r.drive_afr);
    out_end(&o);
    return CLI_EXIT_OK;
}
