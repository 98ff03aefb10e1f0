/* The _validate companions: they return exactly what their calculation returns, and name
 * the field at fault with a rule a person can act on (what the CLI and Python print).
 *
 * tests/test_hostile.c checks status equality for every hostile input of every function;
 * this file checks the words for the cases users meet (issue 9: "--micro-batch 0",
 * "--psus 2 --redundant 2"), one per module, and the shape of the report. */
#include <criterion/criterion.h>
#include <string.h>

#include "hwfit.h"
#include "fixtures.h"

/* problem must name `field` with a rule containing `words`, and status `st`. */
static void expect(hwfit_status got, const hwfit_problem *p, hwfit_status st, const char *field,
                   const char *words) {
    cr_assert_eq(got, st, "status %s, want %s", hwfit_status_name(got), hwfit_status_name(st));
    cr_assert_eq(p->status, st);
    cr_assert_str_eq(p->field, field);
    cr_assert(strstr(p->rule, words) != NULL, "rule '%s' lacks '%s'", p->rule, words);
}

static void llama_8b(hwfit_model *m) { fixture_llama_3_1_8b(m); }

Test(validate, valid_inputs_clear_the_report) {
    hwfit_problem p;
    memset(&p, 0x5a, sizeof p);
    hwfit_psu_in in;
    hwfit_psu_init(&in);
    in.psus = 4;
    in.psu_rating_w = 3200;
    in.load_w = 6500;
    cr_assert_eq(hwfit_psu_validate(&in, &p), HWFIT_OK);
    cr_assert_eq(p.status, HWFIT_OK);
    cr_assert_str_eq(p.field, "");
    cr_assert_str_eq(p.rule, "");
    cr_assert_eq(p.index, 0);
    cr_assert_eq(hwfit_psu_validate(&in, NULL), HWFIT_OK); /* the report is optional */
    hwfit_problem_clear(NULL);                            /* and clearing NULL is harmless */
}

Test(validate, null_inputs_are_named_in) {
    hwfit_problem p;
    expect(hwfit_psu_validate(NULL, &p), &p, HWFIT_EINVAL, "in", "NULL");
    hwfit_model m;
    llama_8b(&m);
    expect(hwfit_memory_validate(NULL, NULL, &p), &p, HWFIT_EINVAL, "model", "NULL");
    expect(hwfit_memory_validate(&m, NULL, &p), &p, HWFIT_EINVAL, "in", "NULL");
    expect(hwfit_model_validate(NULL, &p), &p, HWFIT_EINVAL, "model", "NULL");
    expect(hwfit_psu_redundancy_validate(NULL, 2, &p), &p, HWFIT_EINVAL, "text", "NULL");
}

Test(validate, micro_batch_zero_is_named) {
    hwfit_model m;
    llama_8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_FULL;
    in.micro_batch = 0;
    hwfit_problem p;
    expect(hwfit_memory_validate(&m, &in, &p), &p, HWFIT_EDOM, "micro_batch", "at least 1");
    in.micro_batch = 1;
    in.weights = hwfit_dtype_make(HWFIT_DTYPE_Q4_K);
    expect(hwfit_memory_validate(&m, &in, &p), &p, HWFIT_EUNSUPPORTED, "weights", "plain");
    in.mode = HWFIT_MEMORY_QLORA;
    in.qlora_base.group_size = 7; /* nf4-dq takes no group */
    expect(hwfit_memory_validate(&m, &in, &p), &p, HWFIT_EDOM, "qlora_base", "group");
}

Test(validate, redundancy_that_leaves_no_psu_says_so) {
    hwfit_problem p;
    expect(hwfit_psu_redundancy_validate("2", 2, &p), &p, HWFIT_EDOM, "text",
           "leaves no PSU to carry the load");
    expect(hwfit_psu_redundancy_validate("3+2", 4, &p), &p, HWFIT_EDOM, "text", "add up");
    expect(hwfit_psu_redundancy_validate("2N", 3, &p), &p, HWFIT_EDOM, "text", "even");
    expect(hwfit_psu_redundancy_validate("N+x", 3, &p), &p, HWFIT_EPARSE, "text", "N+M");
    cr_assert_eq(hwfit_psu_redundancy_validate("N+1", 3, &p), HWFIT_OK);
    hwfit_psu_in in;
    hwfit_psu_init(&in);
    in.psus = 2;
    in.redundant = 2;
    in.psu_rating_w = 3000;
    in.load_w = 1000;
    expect(hwfit_psu_validate(&in, &p), &p, HWFIT_EDOM, "redundant", "leaves no PSU");
}

