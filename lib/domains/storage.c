/* storage.c - RAID/ZFS capacity, speed, rebuild and reliability; data transfer times.
 *
 * Sources (also in docs/formulas.md, section "storage"):
 * - Classic RAID capacity and MTTDL: Patterson, Gibson, Katz, "A Case for Redundant Arrays
 *   of Inexpensive Disks (RAID)", SIGMOD 1988; Chen et al., "RAID: High-Performance,
 *   Reliable Secondary Storage", ACM Computing Surveys 26(2), 1994.
 * - Linux md RAID 10 capacity N*C/copies: linux drivers/md/raid10.c (header comment).
 * - raidz allocation: OpenZFS module/zfs/vdev_raidz.c, vdev_raidz_asize().
 * - dRAID allocation: OpenZFS module/zfs/vdev_draid.c, vdev_draid_asize(); defaults,
 *   IOPS rule and resilver speed-up: OpenZFS documentation "dRAID".
 * - Slop space: OpenZFS module/zfs/spa_misc.c, spa_get_slop_space() with
 *   spa_slop_shift = 5, spa_min_slop = 128 MiB, spa_max_slop = 128 GiB.
 */
#include <math.h>
#include <string.h>

#include "hwfit/status.h"
#include "hwfit/storage.h"
#include "hwfit/units.h"

#include "base/internal.h"

/* ---- names --------------------------------------------------------------------------- */

static const char *const level_names[] = {
    "raid0",  "raid1",  "raid10", "raid5",  "raid6",  "raid50", "raid60",
    "raidz1", "raidz2", "raidz3", "draid1", "draid2", "draid3",
};
#define LEVEL_COUNT (sizeof level_names / sizeof level_names[0])

const char *hwfit_raid_level_name(hwfit_raid_level level) {
    unsigned i = (unsigned)level;
    return i < LEVEL_COUNT ? level_names[i] : "unknown";
}

static char lower(char c) { return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c; }

/* Lowercase copy of text into buf; 0 when it does not fit. */
static int lower_copy(const char *text, char *buf, size_t size) {
    size_t n = strlen(text);
    if (n >= size) return 0;
    for (size_t i = 0; i <= n; i++) buf[i] = lower(text[i]);
    return 1;
}

/* Digits at *p into *value (advancing *p); 0 when there are none or they overflow. */
static int read_u64(const char **p, uint64_t *value) {
    const char *s = *p;
    uint64_t v = 0;
    if (*s < '0' || *s > '9') return 0;
    while (*s >= '0' && *s <= '9') {
        uint64_t d = (uint64_t)(*s - '0');
        if (v > (UINT64_MAX - d) / 10u) return 0;
        v = v * 10u + d;
        s++;
    }
    *p = s;
    *value = v;
    return 1;
}

/* "draid[P][:Dd][:Cc][:Ss]" after the "draid" prefix (OpenZFS zpoolconcepts(7)). */
static hwfit_status parse_draid(const char *s, hwfit_raid_layout *layout) {
    uint64_t parity = 1;
    if (*s >= '0' && *s <= '9') {
        if (!read_u64(&s, &parity)) return HWFIT_EPARSE;
    }
    int seen_d = 0, seen_c = 0, seen_s = 0;
    uint64_t data = 0, children = 0, spares = 0;
    while (*s != '\0') {
        if (*s != ':') return HWFIT_EPARSE;
        s++;
        uint64_t v;
        if (!read_u64(&s, &v)) return HWFIT_EPARSE;
        char kind = *s++;
        if (kind == 'd' && !seen_d) seen_d = 1, data = v;
        else if (kind == 'c' && !seen_c) seen_c = 1, children = v;
        else if (kind == 's' && !seen_s) seen_s = 1, spares = v;
        else return HWFIT_EPARSE;
    }
    if (parity < 1 || parity > 3) return HWFIT_EDOM;
    if ((seen_d && data == 0) || (seen_c && children == 0)) return HWFIT_EDOM;
    layout->level = (hwfit_raid_level)((unsigned)HWFIT_STORAGE_DRAID1 + (unsigned)(parity - 1));
    layout->draid_data = data;
    layout->draid_children = children;
    layout->draid_spares = spares;
    return HWFIT_OK;
}

