/* fuzz_calc_infra.c - libFuzzer target for the storage, power and host calculations.
 *
 * The first byte picks the calculation; the rest decode its input struct field by field
 * after its _init (fuzz_input.h: mostly defaults, often hostile values). Every call runs
 * with a poisoned output and must either succeed with finite results that satisfy the
 * module's invariants (usable <= raw, probabilities in [0, 1], parts that sum to the total,
 * time that grows with the bytes...) or fail leaving the output untouched; its _validate
 * companion must return the same status and name a field.
 */
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define POISON(x) memset(&(x), 0x5a, sizeof(x))
#define UNTOUCHED(x, p) FZ_CHECK(memcmp(&(x), &(p), sizeof(x)) == 0)

static void set_u64(fz *f, uint64_t *x) {
    if (!fz_keep(f)) *x = fz_u64(f);
}
static void set_double(fz *f, double *x) {
    if (!fz_keep(f)) *x = fz_double(f);
}
static void set_int(fz *f, int *x) {
    if (!fz_keep(f)) *x = fz_enum(f, 2);
}

static int in01(double x) { return hwfit__finite(x) && x >= 0.0 && x <= 1.0; }

static void raid(fz *f) {
    hwfit_raid_in in;
    hwfit_raid_init(&in);
    in.drives = 2 + fz_u8(f) % 24;
    in.drive_bytes = 1e12 * (1 + fz_u8(f) % 30);
    if (!fz_keep(f)) in.layout.level = (hwfit_raid_level)fz_enum(f, 13);
    else in.layout.level = (hwfit_raid_level)(fz_u8(f) % 13);
    set_u64(f, &in.layout.copies);
    set_u64(f, &in.layout.groups);
    set_u64(f, &in.layout.draid_data);
    set_u64(f, &in.layout.draid_children);
    set_u64(f, &in.layout.draid_spares);
    set_u64(f, &in.drives);
    set_u64(f, &in.spares);
    double *d[] = {&in.drive_bytes,        &in.record_bytes,           &in.sector_bytes,
                   &in.fill_fraction,      &in.drive_read_bytes_per_s, &in.drive_write_bytes_per_s,
                   &in.drive_read_iops,    &in.drive_write_iops,       &in.read_fraction,
                   &in.rebuild_bytes_per_s, &in.replace_delay_s,       &in.bit_error_rate,
                   &in.drive_mttf_s,       &in.mission_s};
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++) set_double(f, d[i]);
    if (!fz_keep(f)) in.drive_read_bytes_per_s = 7e9, in.drive_write_iops = 3e5;

    hwfit_raid_out out, poison;
    POISON(out);
    poison = out;
    hwfit_problem p;
    hwfit_status st = hwfit_raid_evaluate(&in, &out);
    fz_check_problem(st, hwfit_raid_validate(&in, &p), &p);
    FZ_CHECK(st == HWFIT_OK || st == HWFIT_EINVAL || st == HWFIT_EDOM || st == HWFIT_ERANGE);
    if (st != HWFIT_OK) {
        UNTOUCHED(out, poison);
        return;
    }
    fz_check_doubles(&out.raw_bytes, 5, 1); /* raw .. slop */
    fz_check_doubles(&out.read_bytes_per_s, 5, 1);
    fz_check_doubles(&out.rebuild_bytes, 10, 1); /* rebuild .. drive_afr */
    FZ_CHECK(out.usable_bytes <= out.raw_bytes);
    FZ_CHECK(in01(out.space_efficiency) && in01(out.allocation_efficiency));
    FZ_CHECK(in01(out.ure_probability) && in01(out.ure_loss_probability));
    FZ_CHECK(in01(out.loss_probability) && in01(out.drive_afr));
    FZ_CHECK(out.member_drives <= out.drives && out.drives == in.drives);
    FZ_CHECK(out.tolerated_failures < out.member_drives);
    FZ_CHECK(out.mttdl_s > 0.0);
    /* A faster rebuild never takes longer. */
    if (in.rebuild_bytes_per_s * 2.0 <= 1e15) {
        hwfit_raid_out faster;
        in.rebuild_bytes_per_s *= 2.0;
        st = hwfit_raid_evaluate(&in, &faster);
        FZ_CHECK(st == HWFIT_OK || st == HWFIT_ERANGE); /* the MTTDL may overflow */
        if (st == HWFIT_OK) {
            FZ_CHECK(faster.rebuild_s <= out.rebuild_s);
            FZ_CHECK(faster.mttdl_s >= out.mttdl_s);
            FZ_CHECK(faster.usable_bytes == out.usable_bytes);
        }
    }
}

