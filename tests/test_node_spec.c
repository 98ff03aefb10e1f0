/* Node files: the JSON format of docs/node-spec.md, read strictly.
 *
 * The example files under examples/specs/ must load; a small file written here must give
 * the same node as the same server built by hand; every kind of bad input is refused with
 * the file name, line, column and key. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hwfit.h"

#define SPECS HWFIT_TEST_DATA "/../../examples/specs/"

/* Relative tolerance 1e-12: the same products computed from parsed and from typed values. */
#define REL 1e-12
#define ASSERT_NEAR(got, want, rel)                                                       \
    cr_assert(fabs((got) - (want)) <= (rel) * fabs(want) + 1e-300, "got %.17g want %.17g", \
              (double)(got), (double)(want))

static const char small[] =
    "{\n"
    "  \"name\": \"small\",\n"
    "  \"gpu\": {\"model\": \"l40s\", \"count\": 4},\n"
    "  \"cpu\": {\"sockets\": 1, \"cores_per_socket\": 32, \"tdp\": \"280W\",\n"
    "          \"memory_channels\": 12, \"pcie_lanes\": 128},\n"
    "  \"memory\": {\"dimms\": 12, \"dimm_size\": \"32GiB\", \"speed_mts\": 4800},\n"
    "  \"power\": {\"psus\": 2, \"psu_rating\": \"2000W\", \"redundancy\": \"N+1\"}\n"
    "}\n";

static hwfit_node parse_ok(const char *text) {
    hwfit_node n;
    hwfit_error err;
    hwfit_status st = hwfit_node_parse(text, strlen(text), "t.json", &n, &err);
    cr_assert_eq(st, HWFIT_OK, "%s: %u:%u %s", hwfit_status_name(st), err.line, err.column,
                 err.message);
    cr_assert_eq(err.status, HWFIT_OK);
    return n;
}

Test(node_spec, the_example_files_load_and_evaluate) {
    const char *files[] = {"seed-server.json", "hgx-h100.json", "rtx4090-workstation.json",
                           "cluster-2x-hgx-h100.json"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, SPECS "%s", files[i]);
        hwfit_node n;
        hwfit_error err;
        hwfit_status st = hwfit_node_load(path, &n, &err);
        cr_assert_eq(st, HWFIT_OK, "%s: %s", files[i], err.message);
        hwfit_node_eval r;
        cr_assert_eq(hwfit_node_evaluate(&n, &r), HWFIT_OK, "%s", files[i]);
    }
}

Test(node_spec, the_seed_file_reads_as_its_documents_describe) {
    hwfit_node n;
    hwfit_error err;
    cr_assert_eq(hwfit_node_load(SPECS "seed-server.json", &n, &err), HWFIT_OK, "%s", err.message);
    cr_assert_str_eq(n.gpu.model, "rtx-pro-6000-server");
    cr_assert_eq(n.gpu.count, 8);
    ASSERT_NEAR(n.gpu.power_limit_w, 600.0, REL);
    cr_assert_eq(n.host.sockets, 2);
    ASSERT_NEAR(n.cpu.boost_clock_hz, 5.0e9, REL);
    ASSERT_NEAR(n.memory.dimm_bytes, 64.0 * HWFIT_GIBI, REL);
    ASSERT_NEAR(n.host.speed_mts, 6400.0, REL);
    cr_assert_eq(n.storage.raid.drives, 4);
    ASSERT_NEAR(n.storage.raid.drive_bytes, 15.36e12, REL);
    cr_assert_eq(n.storage.raid_stated, 0); /* neither document states a level */
    cr_assert_eq(n.storage.raid.layout.level, HWFIT_STORAGE_RAID0);
    ASSERT_NEAR(n.storage.raid.bit_error_rate, 1e-17, REL);
    ASSERT_NEAR(n.storage.raid.drive_mttf_s, 2e6 * 3600.0, REL);
    ASSERT_NEAR(n.nas.capacity_bytes, 200e12, REL);
    cr_assert_eq(n.network.link.kind, HWFIT_LINK_ETHERNET);
    cr_assert_eq(n.network.link.width, 2);
    ASSERT_NEAR(n.network.link.port_bits_per_s, 400e9, REL);
    cr_assert_eq(n.power.psu.psus, 4);
    cr_assert_eq(n.power.psu.redundant, 2); /* N+2, the German document's reading */
    cr_assert_eq(n.power.psu.psu_class, HWFIT_POWER_CLASS_TITANIUM);
    cr_assert_eq(n.power.extra_count, 2);
    ASSERT_NEAR(n.costs.energy.price_per_kwh, 0.18, REL);
    ASSERT_NEAR(n.host.cores_per_gpu_rule, 8.0, REL);
    cr_assert_eq(n.chassis.rack_units, 4);
}

