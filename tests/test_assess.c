/* Assessment: findings of the example nodes for target workloads.
 *
 * Reference values are those of the seed documents' server as the domain modules compute
 * them (each checked against its own module's tests): 6,400 W usable under N+2 for a
 * 6,462 W budget, 614.4 GB/s per socket, 176 of 128 PCIe lanes, 2.0x RAM to VRAM, 56 GB/s
 * of local reads, 141.1 GB of Llama-3.1-70B bf16 weights. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hwfit.h"

#define SPECS HWFIT_TEST_DATA "/../../examples/specs/"
#define MODELS HWFIT_TEST_DATA "/models"

/* Relative tolerance 1e-9: figures are copied from domain results, at most rescaled. */
#define REL 1e-9
#define ASSERT_NEAR(got, want, rel)                                                       \
    cr_assert(fabs((got) - (want)) <= (rel) * fabs(want) + 1e-300, "got %.17g want %.17g", \
              (double)(got), (double)(want))

#define MAXF 256
static hwfit_finding findings[MAXF];
static hwfit_model models[8];
static hwfit_assess_workload workloads[8];

static hwfit_node load(const char *file) {
    char path[512];
    snprintf(path, sizeof path, SPECS "%s", file);
    hwfit_node n;
    hwfit_error err;
    cr_assert_eq(hwfit_node_load(path, &n, &err), HWFIT_OK, "%s", err.message);
    return n;
}

static size_t workloads_of(const char *const *texts, size_t count) {
    for (size_t i = 0; i < count; i++) {
        hwfit_error err;
        hwfit_status st =
            hwfit_assess_workload_parse(texts[i], MODELS, &workloads[i], &models[i], &err);
        cr_assert_eq(st, HWFIT_OK, "%s: %s", texts[i], err.message);
    }
    return count;
}

static size_t assess(const hwfit_node *n, size_t nw) {
    size_t count = 0;
    hwfit_status st = hwfit_assess(n, workloads, nw, NULL, findings, MAXF, &count);
    cr_assert_eq(st, HWFIT_OK, "%s", hwfit_status_name(st));
    cr_assert(count > 0 && count <= hwfit_assess_max_findings(nw));
    return count;
}

static const hwfit_finding *rule(size_t count, const char *id) {
    for (size_t i = 0; i < count; i++)
        if (strcmp(findings[i].rule, id) == 0) return &findings[i];
    cr_assert_fail("no finding %s", id);
    return NULL;
}

static double figure(const hwfit_finding *f, const char *key) {
    double v = 0;
    cr_assert_eq(hwfit_finding_figure(f, key, &v), HWFIT_OK, "%s has no figure %s", f->rule, key);
    return v;
}

static const char *const seed_workloads[] = {"serve:llama-3.1-70b:bf16:128K", "qlora:llama-3.1-70b",
                                             "full:llama-3.1-8b"};

