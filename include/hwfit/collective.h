/**
 * @file collective.h
 * @brief Time of one collective (all-reduce, all-gather, reduce-scatter, broadcast,
 *        reduce, all-to-all, send/receive) on a described topology, and the per-step
 *        communication of a training layout.
 *
 * The model, in short (docs/formulas.md, section collective, gives every formula and its
 * source):
 * - An algorithm moves known volumes over a pattern of flows between ranks (a ring, a
 *   chain, recursive-halving partners, every pair, a tree across nodes). Each flow is
 *   routed over the topology's resources: the GPU's PCIe link, the PCIe switch uplink,
 *   the CPU socket link, host memory (when traffic is staged through it), the GPU's
 *   NVLink/xGMI ports, the node's NICs. The bandwidth term is the busiest resource's
 *   bytes divided by its effective rate (line rate from link.h times an efficiency).
 * - The latency term uses NCCL's own cost-model constants (NCCL v2.28.7,
 *   src/graph/tuning.cc, @c ncclTunerConstantsDefaults): a base latency per algorithm and
 *   protocol plus a per-hop latency for NVLink, PCI or the network, per NCCL's step counts.
 * - Three protocols as in NCCL: LL (low latency, half bandwidth), LL128 (NVLink only, 92 %
 *   of the bandwidth) and Simple. The fastest algorithm-protocol pair is chosen unless one
 *   is forced.
 * - Results follow nccl-tests: algbw = S / t and busbw = algbw x factor, with S and the
 *   factor as nccl-tests defines them per operation (::hwfit_collective_busbw_factor).
 *
 * @code
 * hwfit_collective_in in;
 * hwfit_collective_out out;
 * const hwfit_gpu *gpu;
 * hwfit_collective_init(&in);                    // 8-GPU PCIe Gen5 node, all-reduce 1 GiB
 * hwfit_gpu_find("rtx-pro-6000-server", &gpu);
 * hwfit_topology_set_gpu(&in.topology, gpu);
 * in.topology.nodes = 2;
 * hwfit_topology_parse_nic("2x400g-roce", &in.topology);
 * if (hwfit_collective_estimate(&in, &out) == HWFIT_OK)
 *     printf("%.1f GB/s busbw, bound by %s\n", out.busbw_bytes_per_s / 1e9,
 *            hwfit_collective_bottleneck_name(out.bottleneck));
 * @endcode
 */
#ifndef HWFIT_COLLECTIVE_H
#define HWFIT_COLLECTIVE_H