Test(validate, budget_lines_carry_their_index) {
    hwfit_power_budget_in in;
    hwfit_power_budget_init(&in);
    cr_assert_eq(hwfit_power_budget_add(&in, HWFIT_POWER_COMPONENT_GPU, 8, 600), HWFIT_OK);
    cr_assert_eq(hwfit_power_budget_add(&in, HWFIT_POWER_COMPONENT_CPU, 2, 400), HWFIT_OK);
    in.components[1].watts = -1.0;
    hwfit_problem p;
    expect(hwfit_power_budget_validate(&in, &p), &p, HWFIT_EDOM, "components.watts", "watts");
    cr_assert_eq(p.index, 1);
}

Test(validate, nested_fields_carry_their_path) {
    hwfit_collective_in in;
    hwfit_collective_init(&in);
    in.topology.gpus_per_node = 7; /* 7 GPUs over the default 2 sockets */
    hwfit_problem p;
    expect(hwfit_collective_validate(&in, &p), &p, HWFIT_EDOM, "topology.sockets", "divide");
    hwfit_collective_init(&in);
    in.topology.nodes = 2; /* across nodes without NICs */
    expect(hwfit_collective_validate(&in, &p), &p, HWFIT_EDOM, "topology.nics_per_node", "NIC");
    hwfit_collective_step_in s;
    hwfit_collective_step_init(&s);
    s.dp = 4;
    s.ep = 3;
    expect(hwfit_collective_step_validate(&s, &p), &p, HWFIT_ELAYOUT, "ep", "divide dp");
}

Test(validate, model_problems_name_the_model_field) {
    hwfit_model m;
    llama_8b(&m);
    m.kv_heads = 5; /* 32 heads are not a multiple of 5 */
    hwfit_problem p;
    expect(hwfit_model_validate(&m, &p), &p, HWFIT_EDOM, "model.kv_heads", "divide heads");
    hwfit_model_kv_in kin;
    hwfit_model_kv_init(&kin);
    expect(hwfit_model_kv_validate(&m, &kin, &p), &p, HWFIT_EDOM, "model.kv_heads", "divide");
    llama_8b(&m);
    kin.batch = 0;
    expect(hwfit_model_kv_validate(&m, &kin, &p), &p, HWFIT_EDOM, "batch", "at least 1");
}

Test(validate, one_case_per_remaining_module) {
    hwfit_problem p;
    hwfit_raid_in r;
    hwfit_raid_init(&r);
    r.drives = 4;
    r.drive_bytes = 1e12;
    r.bit_error_rate = 2.0;
    expect(hwfit_raid_validate(&r, &p), &p, HWFIT_EDOM, "bit_error_rate", "[0, 1]");
    r.bit_error_rate = 1e-15;
    r.drives = 3;
    expect(hwfit_raid_validate(&r, &p), &p, HWFIT_EDOM, "drives", "too few");

    hwfit_transfer_in t;
    hwfit_transfer_init(&t);
    expect(hwfit_transfer_validate(&t, &p), &p, HWFIT_EDOM, "rate_bytes_per_s", "(0, 1e15]");

    hwfit_host_in h;
    hwfit_host_init(&h);
    h.channels_per_socket = 12;
    h.speed_mts = 6400;
    expect(hwfit_host_validate(&h, &p), &p, HWFIT_EDOM, "dimms", "given with");

    hwfit_link_in l;
    hwfit_link_init(&l);
    l.width = 3;
    expect(hwfit_link_validate(&l, &p), &p, HWFIT_EDOM, "width", "1, 2, 4, 8 or 16");

    hwfit_thermal_in th;
    hwfit_thermal_init(&th);
    th.liquid_above_w = 1000;
    expect(hwfit_thermal_validate(&th, &p), &p, HWFIT_EDOM, "liquid_above_w", "air-marginal");

    hwfit_energy_in e;
    hwfit_energy_init(&e);
    e.pue = 0.5;
    expect(hwfit_energy_validate(&e, &p), &p, HWFIT_EDOM, "pue", "[1, 10]");

    hwfit_tco_in c;
    hwfit_tco_init(&c);
    c.years = 0;
    expect(hwfit_tco_validate(&c, &p), &p, HWFIT_EDOM, "years", "[1, 100]");
}