static void transfer(fz *f) {
    hwfit_transfer_in in;
    hwfit_transfer_init(&in);
    in.bytes = 1e9 * fz_u8(f);
    in.rate_bytes_per_s = 1e8 * (1 + fz_u8(f));
    if (!fz_keep(f)) in.transport = (hwfit_storage_transport)fz_enum(f, 3);
    double *d[] = {&in.bytes,           &in.rate_bytes_per_s,    &in.local_efficiency,
                   &in.roce_efficiency, &in.tcp_efficiency,      &in.backend_bytes_per_s,
                   &in.capacity_bytes};
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++) set_double(f, d[i]);
    hwfit_transfer_out out, poison;
    POISON(out);
    poison = out;
    hwfit_problem p;
    hwfit_status st = hwfit_transfer_estimate(&in, &out);
    fz_check_problem(st, hwfit_transfer_validate(&in, &p), &p);
    FZ_CHECK(st == HWFIT_OK || st == HWFIT_EINVAL || st == HWFIT_EDOM || st == HWFIT_ERANGE);
    if (st != HWFIT_OK) {
        UNTOUCHED(out, poison);
        return;
    }
    FZ_CHECK(in01(out.efficiency) && out.efficiency > 0.0);
    FZ_CHECK(hwfit__finite(out.effective_bytes_per_s) && out.effective_bytes_per_s > 0.0);
    FZ_CHECK(out.effective_bytes_per_s <= in.rate_bytes_per_s);
    FZ_CHECK(hwfit__finite(out.time_s) && out.time_s >= 0.0);
    FZ_CHECK(hwfit__finite(out.fill_fraction) && out.fill_fraction >= 0.0);
    FZ_CHECK(out.fits == (!out.capacity_checked || in.bytes <= in.capacity_bytes));
    /* Time grows with the bytes (or overflows). */
    if (in.bytes * 2.0 <= 1e24) {
        hwfit_transfer_out more;
        in.bytes *= 2.0;
        st = hwfit_transfer_estimate(&in, &more);
        FZ_CHECK(st == HWFIT_OK || st == HWFIT_ERANGE);
        if (st == HWFIT_OK) FZ_CHECK(more.time_s >= out.time_s);
    }
}

static void budget(fz *f) {
    hwfit_power_budget_in in;
    hwfit_power_budget_init(&in);
    unsigned lines = fz_u8(f) % 8u;
    for (unsigned i = 0; i < lines; i++) {
        hwfit_power_component_kind k = (hwfit_power_component_kind)(fz_u8(f) % 9u);
        uint64_t c = fz_u8(f);
        double w = 10.0 * fz_u8(f);
        FZ_CHECK(hwfit_power_budget_add(&in, k, c, w) == HWFIT_OK);
    }
    if (!fz_keep(f)) in.component_count = fz_u64(f);
    for (unsigned i = 0; i < HWFIT_POWER_MAX_COMPONENTS; i++) {
        if (fz_keep(f)) continue;
        in.components[i].kind = (hwfit_power_component_kind)fz_enum(f, 9);
        in.components[i].count = fz_u64(f);
        in.components[i].watts = fz_double(f);
    }
    set_double(f, &in.gpu_transient_factor);
    /* budget_add: a line that is refused leaves the budget as it was. */
    hwfit_power_budget_in before = in;
    hwfit_power_component_kind kind = (hwfit_power_component_kind)fz_enum(f, 9);
    uint64_t count = fz_u64(f);
    double watts = fz_double(f);
    hwfit_status st = hwfit_power_budget_add(&in, kind, count, watts);
    if (st != HWFIT_OK) FZ_CHECK(memcmp(&before, &in, sizeof in) == 0);

    hwfit_power_budget_out out, poison;
    POISON(out);
    poison = out;
    hwfit_problem p;
    st = hwfit_power_budget_evaluate(&in, &out);
    fz_check_problem(st, hwfit_power_budget_validate(&in, &p), &p);
    FZ_CHECK(st == HWFIT_OK || st == HWFIT_EINVAL || st == HWFIT_EDOM);
    if (st != HWFIT_OK) {
        UNTOUCHED(out, poison);
        if (p.field[0] == 'c' && strncmp(p.field, "components.", 11) == 0)
            FZ_CHECK(p.index < in.component_count);
        return;
    }
    fz_check_doubles(out.kind_w, HWFIT_POWER_COMPONENT_KINDS, 1);
    fz_check_doubles(&out.dc_w, 2, 1);
    FZ_CHECK(out.peak_dc_w >= out.dc_w); /* a transient factor >= 1 never lowers the peak */
    FZ_CHECK(out.gpus == out.kind_count[HWFIT_POWER_COMPONENT_GPU]);
}