Test(assess, seed_server_strengths_and_weaknesses_with_figures) {
    hwfit_node n = load("seed-server.json");
    size_t count = assess(&n, workloads_of(seed_workloads, 3));
    const hwfit_finding *f;
    /* PSUs: N+2 of 4 x 3,200 W leaves 6,400 W for a 6,462 W budget. */
    f = rule(count, "power.redundancy");
    cr_assert_eq(f->kind, HWFIT_FINDING_WEAKNESS);
    cr_assert_eq(f->topic, HWFIT_ASSESS_POWER);
    ASSERT_NEAR(figure(f, "usable_w"), 6400.0, REL);
    ASSERT_NEAR(figure(f, "installed_w"), 12800.0, REL);
    ASSERT_NEAR(figure(f, "load_w"), 6462.0, REL);
    /* Host: 2.0x RAM, 614.4 GB/s per socket, one DIMM per channel, 16 cores per GPU. */
    f = rule(count, "host_ram.ratio");
    cr_assert_eq(f->kind, HWFIT_FINDING_STRENGTH);
    ASSERT_NEAR(figure(f, "ram_to_vram"), 2.0, REL);
    cr_assert(strstr(f->text, "exactly meets") != NULL, "%s", f->text);
    ASSERT_NEAR(figure(rule(count, "host_memory.bandwidth"), "per_socket_bytes_per_s"), 614.4e9, REL);
    f = rule(count, "host_memory.dimms_per_channel");
    cr_assert_eq(f->kind, HWFIT_FINDING_STRENGTH);
    ASSERT_NEAR(figure(f, "dimms_per_channel"), 1.0, REL);
    ASSERT_NEAR(figure(rule(count, "cpu.cores_per_gpu"), "cores_per_gpu"), 16.0, REL);
    /* Lanes: 176 needed, 128 available after 4 xGMI links per socket. */
    f = rule(count, "pcie.lane_budget");
    cr_assert_eq(f->kind, HWFIT_FINDING_WEAKNESS);
    ASSERT_NEAR(figure(f, "lanes_needed"), 176.0, REL);
    ASSERT_NEAR(figure(f, "lanes_available"), 128.0, REL);
    ASSERT_NEAR(figure(f, "lanes_needed_bifurcated"), 112.0, REL);
    /* No NVLink, no P2P by default, x8 halves the link. */
    cr_assert_eq(rule(count, "interconnect.peer_links")->kind, HWFIT_FINDING_WEAKNESS);
    cr_assert_eq(rule(count, "interconnect.allreduce")->kind, HWFIT_FINDING_WEAKNESS);
    f = rule(count, "interconnect.p2p");
    cr_assert(figure(f, "busbw_p2p_bytes_per_s") > figure(f, "busbw_bytes_per_s"));
    f = rule(count, "bifurcation.gpu_slots");
    ASSERT_NEAR(figure(f, "bifurcated_link_bytes_per_s") * 2, figure(f, "gpu_link_bytes_per_s"), REL);
    cr_assert(figure(f, "busbw_bifurcated_bytes_per_s") < figure(f, "busbw_bytes_per_s"));
    /* Storage: 4 x 14 GB/s, no RAID stated. */
    f = rule(count, "storage.throughput");
    cr_assert_eq(f->kind, HWFIT_FINDING_STRENGTH);
    ASSERT_NEAR(figure(f, "read_bytes_per_s"), 56e9, REL);
    f = rule(count, "raid.risk");
    cr_assert_eq(f->kind, HWFIT_FINDING_WEAKNESS);
    ASSERT_NEAR(figure(f, "alternative_usable_bytes"), 30.72e12, REL);
    /* Cooling: above 5 kW, air-cooled. */
    cr_assert_eq(rule(count, "cooling.heat")->kind, HWFIT_FINDING_WEAKNESS);
    /* Workloads: 70B bf16 weights are 2 x 70,553,706,496 bytes (plus bf16 norms: all bf16). */
    f = rule(count, "vram.serve_llama_3_1_70b_bf16_128k");
    cr_assert_eq(f->workload, 1);
    ASSERT_NEAR(figure(f, "weights_bytes"), 141107412992.0, REL);
    cr_assert_eq(f->kind, HWFIT_FINDING_STRENGTH);
    cr_assert(figure(f, "kv_tokens") >= 131072.0); /* room for the 128K context */
    /* The per-card figure equals the sharding module's estimate of the reported layout. */
    hwfit_shard_in in;
    hwfit_shard_out so;
    hwfit_shard_init(&in);
    in.memory = workloads[0].memory;
    in.gpus = 8;
    in.capacity_bytes = 96.0 * HWFIT_GIBI;
    in.layout.tp = 8;
    cr_assert_eq(hwfit_shard_estimate(workloads[0].model, &in, &so), HWFIT_OK);
    ASSERT_NEAR(figure(f, "per_gpu_bytes"), (double)so.worst.total_bytes, REL);
    ASSERT_NEAR(figure(f, "headroom_bytes"), so.headroom_bytes, REL);
    /* Fewest cards: more than one (141 GB of weights > one card's 92.8 GB usable). */
    cr_assert(figure(f, "min_gpus") > 1 && figure(f, "min_gpus") <= 8);
    /* Throughput: the decode step equals the throughput module's estimate of that layout. */
    f = rule(count, "decode.serve_llama_3_1_70b_bf16_128k");
    cr_assert_eq(f->topic, HWFIT_ASSESS_BANDWIDTH);
    cr_assert(figure(f, "decode_tokens_per_s") > 0.0);
    ASSERT_NEAR(figure(f, "decode_tokens_per_s") * figure(f, "time_per_output_token_s"), 1.0,
                1e-9); /* batch 1: tokens/s x s per token = 1 */
    f = rule(count, "training.full_llama_3_1_8b");
    cr_assert_eq(f->topic, HWFIT_ASSESS_COMPUTE);
    cr_assert(figure(f, "mfu") > 0.0 && figure(f, "mfu") < 1.0);
    cr_assert(figure(f, "comm_share") >= 0.0 && figure(f, "comm_share") <= 1.0);
    cr_assert_eq(f->kind, figure(f, "comm_share") <= 0.25 ? HWFIT_FINDING_STRENGTH
                                                           : HWFIT_FINDING_WEAKNESS);
    f = rule(count, "storage.checkpoint.serve_llama_3_1_70b_bf16_128k");
    ASSERT_NEAR(figure(f, "checkpoint_bytes"), 141107412992.0, REL);
    cr_assert_eq(rule(count, "vram.full_llama_3_1_8b")->workload, 3);
}