Test(node_spec, a_file_gives_the_same_node_as_typing_it) {
    hwfit_node a = parse_ok(small), b;
    hwfit_node_init(&b);
    strcpy(b.name, "small");
    strcpy(b.gpu.model, "l40s");
    b.gpu.count = 4;
    b.cpu.cores_per_socket = 32;
    b.cpu.tdp_w = 280;
    b.host.channels_per_socket = 12;
    b.host.lanes_per_socket = 128;
    b.host.dimms = 12;
    b.memory.dimm_bytes = 32 * HWFIT_GIBI;
    b.host.speed_mts = 4800;
    b.power.psu.psus = 2;
    b.power.psu.psu_rating_w = 2000;
    b.power.psu.redundant = 1;
    cr_assert(memcmp(&a, &b, sizeof a) == 0, "parsed node differs from the typed one");
}

Test(node_spec, units_and_plain_numbers_mean_the_same) {
    const char *a = "{\"gpu\": {\"model\": \"h100-sxm\", \"count\": 8, \"power_limit\": \"0.7kW\"},"
                    "\"cpu\": {\"cores_per_socket\": 8, \"tdp\": 100, \"memory_channels\": 8,"
                    " \"pcie_lanes\": 64},"
                    "\"memory\": {\"dimms\": 8, \"dimm_size\": \"64GiB\", \"speed_mts\": 4800},"
                    "\"network\": {\"link\": \"8x400g-ib\"},"
                    "\"nas\": {\"capacity\": \"1PB\"},"
                    "\"power\": {\"psus\": 6, \"psu_rating\": \"3.3kW\", \"redundancy\": 2}}";
    const char *b = "{\"gpu\": {\"model\": \"h100-sxm\", \"count\": 8, \"power_limit\": 700},"
                    "\"cpu\": {\"cores_per_socket\": 8, \"tdp\": \"100W\", \"memory_channels\": 8,"
                    " \"pcie_lanes\": 64},"
                    "\"memory\": {\"dimms\": 8, \"dimm_size\": 68719476736, \"speed_mts\": 4800},"
                    "\"network\": {\"ports\": 8, \"speed\": \"400Gb/s\", \"kind\": \"infiniband\"},"
                    "\"nas\": {\"capacity\": 1e15},"
                    "\"power\": {\"psus\": 6, \"psu_rating\": 3300, \"redundancy\": \"4+2\"}}";
    hwfit_node na = parse_ok(a), nb = parse_ok(b);
    cr_assert(memcmp(&na, &nb, sizeof na) == 0, "the two spellings differ");
    cr_assert_eq(na.network.link.kind, HWFIT_LINK_INFINIBAND);
    cr_assert_eq(na.network.link.generation, HWFIT_LINK_IB_NDR);
}

Test(node_spec, notes_are_ignored_everywhere) {
    const char *text =
        "{\"notes\": \"x\", \"description\": \"y\","
        " \"gpu\": {\"model\": \"l40s\", \"count\": 1, \"notes\": \"n\"},"
        " \"cpu\": {\"cores_per_socket\": 8, \"tdp\": 100, \"memory_channels\": 8,"
        " \"pcie_lanes\": 64, \"notes\": \"n\"},"
        " \"memory\": {\"dimms\": 8, \"dimm_size\": \"16GiB\", \"speed_mts\": 4800, \"notes\": \"n\"},"
        " \"power\": {\"psus\": 1, \"psu_rating\": 1000, \"redundancy\": \"N\", \"notes\": \"n\"},"
        " \"rules\": {\"notes\": \"n\"}}";
    hwfit_node n = parse_ok(text);
    cr_assert_eq(n.power.psu.redundant, 0);
}

/* A file that must be refused: status, the words of the message, and the position: the
 * first byte of the first occurrence of `at` in the text (NULL: no position checked). */