/* Llama-3.1-8B inference on one 80 GB card: fits (tests/test_shard.c). */
static void shard_fits(hwfit_shard_in *in) {
    hwfit_shard_init(in);
    in->gpus = 1;
    in->capacity_bytes = 80e9;
}

Test(validate, shard_names_the_field_the_layout_and_the_workload) {
    hwfit_model m;
    llama_8b(&m);
    hwfit_shard_in in;
    hwfit_problem p;
    shard_fits(&in);
    expect(hwfit_shard_validate(&m, &in, &p), &p, HWFIT_OK, "", "");
    in.utilization = 1.5;
    expect(hwfit_shard_validate(&m, &in, &p), &p, HWFIT_EDOM, "utilization", "(0, 1]");
    shard_fits(&in);
    in.memory.mode = HWFIT_MEMORY_FULL;
    in.layout.micro_batch = 0;
    expect(hwfit_shard_validate(&m, &in, &p), &p, HWFIT_EDOM, "layout.micro_batch",
           "at least 1");
    /* 32 heads on tp 3: the layout, with the reason's words (hwfit_shard_reason_str). */
    shard_fits(&in);
    in.gpus = 3;
    in.layout.tp = 3;
    expect(hwfit_shard_validate(&m, &in, &p), &p, HWFIT_ELAYOUT, "layout",
           hwfit_shard_reason_str(HWFIT_SHARD_HEADS));
    /* What the per-card memory calls refuse is named as a field of the workload. */
    shard_fits(&in);
    in.memory.mode = HWFIT_MEMORY_FULL;
    in.memory.weights.id = HWFIT_DTYPE_INT4;
    expect(hwfit_shard_validate(&m, &in, &p), &p, HWFIT_EUNSUPPORTED, "memory.weights", "");
    shard_fits(&in);
    in.memory.mode = HWFIT_MEMORY_LORA;
    in.memory.lora_rank = 0;
    expect(hwfit_shard_validate(&m, &in, &p), &p, HWFIT_EDOM, "memory.lora_rank", "at least 1");
    shard_fits(&in);
    in.memory.mode = HWFIT_MEMORY_LORA;
    in.memory.lora_modules = (hwfit_memory_lora_modules)3;
    expect(hwfit_shard_validate(&m, &in, &p), &p, HWFIT_EINVAL, "memory.lora_modules", "");
    shard_fits(&in);
    m.kv_heads = 5;
    expect(hwfit_shard_validate(&m, &in, &p), &p, HWFIT_EDOM, "model.kv_heads", "divide");
}

Test(validate, perf_names_its_fields_and_the_shard_fields_under_shard) {
    hwfit_model m;
    llama_8b(&m);
    hwfit_perf_in in;
    hwfit_problem p;
    const hwfit_gpu *g;
    cr_assert_eq(hwfit_gpu_find("h100-sxm", &g), HWFIT_OK);
    hwfit_perf_init(&in);
    cr_assert_eq(hwfit_perf_set_gpu(&in, g), HWFIT_OK);
    hwfit_perf_in base = in;
    expect(hwfit_perf_validate(&m, &in, &p), &p, HWFIT_OK, "", "");
    in.prefill_efficiency = 0.0;
    expect(hwfit_perf_validate(&m, &in, &p), &p, HWFIT_EDOM, "prefill_efficiency", "(0, 1]");
    in = base;
    in.shard.utilization = 0.0;
    expect(hwfit_perf_validate(&m, &in, &p), &p, HWFIT_EDOM, "shard.utilization", "(0, 1]");
    in = base;
    in.precision = HWFIT_PERF_PRECISION_FP4; /* H100 has no FP4 tensor cores */
    expect(hwfit_perf_validate(&m, &in, &p), &p, HWFIT_EUNSUPPORTED, "precision", "no tensor");
    in = base;
    in.shard.gpus = 2;
    in.shard.layout.pp = 3;
    expect(hwfit_perf_validate(&m, &in, &p), &p, HWFIT_ELAYOUT, "shard.layout",
           hwfit_shard_reason_str(HWFIT_SHARD_GPUS));
}