Test(assess, a_model_too_large_for_the_node_is_a_weakness_with_the_cards_it_needs) {
    hwfit_node n = load("seed-server.json");
    static const char *const big[] = {"full:llama-3.1-405b"};
    size_t count = assess(&n, workloads_of(big, 1));
    const hwfit_finding *f = rule(count, "vram.full_llama_3_1_405b");
    cr_assert_eq(f->kind, HWFIT_FINDING_WEAKNESS);
    /* 16 bytes of training state per parameter alone: 405.85e9 x 16 > 8 x 96 GiB. */
    cr_assert(figure(f, "min_gpus") > 8);
    ASSERT_NEAR(figure(f, "per_gpu_bytes"), 0.0, REL);
}

Test(assess, every_finding_is_well_formed_and_rules_are_unique) {
    const char *files[] = {"seed-server.json", "hgx-h100.json", "rtx4090-workstation.json",
                           "cluster-2x-hgx-h100.json"};
    size_t nw = workloads_of(seed_workloads, 3);
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        hwfit_node n = load(files[k]);
        size_t count = assess(&n, nw);
        int last_topic = -1;
        for (size_t i = 0; i < count; i++) {
            const hwfit_finding *f = &findings[i];
            cr_assert(f->rule[0] != '\0');
            cr_assert(strlen(f->text) > 20, "%s: short text", f->rule);
            cr_assert((unsigned)f->topic < (unsigned)HWFIT_ASSESS_TOPIC_COUNT_);
            cr_assert((int)f->topic >= last_topic, "%s out of topic order", f->rule);
            last_topic = (int)f->topic;
            cr_assert((unsigned)f->kind <= (unsigned)HWFIT_FINDING_INFO);
            cr_assert(f->figure_count <= HWFIT_FINDING_MAX_FIGURES);
            cr_assert(f->workload <= nw);
            for (uint32_t g = 0; g < f->figure_count; g++) {
                cr_assert(isfinite(f->figures[g].value), "%s.%s", f->rule, f->figures[g].key);
                cr_assert(f->figures[g].key[0] && f->figures[g].unit[0]);
            }
            for (size_t j = 0; j < i; j++)
                cr_assert(strcmp(findings[j].rule, f->rule) != 0, "%s twice", f->rule);
        }
    }
}