static void refused(const char *text, hwfit_status want, const char *at, const char *words) {
    hwfit_node n, poison;
    memset(&n, 0x5a, sizeof n);
    memset(&poison, 0x5a, sizeof poison);
    hwfit_error err;
    hwfit_status st = hwfit_node_parse(text, strlen(text), "bad.json", &n, &err);
    cr_assert_eq(st, want, "got %s: %s", hwfit_status_name(st), err.message);
    cr_assert_eq(err.status, want);
    cr_assert(strstr(err.message, words) != NULL, "\"%s\" lacks \"%s\"", err.message, words);
    cr_assert(strncmp(err.message, "bad.json: ", 10) == 0, "no file name: %s", err.message);
    if (at != NULL) {
        const char *p = strstr(text, at);
        cr_assert(p != NULL, "no '%s' in the text", at);
        uint32_t line = 1, column = 1;
        for (const char *q = text; q < p; q++) {
            if (*q == '\n') line++, column = 1;
            else column++;
        }
        cr_assert_eq(err.line, line, "line %u, want %u (%s)", err.line, line, err.message);
        cr_assert_eq(err.column, column, "column %u, want %u (%s)", err.column, column,
                     err.message);
        cr_assert_eq(err.offset, (size_t)(p - text));
    }
    cr_assert(memcmp(&n, &poison, sizeof n) == 0, "node written on error");
}

/* `small` with one substitution applied. */
static const char *edit(const char *from, const char *to) {
    static char buf[2048];
    const char *at = strstr(small, from);
    cr_assert(at != NULL, "no '%s' in the sample", from);
    snprintf(buf, sizeof buf, "%.*s%s%s", (int)(at - small), small, to, at + strlen(from));
    return buf;
}

Test(node_spec, bad_files_are_refused_with_position_and_key) {
    const char *t;
    t = edit("\"count\": 4", "\"count\": 0");
    refused(t, HWFIT_EPARSE, "0}", "gpu: key 'count' must be an integer in [1, 128], got 0");
    t = edit("\"count\": 4", "\"coutn\": 4");
    refused(t, HWFIT_EPARSE, "\"coutn\"", "unknown key 'coutn' (did you mean 'count'?)");
    t = edit("\"l40s\"", "\"l50s\"");
    refused(t, HWFIT_EPARSE, "\"l50s\"", "\"l50s\" is not in the GPU catalog");
    t = edit("\"280W\"", "\"280V\"");
    refused(t, HWFIT_EPARSE, "\"280V\"", "cpu: key 'tdp' must be");
    t = edit("\"N+1\"", "\"N+2\"");
    refused(t, HWFIT_EPARSE, "\"N+2\"", "\"N+2\" does not fit 2 PSUs");
    t = edit("\"N+1\"", "\"M+1\"");
    refused(t, HWFIT_EPARSE, "\"M+1\"", "unknown value \"M+1\"");
    t = edit("\"speed_mts\": 4800", "\"speed_mts\": \"fast\"");
    refused(t, HWFIT_EPARSE, "\"fast\"", "key 'speed_mts'");
    t = edit("\"dimms\": 12, ", "");
    refused(t, HWFIT_EPARSE, "{\"dimm_size", "memory: missing required key 'dimms'");
    t = edit("\"gpu\"", "\"gpus\"");
    refused(t, HWFIT_EPARSE, "\"gpus\"", "did you mean 'gpu'");
    t = edit("\"power\": {\"psus\"", "\"power\": [{\"psus\"");
    refused(t, HWFIT_EPARSE, NULL, "");
    t = edit("\"memory\": {", "\"memory\": 3, \"x\": {");
    refused(t, HWFIT_EPARSE, "\"x\"", "unknown key 'x'");
    t = edit("\"memory\": {", "\"memory\": 3, \"memroy\": {");
    refused(t, HWFIT_EPARSE, "\"memroy\"", "did you mean 'memory'");
    refused("[1, 2]", HWFIT_EPARSE, "[", "must be a JSON object");
    refused("{\"gpu\": {\"model\": \"l40s\", \"count\": 1},}", HWFIT_EPARSE, NULL, "after");
    refused("", HWFIT_EPARSE, NULL, "");
    refused("{}", HWFIT_EPARSE, "{", "missing required section 'gpu'");
    refused("{\"gpu\": 1}", HWFIT_EPARSE, "1", "section 'gpu' must be an object");
}