hwfit_status hwfit_raid_level_parse(const char *text, hwfit_raid_layout *layout) {
    if (text == NULL || layout == NULL) return HWFIT_EINVAL;
    char buf[64];
    if (!lower_copy(text, buf, sizeof buf)) return HWFIT_ENOTFOUND;
    hwfit_raid_layout result;
    memset(&result, 0, sizeof result); /* padding too: outputs never carry stack bytes */
    result.level = HWFIT_STORAGE_RAID6;
    result.copies = 2;
    const char *s = buf;
    if (strncmp(s, "draid", 5) == 0) {
        hwfit_status st = parse_draid(s + 5, &result);
        if (st != HWFIT_OK) return st;
        *layout = result;
        return HWFIT_OK;
    }
    if (strcmp(s, "raidz") == 0) s = "raidz1";
    if (strncmp(s, "raid-", 5) == 0) s += 5;
    else if (strncmp(s, "raid", 4) == 0 && s[4] != 'z') s += 4;
    static const struct {
        const char *name;
        hwfit_raid_level level;
    } names[] = {
        {"0", HWFIT_STORAGE_RAID0},       {"1", HWFIT_STORAGE_RAID1},
        {"5", HWFIT_STORAGE_RAID5},       {"6", HWFIT_STORAGE_RAID6},
        {"10", HWFIT_STORAGE_RAID10},     {"50", HWFIT_STORAGE_RAID50},
        {"60", HWFIT_STORAGE_RAID60},     {"raidz1", HWFIT_STORAGE_RAIDZ1},
        {"raidz2", HWFIT_STORAGE_RAIDZ2}, {"raidz3", HWFIT_STORAGE_RAIDZ3},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(s, names[i].name) == 0) {
            result.level = names[i].level;
            *layout = result;
            return HWFIT_OK;
        }
    }
    return HWFIT_ENOTFOUND;
}

hwfit_status hwfit_raid_min_drives(const hwfit_raid_layout *layout, uint64_t *drives) {
    if (layout == NULL || drives == NULL) return HWFIT_EINVAL;
    uint64_t per = 2, groups = 1, extra = 0;
    switch (layout->level) {
    case HWFIT_STORAGE_RAID0:
    case HWFIT_STORAGE_RAID1:
        break;
    case HWFIT_STORAGE_RAID10:
        if (layout->copies < 2u) return HWFIT_EDOM;
        per = layout->copies;
        break;
    case HWFIT_STORAGE_RAID5:
        per = 3;
        break;
    case HWFIT_STORAGE_RAID6:
        per = 4;
        break;
    case HWFIT_STORAGE_RAID50:
    case HWFIT_STORAGE_RAID60:
        per = layout->level == HWFIT_STORAGE_RAID50 ? 3u : 4u;
        groups = layout->groups ? layout->groups : 2u;
        break;
    case HWFIT_STORAGE_RAIDZ1:
    case HWFIT_STORAGE_RAIDZ2:
    case HWFIT_STORAGE_RAIDZ3:
        per = (uint64_t)layout->level - (uint64_t)HWFIT_STORAGE_RAIDZ1 + 2u;
        groups = layout->groups ? layout->groups : 1u;
        break;
    case HWFIT_STORAGE_DRAID1:
    case HWFIT_STORAGE_DRAID2:
    case HWFIT_STORAGE_DRAID3:
        per = (uint64_t)layout->level - (uint64_t)HWFIT_STORAGE_DRAID1 + 1u;
        extra = layout->draid_spares;
        if (extra > UINT64_MAX - per) return HWFIT_ERANGE;
        per += extra;
        extra = layout->draid_data ? layout->draid_data : 1u;
        break;
    default:
        return HWFIT_EINVAL;
    }
    if (groups != 0u && per > UINT64_MAX / groups) return HWFIT_ERANGE;
    uint64_t n = per * groups;
    if (extra > UINT64_MAX - n) return HWFIT_ERANGE;
    *drives = n + extra;
    return HWFIT_OK;
}

/* ---- defaults -------------------------------------------------------------------------- */