static void psu(fz *f) {
    hwfit_psu_in in;
    hwfit_psu_init(&in);
    in.psus = 1 + fz_u8(f) % 8;
    in.redundant = fz_u8(f) % in.psus;
    in.psu_rating_w = 100.0 * (1 + fz_u8(f));
    in.load_w = 50.0 * (1 + fz_u8(f));
    set_u64(f, &in.psus);
    set_u64(f, &in.redundant);
    double *d[] = {&in.psu_rating_w,   &in.psu_low_line_rating_w, &in.input_voltage_v,
                   &in.load_w,         &in.peak_load_w,           &in.headroom_ratio,
                   &in.peak_ratio,     &in.fixed_efficiency};
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++) set_double(f, d[i]);
    if (!fz_keep(f)) in.psu_class = (hwfit_psu_class)fz_enum(f, 7);
    else in.psu_class = (hwfit_psu_class)(fz_u8(f) % 7);
    if (!fz_keep(f)) in.table = (hwfit_psu_table)fz_enum(f, 4);
    else in.table = (hwfit_psu_table)(fz_u8(f) % 4);
    if (!fz_keep(f)) in.input_voltage_v = 90.0 + fz_u8(f);
    if (!fz_keep(f)) in.psu_low_line_rating_w = 50.0 * fz_u8(f);
    set_int(f, &in.cold_redundancy);

    hwfit_psu_out out, poison;
    POISON(out);
    poison = out;
    hwfit_problem p;
    hwfit_status st = hwfit_psu_evaluate(&in, &out);
    fz_check_problem(st, hwfit_psu_validate(&in, &p), &p);
    FZ_CHECK(st == HWFIT_OK || st == HWFIT_EINVAL || st == HWFIT_EDOM ||
             st == HWFIT_EUNSUPPORTED || st == HWFIT_ERANGE);
    if (st != HWFIT_OK) {
        UNTOUCHED(out, poison);
        return;
    }
    fz_check_doubles(&out.rating_w, 6, 1); /* rating .. required */
    FZ_CHECK(hwfit__finite(out.headroom_w)); /* negative when short */
    fz_check_doubles(&out.usable_to_load, 10, 1);
    FZ_CHECK(out.usable_w <= out.installed_w);
    FZ_CHECK(out.active_psus >= 1 && out.active_psus <= out.psus);
    FZ_CHECK(out.sharing_psus >= out.active_psus && out.sharing_psus <= out.psus);
    FZ_CHECK(out.peak_load_w >= out.load_w);
    FZ_CHECK(out.efficiency > 0.0 && out.efficiency <= 1.0);
    FZ_CHECK(out.failover_efficiency > 0.0 && out.failover_efficiency <= 1.0);
    FZ_CHECK(out.wall_w >= out.load_w && out.failover_wall_w >= out.load_w);
    FZ_CHECK(out.meets_headroom <= out.meets_load); /* the rule's ratio is >= 1 */
    FZ_CHECK(out.table != HWFIT_POWER_TABLE_AUTO);

    double e = -1.0;
    st = hwfit_psu_efficiency(in.psu_class, in.table, fz_double(f), &e);
    FZ_CHECK(st != HWFIT_OK || (e > 0.0 && e <= 1.0));
    if (st != HWFIT_OK) FZ_CHECK(e == -1.0);
}

