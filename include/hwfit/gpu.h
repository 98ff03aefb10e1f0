/**
 * @file gpu.h
 * @brief Catalog of accelerators: memory, bandwidth, power, tensor throughput per format,
 *        host link, peer links and P2P support, each row citing its source.
 *
 * The catalog is a constant table compiled into the library. Look a card up by its
 * lowercase name with ::hwfit_gpu_find, or list the table with ::hwfit_gpu_count and
 * ::hwfit_gpu_at. Rows never change at run time; pointers into the table stay valid for
 * the life of the program.
 *
 * Conventions of the table:
 * - Tensor throughputs are @b dense (no 2:4 structured sparsity) and, for FP16/BF16 and
 *   FP8, with FP32 accumulation (what mixed-precision training uses; GeForce cards run
 *   FP16-accumulate at twice that rate). Multiply by @c sparse_speedup for the sparse
 *   figure vendors usually print.
 * - A throughput of 0 means the format has no tensor-core path on that card.
 * - @c memory_bytes is the marketed capacity read as binary units: "96 GB" of GDDR7 or
 *   "80 GB" of HBM is built from power-of-two devices, and nvidia-smi reports 96 GiB of
 *   BAR1 for the RTX PRO 6000, so "96 GB" means 96 GiB here.
 * - Peer-link rates are the sum over all of a GPU's peer links, per direction; the
 *   @c _bidir field adds both directions (the figure marketing pages print).
 */
#ifndef HWFIT_GPU_H
#define HWFIT_GPU_H