void hwfit_raid_init(hwfit_raid_in *in) {
    if (in == NULL) return;
    memset(in, 0, sizeof *in);
    in->layout.level = HWFIT_STORAGE_RAID6;
    in->layout.copies = 2;
    in->layout.groups = 0;
    in->drives = 0;
    in->spares = 0;
    in->drive_bytes = 0.0;
    in->record_bytes = 128.0 * HWFIT_KIBI; /* OpenZFS default recordsize */
    in->sector_bytes = 4.0 * HWFIT_KIBI;   /* ashift = 12 */
    in->fill_fraction = 1.0;
    in->drive_read_bytes_per_s = HWFIT_STORAGE_UNSET;
    in->drive_write_bytes_per_s = HWFIT_STORAGE_UNSET;
    in->drive_read_iops = HWFIT_STORAGE_UNSET;
    in->drive_write_iops = HWFIT_STORAGE_UNSET;
    in->read_fraction = 0.7;
    in->rebuild_bytes_per_s = 1e9;
    in->replace_delay_s = 24.0 * HWFIT_SECONDS_PER_HOUR;
    in->bit_error_rate = 1e-15;
    in->drive_mttf_s = 2e6 * HWFIT_SECONDS_PER_HOUR; /* Micron 9550: MTTF 2.0 M h */
    in->mission_s = HWFIT_SECONDS_PER_YEAR;
}

/* ---- checks ---------------------------------------------------------------------------- */

#define MAX_DRIVES 1000000u
#define MAX_BYTES 1e18   /* an exabyte per drive is far beyond any drive */
#define MAX_RATE 1e15    /* a PB/s per drive or link */
#define MAX_IOPS 1e12
#define MAX_TIME_S 1e15  /* ~30 million years */

static int positive(double x, double hi) { return hwfit__in_range(x, 0.0, hi) && x > 0.0; }
static int optional(double x, double hi) { return hwfit__in_range(x, 0.0, hi); }

/* x is an integer power of two in [lo, hi]. */
static int power_of_two(double x, double lo, double hi) {
    if (!hwfit__in_range(x, lo, hi)) return 0;
    uint64_t v = (uint64_t)x;
    return (double)v == x && v != 0 && (v & (v - 1u)) == 0;
}

static unsigned log2_u64(uint64_t v) {
    unsigned r = 0;
    while (v > 1u) v >>= 1, r++;
    return r;
}

/* ---- ZFS allocation -------------------------------------------------------------------- */

/* Allocated bytes for a block of psize bytes on a raidz vdev of `cols` children with
 * `nparity` parity (OpenZFS vdev_raidz.c, vdev_raidz_asize): data sectors, plus parity per
 * row of (cols - nparity) data sectors, rounded up to a multiple of nparity + 1. */
static uint64_t raidz_asize(uint64_t psize, unsigned ashift, uint64_t cols, uint64_t nparity) {
    uint64_t asize = ((psize - 1u) >> ashift) + 1u;
    asize += nparity * ((asize + cols - nparity - 1u) / (cols - nparity));
    asize = (asize + nparity) / (nparity + 1u) * (nparity + 1u);
    return asize << ashift;
}

/* Allocated bytes on dRAID: whole rows of (D + P) sectors, each row holding D data sectors
 * (OpenZFS vdev_draid.c, vdev_draid_asize: fixed stripe width, padded). */
static uint64_t draid_asize(uint64_t psize, unsigned ashift, uint64_t ndata, uint64_t nparity) {
    uint64_t rows = (psize - 1u) / (ndata << ashift) + 1u;
    return (rows * (ndata + nparity)) << ashift;
}

/* Pool slop space (OpenZFS spa_misc.c, spa_get_slop_space): 1/32 of the space, at most
 * 128 GiB, but at least min(space / 2, 128 MiB). The embedded-log deduction is ignored. */
static double zfs_slop(double space) {
    double slop = fmin(space / 32.0, 128.0 * HWFIT_GIBI);
    return fmax(slop, fmin(space / 2.0, 128.0 * HWFIT_MEBI));
}

/* ---- the array ------------------------------------------------------------------------- */

typedef struct shape {
    uint64_t members;    /* drives holding data */
    uint64_t groups;     /* redundancy groups (vdevs, mirror sets) */
    uint64_t width;      /* drives per group (dRAID: D + P) */
    uint64_t parity;     /* failures tolerated per group */
    uint64_t ndata;      /* dRAID D */
    double data_equiv;   /* drives' worth of data before ZFS padding */
    double mttdl_groups; /* groups for the MTTDL (RAID 10 may be fractional) */
    uint64_t mttdl_width;
    uint64_t penalty_reads, penalty_writes; /* back-end I/Os per small random write */
    double iops_units;   /* drives' worth of random IOPS (ZFS: vdevs) */
    double rebuild_read_drives; /* drives read to rebuild one */
    double rebuild_speedup;     /* dRAID sequential resilver to a distributed spare */
    int zfs, draid;
} shape;