static void thermal(fz *f) {
    hwfit_thermal_in in;
    hwfit_thermal_init(&in);
    in.heat_w = 100.0 * fz_u8(f);
    double *d[] = {&in.heat_w, &in.delta_t_c, &in.air_density_kg_per_m3,
                   &in.air_heat_capacity_j_per_kg_k, &in.air_marginal_above_w,
                   &in.liquid_above_w};
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++) set_double(f, d[i]);
    set_u64(f, &in.chassis_per_rack);
    hwfit_thermal_out out, poison;
    POISON(out);
    poison = out;
    hwfit_problem p;
    hwfit_status st = hwfit_thermal_evaluate(&in, &out);
    fz_check_problem(st, hwfit_thermal_validate(&in, &p), &p);
    FZ_CHECK(st == HWFIT_OK || st == HWFIT_EDOM || st == HWFIT_ERANGE);
    if (st != HWFIT_OK) {
        UNTOUCHED(out, poison);
        return;
    }
    fz_check_doubles(&out.heat_w, 7, 1);
    FZ_CHECK((unsigned)out.cooling <= (unsigned)HWFIT_POWER_COOLING_LIQUID_RECOMMENDED);
    FZ_CHECK(out.rack_heat_w >= out.heat_w);
}

static void energy(fz *f) {
    hwfit_energy_in in;
    hwfit_energy_init(&in);
    in.power_w = 100.0 * fz_u8(f);
    double *d[] = {&in.power_w, &in.idle_power_w, &in.duty_cycle, &in.pue, &in.price_per_kwh,
                   &in.hours_per_year};
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++) set_double(f, d[i]);
    hwfit_energy_out out, poison;
    POISON(out);
    poison = out;
    hwfit_problem p;
    hwfit_status st = hwfit_energy_evaluate(&in, &out);
    fz_check_problem(st, hwfit_energy_validate(&in, &p), &p);
    FZ_CHECK(st == HWFIT_OK || st == HWFIT_EDOM || st == HWFIT_ERANGE);
    if (st != HWFIT_OK) {
        UNTOUCHED(out, poison);
        return;
    }
    fz_check_doubles(&out.average_power_w, 6, 1);
    FZ_CHECK(out.facility_power_w >= out.average_power_w);
    FZ_CHECK(out.annual_energy_kwh >= out.it_energy_kwh);
}

static void tco(fz *f) {
    hwfit_tco_in in;
    hwfit_tco_init(&in);
    in.capex = 1000.0 * fz_u8(f);
    in.annual_energy_cost = 100.0 * fz_u8(f);
    double *d[] = {&in.capex, &in.annual_energy_cost, &in.annual_other_cost, &in.discount_rate,
                   &in.utilization};
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++) set_double(f, d[i]);
    set_u64(f, &in.years);
    set_u64(f, &in.gpus);
    hwfit_tco_out out, poison;
    POISON(out);
    poison = out;
    hwfit_problem p;
    hwfit_status st = hwfit_tco_evaluate(&in, &out);
    fz_check_problem(st, hwfit_tco_validate(&in, &p), &p);
    FZ_CHECK(st == HWFIT_OK || st == HWFIT_EDOM || st == HWFIT_ERANGE);
    if (st != HWFIT_OK) {
        UNTOUCHED(out, poison);
        return;
    }
    fz_check_doubles(&out.opex, 5, 1);
    FZ_CHECK(out.tco >= in.capex);
    FZ_CHECK(out.cost_per_gpu_hour >= out.cost_per_hour / (double)in.gpus * (1.0 - 1e-12));
}