Test(node_spec, contradictions_point_at_the_key) {
    /* RAID 6 over 3 drives: node_check names storage.drives; the reader points at it. */
    const char *raid =
        "{\"gpu\": {\"model\": \"l40s\", \"count\": 1},\n"
        " \"cpu\": {\"cores_per_socket\": 8, \"tdp\": 100, \"memory_channels\": 8, \"pcie_lanes\": 64},\n"
        " \"memory\": {\"dimms\": 8, \"dimm_size\": \"16GiB\", \"speed_mts\": 4800},\n"
        " \"storage\": {\"drives\": 3, \"drive_size\": \"1TB\", \"raid\": \"6\"},\n"
        " \"power\": {\"psus\": 1, \"psu_rating\": 1000, \"redundancy\": \"N\"}}";
    refused(raid, HWFIT_EPARSE, "3, \"drive_size",
            "storage.drives: raid6 needs at least 4 drives, got 3");
    /* A NAS without a network: the position is the nas section. */
    const char *nas =
        "{\"gpu\": {\"model\": \"l40s\", \"count\": 1},\n"
        " \"cpu\": {\"cores_per_socket\": 8, \"tdp\": 100, \"memory_channels\": 8, \"pcie_lanes\": 64},\n"
        " \"memory\": {\"dimms\": 8, \"dimm_size\": \"16GiB\", \"speed_mts\": 4800},\n"
        " \"nas\": {\"capacity\": \"100TB\"},\n"
        " \"power\": {\"psus\": 1, \"psu_rating\": 1000, \"redundancy\": \"N\"}}";
    refused(nas, HWFIT_EPARSE, "{\"capacity\"", "nas: a NAS needs network ports");
    const char *t;
    /* Power lines that belong to another part, or are malformed. */
    t = edit("\"redundancy\": \"N+1\"", "\"components\": [\"gpu:1:100W\"]");
    refused(t, HWFIT_EPARSE, "\"gpu:1", "counted from its own section");
    t = edit("\"redundancy\": \"N+1\"", "\"components\": [\"fan:x:1W\"]");
    refused(t, HWFIT_EPARSE, "\"fan:x", "not KIND:COUNT:WATTS");
    t = edit("\"redundancy\": \"N+1\"", "\"components\": [7]");
    refused(t, HWFIT_EPARSE, "7]", "must be a string");
    t = edit("\"redundancy\": \"N+1\"", "\"components\": \"fan:1:1W\"");
    refused(t, HWFIT_EPARSE, "\"fan:1", "must be an array");
    /* Network: both spellings at once, an unknown kind, a speed that is no port speed. */
    t = edit("\"power\"", "\"network\": {\"link\": \"1x100g-tcp\", \"ports\": 1}, \"power\"");
    refused(t, HWFIT_EPARSE, "\"1x100g", "not both");
    t = edit("\"power\"", "\"network\": {\"ports\": 1, \"speed\": \"100Gb/s\", \"kind\": \"fc\"}, \"power\"");
    refused(t, HWFIT_EPARSE, "\"fc\"", "unknown value \"fc\"");
    t = edit("\"power\"", "\"network\": {\"ports\": 1, \"speed\": \"300Gb/s\"}, \"power\"");
    refused(t, HWFIT_EPARSE, "1, \"speed\"", "\"1x300g-roce\" is not a network link");
    t = edit("\"power\"", "\"network\": {\"ports\": 1, \"speed\": \"2.5Gb/s\"}, \"power\"");
    refused(t, HWFIT_EPARSE, "\"2.5Gb", "whole number of Gb/s");
    t = edit("\"power\"", "\"network\": {\"ports\": 1, \"speed\": \"100Gb/s\", \"kind\": \"infiniband\", \"transport\": \"tcp\"}, \"power\"");
    refused(t, HWFIT_EPARSE, "\"tcp\"", "Ethernet only");
    t = edit("\"power\"", "\"chassis\": {\"cooling\": \"oil\"}, \"power\"");
    refused(t, HWFIT_EPARSE, "\"oil\"", "unknown value \"oil\"");
    t = edit("\"power\"", "\"chassis\": {\"air_marginal_above\": \"30kW\"}, \"power\"");
    refused(t, HWFIT_EPARSE, "{\"air_", "must not be below");
    t = edit("\"power\"", "\"costs\": {\"electricity\": \"cheap\"}, \"power\"");
    refused(t, HWFIT_EPARSE, "\"cheap\"", "key 'electricity'");
    /* A price out of range names the key (it was "costs: value out of domain", issue 21). */
    t = edit("\"power\"", "\"costs\": {\"electricity\": \"1e300/kWh\"}, \"power\"");
    refused(t, HWFIT_EPARSE, "\"1e300/kWh\"", "key 'electricity' must be a price in [0, 1e+06]");
    t = edit("\"power\"", "\"storage\": {\"drives\": 2, \"drive_size\": \"1TB\", \"raid\": \"7\"}, \"power\"");
    refused(t, HWFIT_EPARSE, "\"7\"", "unknown value \"7\"");
    t = edit("\"power\"", "\"nas\": {\"capacity\": \"1TB\", \"transport\": \"smb\"}, \"power\"");
    refused(t, HWFIT_EPARSE, "\"smb\"", "unknown value \"smb\"");
    t = edit("\"small\"", "\"a name that is far too long for the sixty-four bytes of a node name field\"");
    refused(t, HWFIT_EPARSE, "\"a name", "at most 63 bytes");
    /* A power limit above 1.5 x TDP (L40S: 350 W). */
    t = edit("\"count\": 4", "\"count\": 4, \"power_limit\": \"600W\"");
    refused(t, HWFIT_EPARSE, "\"600W\"", "power_limit");
    /* A limit of 0 W is refused, not read as "the catalog's TDP" (leaving it out is). */
    t = edit("\"count\": 4", "\"count\": 4, \"power_limit\": \"0W\"");
    refused(t, HWFIT_EPARSE, "\"0W\"", "power_limit");
}

