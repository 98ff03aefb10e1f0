/* fuzz_parsers.c - libFuzzer target for every name and short-text parser of the public API:
 * number formats, links, NICs, RAID levels, PSU classes and tables, redundancy schemes,
 * prices, power-budget lines, transports, LoRA targets, collective names.
 *
 * The input is the text (NUL-terminated copy); its first byte also gives the PSU count for
 * the redundancy parser. Each parser must return one of its documented statuses, leave its
 * output untouched on error, and on success produce a value the rest of the library
 * accepts: a parsed format formats back to a name that parses to the same format, a parsed
 * link rates with finite figures, a parsed budget line can be added to a budget, a name
 * round-trips through its _name function.
 */
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void dtype(const char *text) {
    hwfit_dtype d, poison;
    memset(&d, 0x5a, sizeof d);
    poison = d;
    hwfit_status st = hwfit_dtype_parse(text, &d);
    FZ_CHECK(st == HWFIT_OK || st == HWFIT_ENOTFOUND || st == HWFIT_EDOM);
    if (st != HWFIT_OK) {
        FZ_CHECK(memcmp(&d, &poison, sizeof d) == 0);
        return;
    }
    char name[HWFIT_DTYPE_NAME_SIZE];
    FZ_CHECK(hwfit_dtype_format(d, name, sizeof name) == HWFIT_OK);
    hwfit_dtype again;
    FZ_CHECK(hwfit_dtype_parse(name, &again) == HWFIT_OK);
    FZ_CHECK(again.id == d.id);
    hwfit_dtype_info a, b;
    FZ_CHECK(hwfit_dtype_describe(d, &a) == HWFIT_OK);
    FZ_CHECK(hwfit_dtype_describe(again, &b) == HWFIT_OK);
    FZ_CHECK(a.block_elements == b.block_elements && a.block_bits == b.block_bits);
    FZ_CHECK(hwfit__finite(a.bits_per_element) && a.bits_per_element > 0.0);
}

static void link_text(const char *text) {
    hwfit_link_in in, poison;
    memset(&in, 0x5a, sizeof in);
    poison = in;
    hwfit_status st = hwfit_link_parse(text, &in);
    FZ_CHECK(st == HWFIT_OK || st == HWFIT_EPARSE || st == HWFIT_EDOM);
    if (st != HWFIT_OK) {
        FZ_CHECK(memcmp(&in, &poison, sizeof in) == 0);
        return;
    }
    hwfit_link_out out;
    hwfit_problem p;
    FZ_CHECK(hwfit_link_rate(&in, &out) == HWFIT_OK);
    FZ_CHECK(hwfit_link_validate(&in, &p) == HWFIT_OK);
    FZ_CHECK(memchr(out.name, '\0', sizeof out.name) != NULL && out.name[0] != '\0');
    fz_check_doubles(&out.lane_raw_bits_per_s, 1, 1);
    FZ_CHECK(out.line_bytes_per_s > 0.0 && hwfit__finite(out.line_bytes_per_s));
    FZ_CHECK(out.payload_bytes_per_s <= out.line_bytes_per_s);
    FZ_CHECK(out.payload_bytes_per_s > 0.0);
    FZ_CHECK(out.line_bytes_per_s_bidir == 2.0 * out.line_bytes_per_s);
}

static void nic(const char *text) {
    hwfit_topology t, poison;
    hwfit_topology_init(&t);
    poison = t;
    hwfit_status st = hwfit_topology_parse_nic(text, &t);
    FZ_CHECK(st == HWFIT_OK || st == HWFIT_EPARSE || st == HWFIT_EDOM);
    if (st != HWFIT_OK) {
        FZ_CHECK(memcmp(&t, &poison, sizeof t) == 0);
        return;
    }
    /* Two nodes with this NIC either estimate or report a documented problem. */
    hwfit_collective_in in;
    hwfit_collective_init(&in);
    in.topology = t;
    in.topology.nodes = 2;
    hwfit_collective_out out;
    hwfit_problem p;
    st = hwfit_collective_estimate(&in, &out);
    fz_check_problem(st, hwfit_collective_validate(&in, &p), &p);
    FZ_CHECK(st == HWFIT_OK || st == HWFIT_EDOM);
}