#include "hwfit/gpu.h"
#include "hwfit/link.h"
#include "hwfit/status.h"
#include "hwfit/topology.h" /* the cluster a collective runs on (hwfit_topology) */

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup collective Collective communication
 *  @brief Collective cost and training-step communication on a topology (topology.h).
 *  Thread safety:
 *  all functions are reentrant. Memory: an estimate works in about 7 KB of link loads,
 *  which ::hwfit_collective_estimate, ::hwfit_collective_validate,
 *  ::hwfit_collective_estimate_batch (once per batch), ::hwfit_collective_step and
 *  ::hwfit_collective_step_validate allocate and free before they return, so that no
 *  call needs more than 16 KiB of stack; ::HWFIT_ENOMEM when that fails. Nothing else
 *  allocates.
 *  @{ */

/** @brief Collective operations, with the message size S as nccl-tests defines it. */
typedef enum hwfit_collective_op {
    HWFIT_COLLECTIVE_ALLREDUCE = 0,     /**< S = bytes of the buffer each rank holds. */
    HWFIT_COLLECTIVE_ALLGATHER = 1,     /**< S = bytes of the gathered result (n x shard). */
    HWFIT_COLLECTIVE_REDUCESCATTER = 2, /**< S = bytes of each rank's input (n x result). */
    HWFIT_COLLECTIVE_BROADCAST = 3,     /**< S = bytes of the buffer. */
    HWFIT_COLLECTIVE_REDUCE = 4,        /**< S = bytes of the buffer. */
    HWFIT_COLLECTIVE_ALLTOALL = 5,      /**< S = bytes each rank sends in total (n blocks, own included). */
    HWFIT_COLLECTIVE_SENDRECV = 6       /**< S = bytes each rank sends to the next (all ranks at once). */
} hwfit_collective_op;

/** @brief Algorithms. */
typedef enum hwfit_collective_algorithm {
    HWFIT_COLLECTIVE_ALGO_AUTO = 0,         /**< Choose the fastest of the library's algorithms. */
    HWFIT_COLLECTIVE_ALGO_RING = 1,         /**< Ring (pipelined chain for broadcast/reduce). */
    HWFIT_COLLECTIVE_ALGO_TREE = 2,         /**< NCCL's chain + double binary tree (all-reduce); binomial tree (broadcast/reduce). */
    HWFIT_COLLECTIVE_ALGO_RECURSIVE = 3,    /**< Recursive halving/doubling (Rabenseifner), Bruck for all-to-all. */
    HWFIT_COLLECTIVE_ALGO_DIRECT = 4,       /**< Every rank to every rank at once (all-to-all, send/receive, direct RS/AG). */
    HWFIT_COLLECTIVE_ALGO_NVLS = 5,         /**< NVLink SHARP in-switch reduction (all-reduce, one NVSwitch node). */
    HWFIT_COLLECTIVE_ALGO_HIERARCHICAL = 6  /**< All-reduce: reduce-scatter in node, all-reduce across nodes, all-gather in node. */
} hwfit_collective_algorithm;

/** @brief NCCL protocols. */
typedef enum hwfit_collective_protocol {
    HWFIT_COLLECTIVE_PROTO_AUTO = 0,   /**< Choose the fastest. */
    HWFIT_COLLECTIVE_PROTO_LL = 1,     /**< Low latency: 8-byte stores with flags, half the bandwidth. */
    HWFIT_COLLECTIVE_PROTO_LL128 = 2,  /**< 128-byte lines, NVLink only. */
    HWFIT_COLLECTIVE_PROTO_SIMPLE = 3  /**< Full bandwidth, highest latency. */
} hwfit_collective_protocol;

/** @brief Which algorithms AUTO chooses from. */
typedef enum hwfit_collective_library {
    HWFIT_COLLECTIVE_LIBRARY_NCCL = 0, /**< What NCCL runs: ring/tree/NVLS all-reduce, ring for the others, direct all-to-all and send/receive. */
    HWFIT_COLLECTIVE_LIBRARY_ANY = 1   /**< Every algorithm the topology allows. */
} hwfit_collective_library;

/** @brief The resource that bounds a collective. */
typedef enum hwfit_collective_bottleneck {
    HWFIT_COLLECTIVE_BOUND_LATENCY = 0,       /**< Latency outweighs bandwidth (small messages). */
    HWFIT_COLLECTIVE_BOUND_GPU_PCIE = 1,      /**< A GPU's own PCIe link. */
    HWFIT_COLLECTIVE_BOUND_SWITCH_UPLINK = 2, /**< A PCIe switch's uplink to the CPU. */
    HWFIT_COLLECTIVE_BOUND_SOCKET_LINK = 3,   /**< The link between CPU sockets (xGMI/UPI). */
    HWFIT_COLLECTIVE_BOUND_HOST_MEMORY = 4,   /**< Host DRAM bandwidth (traffic staged through it). */
    HWFIT_COLLECTIVE_BOUND_PEER_LINK = 5,     /**< A GPU's NVLink/xGMI ports. */
    HWFIT_COLLECTIVE_BOUND_NVLS = 6,          /**< The NVSwitch reduction engines (NVLS). */
    HWFIT_COLLECTIVE_BOUND_NIC = 7,           /**< The node's network interfaces. */
    HWFIT_COLLECTIVE_BOUND_PROTOCOL = 8       /**< The protocol's own bandwidth cap (LL). */
} hwfit_collective_bottleneck;

/** @brief One collective to estimate. Fill with ::hwfit_collective_init. */
typedef struct hwfit_collective_in {
    hwfit_topology topology;  /**< The cluster. Default: ::hwfit_topology_init. */
    hwfit_collective_op op;   /**< Operation. Default all-reduce. */
    double bytes;             /**< Message size S (nccl-tests convention, see ::hwfit_collective_op), bytes, 0-1e18. Default 1 GiB. */
    uint64_t ranks;           /**< Ranks in the communicator, >= 2; 0 = every GPU of the topology. Default 0. */
    uint64_t ranks_per_node;  /**< Ranks on each node used; 0 = min(ranks, gpus_per_node). Must divide @c ranks. Default 0. */
    hwfit_collective_algorithm algorithm; /**< Forced algorithm, or AUTO. Default AUTO. */
    hwfit_collective_protocol protocol;   /**< Forced protocol, or AUTO. Default AUTO. */
    hwfit_collective_library library;     /**< What AUTO chooses from. Default NCCL. */
    /** Channels NCCL runs at least, as NCCL_MIN_NCHANNELS: 0 = NCCL's own count from its
     *  topology search (twice the ring graph's channels), 1-64 raises it to that. More
     *  channels than the graph's lift NCCL's per-channel ceilings (tree, LL128). Default 0.
     *  (In the struct's padding: its size is kept.) */
    uint32_t min_channels;
} hwfit_collective_in;

/** @brief The estimate. */
typedef struct hwfit_collective_out {
    double time_s;                 /**< Time of the operation, s. */
    double algbw_bytes_per_s;      /**< S / time, bytes/s (nccl-tests "algbw"). */
    double busbw_bytes_per_s;      /**< algbw x busbw factor, bytes/s (nccl-tests "busbw"). */
    double busbw_factor;           /**< nccl-tests factor: 2(n-1)/n, (n-1)/n or 1. */
    double latency_s;              /**< The latency (alpha) part of time_s, s. */
    double bandwidth_time_s;       /**< The bandwidth (beta) part of time_s, s. */
    double bottleneck_bytes_per_s; /**< Effective rate of the bounding resource, bytes/s. */
    hwfit_collective_algorithm algorithm;  /**< Algorithm used. */
    hwfit_collective_protocol protocol;    /**< Protocol used. */
    hwfit_collective_bottleneck bottleneck; /**< What bounds it. */
    uint64_t ranks;          /**< Ranks in the communicator. */
    uint64_t ranks_per_node; /**< Ranks per node. */
    uint64_t nodes;          /**< Nodes the communicator spans. */
    int p2p;                 /**< 1 when every GPU-to-GPU PCIe hop in a node uses P2P; 0 when any is staged through host memory. */
    int gpudirect_rdma;      /**< 1 when network traffic goes straight to GPU memory. */
    /** Channels NCCL runs (comm->nChannels): twice its ring graph's channels from the
     *  topology search (per-channel speed from its speed arrays, channels the narrowest hop
     *  has room for by its own link figures: NVLink per SM generation, PCIe lanes, the
     *  inter-socket link 16 GB/s on AMD, 22 on Intel since Sapphire Rapids), doubled for
     *  fast rings, at least ::hwfit_collective_in::min_channels, at most 64. */
    uint32_t channels;
} hwfit_collective_out;

/**
 * @brief Fill a collective with the defaults: ::hwfit_topology_init, all-reduce of
 *        1 GiB over every GPU, algorithm and protocol AUTO, library NCCL.
 * @param[out] in The input; NULL is ignored.
 */
HWFIT_API void hwfit_collective_init(hwfit_collective_in *in);

/**
 * @brief Estimate one collective.
 * @param[in]  in  The collective and topology; NULL gives ::HWFIT_EINVAL.
 * @param[out] out The estimate; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK           estimated; every field is finite.
 * @retval HWFIT_EINVAL       a pointer is NULL or an enum field is out of range.
 * @retval HWFIT_EDOM         a number is NaN, infinite or out of range, or the counts do
 *                            not fit (ranks < 2, ranks_per_node not dividing ranks, more
 *                            ranks than GPUs, sockets or switches not dividing the GPUs,
 *                            multi-node without NICs, a peer fabric without a rate).
 * @retval HWFIT_EUNSUPPORTED the forced algorithm or protocol does not exist for this
 *                            operation or topology (NVLS without NVSwitch, LL128 over PCIe,
 *                            hierarchical on one node, tree for all-gather...).
 */
HWFIT_API hwfit_status hwfit_collective_estimate(const hwfit_collective_in *in,
                                                 hwfit_collective_out *out);

/**
 * @brief Check the inputs of ::hwfit_collective_estimate: which field is wrong, and why.
 *
 * Runs the same code as ::hwfit_collective_estimate on the same inputs without writing results, so it
 * returns exactly the status that ::hwfit_collective_estimate returns (given a non-NULL output). Topology
 * fields are named "topology.<field>".
 * @param[in]  in      Inputs; NULL gives ::HWFIT_EINVAL (field "in").
 * @param[out] problem The field at fault and the rule it breaks, or cleared when the inputs
 *                     are valid; may be NULL.
 * @return The status of ::hwfit_collective_estimate for @p in.
 */
HWFIT_API hwfit_status hwfit_collective_validate(const hwfit_collective_in *in,
                                                 hwfit_problem *problem);

/**
 * @brief The estimates of @p n collectives: ::hwfit_collective_estimate of each element, in
 * one call, with one scratch allocation (message-size sweeps, every communicator of a
 * layout).
 * Every element is evaluated, even after one fails; outs[i] equals what
 * ::hwfit_collective_estimate gives for ins[i], bit for bit, and is written only when
 * statuses[i] is ::HWFIT_OK.
 * @param[in]  ins      @p n collectives; may be NULL only when @p n is 0.
 * @param[in]  n        Number of elements; 0 does nothing and gives ::HWFIT_OK.
 * @param[out] outs     @p n estimates; may be NULL only when @p n is 0.
 * @param[out] statuses @p n statuses, the one ::hwfit_collective_estimate returns for each
 *                      element; may be NULL only when @p n is 0.
 * @retval HWFIT_OK           every element succeeded (or @p n is 0).
 * @retval HWFIT_EINVAL       an array is NULL while @p n > 0 (nothing is written); or the
 *                            first failing element's status.
 * @retval HWFIT_EDOM         the first failing element's status (see
 *                            ::hwfit_collective_estimate).
 * @retval HWFIT_EUNSUPPORTED the first failing element's status.
 * @retval HWFIT_ERANGE       the first failing element's status.
 */
HWFIT_API hwfit_status hwfit_collective_estimate_batch(const hwfit_collective_in *ins, size_t n,
                                                       hwfit_collective_out *outs,
                                                       hwfit_status *statuses);

/**
 * @brief The nccl-tests bus-bandwidth factor: busbw = algbw x factor. All-reduce
 *        2(n-1)/n; all-gather, reduce-scatter and all-to-all (n-1)/n; broadcast, reduce
 *        and send/receive 1 (nccl-tests src/all_reduce.cu ... src/sendrecv.cu).
 * @param[in]  op     The operation.
 * @param[in]  ranks  n, >= 1.
 * @param[out] factor The factor; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK     computed.
 * @retval HWFIT_EINVAL @p factor is NULL or @p op is not a ::hwfit_collective_op.
 * @retval HWFIT_EDOM   @p ranks is 0.
 */
HWFIT_API hwfit_status hwfit_collective_busbw_factor(hwfit_collective_op op, uint64_t ranks,
                                                     double *factor);

/** @brief Name of an operation: "allreduce", "allgather", "reducescatter", "broadcast",
 *  "reduce", "alltoall", "sendrecv"; "unknown" otherwise. @param[in] op Any value.
 *  @return A static string; never NULL. */
HWFIT_API const char *hwfit_collective_op_name(hwfit_collective_op op);
/** @brief Name of an algorithm: "auto", "ring", "tree", "recursive", "direct", "nvls",
 *  "hierarchical"; "unknown" otherwise. @param[in] algorithm Any value.
 *  @return A static string; never NULL. */
HWFIT_API const char *hwfit_collective_algorithm_name(hwfit_collective_algorithm algorithm);
/** @brief Name of a protocol: "auto", "ll", "ll128", "simple"; "unknown" otherwise.
 *  @param[in] protocol Any value. @return A static string; never NULL. */
HWFIT_API const char *hwfit_collective_protocol_name(hwfit_collective_protocol protocol);
/** @brief Name of a bottleneck: "latency", "gpu-pcie", "switch-uplink", "socket-link",
 *  "host-memory", "peer-link", "nvls", "nic", "protocol"; "unknown" otherwise.
 *  @param[in] bottleneck Any value. @return A static string; never NULL. */
HWFIT_API const char *hwfit_collective_bottleneck_name(hwfit_collective_bottleneck bottleneck);

/**
 * @brief Read an operation from its name (as ::hwfit_collective_op_name gives, also
 *        "all_reduce", "all-reduce" and the like: dashes and underscores are ignored).
 * @param[in]  name Name; NULL gives ::HWFIT_EINVAL.
 * @param[out] op   The operation; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK        found.
 * @retval HWFIT_EINVAL    a pointer is NULL.
 * @retval HWFIT_ENOTFOUND no such operation.
 */
HWFIT_API hwfit_status hwfit_collective_op_from_name(const char *name, hwfit_collective_op *op);

/**
 * @brief Read an algorithm from its name (as ::hwfit_collective_algorithm_name gives).
 * @param[in]  name      Name; NULL gives ::HWFIT_EINVAL.
 * @param[out] algorithm The algorithm; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK        found.
 * @retval HWFIT_EINVAL    a pointer is NULL.
 * @retval HWFIT_ENOTFOUND no such algorithm.
 */
HWFIT_API hwfit_status hwfit_collective_algorithm_from_name(const char *name,
                                                            hwfit_collective_algorithm *algorithm);

/**
 * @brief Read a protocol from its name (as ::hwfit_collective_protocol_name gives).
 * @param[in]  name     Name; NULL gives ::HWFIT_EINVAL.
 * @param[out] protocol The protocol; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK        found.
 * @retval HWFIT_EINVAL    a pointer is NULL.
 * @retval HWFIT_ENOTFOUND no such protocol.
 */
HWFIT_API hwfit_status hwfit_collective_protocol_from_name(const char *name,
                                                           hwfit_collective_protocol *protocol);

/**
 * @brief Communication of one training step, from plain numbers.
 *
 * How a caller fills it (the sharding and throughput modules do this from a model and a
 * layout; any caller can do it by hand):
 * - @c topology: the cluster, as for ::hwfit_collective_estimate.
 * - @c tp, @c pp, @c dp, @c ep: parallel degrees. Ranks are ordered TP innermost, then DP
 *   (with EP groups carved out of DP: ep must divide dp), then PP outermost, as Megatron-LM
 *   orders them; so a TP group is tp consecutive GPUs, a DP or EP group has stride tp, and
 *   the two ranks of a pipeline boundary are tp x dp apart. tp x dp x pp GPUs are used.
 * - @c layers_per_stage: transformer layers on one pipeline stage.
 * - @c micro_batches: micro-batches per step on each pipeline (gradient accumulation).
 * - @c tp_collectives_per_layer: TP all-reduces per layer per micro-batch: 4 for Megatron
 *   (2 forward, 2 backward; Shoeybi et al. 2019), 6 with full activation recomputation.
 * - @c tp_bytes: bytes of one TP all-reduce: micro_batch x sequence x hidden x bytes per
 *   activation element (e.g. 1 x 4096 x 8192 x 2 for bf16).
 * - @c sequence_parallel: 1 replaces each TP all-reduce by a reduce-scatter plus an
 *   all-gather of the same size (Korthikanti et al. 2022).
 * - @c grad_bytes: gradient bytes one rank holds before data-parallel reduction: its
 *   parameters after TP and PP sharding x bytes per gradient element.
 * - @c param_bytes: parameter bytes one rank needs for compute (same sharding, bytes per
 *   weight element); used by ZeRO gathers.
 * - @c zero_stage: 0 all-reduces gradients once per step; 1 reduce-scatters gradients and
 *   all-gathers updated parameters once per step; 2 reduce-scatters gradients every
 *   micro-batch and all-gathers parameters once per step; 3 reduce-scatters gradients and
 *   all-gathers parameters twice (forward and backward) every micro-batch (Rajbhandari et
 *   al. 2020, DeepSpeed).
 * - @c pp_bytes: activation bytes sent across one stage boundary per micro-batch
 *   (micro_batch x sequence x hidden x bytes); forward activations and backward gradients
 *   both cross it.
 * - @c moe_layers_per_stage, @c ep_bytes: MoE layers on one stage and the bytes one rank
 *   sends in one expert all-to-all (tokens x top-k x hidden x bytes); each MoE layer has
 *   4 per micro-batch (dispatch and combine, forward and backward).
 *
 * Times are sums of collective times with no overlap with compute or each other; the
 * throughput module decides what overlaps.
 */
typedef struct hwfit_collective_step_in {
    hwfit_topology topology;        /**< The cluster. Default: ::hwfit_topology_init. */
    uint64_t tp;                    /**< Tensor-parallel degree. Default 1. */
    uint64_t pp;                    /**< Pipeline-parallel degree. Default 1. */
    uint64_t dp;                    /**< Data-parallel degree. Default 1. */
    uint64_t ep;                    /**< Expert-parallel degree, dividing dp. Default 1. */
    uint64_t zero_stage;            /**< ZeRO stage 0-3. Default 0. */
    uint64_t layers_per_stage;      /**< Transformer layers per pipeline stage. Default 1. */
    uint64_t micro_batches;         /**< Micro-batches per step. Default 1. */
    uint64_t tp_collectives_per_layer; /**< TP all-reduces per layer per micro-batch. Default 4. */
    int sequence_parallel;          /**< 1: reduce-scatter + all-gather instead of all-reduce. Default 0. */
    double tp_bytes;                /**< Bytes of one TP all-reduce. Default 0. */
    double grad_bytes;              /**< Gradient bytes per rank. Default 0. */
    double param_bytes;             /**< Parameter bytes per rank. Default 0. */
    double pp_bytes;                /**< Activation bytes per stage boundary per micro-batch. Default 0. */
    uint64_t moe_layers_per_stage;  /**< MoE layers per pipeline stage. Default 0. */
    double ep_bytes;                /**< Bytes one rank sends in one expert all-to-all. Default 0. */
    hwfit_collective_library library; /**< Algorithm repertoire. Default NCCL. */
} hwfit_collective_step_in;

/** @brief Communication time of one step, per class, and the collectives behind it. */
typedef struct hwfit_collective_step_out {
    double tp_s;    /**< Tensor-parallel all-reduces (or RS + AG), s. */
    double dp_s;    /**< Data-parallel gradient all-reduce or reduce-scatters, s. */
    double zero_s;  /**< ZeRO parameter all-gathers, s. */
    double pp_s;    /**< Pipeline sends and receives on one stage boundary, s. */
    double ep_s;    /**< Expert all-to-alls, s. */
    double total_s; /**< Sum of the above, s. */
    uint64_t tp_count;   /**< TP collectives per step. */
    uint64_t dp_count;   /**< Gradient collectives per step. */
    uint64_t zero_count; /**< Parameter all-gathers per step. */
    uint64_t pp_count;   /**< Send/receive operations per step (one boundary). */
    uint64_t ep_count;   /**< All-to-alls per step. */
    hwfit_collective_out tp;   /**< One TP collective (all-reduce, or reduce-scatter with SP); zero when tp = 1. */
    hwfit_collective_out dp;   /**< One gradient collective; zero when dp = 1. */
    hwfit_collective_out pp;   /**< One pipeline send/receive; zero when pp = 1. */
    hwfit_collective_out ep;   /**< One expert all-to-all; zero when ep = 1. */
} hwfit_collective_step_out;

/**
 * @brief Fill a step with the defaults documented on each field (all degrees 1, no bytes).
 * @param[out] in The input; NULL is ignored.
 */
HWFIT_API void hwfit_collective_step_init(hwfit_collective_step_in *in);

/**
 * @brief Communication time of one training step.
 * @param[in]  in  The layout, sizes and topology; NULL gives ::HWFIT_EINVAL.
 * @param[out] out Times per class; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK      estimated.
 * @retval HWFIT_EINVAL  a pointer is NULL or an enum field is out of range.
 * @retval HWFIT_EDOM    a number is NaN, infinite or negative, a degree is 0, or the zero
 *                       stage is above 3; or the topology is invalid (as for
 *                       ::hwfit_collective_estimate).
 * @retval HWFIT_ELAYOUT the layout does not fit the topology: more GPUs than it has, ep
 *                       not dividing dp, or a group that straddles nodes unevenly.
 * @retval HWFIT_ERANGE  a count of collectives overflows 64 bits.
 */
HWFIT_API hwfit_status hwfit_collective_step(const hwfit_collective_step_in *in,
                                             hwfit_collective_step_out *out);

/**
 * @brief Check the inputs of ::hwfit_collective_step: which field is wrong, and why.
 *
 * Runs the same code as ::hwfit_collective_step on the same inputs without writing results, so it
 * returns exactly the status that ::hwfit_collective_step returns (given a non-NULL output). Topology
 * fields are named "topology.<field>".
 * @param[in]  in      Inputs; NULL gives ::HWFIT_EINVAL (field "in").
 * @param[out] problem The field at fault and the rule it breaks, or cleared when the inputs
 *                     are valid; may be NULL.
 * @return The status of ::hwfit_collective_step for @p in.
 */
HWFIT_API hwfit_status hwfit_collective_step_validate(const hwfit_collective_step_in *in,
                                                      hwfit_problem *problem);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* HWFIT_COLLECTIVE_H */