Test(node_spec, load_equals_parse_and_reports_missing_files) {
    hwfit_node a, b;
    hwfit_error err;
    cr_assert_eq(hwfit_node_load(SPECS "hgx-h100.json", &a, &err), HWFIT_OK);
    FILE *f = fopen(SPECS "hgx-h100.json", "rb");
    cr_assert(f != NULL);
    static char buf[65536];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    cr_assert_eq(hwfit_node_parse(buf, n, SPECS "hgx-h100.json", &b, &err), HWFIT_OK);
    cr_assert(memcmp(&a, &b, sizeof a) == 0);
    hwfit_node poison, out;
    memset(&out, 0x5a, sizeof out);
    memset(&poison, 0x5a, sizeof poison);
    cr_assert_eq(hwfit_node_load("/nonexistent/node.json", &out, &err), HWFIT_EIO);
    cr_assert(strstr(err.message, "/nonexistent/node.json") != NULL);
    cr_assert(memcmp(&out, &poison, sizeof out) == 0);
}

Test(node_spec, null_arguments_and_size_limit) {
    hwfit_node n;
    hwfit_error err;
    cr_assert_eq(hwfit_node_parse(NULL, 0, NULL, &n, &err), HWFIT_EINVAL);
    cr_assert_eq(hwfit_node_parse(small, strlen(small), NULL, NULL, &err), HWFIT_EINVAL);
    cr_assert_eq(hwfit_node_parse(small, strlen(small), NULL, NULL, NULL), HWFIT_EINVAL);
    cr_assert_eq(hwfit_node_load(NULL, &n, &err), HWFIT_EINVAL);
    cr_assert_eq(hwfit_node_load(SPECS "seed-server.json", NULL, &err), HWFIT_EINVAL);
    cr_assert_eq(hwfit_node_parse(small, HWFIT_NODE_SPEC_MAX_BYTES + 1u, NULL, &n, &err),
                 HWFIT_ERANGE);
    /* Without a name the messages say node.json. */
    hwfit_node_parse("[]", 2, NULL, &n, &err);
    cr_assert(strncmp(err.message, "node.json: ", 11) == 0, "%s", err.message);
}

/* ---- a card of one's own in a node file ------------------------------------------------ */

static const char inline_card[] =
    "{\n"
    "  \"gpu\": {\"model\": {\"name\": \"my-l20\", \"memory_bytes\": \"48GB\",\n"
    "                      \"memory_bandwidth_bytes_per_s\": \"864GB/s\", \"tdp_w\": \"275W\",\n"
    "                      \"fp32_flop_per_s\": \"59.8TFLOPS\",\n"
    "                      \"fp16_bf16_flop_per_s\": \"119.5TFLOPS\"},\n"
    "          \"count\": 4},\n"
    "  \"cpu\": {\"sockets\": 1, \"cores_per_socket\": 32, \"tdp\": \"280W\",\n"
    "          \"memory_channels\": 12, \"pcie_lanes\": 128},\n"
    "  \"memory\": {\"dimms\": 12, \"dimm_size\": \"32GiB\", \"speed_mts\": 4800},\n"
    "  \"power\": {\"psus\": 2, \"psu_rating\": \"2000W\", \"redundancy\": \"N+1\"}\n"
    "}\n";