Test(assess, redundancy_and_nvlink_change_the_verdicts) {
    hwfit_node n = load("seed-server.json");
    n.power.psu.redundant = 1; /* the English document's N+1 */
    size_t count = assess(&n, 0);
    const hwfit_finding *f = rule(count, "power.redundancy");
    cr_assert_eq(f->kind, HWFIT_FINDING_STRENGTH);
    ASSERT_NEAR(figure(f, "usable_w"), 9600.0, REL);
    /* The HGX box: NVLink, switched lanes, InfiniBand, RAID 0 data cache. */
    hwfit_node h = load("hgx-h100.json");
    count = assess(&h, 0);
    cr_assert_eq(rule(count, "interconnect.peer_links")->kind, HWFIT_FINDING_STRENGTH);
    cr_assert_eq(rule(count, "interconnect.allreduce")->kind, HWFIT_FINDING_STRENGTH);
    cr_assert_eq(rule(count, "pcie.lane_budget")->kind, HWFIT_FINDING_STRENGTH);
    cr_assert_eq(rule(count, "network.transport")->kind, HWFIT_FINDING_STRENGTH);
    cr_assert_eq(rule(count, "raid.risk")->kind, HWFIT_FINDING_WEAKNESS);
    cr_assert_eq(rule(count, "host_memory.dimms_per_channel")->kind, HWFIT_FINDING_WEAKNESS);
    ASSERT_NEAR(figure(rule(count, "energy.tco"), "capex"), 300000.0, REL);
    /* The workstation: no P2P on RTX 4090, TCP network, RAID 1. */
    hwfit_node w = load("rtx4090-workstation.json");
    count = assess(&w, 0);
    cr_assert_eq(rule(count, "interconnect.p2p")->kind, HWFIT_FINDING_WEAKNESS);
    cr_assert_eq(rule(count, "network.transport")->kind, HWFIT_FINDING_WEAKNESS);
    cr_assert_eq(rule(count, "raid.risk")->kind, HWFIT_FINDING_STRENGTH);
    cr_assert_eq(rule(count, "cooling.heat")->kind, HWFIT_FINDING_STRENGTH);
    /* The cluster: 16 GPUs in the all-reduce; VRAM of both nodes. */
    hwfit_node c = load("cluster-2x-hgx-h100.json");
    count = assess(&c, 0);
    ASSERT_NEAR(figure(rule(count, "interconnect.allreduce"), "ranks"), 16.0, REL);
    ASSERT_NEAR(figure(rule(count, "vram.pool"), "total_vram_bytes"), 16 * 80.0 * HWFIT_GIBI, REL);
}

Test(assess, options_change_the_rules) {
    hwfit_node n = load("seed-server.json");
    hwfit_assess_options o;
    hwfit_assess_options_init(&o);
    ASSERT_NEAR(o.pipeline_bytes_per_s, 7e9, REL);
    ASSERT_NEAR(o.allreduce_bytes, HWFIT_GIBI, REL);
    cr_assert_eq(o.checkpoints_to_keep, 2);
    ASSERT_NEAR(o.max_time_per_output_token_s, 0.05, REL);
    ASSERT_NEAR(o.max_comm_share, 0.25, REL);
    o.pipeline_bytes_per_s = 100e9; /* more than 4 x 14 GB/s */
    size_t count = 0;
    cr_assert_eq(hwfit_assess(&n, NULL, 0, &o, findings, MAXF, &count), HWFIT_OK);
    cr_assert_eq(rule(count, "storage.throughput")->kind, HWFIT_FINDING_WEAKNESS);
    hwfit_assess_options_init(NULL);
}