#define TOO_FEW "are too few for the level (hwfit_raid_min_drives gives the minimum)"
#define NOT_DIVIDED "must divide evenly into the groups (layout.groups)"

static hwfit_status resolve_shape(const hwfit_raid_in *in, shape *sh, hwfit_problem *why) {
    const hwfit_raid_layout *l = &in->layout;
    if (in->drives < 1u || in->drives > MAX_DRIVES)
        return hwfit__why(why, HWFIT_EDOM, "drives", "must be a count in [1, 1000000]");
    if (in->spares >= in->drives)
        return hwfit__why(why, HWFIT_EDOM, "spares", "leave no drive to hold data");
    uint64_t n = in->drives - in->spares;
    memset(sh, 0, sizeof *sh);
    sh->members = n;
    sh->groups = 1;
    sh->width = n;
    sh->mttdl_groups = 1.0;
    sh->mttdl_width = n;
    sh->iops_units = (double)n;
    sh->rebuild_speedup = 1.0;
    switch (l->level) {
    case HWFIT_STORAGE_RAID0:
        if (n < 2u) return hwfit__why(why, HWFIT_EDOM, "drives", TOO_FEW);
        sh->data_equiv = (double)n;
        sh->penalty_writes = 1;
        return HWFIT_OK;
    case HWFIT_STORAGE_RAID1:
        if (n < 2u) return hwfit__why(why, HWFIT_EDOM, "drives", TOO_FEW);
        sh->parity = n - 1u;
        sh->data_equiv = 1.0;
        sh->penalty_writes = n;
        sh->rebuild_read_drives = 1.0;
        return HWFIT_OK;
    case HWFIT_STORAGE_RAID10: {
        uint64_t k = l->copies;
        if (k < 2u) return hwfit__why(why, HWFIT_EDOM, "layout.copies", "must be at least 2");
        if (k > n) return hwfit__why(why, HWFIT_EDOM, "drives", TOO_FEW);
        sh->width = k;
        sh->groups = n / k;
        sh->parity = k - 1u;
        sh->data_equiv = (double)n / (double)k;
        sh->mttdl_groups = (double)n / (double)k;
        sh->mttdl_width = k;
        sh->penalty_writes = k;
        sh->rebuild_read_drives = 1.0;
        return HWFIT_OK;
    }
    case HWFIT_STORAGE_RAID5:
    case HWFIT_STORAGE_RAID6:
    case HWFIT_STORAGE_RAID50:
    case HWFIT_STORAGE_RAID60: {
        int nested = l->level == HWFIT_STORAGE_RAID50 || l->level == HWFIT_STORAGE_RAID60;
        uint64_t p = (l->level == HWFIT_STORAGE_RAID5 || l->level == HWFIT_STORAGE_RAID50) ? 1u : 2u;
        uint64_t g = nested ? (l->groups ? l->groups : 2u) : 1u;
        if (n % g != 0u) return hwfit__why(why, HWFIT_EDOM, "drives", NOT_DIVIDED);
        uint64_t w = n / g;
        if (w < p + 2u) /* RAID 5: 3 per group; RAID 6: 4 */
            return hwfit__why(why, HWFIT_EDOM, "drives", TOO_FEW);
        sh->groups = g;
        sh->width = w;
        sh->parity = p;
        sh->data_equiv = (double)(n - p * g);
        sh->mttdl_groups = (double)g;
        sh->mttdl_width = w;
        sh->penalty_reads = p + 1u; /* read old data and parity, write both */
        sh->penalty_writes = p + 1u;
        sh->rebuild_read_drives = (double)(w - 1u);
        return HWFIT_OK;
    }
    case HWFIT_STORAGE_RAIDZ1:
    case HWFIT_STORAGE_RAIDZ2:
    case HWFIT_STORAGE_RAIDZ3: {
        uint64_t p = (uint64_t)l->level - (uint64_t)HWFIT_STORAGE_RAIDZ1 + 1u;
        uint64_t g = l->groups ? l->groups : 1u;
        if (n % g != 0u) return hwfit__why(why, HWFIT_EDOM, "drives", NOT_DIVIDED);
        uint64_t w = n / g;
        if (w < p + 1u) return hwfit__why(why, HWFIT_EDOM, "drives", TOO_FEW);
        sh->zfs = 1;
        sh->groups = g;
        sh->width = w;
        sh->parity = p;
        sh->data_equiv = (double)(g * (w - p));
        sh->mttdl_groups = (double)g;
        sh->mttdl_width = w;
        sh->penalty_writes = 1;
        sh->iops_units = (double)g; /* one raidz vdev ~ the IOPS of one drive */
        sh->rebuild_read_drives = (double)(w - 1u);
        return HWFIT_OK;
    }
    default: { /* dRAID 1-3 (the caller has checked the level) */
        uint64_t p = (uint64_t)l->level - (uint64_t)HWFIT_STORAGE_DRAID1 + 1u;
        uint64_t s = l->draid_spares;
        if (l->draid_children != 0u && l->draid_children != n)
            return hwfit__why(why, HWFIT_EDOM, "layout.draid_children",
                              "must equal the drives that hold data (drives - spares)");
        if (s >= n || n - s < p + 1u) return hwfit__why(why, HWFIT_EDOM, "drives", TOO_FEW);
        /* D defaults to 8 unless N - P - S is smaller (OpenZFS "dRAID"). */
        uint64_t d = l->draid_data;
        if (d == 0u) d = n - s - p < HWFIT_STORAGE_DRAID_DEFAULT_DATA ? n - s - p
                                                                      : HWFIT_STORAGE_DRAID_DEFAULT_DATA;
        /* d + p may wrap for an absurd draid_data: compare without adding. */
        if (d > n - s - p) return hwfit__why(why, HWFIT_EDOM, "drives", TOO_FEW);
        sh->zfs = 1;
        sh->draid = 1;
        sh->ndata = d;
        sh->width = d + p;
        sh->parity = p;
        sh->groups = 1;
        sh->data_equiv = (double)(n - s) * (double)d / (double)(d + p);
        /* Any P + 1 failures among all children may meet in one group: one group of n. */
        sh->mttdl_groups = 1.0;
        sh->mttdl_width = n;
        sh->penalty_writes = 1;
        sh->iops_units = (double)((n - s) / (d + p)); /* floor((N - S)/(D + P)) */
        sh->rebuild_read_drives = (double)(d + p - 1u);
        /* Sequential resilver to a distributed spare scales with children / (D + P). */
        if (s > 0u) sh->rebuild_speedup = fmax(1.0, (double)n / (double)(d + p));
        return HWFIT_OK;
    }
    }
}