static void host(fz *f) {
    hwfit_host_in in;
    hwfit_host_init(&in);
    if (fz_u8(f) & 1) { /* a plausible 2P EPYC host */
        in.sockets = 2;
        in.cores = 128;
        in.gpus = 8;
        in.ram_bytes = 1.5e12;
        in.vram_bytes = 768e9;
        in.channels_per_socket = 12;
        in.dimms = 24;
        in.speed_mts = 6400;
        in.lanes_per_socket = 128;
        in.nvme = 4;
        in.nics = 2;
    }
    uint64_t *u[] = {&in.sockets,          &in.cores,
                     &in.gpus,             &in.channels_per_socket,
                     &in.dimms,            &in.max_dimms_per_channel,
                     &in.channel_width_bytes, &in.lanes_per_socket,
                     &in.socket_links,     &in.socket_link_lanes,
                     &in.gpu_lanes,        &in.gpu_bifurcated_lanes,
                     &in.nvme,             &in.nvme_lanes,
                     &in.nics,             &in.nic_lanes,
                     &in.other_lanes,      &in.switches,
                     &in.switch_upstream_lanes, &in.switch_downstream_lanes};
    for (size_t i = 0; i < sizeof u / sizeof u[0]; i++) set_u64(f, u[i]);
    double *d[] = {&in.cores_per_gpu_rule, &in.ram_bytes, &in.vram_bytes,
                   &in.ram_to_vram_rule,   &in.speed_mts, &in.speed_2dpc_mts};
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++) set_double(f, d[i]);
    set_int(f, &in.switch_gpus);
    set_int(f, &in.switch_nvme);
    set_int(f, &in.switch_nics);
    hwfit_host_out out, poison;
    POISON(out);
    poison = out;
    hwfit_problem p;
    hwfit_status st = hwfit_host_evaluate(&in, &out);
    fz_check_problem(st, hwfit_host_validate(&in, &p), &p);
    FZ_CHECK(st == HWFIT_OK || st == HWFIT_EDOM || st == HWFIT_ERANGE);
    if (st != HWFIT_OK) {
        UNTOUCHED(out, poison);
        return;
    }
    const double ds[] = {out.cores_per_gpu, out.cores_needed, out.ram_to_vram,
                         out.ram_needed_bytes, out.dimms_per_channel, out.effective_speed_mts,
                         out.channel_bandwidth_bytes_per_s,
                         out.memory_bandwidth_per_socket_bytes_per_s,
                         out.memory_bandwidth_bytes_per_s, out.dimm_bytes,
                         out.switch_oversubscription};
    fz_check_doubles(ds, sizeof ds / sizeof ds[0], 1);
    const int flags[] = {out.cores_evaluated, out.meets_cores_rule, out.ram_evaluated,
                         out.meets_ram_rule, out.memory_evaluated, out.balanced,
                         out.within_slot_limit, out.downclocked, out.speed_rule_known,
                         out.lanes_evaluated, out.lanes_fit, out.lanes_fit_bifurcated,
                         out.lanes_fit_switched};
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        FZ_CHECK(flags[i] == 0 || flags[i] == 1);
    FZ_CHECK(out.populated_channels <= out.channels);
    FZ_CHECK(out.pcie_lanes_available <= out.pcie_lanes_total);
    FZ_CHECK(out.memory_bandwidth_per_socket_bytes_per_s <= out.memory_bandwidth_bytes_per_s);
    if (out.lanes_evaluated)
        FZ_CHECK(out.pcie_lanes_needed == out.gpu_lanes_needed + out.nvme_lanes_needed +
                                              out.nic_lanes_needed + in.other_lanes);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz f = {data, size};
    switch (fz_u8(&f) % 8) {
    case 0: raid(&f); break;
    case 1: transfer(&f); break;
    case 2: budget(&f); break;
    case 3: psu(&f); break;
    case 4: thermal(&f); break;
    case 5: energy(&f); break;
    case 6: tco(&f); break;
    default: host(&f); break;
    }
    return 0;
}