#include "hwfit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup gpu GPU catalog
 *  @brief Accelerator specifications with sources. Thread safety: the table is constant
 *  and every function is reentrant.
 *  @{ */

/** @brief Who makes the accelerator. */
typedef enum hwfit_gpu_vendor {
    HWFIT_GPU_VENDOR_NVIDIA = 0, /**< NVIDIA. */
    HWFIT_GPU_VENDOR_AMD = 1     /**< AMD. */
} hwfit_gpu_vendor;

/** @brief Physical form of the accelerator. */
typedef enum hwfit_gpu_form_factor {
    HWFIT_GPU_FORM_PCIE_CARD = 0, /**< PCIe add-in card (dual slot, active or passive). */
    HWFIT_GPU_FORM_SXM = 1,       /**< NVIDIA SXM module on an HGX baseboard. */
    HWFIT_GPU_FORM_OAM = 2,       /**< OCP Accelerator Module (AMD Instinct). */
    HWFIT_GPU_FORM_SUPERCHIP = 3  /**< GPU on a Grace superchip board (GB200). */
} hwfit_gpu_form_factor;

/** @brief Kind of GPU-to-GPU link besides PCIe. */
typedef enum hwfit_gpu_peer_link {
    HWFIT_GPU_PEER_NONE = 0,   /**< No peer link: GPUs talk over PCIe only. */
    HWFIT_GPU_PEER_NVLINK = 1, /**< NVIDIA NVLink. */
    HWFIT_GPU_PEER_XGMI = 2    /**< AMD Infinity Fabric (xGMI) links. */
} hwfit_gpu_peer_link;

/** @brief How the peer links of a system built from this card connect the GPUs. */
typedef enum hwfit_gpu_peer_topology {
    HWFIT_GPU_PEER_TOPOLOGY_NONE = 0,   /**< No peer links. */
    HWFIT_GPU_PEER_TOPOLOGY_SWITCH = 1, /**< NVSwitch: every GPU of the domain at full rate. */
    HWFIT_GPU_PEER_TOPOLOGY_BRIDGE = 2, /**< NVLink bridges join small groups (2 or 4) of cards. */
    HWFIT_GPU_PEER_TOPOLOGY_MESH = 3    /**< Fully connected: one link to each other GPU. */
} hwfit_gpu_peer_topology;

/** @brief One catalog row. All rates are per GPU. */
typedef struct hwfit_gpu {
    const char *name;        /**< Catalog name, lowercase with dashes: "rtx-pro-6000-server". */
    hwfit_gpu_vendor vendor; /**< Manufacturer. */
    const char *edition;     /**< Full product name and edition, as the vendor writes it. */
    const char *architecture;         /**< Architecture and die, e.g. "Blackwell GB202". */
    uint32_t compute_capability;      /**< NVIDIA SM version x 10 (90 = sm_90); 0 for AMD. */
    hwfit_gpu_form_factor form_factor; /**< Physical form. */
    uint64_t memory_bytes;            /**< Memory capacity, bytes (marketed GB read as GiB). */
    double memory_bandwidth_bytes_per_s; /**< Peak memory bandwidth, bytes/s. */
    double tdp_w;                     /**< Board power (TDP/TGP/TBP) at the default limit, W. */
    double fp64_flop_per_s;           /**< FP64 on the vector units, FLOP/s. */
    double fp64_tensor_flop_per_s;    /**< FP64 on tensor/matrix cores, FLOP/s (0: none). */
    double fp32_flop_per_s;           /**< FP32 on the vector (non-tensor) units, FLOP/s. */
    double tf32_flop_per_s;           /**< TF32 (or AMD XF32/TF32) dense tensor, FLOP/s. */
    double fp16_bf16_flop_per_s;      /**< FP16/BF16 dense tensor, FP32 accumulate, FLOP/s. */
    double fp8_flop_per_s;            /**< FP8 dense tensor, FP32 accumulate, FLOP/s (0: none). */
    double int8_op_per_s;             /**< INT8 dense tensor, operations/s (0: none). */
    double fp4_flop_per_s;            /**< FP4 (NVFP4/MXFP4) dense tensor, FLOP/s (0: none). */
    int sparsity;                     /**< 1 when 2:4 structured sparsity is supported. */
    double sparse_speedup;            /**< Factor on tensor rates with 2:4 sparsity (2.0), else 1. */
    uint32_t pcie_gen;                /**< Host link PCIe generation (0: no PCIe host link). */
    uint32_t pcie_lanes;              /**< Host link PCIe width in lanes (0: none). */
    hwfit_gpu_peer_link peer_link;    /**< Peer link kind. */
    hwfit_gpu_peer_topology peer_topology; /**< How peer links join GPUs in its usual system. */
    uint32_t peer_generation;         /**< NVLink generation 1-5, or xGMI generation as in link.h (3); 0: none. */
    uint32_t peer_links;              /**< Number of peer links per GPU; 0: none. */
    double peer_bytes_per_s;          /**< Sum of peer links, per direction, bytes/s. */
    double peer_bytes_per_s_bidir;    /**< Sum of peer links, both directions, bytes/s. */
    uint32_t peer_domain_gpus;        /**< GPUs one peer fabric joins (8 HGX, 2 bridge, 72 NVL72). */
    int p2p_pcie;                     /**< 1 when the stock driver allows GPU P2P over PCIe. */
    int nvls;                         /**< 1 when its NVSwitch system offers NVLink SHARP. */
    const char *source;               /**< Where the numbers come from. */
    const char *notes;                /**< Derivations and disagreements between sources. */
    double fp16_acc16_flop_per_s;     /**< FP16 dense tensor with FP16 accumulate, FLOP/s, where
                                           it is faster than with FP32 accumulate (GeForce cards
                                           run FP32-accumulate at half rate); 0: not faster.
                                           llama.cpp's cuBLAS FP16 matmuls use it. */
    /** NVLink bridges that join a pair (or a bridged group) with all of @c peer_links:
     *  3 for the A100 and H100 PCIe cards and the H100 NVL (4 links each), 1 for the GA102
     *  cards (A40, RTX A6000, RTX 3090: one 4-link bridge), the RTX 2080 Ti (one 2-link
     *  bridge) and the H200 NVL (one 2- or 4-way bridge); 0 for cards without bridges. A
     *  pair with fewer bridges fitted has peer_links x fitted / peer_bridges links. */
    uint32_t peer_bridges;
} hwfit_gpu;

/**
 * @brief Look a card up by its catalog name.
 * @param[in]  name Lowercase catalog name, e.g. "h100-sxm"; NULL gives ::HWFIT_EINVAL.
 * @param[out] gpu  Receives a pointer into the constant table; NULL gives ::HWFIT_EINVAL.
 *                  Written only on success.
 * @retval HWFIT_OK        found.
 * @retval HWFIT_EINVAL    @p name or @p gpu is NULL.
 * @retval HWFIT_ENOTFOUND no card has that name.
 */
HWFIT_API hwfit_status hwfit_gpu_find(const char *name, const hwfit_gpu **gpu);

/**
 * @brief Number of rows in the catalog.
 * @return The count; never 0.
 */
HWFIT_API size_t hwfit_gpu_count(void);

/**
 * @brief One row of the catalog, in catalog order.
 * @param[in] index 0 to ::hwfit_gpu_count() - 1.
 * @return The row, or NULL when @p index is out of range.
 */
HWFIT_API const hwfit_gpu *hwfit_gpu_at(size_t index);

/**
 * @brief Short name of a vendor: "nvidia", "amd".
 * @param[in] vendor Any value; unknown values give "unknown".
 * @return A static string; never NULL.
 */
HWFIT_API const char *hwfit_gpu_vendor_name(hwfit_gpu_vendor vendor);

/**
 * @brief Short name of a form factor: "pcie", "sxm", "oam", "superchip".
 * @param[in] form Any value; unknown values give "unknown".
 * @return A static string; never NULL.
 */
HWFIT_API const char *hwfit_gpu_form_factor_name(hwfit_gpu_form_factor form);

/**
 * @brief Short name of a peer link kind: "none", "nvlink", "xgmi".
 * @param[in] link Any value; unknown values give "unknown".
 * @return A static string; never NULL.
 */
HWFIT_API const char *hwfit_gpu_peer_link_name(hwfit_gpu_peer_link link);

/**
 * @brief Short name of a peer topology: "none", "switch", "bridge", "mesh".
 * @param[in] topology Any value; unknown values give "unknown".
 * @return A static string; never NULL.
 */
HWFIT_API const char *hwfit_gpu_peer_topology_name(hwfit_gpu_peer_topology topology);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* HWFIT_GPU_H */
