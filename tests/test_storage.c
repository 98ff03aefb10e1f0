/* Storage: RAID/ZFS capacity, rates, rebuild, URE, MTTDL; transfer times.
 *
 * Reference values are derived by hand from the formulas cited in lib/storage.c and
 * docs/formulas.md; where /work/shared/reference/infrastructure.md printed a worked value,
 * the comment says so. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "hwfit.h"
#include "base/internal.h"

/* Relative tolerance 1e-12: these values go through a handful of multiplications and one
 * expm1, so only rounding (a few ulp) separates the code from the hand formula. */
#define REL 1e-12
#define ASSERT_NEAR(got, want, rel)                                                       \
    cr_assert(fabs((got) - (want)) <= (rel) * fabs(want) + 1e-300, "got %.17g want %.17g", \
              (double)(got), (double)(want))

#define TB 1e12
#define GB 1e9
#define HOUR 3600.0

static hwfit_raid_in array(hwfit_raid_level level, uint64_t drives, double size) {
    hwfit_raid_in in;
    hwfit_raid_init(&in);
    in.layout.level = level;
    in.drives = drives;
    in.drive_bytes = size;
    return in;
}

static hwfit_raid_out eval(const hwfit_raid_in *in) {
    hwfit_raid_out out;
    memset(&out, 0x5a, sizeof out);
    hwfit_status st = hwfit_raid_evaluate(in, &out);
    cr_assert_eq(st, HWFIT_OK, "%s", hwfit_status_name(st));
    return out;
}

/* ---- parsing --------------------------------------------------------------------------- */

static hwfit_raid_layout parse_ok(const char *text) {
    hwfit_raid_layout l;
    memset(&l, 0x5a, sizeof l);
    hwfit_status st = hwfit_raid_level_parse(text, &l);
    cr_assert_eq(st, HWFIT_OK, "'%s': %s", text, hwfit_status_name(st));
    return l;
}

Test(storage, parses_level_names_in_every_spelling) {
    cr_assert_eq(parse_ok("6").level, HWFIT_STORAGE_RAID6);
    cr_assert_eq(parse_ok("raid6").level, HWFIT_STORAGE_RAID6);
    cr_assert_eq(parse_ok("RAID-6").level, HWFIT_STORAGE_RAID6);
    cr_assert_eq(parse_ok("0").level, HWFIT_STORAGE_RAID0);
    cr_assert_eq(parse_ok("raid1").level, HWFIT_STORAGE_RAID1);
    cr_assert_eq(parse_ok("5").level, HWFIT_STORAGE_RAID5);
    cr_assert_eq(parse_ok("raid10").level, HWFIT_STORAGE_RAID10);
    cr_assert_eq(parse_ok("50").level, HWFIT_STORAGE_RAID50);
    cr_assert_eq(parse_ok("Raid60").level, HWFIT_STORAGE_RAID60);
    cr_assert_eq(parse_ok("raidz").level, HWFIT_STORAGE_RAIDZ1);
    cr_assert_eq(parse_ok("raidz2").level, HWFIT_STORAGE_RAIDZ2);
    cr_assert_eq(parse_ok("RAIDZ3").level, HWFIT_STORAGE_RAIDZ3);
    hwfit_raid_layout l = parse_ok("raid10");
    cr_assert_eq(l.copies, 2);
    cr_assert_eq(l.groups, 0);
}

Test(storage, parses_the_openzfs_draid_syntax) {
    hwfit_raid_layout l = parse_ok("draid2:8d:1s");
    cr_assert_eq(l.level, HWFIT_STORAGE_DRAID2);
    cr_assert_eq(l.draid_data, 8);
    cr_assert_eq(l.draid_spares, 1);
    cr_assert_eq(l.draid_children, 0);
    /* The OpenZFS "dRAID" page's example: draid:4d:1s:11c = draid1:4d:11c:1s. */
    l = parse_ok("draid:4d:1s:11c");
    cr_assert_eq(l.level, HWFIT_STORAGE_DRAID1);
    cr_assert_eq(l.draid_data, 4);
    cr_assert_eq(l.draid_children, 11);
    cr_assert_eq(l.draid_spares, 1);
    l = parse_ok("draid3");
    cr_assert_eq(l.level, HWFIT_STORAGE_DRAID3);
    cr_assert_eq(l.draid_data, 0);
}

Test(storage, level_names_round_trip) {
    for (int i = 0; i <= (int)HWFIT_STORAGE_DRAID3; i++) {
        const char *name = hwfit_raid_level_name((hwfit_raid_level)i);
        cr_assert_eq(parse_ok(name).level, (hwfit_raid_level)i, "%s", name);
    }
    cr_assert_str_eq(hwfit_raid_level_name((hwfit_raid_level)99), "unknown");
    cr_assert_str_eq(hwfit_raid_level_name(HWFIT_STORAGE_RAIDZ2), "raidz2");
}

Test(storage, refuses_unknown_and_malformed_level_names) {
    static const struct {
        const char *text;
        hwfit_status want;
    } cases[] = {
        {"raid7", HWFIT_ENOTFOUND},   {"", HWFIT_ENOTFOUND},       {"raidz4", HWFIT_ENOTFOUND},
        {"raid", HWFIT_ENOTFOUND},    {"mirror", HWFIT_ENOTFOUND}, {"draid2:xd", HWFIT_EPARSE},
        {"draid2:8", HWFIT_EPARSE},   {"draid2:8d:8d", HWFIT_EPARSE}, {"draid2;8d", HWFIT_EPARSE},
        {"draid4", HWFIT_EDOM},       {"draid0", HWFIT_EDOM},      {"draid2:0d", HWFIT_EDOM},
        {"draid2:0c", HWFIT_EDOM},    {"draid99999999999999999999999", HWFIT_EPARSE},
        {"raid6raid6raid6raid6raid6raid6raid6raid6raid6raid6raid6raid6raid6", HWFIT_ENOTFOUND},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hwfit_raid_layout l;
        memset(&l, 0x5a, sizeof l);
        hwfit_raid_layout before = l;
        hwfit_status st = hwfit_raid_level_parse(cases[i].text, &l);
        cr_assert_eq(st, cases[i].want, "'%s': %s", cases[i].text, hwfit_status_name(st));
        cr_assert(memcmp(&l, &before, sizeof l) == 0, "'%s' wrote the output", cases[i].text);
    }
    hwfit_raid_layout l;
    cr_assert_eq(hwfit_raid_level_parse(NULL, &l), HWFIT_EINVAL);
    cr_assert_eq(hwfit_raid_level_parse("6", NULL), HWFIT_EINVAL);
}

