/* fuzz_calc_net.c - libFuzzer target for link rates and collective communication
 * (lib/link.c, lib/collective.c, the GPU catalog of lib/gpu.c).
 *
 * The first byte picks link rates, one collective, or one training step; the rest decode
 * the input struct after its _init, starting from a catalog GPU's topology. Invariants:
 * a link's payload rate never exceeds its line rate and both directions are twice one;
 * a collective's time is its latency plus its bandwidth time, algbw = S / time, busbw =
 * algbw x the nccl-tests factor, the communicator fills ranks_per_node x nodes, and twice
 * the bytes never take less time; a step's total is the sum of its classes and each class
 * is its count times one collective. Outputs are poisoned and must stay untouched on error;
 * _validate must agree with every calculation.
 */
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define POISON(x) memset(&(x), 0x5a, sizeof(x))
#define UNTOUCHED(x, p) FZ_CHECK(memcmp(&(x), &(p), sizeof(x)) == 0)
#define REL 1e-12 /* a handful of floating-point operations separate the two sides */

static int near(double a, double b) { return fabs(a - b) <= REL * fmax(fabs(a), fabs(b)); }

static void link_rate(fz *f) {
    static const double speeds[] = {10e9, 25e9, 40e9, 50e9, 100e9, 200e9, 400e9, 800e9};
    hwfit_link_in in;
    hwfit_link_init(&in);
    in.kind = (hwfit_link_kind)(fz_u8(f) % 6);
    in.generation = 1 + fz_u8(f) % 6;
    in.width = 1u << (fz_u8(f) % 5);
    in.port_bits_per_s = speeds[fz_u8(f) % 8];
    if (!fz_keep(f)) in.kind = (hwfit_link_kind)fz_enum(f, 6);
    if (!fz_keep(f)) in.generation = fz_u32(f);
    if (!fz_keep(f)) in.width = fz_u32(f);
    if (!fz_keep(f)) in.port_bits_per_s = fz_double(f);
    if (!fz_keep(f)) in.transport = (hwfit_link_transport)fz_enum(f, 2);
    if (!fz_keep(f)) in.payload_bytes = fz_double(f);
    hwfit_link_out out, poison;
    POISON(out);
    poison = out;
    hwfit_problem p;
    hwfit_status st = hwfit_link_rate(&in, &out);
    fz_check_problem(st, hwfit_link_validate(&in, &p), &p);
    FZ_CHECK(st == HWFIT_OK || st == HWFIT_EINVAL || st == HWFIT_EDOM);
    if (st != HWFIT_OK) {
        UNTOUCHED(out, poison);
        return;
    }
    FZ_CHECK(memchr(out.name, '\0', sizeof out.name) != NULL);
    fz_check_doubles(&out.lane_raw_bits_per_s, 9, 1);
    FZ_CHECK(out.encoding_efficiency > 0.0 && out.encoding_efficiency <= 1.0);
    FZ_CHECK(out.protocol_efficiency > 0.0 && out.protocol_efficiency <= 1.0);
    FZ_CHECK(out.payload_bytes_per_s <= out.line_bytes_per_s);
    FZ_CHECK(out.line_bytes_per_s_bidir == 2.0 * out.line_bytes_per_s);
    FZ_CHECK(out.payload_bytes_per_s_bidir == 2.0 * out.payload_bytes_per_s);
}