static void raid(const char *text) {
    hwfit_raid_layout l, poison;
    memset(&l, 0x5a, sizeof l);
    poison = l;
    hwfit_status st = hwfit_raid_level_parse(text, &l);
    FZ_CHECK(st == HWFIT_OK || st == HWFIT_ENOTFOUND || st == HWFIT_EPARSE || st == HWFIT_EDOM);
    if (st != HWFIT_OK) {
        FZ_CHECK(memcmp(&l, &poison, sizeof l) == 0);
        return;
    }
    FZ_CHECK(strcmp(hwfit_raid_level_name(l.level), "unknown") != 0);
    uint64_t n = 0;
    st = hwfit_raid_min_drives(&l, &n);
    FZ_CHECK(st == HWFIT_OK || st == HWFIT_ERANGE);
    if (st != HWFIT_OK || n > 1000000u) return;
    /* The minimum is accepted (when the dRAID children cross-check allows it). */
    hwfit_raid_in in;
    hwfit_raid_init(&in);
    in.layout = l;
    in.drives = n;
    in.drive_bytes = 1e12;
    hwfit_raid_out out;
    st = hwfit_raid_evaluate(&in, &out);
    FZ_CHECK(st == HWFIT_OK || (l.draid_children != 0 && st == HWFIT_EDOM));
    if (st == HWFIT_OK) {
        FZ_CHECK(out.usable_bytes <= out.raw_bytes);
        in.drives = n - 1;
        FZ_CHECK(hwfit_raid_evaluate(&in, &out) == HWFIT_EDOM);
    }
}

static void power(const char *text, uint64_t psus) {
    hwfit_psu_class c = (hwfit_psu_class)77, c2;
    hwfit_status st = hwfit_psu_class_parse(text, &c);
    FZ_CHECK(st == HWFIT_OK || (st == HWFIT_ENOTFOUND && c == (hwfit_psu_class)77));
    if (st == HWFIT_OK) {
        FZ_CHECK(hwfit_psu_class_parse(hwfit_psu_class_name(c), &c2) == HWFIT_OK && c2 == c);
    }
    hwfit_psu_table t = (hwfit_psu_table)77, t2;
    st = hwfit_psu_table_parse(text, &t);
    FZ_CHECK(st == HWFIT_OK || (st == HWFIT_ENOTFOUND && t == (hwfit_psu_table)77));
    if (st == HWFIT_OK) {
        FZ_CHECK(hwfit_psu_table_parse(hwfit_psu_table_name(t), &t2) == HWFIT_OK && t2 == t);
    }

    uint64_t m = 12345;
    hwfit_problem p;
    st = hwfit_psu_redundancy_parse(text, psus, &m);
    fz_check_problem(st, hwfit_psu_redundancy_validate(text, psus, &p), &p);
    FZ_CHECK(st == HWFIT_OK || st == HWFIT_EPARSE || st == HWFIT_EDOM);
    if (st == HWFIT_OK) FZ_CHECK(m < psus);
    else FZ_CHECK(m == 12345);

    double price = -1.0;
    st = hwfit_price_per_kwh_parse(text, &price);
    FZ_CHECK(st == HWFIT_OK || st == HWFIT_EPARSE || st == HWFIT_EDOM || st == HWFIT_ERANGE);
    if (st == HWFIT_OK) FZ_CHECK(hwfit__finite(price) && price >= 0.0);
    else FZ_CHECK(price == -1.0);

    hwfit_power_component_kind k = (hwfit_power_component_kind)77, k2;
    st = hwfit_power_component_kind_parse(text, &k);
    FZ_CHECK(st == HWFIT_OK || (st == HWFIT_ENOTFOUND && k == (hwfit_power_component_kind)77));
    if (st == HWFIT_OK) {
        FZ_CHECK(hwfit_power_component_kind_parse(hwfit_power_component_kind_name(k), &k2) ==
                     HWFIT_OK &&
                 k2 == k);
    }

    hwfit_power_component line, poison;
    memset(&line, 0x5a, sizeof line);
    poison = line;
    st = hwfit_power_component_parse(text, &line);
    FZ_CHECK(st == HWFIT_OK || st == HWFIT_ENOTFOUND || st == HWFIT_EPARSE || st == HWFIT_EDOM);
    if (st != HWFIT_OK) {
        FZ_CHECK(memcmp(&line, &poison, sizeof line) == 0);
        return;
    }
    hwfit_power_budget_in b;
    hwfit_power_budget_init(&b);
    FZ_CHECK(hwfit_power_budget_add(&b, line.kind, line.count, line.watts) == HWFIT_OK);
    hwfit_power_budget_out o;
    FZ_CHECK(hwfit_power_budget_evaluate(&b, &o) == HWFIT_OK);
    FZ_CHECK(o.dc_w == (double)line.count * line.watts);
}