Test(node_spec, an_inline_card_goes_into_the_callers_set) {
    hwfit_gpu_set *cards = NULL;
    cr_assert_eq(hwfit_gpu_set_new(&cards), HWFIT_OK);
    hwfit_node n;
    hwfit_error err;
    cr_assert_eq(hwfit_node_parse_cards(inline_card, strlen(inline_card), "t.json", cards, &n,
                                        &err), HWFIT_OK, "%s", err.message);
    cr_assert_str_eq(n.gpu.model, "my-l20");
    cr_assert_eq(n.gpu_set, cards);
    cr_assert_eq(hwfit_gpu_set_count(cards), 1);
    hwfit_node_eval r;
    cr_assert_eq(hwfit_node_evaluate(&n, &r), HWFIT_OK);
    cr_assert_eq(r.gpu, hwfit_gpu_set_at(cards, 0));
    cr_assert_eq(r.gpu_power_w, 275.0);
    ASSERT_NEAR(r.vram_bytes, 4.0 * (double)(48ull << 30), REL);
    /* The same file again: the name is taken now, and nothing is added. */
    hwfit_status st = hwfit_node_parse_cards(inline_card, strlen(inline_card), "t.json", cards,
                                             &n, &err);
    cr_assert_eq(st, HWFIT_EPARSE);
    cr_assert_eq(err.line, 2, "%u: %s", err.line, err.message);
    cr_assert(strstr(err.message, "already taken") != NULL, "%s", err.message);
    cr_assert_eq(hwfit_gpu_set_count(cards), 1);
    /* A node naming a card of the set finds it. */
    char text[1024];
    snprintf(text, sizeof text, "%s", small);
    char *at = strstr(text, "\"l40s\"");
    cr_assert_not_null(at);
    memmove(at + 8, at + 6, strlen(at + 6) + 1);
    memcpy(at, "\"my-l20\"", 8);
    cr_assert_eq(hwfit_node_parse_cards(text, strlen(text), "t.json", cards, &n, &err), HWFIT_OK,
                 "%s", err.message);
    cr_assert_eq(hwfit_node_evaluate(&n, &r), HWFIT_OK);
    cr_assert_str_eq(r.gpu->name, "my-l20");
    /* The plain reader has no set: the name is unknown and an inline card is refused. */
    cr_assert_eq(hwfit_node_parse(text, strlen(text), "t.json", &n, &err), HWFIT_EPARSE);
    cr_assert(strstr(err.message, "not in the GPU catalog") != NULL, "%s", err.message);
    cr_assert_eq(hwfit_node_parse(inline_card, strlen(inline_card), "t.json", &n, &err),
                 HWFIT_EPARSE);
    cr_assert_eq(err.line, 2);
    cr_assert(strstr(err.message, "hwfit_node_parse_cards") != NULL, "%s", err.message);
    hwfit_gpu_set_free(cards);
}

Test(node_spec, a_bad_inline_card_says_where) {
    hwfit_gpu_set *cards = NULL;
    cr_assert_eq(hwfit_gpu_set_new(&cards), HWFIT_OK);
    char text[2048];
    snprintf(text, sizeof text, "%s", inline_card);
    char *at = strstr(text, "\"275W\"");
    memcpy(at, "\"-75W\"", 6);
    hwfit_node n;
    hwfit_error err;
    cr_assert_eq(hwfit_node_parse_cards(text, strlen(text), "t.json", cards, &n, &err),
                 HWFIT_EPARSE);
    cr_assert_eq(err.line, 3, "%s", err.message);
    cr_assert_eq(err.column, 75, "%u: %s", err.column, err.message);
    cr_assert(strstr(err.message, "t.json: gpu.model: key 'tdp_w'") != NULL, "%s", err.message);
    cr_assert_eq(hwfit_gpu_set_count(cards), 0);
    /* A whole-node refusal after the card was read leaves the set as it was, too. */
    snprintf(text, sizeof text, "%s", inline_card);
    at = strstr(text, "\"count\": 4");
    memcpy(at, "\"count\": 0", 10);
    cr_assert_eq(hwfit_node_parse_cards(text, strlen(text), "t.json", cards, &n, &err),
                 HWFIT_EPARSE);
    cr_assert_eq(hwfit_gpu_set_count(cards), 0);
    cr_assert_eq(hwfit_node_parse_cards(text, strlen(text), "t.json", NULL, &n, &err),
                 HWFIT_EINVAL);
    hwfit_gpu_set_free(cards);
}