Test(assess, errors_leave_the_output_untouched) {
    hwfit_node n = load("seed-server.json");
    size_t nw = workloads_of(seed_workloads, 1);
    static hwfit_finding poison[MAXF];
    memset(findings, 0x5a, sizeof findings);
    memset(poison, 0x5a, sizeof poison);
    size_t count = 12345;
    hwfit_assess_options o;
#define REFUSED(call, want)                                                               \
    do {                                                                                  \
        cr_assert_eq((call), (want));                                                     \
        cr_assert(memcmp(findings, poison, sizeof findings) == 0, "findings written");    \
        cr_assert_eq(count, 12345);                                                       \
    } while (0)
    REFUSED(hwfit_assess(NULL, workloads, nw, NULL, findings, MAXF, &count), HWFIT_EINVAL);
    REFUSED(hwfit_assess(&n, NULL, 1, NULL, findings, MAXF, &count), HWFIT_EINVAL);
    REFUSED(hwfit_assess(&n, workloads, nw, NULL, NULL, MAXF, &count), HWFIT_EINVAL);
    cr_assert_eq(hwfit_assess(&n, workloads, nw, NULL, findings, MAXF, NULL), HWFIT_EINVAL);
    REFUSED(hwfit_assess(&n, workloads, HWFIT_ASSESS_MAX_WORKLOADS + 1, NULL, findings, MAXF, &count),
            HWFIT_EDOM);
    REFUSED(hwfit_assess(&n, workloads, nw, NULL, findings, hwfit_assess_max_findings(nw) - 1,
                         &count),
            HWFIT_EBUFSIZE);
    hwfit_assess_workload bad = workloads[0];
    bad.model = NULL;
    REFUSED(hwfit_assess(&n, &bad, 1, NULL, findings, MAXF, &count), HWFIT_EINVAL);
    bad = workloads[0];
    bad.memory.context = 0;
    REFUSED(hwfit_assess(&n, &bad, 1, NULL, findings, MAXF, &count), HWFIT_EDOM);
    bad = workloads[0];
    bad.memory.mode = HWFIT_MEMORY_FULL;
    bad.memory.weights = hwfit_dtype_make(HWFIT_DTYPE_INT4);
    REFUSED(hwfit_assess(&n, &bad, 1, NULL, findings, MAXF, &count), HWFIT_EUNSUPPORTED);
    hwfit_assess_options_init(&o);
    o.pipeline_bytes_per_s = 0;
    REFUSED(hwfit_assess(&n, NULL, 0, &o, findings, MAXF, &count), HWFIT_EDOM);
    hwfit_assess_options_init(&o);
    o.allreduce_bytes = NAN;
    REFUSED(hwfit_assess(&n, NULL, 0, &o, findings, MAXF, &count), HWFIT_EDOM);
    hwfit_assess_options_init(&o);
    o.gpu_utilization = 1.5;
    REFUSED(hwfit_assess(&n, NULL, 0, &o, findings, MAXF, &count), HWFIT_EDOM);
    hwfit_assess_options_init(&o);
    o.checkpoints_to_keep = 0;
    REFUSED(hwfit_assess(&n, NULL, 0, &o, findings, MAXF, &count), HWFIT_EDOM);
    hwfit_assess_options_init(&o);
    o.max_time_per_output_token_s = 0;
    REFUSED(hwfit_assess(&n, NULL, 0, &o, findings, MAXF, &count), HWFIT_EDOM);
    hwfit_assess_options_init(&o);
    o.max_comm_share = 1.5;
    REFUSED(hwfit_assess(&n, NULL, 0, &o, findings, MAXF, &count), HWFIT_EDOM);
    hwfit_node broken = n;
    broken.power.psu.redundant = 4;
    REFUSED(hwfit_assess(&broken, NULL, 0, NULL, findings, MAXF, &count), HWFIT_EDOM);
    broken = n;
    strcpy(broken.gpu.model, "nope");
    REFUSED(hwfit_assess(&broken, NULL, 0, NULL, findings, MAXF, &count), HWFIT_ENOTFOUND);
#undef REFUSED
}