static void names(const char *text) {
    hwfit_storage_transport tr = (hwfit_storage_transport)77, tr2;
    hwfit_status st = hwfit_storage_transport_parse(text, &tr);
    FZ_CHECK(st == HWFIT_OK || (st == HWFIT_ENOTFOUND && tr == (hwfit_storage_transport)77));
    if (st == HWFIT_OK)
        FZ_CHECK(hwfit_storage_transport_parse(hwfit_storage_transport_name(tr), &tr2) ==
                     HWFIT_OK &&
                 tr2 == tr);

    unsigned bits = 0x5a5a;
    st = hwfit_memory_lora_targets_parse(text, &bits);
    FZ_CHECK(st == HWFIT_OK || st == HWFIT_EPARSE || st == HWFIT_ENOTFOUND);
    if (st == HWFIT_OK) FZ_CHECK(bits != 0 && (bits & ~HWFIT_LORA_ALL) == 0);
    else FZ_CHECK(bits == 0x5a5a);

    hwfit_collective_op op = (hwfit_collective_op)77, op2;
    st = hwfit_collective_op_from_name(text, &op);
    FZ_CHECK(st == HWFIT_OK || (st == HWFIT_ENOTFOUND && op == (hwfit_collective_op)77));
    if (st == HWFIT_OK)
        FZ_CHECK(hwfit_collective_op_from_name(hwfit_collective_op_name(op), &op2) == HWFIT_OK &&
                 op2 == op);
    hwfit_collective_algorithm a = (hwfit_collective_algorithm)77, a2;
    st = hwfit_collective_algorithm_from_name(text, &a);
    FZ_CHECK(st == HWFIT_OK || (st == HWFIT_ENOTFOUND && a == (hwfit_collective_algorithm)77));
    if (st == HWFIT_OK)
        FZ_CHECK(hwfit_collective_algorithm_from_name(hwfit_collective_algorithm_name(a), &a2) ==
                     HWFIT_OK &&
                 a2 == a);
    hwfit_collective_protocol pr = (hwfit_collective_protocol)77, pr2;
    st = hwfit_collective_protocol_from_name(text, &pr);
    FZ_CHECK(st == HWFIT_OK || (st == HWFIT_ENOTFOUND && pr == (hwfit_collective_protocol)77));
    if (st == HWFIT_OK)
        FZ_CHECK(hwfit_collective_protocol_from_name(hwfit_collective_protocol_name(pr), &pr2) ==
                     HWFIT_OK &&
                 pr2 == pr);
    const hwfit_gpu *g = NULL;
    st = hwfit_gpu_find(text, &g);
    FZ_CHECK(st == HWFIT_OK || (st == HWFIT_ENOTFOUND && g == NULL));
    if (st == HWFIT_OK) FZ_CHECK(strcmp(g->name, text) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 1024) return 0; /* names are short */
    char *text = malloc(size + 1);
    if (text == NULL) return 0;
    if (size) memcpy(text, data, size);
    text[size] = '\0';
    uint64_t psus = size ? data[0] % 12u : 0u;
    dtype(text);
    link_text(text);
    nic(text);
    raid(text);
    power(text, psus);
    names(text);
    free(text);
    return 0;
}