/* ---- capacity -------------------------------------------------------------------------- */

Test(storage, raid6_of_four_15tb_drives_holds_two_drives_of_data) {
    /* Seed server, claim DE-29: 4 x 15.36 TB in RAID 6. (N - 2) x C = 30.72 TB. */
    hwfit_raid_in in = array(HWFIT_STORAGE_RAID6, 4, 15.36 * TB);
    hwfit_raid_out o = eval(&in);
    ASSERT_NEAR(o.raw_bytes, 61.44 * TB, REL);
    ASSERT_NEAR(o.usable_bytes, 30.72 * TB, REL);
    ASSERT_NEAR(o.space_efficiency, 0.5, REL);
    cr_assert_eq(o.tolerated_failures, 2);
    cr_assert_eq(o.member_drives, 4);
    cr_assert_eq(o.groups, 1);
    cr_assert_eq(o.write_penalty, 6);
    cr_assert_eq(o.slop_bytes, 0.0);
    /* 30.72e12 B / 2^40 = 27.939677... TiB. */
    ASSERT_NEAR(o.usable_bytes / HWFIT_TEBI, 27.939677238464355, 1e-12);
}

Test(storage, classic_levels_follow_the_capacity_table) {
    const double c = 10 * TB;
    struct {
        hwfit_raid_level level;
        uint64_t drives, groups, copies;
        double data_drives;
        uint64_t tolerated;
    } cases[] = {
        {HWFIT_STORAGE_RAID0, 4, 0, 2, 4, 0},   {HWFIT_STORAGE_RAID1, 2, 0, 2, 1, 1},
        {HWFIT_STORAGE_RAID1, 3, 0, 2, 1, 2},   {HWFIT_STORAGE_RAID10, 4, 0, 2, 2, 1},
        {HWFIT_STORAGE_RAID10, 5, 0, 2, 2.5, 1}, /* md near layout with an odd count */
        {HWFIT_STORAGE_RAID10, 6, 0, 3, 2, 2},  {HWFIT_STORAGE_RAID5, 4, 0, 2, 3, 1},
        {HWFIT_STORAGE_RAID6, 8, 0, 2, 6, 2},   {HWFIT_STORAGE_RAID50, 6, 0, 2, 4, 1},
        {HWFIT_STORAGE_RAID50, 12, 3, 2, 9, 1}, {HWFIT_STORAGE_RAID60, 8, 0, 2, 4, 2},
        {HWFIT_STORAGE_RAID60, 12, 2, 2, 8, 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hwfit_raid_in in = array(cases[i].level, cases[i].drives, c);
        in.layout.groups = cases[i].groups;
        in.layout.copies = cases[i].copies;
        hwfit_raid_out o = eval(&in);
        ASSERT_NEAR(o.usable_bytes, cases[i].data_drives * c, REL);
        cr_assert_eq(o.tolerated_failures, cases[i].tolerated, "case %zu", i);
        cr_assert(o.usable_bytes <= o.raw_bytes);
    }
}

Test(storage, hot_spares_hold_no_data_and_skip_the_replacement_wait) {
    hwfit_raid_in in = array(HWFIT_STORAGE_RAID6, 5, 10 * TB);
    in.spares = 1;
    hwfit_raid_out o = eval(&in);
    ASSERT_NEAR(o.raw_bytes, 50 * TB, REL);
    ASSERT_NEAR(o.usable_bytes, 20 * TB, REL);
    cr_assert_eq(o.member_drives, 4);
    /* With a spare the rebuild starts at once: MTTR = rebuild time only. */
    ASSERT_NEAR(o.mttr_s, o.rebuild_s, REL);
    in.spares = 0;
    in.drives = 4;
    hwfit_raid_out without = eval(&in);
    ASSERT_NEAR(without.mttr_s, without.rebuild_s + 86400.0, REL);
}

Test(storage, raidz_allocation_follows_vdev_raidz_asize) {
    /* Hand evaluation of vdev_raidz_asize at ashift 12 (4 KiB sectors):
     * raidz1 4-wide, 128 KiB: 32 sectors + 1 x ceil(32/3) = 43 -> roundup(2) = 44: 32/44.
     * raidz2 6-wide, 128 KiB: 32 + 2 x ceil(32/4) = 48 -> roundup(3) = 48: 2/3.
     * raidz2 4-wide, 128 KiB: 32 + 2 x 16 = 64 -> roundup(3) = 66: 32/66.
     * raidz1 3-wide, 4 KiB: 1 + 1 = 2: 50 %, "the same as a mirror" (OpenZFS RAIDZ docs).
     * raidz1 3-wide, 128 KiB: 32 + 16 = 48: 2/3 (OpenZFS docs: 66 %).
     * These also match infrastructure.md's table (0.727, 0.667, 0.485). */
    struct {
        hwfit_raid_level level;
        uint64_t width;
        double record, eff;
    } cases[] = {
        {HWFIT_STORAGE_RAIDZ1, 4, 131072, 32.0 / 44.0}, {HWFIT_STORAGE_RAIDZ2, 6, 131072, 2.0 / 3.0},
        {HWFIT_STORAGE_RAIDZ2, 4, 131072, 32.0 / 66.0}, {HWFIT_STORAGE_RAIDZ1, 3, 4096, 0.5},
        {HWFIT_STORAGE_RAIDZ1, 3, 131072, 2.0 / 3.0},
        /* raidz3 8-wide, 1 MiB: 256 + 3 x ceil(256/5) = 256 + 156 = 412 -> roundup(4) = 412. */
        {HWFIT_STORAGE_RAIDZ3, 8, 1048576, 256.0 / 412.0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hwfit_raid_in in = array(cases[i].level, cases[i].width, 10 * TB);
        in.record_bytes = cases[i].record;
        hwfit_raid_out o = eval(&in);
        ASSERT_NEAR(o.allocation_efficiency, cases[i].eff, REL);
    }
}

Test(storage, zfs_pools_keep_slop_space_back) {
    /* raidz2 6 x 10 TB at 128 KiB: data space 6 x 10 TB x 2/3 = 40 TB; slop =
     * min(40 TB / 32, 128 GiB) = 128 GiB (spa_get_slop_space). */
    hwfit_raid_in in = array(HWFIT_STORAGE_RAIDZ2, 6, 10 * TB);
    hwfit_raid_out o = eval(&in);
    ASSERT_NEAR(o.slop_bytes, 128.0 * HWFIT_GIBI, REL);
    ASSERT_NEAR(o.usable_bytes, 40 * TB - 128.0 * HWFIT_GIBI, REL);
    /* Small pool: raidz1 3 x 1 GiB: space 2 GiB; 1/32 = 64 MiB is below the 128 MiB floor. */
    in = array(HWFIT_STORAGE_RAIDZ1, 3, HWFIT_GIBI);
    o = eval(&in);
    ASSERT_NEAR(o.slop_bytes, 128.0 * HWFIT_MEBI, REL);
    /* Tiny pool: raidz1 2 x 128 MiB at 128 KiB is 50 % efficient: space 128 MiB, and the
     * floor is capped at half the pool: slop = 64 MiB. */
    in = array(HWFIT_STORAGE_RAIDZ1, 2, 128.0 * HWFIT_MEBI);
    o = eval(&in);
    ASSERT_NEAR(o.slop_bytes, 64.0 * HWFIT_MEBI, REL);
    ASSERT_NEAR(o.usable_bytes, 64.0 * HWFIT_MEBI, REL);
}

Test(storage, raidz_vdevs_stripe_and_multiply_iops) {
    hwfit_raid_in in = array(HWFIT_STORAGE_RAIDZ2, 12, 10 * TB);
    in.layout.groups = 2;
    in.drive_read_iops = 1000;
    in.drive_write_iops = 1000;
    hwfit_raid_out o = eval(&in);
    cr_assert_eq(o.groups, 2);
    cr_assert_eq(o.group_width, 6);
    /* 2 vdevs x 6 x 10 TB x 2/3 - 128 GiB. */
    ASSERT_NEAR(o.usable_bytes, 80 * TB - 128.0 * HWFIT_GIBI, REL);
    /* "One RAIDZ vdev has the IOPS of one slowest disk" (OpenZFS RAIDZ docs). */
    ASSERT_NEAR(o.read_iops, 2000.0, REL);
    ASSERT_NEAR(o.write_iops, 2000.0, REL);
}

Test(storage, draid_uses_fixed_stripe_width) {
    /* draid1:4d:11c:1s (OpenZFS "dRAID" example), 1 TB drives, 128 KiB records:
     * rows = ceil(32 / 4) = 8, asize = 8 x (4 + 1) sectors: efficiency 32/40 = 0.8;
     * space = (11 - 1) x 1 TB x 0.8 = 8 TB; slop 128 GiB. */
    hwfit_raid_in in = array(HWFIT_STORAGE_DRAID1, 11, 1 * TB);
    in.layout.draid_data = 4;
    in.layout.draid_children = 11;
    in.layout.draid_spares = 1;
    in.drive_read_iops = 1000;
    in.drive_write_iops = 1000;
    hwfit_raid_out o = eval(&in);
    ASSERT_NEAR(o.allocation_efficiency, 0.8, REL);
    ASSERT_NEAR(o.usable_bytes, 8 * TB - 128.0 * HWFIT_GIBI, REL);
    cr_assert_eq(o.group_width, 5);
    cr_assert_eq(o.draid_data, 4);
    cr_assert_eq(o.tolerated_failures, 1);
    /* IOPS ~ floor((N - S)/(D + P)) x one drive = floor(10/5) x 1000. */
    ASSERT_NEAR(o.read_iops, 2000.0, REL);
    /* Sequential resilver to a distributed spare scales with N/(D + P) = 11/5. */
    ASSERT_NEAR(o.rebuild_s, 1 * TB / (1e9 * 11.0 / 5.0), REL);
    /* A 4 KiB record still takes a whole row of 5 sectors: 20 % efficiency. */
    in.record_bytes = 4096;
    o = eval(&in);
    ASSERT_NEAR(o.allocation_efficiency, 0.2, REL);
}

Test(storage, draid_data_defaults_to_eight_or_what_fits) {
    hwfit_raid_in in = array(HWFIT_STORAGE_DRAID2, 24, 1 * TB);
    cr_assert_eq(eval(&in).draid_data, 8);
    /* N - P - S = 6 - 2 - 0 = 4 < 8, so D = 4. */
    in = array(HWFIT_STORAGE_DRAID2, 6, 1 * TB);
    cr_assert_eq(eval(&in).draid_data, 4);
}

/* ---- speed ---------------------------------------------------------------------------- */

Test(storage, sequential_rates_count_data_drives_for_writes) {
    /* 4 Gen5 NVMe at 14 GB/s read and 10 GB/s write (Micron 9550; infrastructure.md 6.1):
     * every drive reads: 56 GB/s; full-stripe writes carry (N - p) drives of data. */
    struct {
        hwfit_raid_level level;
        double read, write;
    } cases[] = {
        {HWFIT_STORAGE_RAID0, 56 * GB, 40 * GB},
        {HWFIT_STORAGE_RAID5, 56 * GB, 30 * GB},
        {HWFIT_STORAGE_RAID6, 56 * GB, 20 * GB},
        {HWFIT_STORAGE_RAID10, 56 * GB, 20 * GB},
        {HWFIT_STORAGE_RAID1, 56 * GB, 10 * GB},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hwfit_raid_in in = array(cases[i].level, 4, 15.36 * TB);
        in.drive_read_bytes_per_s = 14 * GB;
        in.drive_write_bytes_per_s = 10 * GB;
        hwfit_raid_out o = eval(&in);
        ASSERT_NEAR(o.read_bytes_per_s, cases[i].read, REL);
        ASSERT_NEAR(o.write_bytes_per_s, cases[i].write, REL);
    }
}

Test(storage, random_iops_apply_the_write_penalty_harmonically) {
    /* 4 drives of 1000 IOPS; mix 70 % reads: IOPS = N x I / (r + w x P). */
    struct {
        hwfit_raid_level level;
        double write, mixed;
        uint64_t penalty;
    } cases[] = {
        {HWFIT_STORAGE_RAID0, 4000, 4000, 1},
        {HWFIT_STORAGE_RAID10, 2000, 4000 / 1.3, 2},
        {HWFIT_STORAGE_RAID5, 1000, 4000 / 1.9, 4},
        {HWFIT_STORAGE_RAID6, 4000.0 / 6.0, 4000 / 2.5, 6},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hwfit_raid_in in = array(cases[i].level, 4, 1 * TB);
        in.drive_read_iops = 1000;
        in.drive_write_iops = 1000;
        hwfit_raid_out o = eval(&in);
        ASSERT_NEAR(o.read_iops, 4000.0, REL);
        ASSERT_NEAR(o.write_iops, cases[i].write, REL);
        ASSERT_NEAR(o.mixed_iops, cases[i].mixed, REL);
        cr_assert_eq(o.write_penalty, cases[i].penalty);
    }
}

Test(storage, write_penalty_splits_into_reads_and_writes) {
    /* RAID 5 small write = 2 reads + 2 writes: N / (2/Ir + 2/Iw) with Ir = 3.3M, Iw = 0.4M. */
    hwfit_raid_in in = array(HWFIT_STORAGE_RAID5, 4, 1 * TB);
    in.drive_read_iops = 3.3e6;
    in.drive_write_iops = 0.4e6;
    hwfit_raid_out o = eval(&in);
    ASSERT_NEAR(o.write_iops, 4.0 / (2.0 / 3.3e6 + 2.0 / 0.4e6), REL);
    /* Mix: N / ((r + 2w)/Ir + 2w/Iw) with r = 0.7, w = 0.3. */
    ASSERT_NEAR(o.mixed_iops, 4.0 / (1.3 / 3.3e6 + 0.6 / 0.4e6), REL);
}

Test(storage, unset_rates_give_zero_not_garbage) {
    hwfit_raid_in in = array(HWFIT_STORAGE_RAID5, 4, 1 * TB);
    in.drive_read_iops = 1000; /* writes need the write IOPS too */
    hwfit_raid_out o = eval(&in);
    ASSERT_NEAR(o.read_iops, 4000.0, REL);
    cr_assert_eq(o.write_iops, 0.0);
    cr_assert_eq(o.mixed_iops, 0.0);
    cr_assert_eq(o.read_bytes_per_s, 0.0);
    cr_assert_eq(o.write_bytes_per_s, 0.0);
}

/* ---- rebuild and reliability ------------------------------------------------------------ */

Test(storage, rebuild_time_is_drive_size_over_rate) {
    /* infrastructure.md 1.3: 15.36 TB at 0.5/1/2/5 GB/s -> 8.5 / 4.3 / 2.1 / 0.85 h. */
    const double rates[] = {0.5e9, 1e9, 2e9, 5e9};
    const double hours[] = {8.5333333333333333, 4.2666666666666667, 2.1333333333333333,
                            0.85333333333333333};
    for (size_t i = 0; i < 4; i++) {
        hwfit_raid_in in = array(HWFIT_STORAGE_RAID6, 4, 15.36 * TB);
        in.rebuild_bytes_per_s = rates[i];
        hwfit_raid_out o = eval(&in);
        ASSERT_NEAR(o.rebuild_s / HOUR, hours[i], REL);
    }
    /* RAID 0 has nothing to rebuild from. */
    hwfit_raid_in in = array(HWFIT_STORAGE_RAID0, 4, 15.36 * TB);
    cr_assert_eq(eval(&in).rebuild_s, 0.0);
}

Test(storage, ure_probability_matches_the_worked_raid5_rebuild) {
    /* infrastructure.md 1.5: RAID 5 of 4 x 15.36 TB reads 46.08 TB to rebuild:
     * 1e-14 -> 97.5 %, 1e-15 -> 30.8 %, 1e-16 -> 3.6 %, 1e-17 -> 0.37 %.
     * Exactly: 1 - exp(-BER x 8 x 46.08e12). */
    const double ber[] = {1e-14, 1e-15, 1e-16, 1e-17};
    const double rounded[] = {0.975, 0.308, 0.036, 0.0037};
    for (size_t i = 0; i < 4; i++) {
        hwfit_raid_in in = array(HWFIT_STORAGE_RAID5, 4, 15.36 * TB);
        in.bit_error_rate = ber[i];
        hwfit_raid_out o = eval(&in);
        ASSERT_NEAR(o.rebuild_read_bytes, 46.08 * TB, REL);
        ASSERT_NEAR(o.ure_probability, -expm1(-ber[i] * 8 * 46.08e12), REL);
        /* The reference rounded to 2-3 digits: agree within 2 % of the value. */
        ASSERT_NEAR(o.ure_probability, rounded[i], 0.02);
        /* RAID 5 has no redundancy left during the rebuild: a URE loses data. */
        ASSERT_NEAR(o.ure_loss_probability, o.ure_probability, REL);
    }
}

Test(storage, a_ure_with_redundancy_left_does_not_lose_data) {
    hwfit_raid_in in = array(HWFIT_STORAGE_RAID6, 4, 15.36 * TB);
    hwfit_raid_out o = eval(&in);
    ASSERT_NEAR(o.ure_probability, -expm1(-1e-15 * 8 * 46.08e12), REL);
    cr_assert_eq(o.ure_loss_probability, 0.0);
    /* Mirrors read one copy: C bytes. */
    in.layout.level = HWFIT_STORAGE_RAID10;
    o = eval(&in);
    ASSERT_NEAR(o.rebuild_read_bytes, 15.36 * TB, REL);
    ASSERT_NEAR(o.ure_loss_probability, o.ure_probability, REL);
}

Test(storage, mttdl_matches_the_classic_formulas) {
    /* infrastructure.md 1.4 worked example: 4 drives, MTTF 2e6 h, MTTR 24 h:
     * RAID 5 ~ 1.39e10 h, RAID 10 ~ 4.2e10 h, RAID 6 ~ 5.8e14 h. Exactly:
     * RAID 5: MTTF^2 / (N (N-1) MTTR); RAID 10: MTTF^2 / (N MTTR);
     * RAID 6: MTTF^3 / (N (N-1) (N-2) MTTR^2). MTTR = 24 h is set as the rebuild time. */
    const double mttf = 2e6, mttr = 24.0;
    struct {
        hwfit_raid_level level;
        double want_h;
    } cases[] = {
        {HWFIT_STORAGE_RAID5, mttf * mttf / (4 * 3 * mttr)},
        {HWFIT_STORAGE_RAID10, mttf * mttf / (4 * mttr)},
        {HWFIT_STORAGE_RAID6, mttf * mttf * mttf / (4 * 3 * 2 * mttr * mttr)},
        {HWFIT_STORAGE_RAID0, mttf / 4},
        {HWFIT_STORAGE_RAID1, mttf * mttf * mttf * mttf / (4 * 3 * 2 * mttr * mttr * mttr)},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hwfit_raid_in in = array(cases[i].level, 4, 15.36 * TB);
        in.replace_delay_s = 0;
        in.rebuild_bytes_per_s = 15.36 * TB / (mttr * HOUR);
        hwfit_raid_out o = eval(&in);
        ASSERT_NEAR(o.mttdl_h, cases[i].want_h, 1e-12);
        ASSERT_NEAR(o.mttdl_s, cases[i].want_h * HOUR, 1e-12);
    }
    hwfit_raid_in in = array(HWFIT_STORAGE_RAID5, 4, 15.36 * TB);
    in.replace_delay_s = 0;
    in.rebuild_bytes_per_s = 15.36 * TB / (mttr * HOUR);
    ASSERT_NEAR(eval(&in).mttdl_h, 1.39e10, 0.01); /* the reference's 3 digits */
}

Test(storage, groups_divide_the_mttdl) {
    /* RAID 50 of 2 groups of 3 = twice the exposure of one RAID 5 group of 3. */
    hwfit_raid_in one = array(HWFIT_STORAGE_RAID5, 3, 1 * TB);
    hwfit_raid_in two = array(HWFIT_STORAGE_RAID50, 6, 1 * TB);
    ASSERT_NEAR(eval(&two).mttdl_s, eval(&one).mttdl_s / 2.0, REL);
}

Test(storage, loss_probability_grows_with_time) {
    hwfit_raid_in in = array(HWFIT_STORAGE_RAID5, 8, 20 * TB);
    in.drive_mttf_s = 1e6 * HOUR;
    double previous = -1.0;
    for (double years = 0.0; years <= 20.0; years += 1.0) {
        in.mission_s = years * HWFIT_SECONDS_PER_YEAR;
        hwfit_raid_out o = eval(&in);
        cr_assert(o.loss_probability > previous || (years == 0.0 && o.loss_probability == 0.0));
        cr_assert(o.loss_probability >= 0.0 && o.loss_probability <= 1.0);
        /* Two ways: P = 1 - exp(-T / MTTDL). */
        ASSERT_NEAR(o.loss_probability, -expm1(-in.mission_s / o.mttdl_s), REL);
        previous = o.loss_probability;
    }
}

Test(storage, drive_afr_from_mttf) {
    /* AFR = 1 - exp(-8760 h / MTTF); 2e6 h -> 0.4370 %; ~ 8766/MTTF for small AFR. */
    hwfit_raid_in in = array(HWFIT_STORAGE_RAID6, 4, 1 * TB);
    ASSERT_NEAR(eval(&in).drive_afr, -expm1(-8760.0 / 2e6), REL);
    ASSERT_NEAR(eval(&in).drive_afr, 0.00437, 0.001);
}

/* ---- consistency ------------------------------------------------------------------------ */

Test(storage, usable_never_exceeds_raw_for_any_level) {
    for (int level = 0; level <= (int)HWFIT_STORAGE_DRAID3; level++) {
        for (uint64_t drives = 2; drives <= 24; drives++) {
            hwfit_raid_in in = array((hwfit_raid_level)level, drives, 7.68 * TB);
            hwfit_raid_out o;
            if (hwfit_raid_evaluate(&in, &o) != HWFIT_OK) continue; /* too few drives */
            cr_assert(o.usable_bytes <= o.raw_bytes, "%s x%llu", hwfit_raid_level_name(o.level),
                      (unsigned long long)drives);
            cr_assert(o.usable_bytes > 0.0);
            cr_assert(o.space_efficiency > 0.0 && o.space_efficiency <= 1.0);
            cr_assert(hwfit__finite(o.mttdl_s) && o.mttdl_s > 0.0);
            cr_assert(o.ure_probability >= 0.0 && o.ure_probability <= 1.0);
        }
    }
}

Test(storage, more_parity_never_raises_usable_or_lowers_tolerance) {
    const hwfit_raid_level ladders[][3] = {
        {HWFIT_STORAGE_RAID0, HWFIT_STORAGE_RAID5, HWFIT_STORAGE_RAID6},
        {HWFIT_STORAGE_RAIDZ1, HWFIT_STORAGE_RAIDZ2, HWFIT_STORAGE_RAIDZ3},
        {HWFIT_STORAGE_DRAID1, HWFIT_STORAGE_DRAID2, HWFIT_STORAGE_DRAID3},
    };
    for (size_t l = 0; l < 3; l++) {
        for (uint64_t drives = 5; drives <= 16; drives++) {
            double usable = INFINITY;
            uint64_t tolerated = 0;
            for (size_t k = 0; k < 3; k++) {
                hwfit_raid_in in = array(ladders[l][k], drives, 4 * TB);
                hwfit_raid_out o = eval(&in);
                cr_assert(o.usable_bytes <= usable);
                cr_assert(o.tolerated_failures >= tolerated);
                usable = o.usable_bytes;
                tolerated = o.tolerated_failures;
            }
        }
    }
}

Test(storage, larger_records_pack_raidz_better) {
    hwfit_raid_in in = array(HWFIT_STORAGE_RAIDZ2, 8, 10 * TB);
    double previous = 0.0;
    for (double rec = 4096; rec <= 16 * HWFIT_MEBI; rec *= 2) {
        in.record_bytes = rec;
        double eff = eval(&in).allocation_efficiency;
        cr_assert(eff >= previous - 1e-12, "record %g", rec);
        cr_assert(eff <= 6.0 / 8.0 + 1e-12); /* never above the ideal (n - p)/n */
        previous = eff;
    }
}

Test(storage, faster_rebuilds_shorten_exposure) {
    hwfit_raid_in in = array(HWFIT_STORAGE_RAID6, 8, 20 * TB);
    in.rebuild_bytes_per_s = 0.2e9;
    hwfit_raid_out slow = eval(&in);
    in.rebuild_bytes_per_s = 2e9;
    hwfit_raid_out fast = eval(&in);
    cr_assert(fast.rebuild_s < slow.rebuild_s);
    cr_assert(fast.mttdl_s > slow.mttdl_s);
    cr_assert(fast.loss_probability < slow.loss_probability);
}

/* ---- errors ------------------------------------------------------------------------------ */

static void expect_raid_error(const hwfit_raid_in *in, hwfit_status want, const char *what) {
    hwfit_raid_out out, before;
    memset(&out, 0x5a, sizeof out);
    before = out;
    hwfit_status st = hwfit_raid_evaluate(in, &out);
    cr_assert_eq(st, want, "%s: got %s", what, hwfit_status_name(st));
    cr_assert(memcmp(&out, &before, sizeof out) == 0, "%s: output written on error", what);
}

Test(storage, refuses_too_few_drives_for_the_level) {
    struct {
        hwfit_raid_level level;
        uint64_t drives, groups;
    } cases[] = {
        {HWFIT_STORAGE_RAID0, 1, 0},  {HWFIT_STORAGE_RAID1, 1, 0},  {HWFIT_STORAGE_RAID10, 1, 0},
        {HWFIT_STORAGE_RAID5, 2, 0},  {HWFIT_STORAGE_RAID6, 3, 0},  {HWFIT_STORAGE_RAID50, 4, 0},
        {HWFIT_STORAGE_RAID50, 7, 0}, /* 7 drives do not split into 2 groups */
        {HWFIT_STORAGE_RAID60, 6, 0}, {HWFIT_STORAGE_RAID60, 12, 5},
        {HWFIT_STORAGE_RAIDZ1, 1, 0}, {HWFIT_STORAGE_RAIDZ2, 2, 0}, {HWFIT_STORAGE_RAIDZ3, 3, 0},
        {HWFIT_STORAGE_RAIDZ2, 7, 2}, {HWFIT_STORAGE_DRAID2, 2, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hwfit_raid_in in = array(cases[i].level, cases[i].drives, 1 * TB);
        in.layout.groups = cases[i].groups;
        expect_raid_error(&in, HWFIT_EDOM, hwfit_raid_level_name(cases[i].level));
    }
}

Test(storage, min_drives_is_exactly_the_smallest_array_evaluate_accepts) {
    hwfit_raid_layout layouts[] = {
        {HWFIT_STORAGE_RAID0, 2, 0, 0, 0, 0},  {HWFIT_STORAGE_RAID1, 2, 0, 0, 0, 0},
        {HWFIT_STORAGE_RAID10, 2, 0, 0, 0, 0}, {HWFIT_STORAGE_RAID10, 3, 0, 0, 0, 0},
        {HWFIT_STORAGE_RAID5, 2, 0, 0, 0, 0},  {HWFIT_STORAGE_RAID6, 2, 0, 0, 0, 0},
        {HWFIT_STORAGE_RAID50, 2, 0, 0, 0, 0}, {HWFIT_STORAGE_RAID60, 2, 3, 0, 0, 0},
        {HWFIT_STORAGE_RAIDZ1, 2, 0, 0, 0, 0}, {HWFIT_STORAGE_RAIDZ2, 2, 2, 0, 0, 0},
        {HWFIT_STORAGE_RAIDZ3, 2, 0, 0, 0, 0}, {HWFIT_STORAGE_DRAID1, 2, 0, 0, 0, 0},
        {HWFIT_STORAGE_DRAID2, 2, 0, 8, 0, 1}, {HWFIT_STORAGE_DRAID3, 2, 0, 0, 0, 2},
    };
    const uint64_t want[] = {2, 2, 2, 3, 3, 4, 6, 12, 2, 6, 4, 2, 11, 6};
    for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++) {
        uint64_t n = 0;
        cr_assert_eq(hwfit_raid_min_drives(&layouts[i], &n), HWFIT_OK);
        cr_assert_eq(n, want[i], "%s: %llu", hwfit_raid_level_name(layouts[i].level),
                     (unsigned long long)n);
        hwfit_raid_in in = array(layouts[i].level, n, 1 * TB);
        in.layout = layouts[i];
        hwfit_raid_out o;
        cr_assert_eq(hwfit_raid_evaluate(&in, &o), HWFIT_OK, "%s at its minimum",
                     hwfit_raid_level_name(layouts[i].level));
        in.drives = n - 1;
        cr_assert_eq(hwfit_raid_evaluate(&in, &o), HWFIT_EDOM, "%s below its minimum",
                     hwfit_raid_level_name(layouts[i].level));
    }
    uint64_t n = 7;
    hwfit_raid_layout l = {HWFIT_STORAGE_RAID10, 1, 0, 0, 0, 0};
    cr_assert_eq(hwfit_raid_min_drives(&l, &n), HWFIT_EDOM);
    l = (hwfit_raid_layout){HWFIT_STORAGE_RAID60, 2, UINT64_MAX / 2, 0, 0, 0};
    cr_assert_eq(hwfit_raid_min_drives(&l, &n), HWFIT_ERANGE);
    l = (hwfit_raid_layout){HWFIT_STORAGE_DRAID1, 2, 0, 0, 0, UINT64_MAX};
    cr_assert_eq(hwfit_raid_min_drives(&l, &n), HWFIT_ERANGE);
    l = (hwfit_raid_layout){HWFIT_STORAGE_DRAID1, 2, 0, UINT64_MAX, 0, 5};
    cr_assert_eq(hwfit_raid_min_drives(&l, &n), HWFIT_ERANGE);
    l.level = (hwfit_raid_level)77;
    cr_assert_eq(hwfit_raid_min_drives(&l, &n), HWFIT_EINVAL);
    cr_assert_eq(n, 7);
    cr_assert_eq(hwfit_raid_min_drives(NULL, &n), HWFIT_EINVAL);
    cr_assert_eq(hwfit_raid_min_drives(&l, NULL), HWFIT_EINVAL);
}

Test(storage, refuses_bad_shapes_and_counts) {
    hwfit_raid_in in = array(HWFIT_STORAGE_RAID6, 4, 1 * TB);
    in.spares = 4;
    expect_raid_error(&in, HWFIT_EDOM, "spares = drives");
    in = array(HWFIT_STORAGE_RAID6, 0, 1 * TB);
    expect_raid_error(&in, HWFIT_EDOM, "no drives");
    in = array(HWFIT_STORAGE_RAID10, 4, 1 * TB);
    in.layout.copies = 1;
    expect_raid_error(&in, HWFIT_EDOM, "one copy");
    in = array(HWFIT_STORAGE_DRAID2, 12, 1 * TB);
    in.layout.draid_data = 11;
    expect_raid_error(&in, HWFIT_EDOM, "D + P > N");
    in = array(HWFIT_STORAGE_DRAID2, 12, 1 * TB);
    in.layout.draid_children = 11;
    expect_raid_error(&in, HWFIT_EDOM, "children differ");
    in = array(HWFIT_STORAGE_DRAID1, 4, 1 * TB);
    in.layout.draid_spares = 3;
    expect_raid_error(&in, HWFIT_EDOM, "spares leave no group");
    in = array((hwfit_raid_level)99, 4, 1 * TB);
    expect_raid_error(&in, HWFIT_EINVAL, "level out of range");
}

Test(storage, refuses_bad_numbers) {
    const double bad[] = {NAN, INFINITY, -INFINITY, -1.0};
    for (size_t i = 0; i < 4; i++) {
        double v = bad[i];
        hwfit_raid_in base = array(HWFIT_STORAGE_RAID6, 4, 1 * TB), in;
#define TRY(field)                                     \
    in = base;                                         \
    in.field = v;                                      \
    expect_raid_error(&in, HWFIT_EDOM, #field);
        TRY(drive_bytes) TRY(record_bytes) TRY(sector_bytes) TRY(fill_fraction)
        TRY(drive_read_bytes_per_s) TRY(drive_write_bytes_per_s) TRY(drive_read_iops)
        TRY(drive_write_iops) TRY(read_fraction) TRY(rebuild_bytes_per_s) TRY(replace_delay_s)
        TRY(bit_error_rate) TRY(drive_mttf_s) TRY(mission_s)
#undef TRY
    }
    hwfit_raid_in in = array(HWFIT_STORAGE_RAID6, 4, 0.0);
    expect_raid_error(&in, HWFIT_EDOM, "zero drive size");
    in = array(HWFIT_STORAGE_RAIDZ1, 4, 1 * TB);
    in.record_bytes = 100000;
    expect_raid_error(&in, HWFIT_EDOM, "record not a power of two");
    in.record_bytes = 32 * HWFIT_MEBI;
    expect_raid_error(&in, HWFIT_EDOM, "record above 16 MiB");
    in = array(HWFIT_STORAGE_RAIDZ1, 4, 1 * TB);
    in.sector_bytes = 256;
    expect_raid_error(&in, HWFIT_EDOM, "sector below 512");
    in = array(HWFIT_STORAGE_RAID6, 4, 1 * TB);
    in.rebuild_bytes_per_s = 0;
    expect_raid_error(&in, HWFIT_EDOM, "zero rebuild rate");
    in.rebuild_bytes_per_s = 1e9;
    in.bit_error_rate = 2.0;
    expect_raid_error(&in, HWFIT_EDOM, "BER above 1");
    in.bit_error_rate = 1e-15;
    in.fill_fraction = 0.0;
    expect_raid_error(&in, HWFIT_EDOM, "empty pool");
    in.fill_fraction = 1.5;
    expect_raid_error(&in, HWFIT_EDOM, "over-full pool");
}

Test(storage, refuses_an_mttdl_too_large_to_represent) {
    /* A 200-way mirror with an instant rebuild: MTTF^200 / MTTR^199 overflows a double. */
    hwfit_raid_in in = array(HWFIT_STORAGE_RAID1, 200, 1.0);
    in.rebuild_bytes_per_s = 1e15;
    in.replace_delay_s = 0;
    in.drive_mttf_s = 1e15;
    expect_raid_error(&in, HWFIT_ERANGE, "overflow");
}

Test(storage, refuses_null_pointers) {
    hwfit_raid_in in = array(HWFIT_STORAGE_RAID6, 4, 1 * TB);
    hwfit_raid_out out;
    cr_assert_eq(hwfit_raid_evaluate(NULL, &out), HWFIT_EINVAL);
    cr_assert_eq(hwfit_raid_evaluate(&in, NULL), HWFIT_EINVAL);
    hwfit_raid_init(NULL); /* ignored, must not crash */
    hwfit_transfer_init(NULL);
}

/* ---- transfers ---------------------------------------------------------------------------- */

static hwfit_transfer_out transfer(double bytes, double rate, hwfit_storage_transport t) {
    hwfit_transfer_in in;
    hwfit_transfer_init(&in);
    in.bytes = bytes;
    in.rate_bytes_per_s = rate;
    in.transport = t;
    hwfit_transfer_out out;
    memset(&out, 0x5a, sizeof out);
    cr_assert_eq(hwfit_transfer_estimate(&in, &out), HWFIT_OK);
    return out;
}

Test(storage, transfer_time_is_bytes_over_effective_rate) {
    /* A 70B bf16 checkpoint (140 GB) from one Gen5 NVMe at 14 GB/s: 10 s. */
    hwfit_transfer_out o = transfer(140 * GB, 14 * GB, HWFIT_STORAGE_TRANSPORT_LOCAL);
    ASSERT_NEAR(o.time_s, 10.0, REL);
    ASSERT_NEAR(o.efficiency, 1.0, REL);
    /* infrastructure.md 6.5: a 980 GB Adam checkpoint at 40 GB/s ~ 25 s (24.5 s). */
    ASSERT_NEAR(transfer(980 * GB, 40 * GB, HWFIT_STORAGE_TRANSPORT_LOCAL).time_s, 24.5, REL);
    /* 768 GB over 2 x 400GbE (100 GB/s line): RoCE 0.95 -> 95 GB/s, TCP 0.85 -> 85 GB/s. */
    o = transfer(768 * GB, 100 * GB, HWFIT_STORAGE_TRANSPORT_NVMEOF_ROCE);
    ASSERT_NEAR(o.effective_bytes_per_s, 95 * GB, REL);
    ASSERT_NEAR(o.time_s, 768.0 / 95.0, REL);
    o = transfer(768 * GB, 100 * GB, HWFIT_STORAGE_TRANSPORT_NVMEOF_TCP);
    ASSERT_NEAR(o.effective_bytes_per_s, 85 * GB, REL);
    cr_assert(o.time_s > 768.0 / 95.0); /* TCP is slower than RoCE for the same line rate */
    cr_assert_eq(o.capacity_checked, 0);
    cr_assert_eq(o.fits, 1);
}

Test(storage, transfer_is_limited_by_a_slower_backend) {
    hwfit_transfer_in in;
    hwfit_transfer_init(&in);
    in.bytes = 1 * TB;
    in.rate_bytes_per_s = 100 * GB;
    in.transport = HWFIT_STORAGE_TRANSPORT_NVMEOF_ROCE;
    in.backend_bytes_per_s = 40 * GB;
    hwfit_transfer_out o;
    cr_assert_eq(hwfit_transfer_estimate(&in, &o), HWFIT_OK);
    cr_assert_eq(o.backend_limited, 1);
    ASSERT_NEAR(o.time_s, 25.0, REL);
    in.backend_bytes_per_s = 200 * GB;
    cr_assert_eq(hwfit_transfer_estimate(&in, &o), HWFIT_OK);
    cr_assert_eq(o.backend_limited, 0);
}

Test(storage, transfer_checks_whether_a_data_set_fits) {
    /* Seed claim DE-27: LAION-5B ~240 TB against a 200 TB NAS. */
    hwfit_transfer_in in;
    hwfit_transfer_init(&in);
    in.bytes = 240 * TB;
    in.rate_bytes_per_s = 100 * GB;
    in.capacity_bytes = 200 * TB;
    hwfit_transfer_out o;
    cr_assert_eq(hwfit_transfer_estimate(&in, &o), HWFIT_OK);
    cr_assert_eq(o.capacity_checked, 1);
    cr_assert_eq(o.fits, 0);
    ASSERT_NEAR(o.fill_fraction, 1.2, REL);
    in.bytes = 200 * TB; /* exactly full still fits */
    cr_assert_eq(hwfit_transfer_estimate(&in, &o), HWFIT_OK);
    cr_assert_eq(o.fits, 1);
}

Test(storage, transfer_time_grows_with_bytes) {
    double previous = -1.0;
    for (double b = 0; b <= 1e15; b += 1e14) {
        double t = transfer(b, 50 * GB, HWFIT_STORAGE_TRANSPORT_NVMEOF_TCP).time_s;
        cr_assert(t > previous);
        previous = t;
    }
}

Test(storage, transport_names_parse_and_print) {
    hwfit_storage_transport t;
    cr_assert_eq(hwfit_storage_transport_parse("nvmeof-roce", &t), HWFIT_OK);
    cr_assert_eq(t, HWFIT_STORAGE_TRANSPORT_NVMEOF_ROCE);
    cr_assert_eq(hwfit_storage_transport_parse("RoCE", &t), HWFIT_OK);
    cr_assert_eq(t, HWFIT_STORAGE_TRANSPORT_NVMEOF_ROCE);
    cr_assert_eq(hwfit_storage_transport_parse("tcp", &t), HWFIT_OK);
    cr_assert_eq(t, HWFIT_STORAGE_TRANSPORT_NVMEOF_TCP);
    cr_assert_eq(hwfit_storage_transport_parse("local", &t), HWFIT_OK);
    cr_assert_eq(t, HWFIT_STORAGE_TRANSPORT_LOCAL);
    t = HWFIT_STORAGE_TRANSPORT_NVMEOF_TCP;
    cr_assert_eq(hwfit_storage_transport_parse("infiniband", &t), HWFIT_ENOTFOUND);
    cr_assert_eq(t, HWFIT_STORAGE_TRANSPORT_NVMEOF_TCP);
    cr_assert_eq(hwfit_storage_transport_parse(NULL, &t), HWFIT_EINVAL);
    cr_assert_eq(hwfit_storage_transport_parse("tcp", NULL), HWFIT_EINVAL);
    cr_assert_str_eq(hwfit_storage_transport_name(HWFIT_STORAGE_TRANSPORT_NVMEOF_TCP), "nvmeof-tcp");
    cr_assert_str_eq(hwfit_storage_transport_name((hwfit_storage_transport)9), "unknown");
}

Test(storage, transfer_refuses_bad_input) {
    hwfit_transfer_in base;
    hwfit_transfer_init(&base);
    base.bytes = 1 * TB;
    base.rate_bytes_per_s = 10 * GB;
    struct {
        const char *what;
        hwfit_transfer_in in;
        hwfit_status want;
    } cases[8];
    size_t n = 0;
    for (size_t i = 0; i < 8; i++) cases[i].in = base;
    cases[n].what = "zero rate", cases[n].in.rate_bytes_per_s = 0, cases[n++].want = HWFIT_EDOM;
    cases[n].what = "NaN bytes", cases[n].in.bytes = NAN, cases[n++].want = HWFIT_EDOM;
    cases[n].what = "negative bytes", cases[n].in.bytes = -1, cases[n++].want = HWFIT_EDOM;
    cases[n].what = "infinite rate", cases[n].in.rate_bytes_per_s = INFINITY,
    cases[n++].want = HWFIT_EDOM;
    cases[n].what = "efficiency > 1", cases[n].in.roce_efficiency = 1.5,
    cases[n++].want = HWFIT_EDOM;
    cases[n].what = "zero efficiency", cases[n].in.local_efficiency = 0,
    cases[n++].want = HWFIT_EDOM;
    cases[n].what = "negative capacity", cases[n].in.capacity_bytes = -5,
    cases[n++].want = HWFIT_EDOM;
    cases[n].what = "transport", cases[n].in.transport = (hwfit_storage_transport)7,
    cases[n++].want = HWFIT_EINVAL;
    for (size_t i = 0; i < n; i++) {
        hwfit_transfer_out out, before;
        memset(&out, 0x5a, sizeof out);
        before = out;
        cr_assert_eq(hwfit_transfer_estimate(&cases[i].in, &out), cases[i].want, "%s",
                     cases[i].what);
        cr_assert(memcmp(&out, &before, sizeof out) == 0, "%s", cases[i].what);
    }
    hwfit_transfer_out out;
    cr_assert_eq(hwfit_transfer_estimate(NULL, &out), HWFIT_EINVAL);
    cr_assert_eq(hwfit_transfer_estimate(&base, NULL), HWFIT_EINVAL);
}