static void topology(fz *f, hwfit_topology *t) {
    hwfit_topology_init(t);
    const hwfit_gpu *g = hwfit_gpu_at(fz_u8(f) % hwfit_gpu_count());
    FZ_CHECK(g != NULL);
    FZ_CHECK(hwfit_topology_set_gpu(t, g) == HWFIT_OK);
    FZ_CHECK(hwfit_topology_set_cpu(t, (hwfit_cpu_vendor)(fz_u8(f) % 3)) == HWFIT_OK);
    uint8_t shape = fz_u8(f);
    t->gpus_per_node = (uint64_t)2 << (shape % 3); /* 2, 4, 8 */
    t->nodes = 1 + (shape >> 2) % 4;
    t->sockets = 1 + (shape >> 4) % 2;
    t->pcie_switches = (shape & 0x40) ? t->sockets : 0;
    if (t->nodes > 1) {
        static const char *const nics[] = {"2x400g-roce", "8x400g-ib", "100g-tcp", "400g-ib"};
        FZ_CHECK(hwfit_topology_parse_nic(nics[fz_u8(f) % 4], t) == HWFIT_OK);
    }
    uint64_t *u64[] = {&t->gpus_per_node, &t->nodes, &t->sockets, &t->pcie_switches,
                       &t->nics_per_node};
    for (size_t i = 0; i < sizeof u64 / sizeof u64[0]; i++)
        if (!fz_keep(f)) *u64[i] = fz_u64(f);
    uint32_t *u32[] = {&t->gpu_pcie_gen, &t->gpu_pcie_lanes, &t->compute_capability,
                       &t->peer_links, &t->peer_domain_gpus, &t->switch_uplink_lanes,
                       &t->socket_link_generation, &t->socket_links};
    for (size_t i = 0; i < sizeof u32 / sizeof u32[0]; i++)
        if (!fz_keep(f)) *u32[i] = fz_u32(f);
    double *d[] = {&t->peer_bytes_per_s,        &t->host_memory_bytes_per_s,
                   &t->nic_bits_per_s,          &t->nic_mtu_bytes,
                   &t->pcie_efficiency,         &t->shm_efficiency,
                   &t->host_memory_efficiency,  &t->socket_link_efficiency,
                   &t->peer_efficiency,         &t->nvls_efficiency,
                   &t->nic_efficiency,          &t->shm_step_latency_s,
                   &t->net_overhead_s};
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++)
        if (!fz_keep(f)) *d[i] = fz_double(f);
    if (!fz_keep(f)) t->gpu_p2p_capable = fz_u8(f) & 1;
    if (!fz_keep(f)) t->nvls = fz_u8(f) & 1;
    if (!fz_keep(f)) t->peer_link = (hwfit_gpu_peer_link)fz_enum(f, 3);
    if (!fz_keep(f)) t->peer_topology = (hwfit_gpu_peer_topology)fz_enum(f, 4);
    if (!fz_keep(f)) t->cpu_vendor = (hwfit_cpu_vendor)fz_enum(f, 3);
    if (!fz_keep(f)) t->p2p = (hwfit_topology_mode)fz_enum(f, 3);
    if (!fz_keep(f)) t->gpudirect_rdma = (hwfit_topology_mode)fz_enum(f, 3);
    if (!fz_keep(f)) t->socket_link_kind = (hwfit_link_kind)fz_enum(f, 6);
    if (!fz_keep(f)) t->nic_kind = (hwfit_nic_kind)fz_enum(f, 4);
    if (!fz_keep(f)) t->efa_efficiency = fz_double(f);
}

static void check_estimate(const hwfit_collective_in *in, const hwfit_collective_out *o) {
    fz_check_doubles(&o->time_s, 7, 1);
    FZ_CHECK(near(o->time_s, o->latency_s + o->bandwidth_time_s));
    FZ_CHECK(o->time_s > 0.0);
    FZ_CHECK(near(o->algbw_bytes_per_s, in->bytes / o->time_s));
    FZ_CHECK(near(o->busbw_bytes_per_s, o->algbw_bytes_per_s * o->busbw_factor));
    double factor = -1.0;
    FZ_CHECK(hwfit_collective_busbw_factor(in->op, o->ranks, &factor) == HWFIT_OK);
    FZ_CHECK(factor == o->busbw_factor);
    FZ_CHECK(o->ranks >= 2 && o->ranks == o->ranks_per_node * o->nodes);
    FZ_CHECK(o->nodes <= in->topology.nodes && o->ranks_per_node <= in->topology.gpus_per_node);
    FZ_CHECK(o->p2p == 0 || o->p2p == 1);
    FZ_CHECK(o->gpudirect_rdma == 0 || o->gpudirect_rdma == 1);
    FZ_CHECK((unsigned)o->algorithm <= (unsigned)HWFIT_COLLECTIVE_ALGO_HIERARCHICAL &&
             o->algorithm != HWFIT_COLLECTIVE_ALGO_AUTO);
    FZ_CHECK((unsigned)o->protocol <= (unsigned)HWFIT_COLLECTIVE_PROTO_SIMPLE &&
             o->protocol != HWFIT_COLLECTIVE_PROTO_AUTO);
    FZ_CHECK((unsigned)o->bottleneck <= (unsigned)HWFIT_COLLECTIVE_BOUND_PROTOCOL);
    FZ_CHECK(strcmp(hwfit_collective_bottleneck_name(o->bottleneck), "unknown") != 0);
}

static void collective(fz *f) {
    hwfit_collective_in in;
    hwfit_collective_init(&in);
    topology(f, &in.topology);
    in.op = (hwfit_collective_op)(fz_u8(f) % 7);
    in.bytes = ldexp(1.0, fz_u8(f) % 40);
    if (!fz_keep(f)) in.op = (hwfit_collective_op)fz_enum(f, 7);
    if (!fz_keep(f)) in.bytes = fz_double(f);
    if (!fz_keep(f)) in.ranks = fz_u64(f);
    if (!fz_keep(f)) in.ranks_per_node = fz_u64(f);
    if (!fz_keep(f)) in.algorithm = (hwfit_collective_algorithm)fz_enum(f, 7);
    if (!fz_keep(f)) in.protocol = (hwfit_collective_protocol)fz_enum(f, 4);
    if (!fz_keep(f)) in.library = (hwfit_collective_library)fz_enum(f, 2);
    hwfit_collective_out out, poison;
    POISON(out);
    poison = out;
    hwfit_problem p;
    hwfit_status st = hwfit_collective_estimate(&in, &out);
    fz_check_problem(st, hwfit_collective_validate(&in, &p), &p);
    FZ_CHECK(st == HWFIT_OK || st == HWFIT_EINVAL || st == HWFIT_EDOM ||
             st == HWFIT_EUNSUPPORTED || st == HWFIT_ERANGE);
    if (st != HWFIT_OK) {
        UNTOUCHED(out, poison);
        return;
    }
    check_estimate(&in, &out);
    /* Twice the bytes never take less time (every algorithm's time grows with S, and the
     * fastest of growing times grows). */
    if (in.bytes * 2.0 <= 1e18) {
        hwfit_collective_out more;
        in.bytes *= 2.0;
        FZ_CHECK(hwfit_collective_estimate(&in, &more) == HWFIT_OK);
        FZ_CHECK(more.time_s >= out.time_s * (1.0 - REL));
    }
}