/* Drive-seconds per front-end operation made of `reads` back-end reads and `writes`
 * back-end writes; -1 when a rate it needs is unset. */
static double op_cost(double reads, double writes, double iops_r, double iops_w) {
    double c = 0.0;
    if (reads > 0.0) {
        if (iops_r <= 0.0) return -1.0;
        c += reads / iops_r;
    }
    if (writes > 0.0) {
        if (iops_w <= 0.0) return -1.0;
        c += writes / iops_w;
    }
    return c;
}

static double iops_from_cost(double units, double cost) { return cost > 0.0 ? units / cost : 0.0; }

/* Each double input of hwfit_raid_in: its check and its rule. */
#define NEED(ok, field, rule) \
    do { \
        if (!(ok)) return hwfit__why(why, HWFIT_EDOM, (field), (rule)); \
    } while (0)

static hwfit_status raid(const hwfit_raid_in *in, hwfit_raid_out *out, hwfit_problem *why) {
    if ((unsigned)in->layout.level >= LEVEL_COUNT)
        return hwfit__why(why, HWFIT_EINVAL, "layout.level", HWFIT__ENUM);
    NEED(positive(in->drive_bytes, MAX_BYTES), "drive_bytes",
         "must be a number of bytes in (0, 1e18]");
    NEED(power_of_two(in->record_bytes, 512.0, 16.0 * HWFIT_MEBI), "record_bytes",
         "must be a power of two from 512 B to 16 MiB");
    NEED(power_of_two(in->sector_bytes, 512.0, 64.0 * HWFIT_KIBI), "sector_bytes",
         "must be a power of two from 512 B to 64 KiB");
    NEED(positive(in->fill_fraction, 1.0), "fill_fraction", "must be a number in (0, 1]");
    NEED(optional(in->drive_read_bytes_per_s, MAX_RATE), "drive_read_bytes_per_s",
         "must be a number of bytes/s in [0, 1e15] (0 = unset)");
    NEED(optional(in->drive_write_bytes_per_s, MAX_RATE), "drive_write_bytes_per_s",
         "must be a number of bytes/s in [0, 1e15] (0 = unset)");
    NEED(optional(in->drive_read_iops, MAX_IOPS), "drive_read_iops",
         "must be a number in [0, 1e12] (0 = unset)");
    NEED(optional(in->drive_write_iops, MAX_IOPS), "drive_write_iops",
         "must be a number in [0, 1e12] (0 = unset)");
    NEED(hwfit__in_range(in->read_fraction, 0.0, 1.0), "read_fraction",
         "must be a number in [0, 1]");
    NEED(positive(in->rebuild_bytes_per_s, MAX_RATE), "rebuild_bytes_per_s",
         "must be a number of bytes/s in (0, 1e15]");
    NEED(hwfit__in_range(in->replace_delay_s, 0.0, MAX_TIME_S), "replace_delay_s",
         "must be a number of seconds in [0, 1e15]");
    NEED(hwfit__in_range(in->bit_error_rate, 0.0, 1.0), "bit_error_rate",
         "must be a number in [0, 1]");
    NEED(positive(in->drive_mttf_s, MAX_TIME_S), "drive_mttf_s",
         "must be a number of seconds in (0, 1e15]");
    NEED(hwfit__in_range(in->mission_s, 0.0, MAX_TIME_S), "mission_s",
         "must be a number of seconds in [0, 1e15]");
    shape sh;
    hwfit_status st = resolve_shape(in, &sh, why);
    if (st != HWFIT_OK) return st;

    hwfit_raid_out r;
    memset(&r, 0, sizeof r);
    const double c = in->drive_bytes;
    r.level = in->layout.level;
    r.drives = in->drives;
    r.member_drives = sh.members;
    r.groups = sh.groups;
    r.group_width = sh.width;
    r.parity = sh.parity;
    r.draid_data = sh.ndata;
    r.tolerated_failures = sh.parity;
    r.raw_bytes = (double)in->drives * c;

    /* Capacity. Classic levels: drives' worth of data x C. ZFS: each record of psize bytes
     * occupies asize bytes of raw space, so the data held is raw x psize / asize; then the
     * pool keeps its slop space back. */
    double usable;
    if (sh.zfs) {
        uint64_t psize = (uint64_t)in->record_bytes;
        unsigned ashift = log2_u64((uint64_t)in->sector_bytes);
        uint64_t asize = sh.draid ? draid_asize(psize, ashift, sh.ndata, sh.parity)
                                  : raidz_asize(psize, ashift, sh.width, sh.parity);
        r.allocation_efficiency = (double)psize / (double)asize;
        double data_drives = sh.draid ? (double)(sh.members - in->layout.draid_spares)
                                      : (double)sh.members;
        double space = data_drives * c * r.allocation_efficiency;
        r.slop_bytes = zfs_slop(space);
        usable = space - r.slop_bytes;
    } else {
        r.allocation_efficiency = sh.data_equiv / (double)sh.members;
        usable = sh.data_equiv * c;
    }
    r.usable_bytes = usable;
    r.space_efficiency = usable / r.raw_bytes;

    /* Sequential rates: every member reads; writes carry data_equiv drives of data. */
    if (in->drive_read_bytes_per_s > 0.0)
        r.read_bytes_per_s = (double)sh.members * in->drive_read_bytes_per_s;
    if (in->drive_write_bytes_per_s > 0.0)
        r.write_bytes_per_s = sh.data_equiv * in->drive_write_bytes_per_s;

    /* Random IOPS with the write penalty, harmonic over the read/write mix. */
    double rf = in->read_fraction, wf = 1.0 - rf;
    double pr = (double)sh.penalty_reads, pw = (double)sh.penalty_writes;
    double ir = in->drive_read_iops, iw = in->drive_write_iops;
    r.read_iops = iops_from_cost(sh.iops_units, op_cost(1.0, 0.0, ir, iw));
    r.write_iops = iops_from_cost(sh.iops_units, op_cost(pr, pw, ir, iw));
    r.mixed_iops = iops_from_cost(sh.iops_units, op_cost(rf + wf * pr, wf * pw, ir, iw));
    r.write_penalty = sh.penalty_reads + sh.penalty_writes;

    /* Rebuild of one failed drive, its URE exposure, MTTDL. */
    double mttf = in->drive_mttf_s;
    if (r.level == HWFIT_STORAGE_RAID0) {
        r.mttdl_s = mttf / (double)sh.members;
    } else {
        double fill = sh.zfs ? in->fill_fraction : 1.0;
        r.rebuild_bytes = c * fill;
        r.rebuild_s = r.rebuild_bytes / (in->rebuild_bytes_per_s * sh.rebuild_speedup);
        r.rebuild_read_bytes = sh.rebuild_read_drives * c * fill;
        /* P(>= 1 URE) = 1 - (1 - BER)^bits ~ 1 - exp(-BER x bits). */
        r.ure_probability = -expm1(-in->bit_error_rate * HWFIT_BITS_PER_BYTE * r.rebuild_read_bytes);
        r.ure_loss_probability = sh.parity == 1u ? r.ure_probability : 0.0;
        int spare = in->spares > 0u || (sh.draid && in->layout.draid_spares > 0u);
        r.mttr_s = r.rebuild_s + (spare ? 0.0 : in->replace_delay_s);
        /* k-of-n group tolerating p failures (Patterson/Gibson/Chen):
         * MTTDL = MTTF^(p+1) / (n (n-1) ... (n-p) MTTR^p), as a product to avoid overflow;
         * G independent groups divide it by G. */
        double n = (double)sh.mttdl_width, m = mttf / n;
        for (uint64_t i = 1; i <= sh.parity; i++) m *= mttf / ((n - (double)i) * r.mttr_s);
        r.mttdl_s = m / sh.mttdl_groups;
    }
    if (!hwfit__finite(r.mttdl_s))
        return hwfit__why(why, HWFIT_ERANGE, "drives",
                          "give a mean time to data loss too large for a double");
    /* Times and rates that need only be positive can still be absurd (a rebuild at
     * 1e-308 B/s makes the repair time infinite and the MTTDL 0; an MTTF of 1e-308 s makes
     * the MTTDL 0): refuse what no double holds. */
    r.mttdl_h = r.mttdl_s / HWFIT_SECONDS_PER_HOUR;
    r.loss_probability = -expm1(-in->mission_s / r.mttdl_s);
    r.drive_afr = -expm1(-HWFIT_SECONDS_PER_YEAR / mttf);
    const double results[] = {r.rebuild_s, r.mttr_s, r.mttdl_h, r.loss_probability};
    if (!(r.mttdl_s > 0.0) || !hwfit__all_finite(results, sizeof results / sizeof results[0]))
        return hwfit__why(why, HWFIT_ERANGE, "drive_mttf_s",
                          "or rebuild_bytes_per_s gives a mean time to data loss too small "
                          "for a double");
    *out = r;
    return HWFIT_OK;
}