Test(assess, max_findings_is_a_bound_that_grows_with_workloads) {
    cr_assert(hwfit_assess_max_findings(0) > 0);
    cr_assert(hwfit_assess_max_findings(3) > hwfit_assess_max_findings(2));
    cr_assert_eq(hwfit_assess_max_findings(1000),
                 hwfit_assess_max_findings(HWFIT_ASSESS_MAX_WORKLOADS));
}

Test(assess, workload_strings_are_read_with_defaults) {
    hwfit_assess_workload w;
    hwfit_model m;
    hwfit_error err;
    cr_assert_eq(hwfit_assess_workload_parse("serve:llama-3.1-70b:fp8:128K:4", MODELS, &w, &m, &err),
                 HWFIT_OK, "%s", err.message);
    cr_assert_eq(w.memory.mode, HWFIT_MEMORY_INFERENCE);
    cr_assert_eq(w.memory.weights.id, HWFIT_DTYPE_FP8_E4M3);
    cr_assert_eq(w.memory.context, 131072);
    cr_assert_eq(w.memory.batch, 4);
    cr_assert(w.model == &m);
    cr_assert_eq(m.layers, 80);
    cr_assert_str_eq(w.label, "serve:llama-3.1-70b:fp8:128K:4");
    cr_assert_eq(hwfit_assess_workload_parse("qlora:llama-3.1-8b", MODELS, &w, &m, &err), HWFIT_OK);
    cr_assert_eq(w.memory.mode, HWFIT_MEMORY_QLORA);
    cr_assert_eq(w.memory.qlora_base.id, HWFIT_DTYPE_NF4_DQ);
    cr_assert_eq(w.memory.context, 4096);
    cr_assert_eq(hwfit_assess_workload_parse("full:llama-3.1-8b::8K:2", MODELS, &w, &m, &err),
                 HWFIT_OK);
    cr_assert_eq(w.memory.mode, HWFIT_MEMORY_FULL);
    cr_assert_eq(w.memory.context, 8192);
    cr_assert_eq(w.memory.micro_batch, 2);
    cr_assert_eq(hwfit_assess_workload_parse("lora:" MODELS "/qwen3-8b.config.json", NULL, &w, &m,
                                             &err),
                 HWFIT_OK, "%s", err.message);
    cr_assert_eq(w.memory.mode, HWFIT_MEMORY_LORA);
}