static void step(fz *f) {
    hwfit_collective_step_in in;
    hwfit_collective_step_init(&in);
    topology(f, &in.topology);
    in.tp = (uint64_t)1 << (fz_u8(f) % 4);
    in.dp = (uint64_t)1 << (fz_u8(f) % 4);
    in.pp = 1 + fz_u8(f) % 3;
    in.ep = in.dp >> (fz_u8(f) % 3);
    if (in.ep == 0) in.ep = 1;
    in.zero_stage = fz_u8(f) % 4;
    in.layers_per_stage = 1 + fz_u8(f) % 80;
    in.micro_batches = 1 + fz_u8(f) % 16;
    in.sequence_parallel = fz_u8(f) & 1;
    in.moe_layers_per_stage = fz_u8(f) % 4;
    in.tp_bytes = 1e6 * fz_u8(f);
    in.grad_bytes = 1e8 * fz_u8(f);
    in.param_bytes = 1e8 * fz_u8(f);
    in.pp_bytes = 1e6 * fz_u8(f);
    in.ep_bytes = 1e6 * fz_u8(f);
    uint64_t *u64[] = {&in.tp, &in.pp, &in.dp, &in.ep, &in.zero_stage, &in.layers_per_stage,
                       &in.micro_batches, &in.tp_collectives_per_layer,
                       &in.moe_layers_per_stage};
    for (size_t i = 0; i < sizeof u64 / sizeof u64[0]; i++)
        if (!fz_keep(f)) *u64[i] = fz_u64(f);
    double *d[] = {&in.tp_bytes, &in.grad_bytes, &in.param_bytes, &in.pp_bytes, &in.ep_bytes};
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++)
        if (!fz_keep(f)) *d[i] = fz_double(f);
    if (!fz_keep(f)) in.library = (hwfit_collective_library)fz_enum(f, 2);
    if (!fz_keep(f)) in.sequence_parallel = fz_u8(f) & 1;

    hwfit_collective_step_out out, poison;
    POISON(out);
    poison = out;
    hwfit_problem p;
    hwfit_status st = hwfit_collective_step(&in, &out);
    fz_check_problem(st, hwfit_collective_step_validate(&in, &p), &p);
    FZ_CHECK(st == HWFIT_OK || st == HWFIT_EINVAL || st == HWFIT_EDOM ||
             st == HWFIT_ELAYOUT || st == HWFIT_ERANGE || st == HWFIT_EUNSUPPORTED);
    if (st != HWFIT_OK) {
        UNTOUCHED(out, poison);
        return;
    }
    fz_check_doubles(&out.tp_s, 6, 1);
    FZ_CHECK(near(out.total_s, out.tp_s + out.dp_s + out.zero_s + out.pp_s + out.ep_s));
    FZ_CHECK(near(out.dp_s, (double)out.dp_count * out.dp.time_s));
    FZ_CHECK(near(out.pp_s, (double)out.pp_count * out.pp.time_s));
    FZ_CHECK(near(out.ep_s, (double)out.ep_count * out.ep.time_s));
    if (!in.sequence_parallel) FZ_CHECK(near(out.tp_s, (double)out.tp_count * out.tp.time_s));
    if (out.tp_count) check_estimate(&(hwfit_collective_in){in.topology,
                                                            in.sequence_parallel
                                                                ? HWFIT_COLLECTIVE_REDUCESCATTER
                                                                : HWFIT_COLLECTIVE_ALLREDUCE,
                                                            in.tp_bytes, in.tp, 0,
                                                            HWFIT_COLLECTIVE_ALGO_AUTO,
                                                            HWFIT_COLLECTIVE_PROTO_AUTO,
                                                            in.library, 0},
                                     &out.tp);
    if (out.pp_count) FZ_CHECK(out.pp_count == 2 * in.micro_batches);
    FZ_CHECK(in.tp > 1 || (out.tp_count == 0 && out.tp_s == 0.0));
    FZ_CHECK(in.dp > 1 || (out.dp_count == 0 && out.zero_count == 0));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz f = {data, size};
    switch (fz_u8(&f) % 3) {
    case 0: link_rate(&f); break;
    case 1: collective(&f); break;
    default: step(&f); break;
    }
    return 0;
}