hwfit_status hwfit_raid_evaluate(const hwfit_raid_in *in, hwfit_raid_out *out) {
    if (in == NULL || out == NULL) return HWFIT_EINVAL;
    return raid(in, out, NULL);
}

hwfit_status hwfit_raid_validate(const hwfit_raid_in *in, hwfit_problem *problem) {
    hwfit_problem_clear(problem);
    if (in == NULL) return hwfit__why(problem, HWFIT_EINVAL, "in", HWFIT__NULL);
    hwfit_raid_out scratch;
    return raid(in, &scratch, problem);
}

/* ---- transfers ------------------------------------------------------------------------- */

static const char *const transport_names[] = {"local", "nvmeof-roce", "nvmeof-tcp"};

const char *hwfit_storage_transport_name(hwfit_storage_transport transport) {
    unsigned i = (unsigned)transport;
    return i < 3u ? transport_names[i] : "unknown";
}

hwfit_status hwfit_storage_transport_parse(const char *text, hwfit_storage_transport *transport) {
    if (text == NULL || transport == NULL) return HWFIT_EINVAL;
    static const struct {
        const char *name;
        hwfit_storage_transport value;
    } names[] = {
        {"local", HWFIT_STORAGE_TRANSPORT_LOCAL},
        {"nvmeof-roce", HWFIT_STORAGE_TRANSPORT_NVMEOF_ROCE},
        {"roce", HWFIT_STORAGE_TRANSPORT_NVMEOF_ROCE},
        {"rocev2", HWFIT_STORAGE_TRANSPORT_NVMEOF_ROCE},
        {"rdma", HWFIT_STORAGE_TRANSPORT_NVMEOF_ROCE},
        {"nvmeof-tcp", HWFIT_STORAGE_TRANSPORT_NVMEOF_TCP},
        {"tcp", HWFIT_STORAGE_TRANSPORT_NVMEOF_TCP},
    };
    char buf[32];
    if (!lower_copy(text, buf, sizeof buf)) return HWFIT_ENOTFOUND;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(buf, names[i].name) == 0) {
            *transport = names[i].value;
            return HWFIT_OK;
        }
    }
    return HWFIT_ENOTFOUND;
}