Test(assess, bad_workload_strings_are_refused) {
    static const struct {
        const char *text;
        hwfit_status status;
        const char *words;
    } cases[] = {
        {"serve", HWFIT_EPARSE, "expected MODE:MODEL"},
        {"serve:", HWFIT_EPARSE, "expected MODE:MODEL"},
        {"train:llama-3.1-8b", HWFIT_EPARSE, "unknown mode \"train\""},
        {"serve:llama-3.1-8b:fp7", HWFIT_EPARSE, "unknown dtype \"fp7\""},
        {"serve:llama-3.1-8b:bf16:lots", HWFIT_EPARSE, "context \"lots\""},
        {"serve:llama-3.1-8b:bf16:0", HWFIT_EPARSE, "context"},
        {"serve:llama-3.1-8b:bf16:4K:0", HWFIT_EPARSE, "batch"},
        {"serve:llama-3.1-8b:bf16:4K:1:x", HWFIT_EPARSE, "more than"},
        {"serve:llama-9", HWFIT_EIO, "llama-9.config.json"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hwfit_assess_workload w, wp;
        hwfit_model m, mp;
        memset(&w, 0x5a, sizeof w);
        memset(&wp, 0x5a, sizeof wp);
        memset(&m, 0x5a, sizeof m);
        memset(&mp, 0x5a, sizeof mp);
        hwfit_error err;
        hwfit_status st = hwfit_assess_workload_parse(cases[i].text, MODELS, &w, &m, &err);
        cr_assert_eq(st, cases[i].status, "%s: %s", cases[i].text, hwfit_status_name(st));
        cr_assert(strstr(err.message, cases[i].words) != NULL, "%s: %s", cases[i].text,
                  err.message);
        cr_assert(memcmp(&w, &wp, sizeof w) == 0 && memcmp(&m, &mp, sizeof m) == 0);
    }
    hwfit_assess_workload w;
    hwfit_model m;
    cr_assert_eq(hwfit_assess_workload_parse(NULL, NULL, &w, &m, NULL), HWFIT_EINVAL);
    cr_assert_eq(hwfit_assess_workload_parse("serve:x", NULL, NULL, &m, NULL), HWFIT_EINVAL);
    cr_assert_eq(hwfit_assess_workload_parse("serve:x", NULL, &w, NULL, NULL), HWFIT_EINVAL);
}

Test(assess, names_figures_and_formatting) {
    cr_assert_str_eq(hwfit_assess_topic_name(HWFIT_ASSESS_VRAM), "vram");
    cr_assert_str_eq(hwfit_assess_topic_name(HWFIT_ASSESS_ENERGY), "energy");
    cr_assert_str_eq(hwfit_assess_topic_name(HWFIT_ASSESS_TOPIC_COUNT_), "unknown");
    cr_assert_str_eq(hwfit_finding_kind_name(HWFIT_FINDING_WEAKNESS), "weakness");
    cr_assert_str_eq(hwfit_finding_kind_name((hwfit_finding_kind)7), "unknown");
    hwfit_assess_workload w;
    hwfit_assess_workload_init(&w);
    cr_assert(w.model == NULL);
    cr_assert_eq(w.memory.mode, HWFIT_MEMORY_INFERENCE);
    hwfit_assess_workload_init(NULL);

    hwfit_finding f;
    memset(&f, 0, sizeof f);
    f.figure_count = 1;
    strcpy(f.figures[0].key, "usable_w");
    f.figures[0].value = 6400;
    strcpy(f.figures[0].unit, "W");
    double v = -1;
    cr_assert_eq(hwfit_finding_figure(&f, "usable_w", &v), HWFIT_OK);
    ASSERT_NEAR(v, 6400.0, REL);
    cr_assert_eq(hwfit_finding_figure(&f, "load_w", &v), HWFIT_ENOTFOUND);
    cr_assert_eq(hwfit_finding_figure(NULL, "x", &v), HWFIT_EINVAL);
    cr_assert_eq(hwfit_finding_figure(&f, NULL, &v), HWFIT_EINVAL);
    cr_assert_eq(hwfit_finding_figure(&f, "x", NULL), HWFIT_EINVAL);

    char buf[64];
    cr_assert_eq(hwfit_figure_format(&f.figures[0], buf, sizeof buf), HWFIT_OK);
    cr_assert_str_eq(buf, "6.4 kW");
    hwfit_figure g = {"ratio", 2.0, "1"};
    cr_assert_eq(hwfit_figure_format(&g, buf, sizeof buf), HWFIT_OK);
    cr_assert_str_eq(buf, "2");
    hwfit_figure c = {"annual_cost", 14866.9, "EUR"};
    cr_assert_eq(hwfit_figure_format(&c, buf, sizeof buf), HWFIT_OK);
    cr_assert_str_eq(buf, "1.487e+04 EUR");
    hwfit_figure hz = {"boost_clock_hz", 5e9, "Hz"};
    cr_assert_eq(hwfit_figure_format(&hz, buf, sizeof buf), HWFIT_OK);
    cr_assert_str_eq(buf, "5 GHz");
    cr_assert_eq(hwfit_figure_format(&c, buf, 4), HWFIT_EBUFSIZE);
    c.value = NAN;
    cr_assert_eq(hwfit_figure_format(&c, buf, sizeof buf), HWFIT_EDOM);
    cr_assert_eq(hwfit_figure_format(NULL, buf, sizeof buf), HWFIT_EINVAL);
    cr_assert_eq(hwfit_figure_format(&g, NULL, 4), HWFIT_EINVAL);
}