void hwfit_transfer_init(hwfit_transfer_in *in) {
    if (in == NULL) return;
    memset(in, 0, sizeof *in);
    in->transport = HWFIT_STORAGE_TRANSPORT_LOCAL;
    in->local_efficiency = 1.0;
    in->roce_efficiency = 0.95;
    in->tcp_efficiency = 0.85;
    in->backend_bytes_per_s = HWFIT_STORAGE_UNSET;
    in->capacity_bytes = HWFIT_STORAGE_UNSET;
}

static hwfit_status transfer(const hwfit_transfer_in *in, hwfit_transfer_out *out,
                             hwfit_problem *why) {
    if ((unsigned)in->transport > (unsigned)HWFIT_STORAGE_TRANSPORT_NVMEOF_TCP)
        return hwfit__why(why, HWFIT_EINVAL, "transport", HWFIT__ENUM);
    NEED(hwfit__in_range(in->bytes, 0.0, MAX_BYTES * 1e6), "bytes",
         "must be a number of bytes in [0, 1e24]");
    NEED(positive(in->rate_bytes_per_s, MAX_RATE), "rate_bytes_per_s",
         "must be a number of bytes/s in (0, 1e15]");
    NEED(positive(in->local_efficiency, 1.0), "local_efficiency", "must be a number in (0, 1]");
    NEED(positive(in->roce_efficiency, 1.0), "roce_efficiency", "must be a number in (0, 1]");
    NEED(positive(in->tcp_efficiency, 1.0), "tcp_efficiency", "must be a number in (0, 1]");
    NEED(optional(in->backend_bytes_per_s, MAX_RATE), "backend_bytes_per_s",
         "must be a number of bytes/s in [0, 1e15] (0 = unset)");
    NEED(optional(in->capacity_bytes, MAX_BYTES * 1e6), "capacity_bytes",
         "must be a number of bytes in [0, 1e24] (0 = unset)");
    hwfit_transfer_out r;
    memset(&r, 0, sizeof r);
    const double eff[] = {in->local_efficiency, in->roce_efficiency, in->tcp_efficiency};
    r.efficiency = eff[in->transport];
    /* Effective rate = min(link rate x protocol efficiency, backend rate); t = bytes / rate. */
    r.effective_bytes_per_s = in->rate_bytes_per_s * r.efficiency;
    if (in->backend_bytes_per_s > 0.0 && in->backend_bytes_per_s < r.effective_bytes_per_s) {
        r.effective_bytes_per_s = in->backend_bytes_per_s;
        r.backend_limited = 1;
    }
    r.time_s = in->bytes / r.effective_bytes_per_s;
    r.fits = 1;
    if (in->capacity_bytes > 0.0) {
        r.capacity_checked = 1;
        r.fits = in->bytes <= in->capacity_bytes;
        r.fill_fraction = in->bytes / in->capacity_bytes;
    }
    /* Rates and capacities only need to be positive, so a tiny one (1e-300 B/s) can make
     * the quotients overflow: refuse rather than return an infinite time. */
    if (!hwfit__finite(r.time_s))
        return hwfit__why(why, HWFIT_ERANGE, "rate_bytes_per_s",
                          "is so small that the time overflows a double");
    if (!hwfit__finite(r.fill_fraction))
        return hwfit__why(why, HWFIT_ERANGE, "capacity_bytes",
                          "is so small that the fill fraction overflows a double");
    *out = r;
    return HWFIT_OK;
}

hwfit_status hwfit_transfer_estimate(const hwfit_transfer_in *in, hwfit_transfer_out *out) {
    if (in == NULL || out == NULL) return HWFIT_EINVAL;
    return transfer(in, out, NULL);
}

hwfit_status hwfit_transfer_validate(const hwfit_transfer_in *in, hwfit_problem *problem) {
    hwfit_problem_clear(problem);
    if (in == NULL) return hwfit__why(problem, HWFIT_EINVAL, "in", HWFIT__NULL);
    hwfit_transfer_out scratch;
    return transfer(in, &scratch, problem);
}
