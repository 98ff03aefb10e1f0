/* gpu.c - the accelerator catalog (include/hwfit/gpu.h).
 *
 * Every row cites where its numbers come from. Tensor rates are dense with FP32
 * accumulation; where a vendor prints only sparse figures (2:4 structured sparsity) the
 * row halves them and says so. Memory is the marketed "GB" read as GiB (see gpu.h).
 */
#include <string.h>

#include "hwfit/gpu.h"
#include "hwfit/status.h"

#define T_ 1e12                          /* TFLOP/s -> FLOP/s */
#define G_ 1e9                           /* GB/s -> bytes/s */
#define GIB_(x) ((uint64_t)(x) << 30)    /* GiB -> bytes */

/* NVLink: 25 GB/s per link per direction for generations 2-4, 50 GB/s for generation 5
 * (NVIDIA A100/H100/B200 datasheets: 12 x 25 = 300, 18 x 25 = 450, 18 x 50 = 900 GB/s). */

static const hwfit_gpu catalog[] = {
    /* ---- RTX PRO 6000 Blackwell: three editions of one GB202 die (188 SMs) ---------- */
    {
        .name = "rtx-pro-6000-server",
        .vendor = HWFIT_GPU_VENDOR_NVIDIA,
        .edition = "NVIDIA RTX PRO 6000 Blackwell Server Edition",
        .architecture = "Blackwell GB202",
        .compute_capability = 120,
        .form_factor = HWFIT_GPU_FORM_PCIE_CARD,
        .memory_bytes = GIB_(96),
        .memory_bandwidth_bytes_per_s = 1597 * G_,
        .tdp_w = 600,
        .fp64_flop_per_s = 117.0 / 64 * T_,
        .fp64_tensor_flop_per_s = 0,
        .fp32_flop_per_s = 117 * T_,
        .tf32_flop_per_s = 234 * T_,
        .fp16_bf16_flop_per_s = 468 * T_,
        .fp8_flop_per_s = 936 * T_,
        .int8_op_per_s = 936 * T_,
        .fp4_flop_per_s = 1872 * T_,
        .sparsity = 1,
        .sparse_speedup = 2.0,
        .pcie_gen = 5,
        .pcie_lanes = 16,
        .peer_link = HWFIT_GPU_PEER_NONE,
        .peer_topology = HWFIT_GPU_PEER_TOPOLOGY_NONE,
        .peer_generation = 0,
        .peer_links = 0,
        .peer_bytes_per_s = 0,
        .peer_bytes_per_s_bidir = 0,
        .peer_domain_gpus = 0,
        .p2p_pcie = 1,
        .nvls = 0,
        .source = "NVIDIA RTX PRO 6000 Blackwell Server Edition product page "
         "(nvidia.com/en-us/data-center/rtx-pro-6000-blackwell-server-edition): 96 GB GDDR7, "
         "1,597 GB/s, up to 600 W, TF32 Tensor 234 TFLOPS, FP16/BF16 1 PFLOPS, FP8 2 PFLOPS, "
         "FP4 4 PFLOPS; PCIe Gen5 x16, no NVLink",
        .notes = "Memory bandwidth: NVIDIA gives 1,597 GB/s for the Server Edition (512-bit GDDR7 at "
         "~25 Gb/s) and 1,792 GB/s (28 Gb/s) for the Workstation and Max-Q editions; the seed "
         "documents disagree (1,597 vs 1,792) and this row takes NVIDIA's Server figure. "
         "Tensor rates: the page prints rounded sparse 1/2/4 PFLOPS and one unrounded figure, "
         "TF32 234 TFLOPS, read as dense (2 x FP32); dense FP16/BF16 = 2 x 234, FP8 and INT8 "
         "= 4 x 234, FP4 = 8 x 234 (derived). FP32 = 234 / 2; FP64 = FP32 / 64 (GB202 ratio). "
         "P2P over PCIe works with the stock driver (community measurements, "
         "voipmonitor/rtx6kpro hardware/pcie-bandwidth.md).",
    },
    {
        .name = "rtx-pro-6000-workstation",
        .vendor = HWFIT_GPU_VENDOR_NVIDIA,
        .edition = "NVIDIA RTX PRO 6000 Blackwell Workstation Edition",
        .architecture = "Blackwell GB202",
        .compute_capability = 120,
        .form_factor = HWFIT_GPU_FORM_PCIE_CARD,
        .memory_bytes = GIB_(96),
        .memory_bandwidth_bytes_per_s = 1792 * G_,
        .tdp_w = 600,
        .fp64_flop_per_s = 125.0 / 64 * T_,
        .fp64_tensor_flop_per_s = 0,
        .fp32_flop_per_s = 125 * T_,
        .tf32_flop_per_s = 250 * T_,
        .fp16_bf16_flop_per_s = 500 * T_,
        .fp8_flop_per_s = 1000 * T_,
        .int8_op_per_s = 1000 * T_,
        .fp4_flop_per_s = 2000 * T_,
        .sparsity = 1,
        .sparse_speedup = 2.0,
        .pcie_gen = 5,
        .pcie_lanes = 16,
        .peer_link = HWFIT_GPU_PEER_NONE,
        .peer_topology = HWFIT_GPU_PEER_TOPOLOGY_NONE,
        .peer_generation = 0,
        .peer_links = 0,
        .peer_bytes_per_s = 0,
        .peer_bytes_per_s_bidir = 0,
        .peer_domain_gpus = 0,
        .p2p_pcie = 1,
        .nvls = 0,
        .source = "NVIDIA RTX PRO 6000 Blackwell Workstation Edition datasheet and GTC 2025 launch: "
         "96 GB GDDR7 ECC, 512-bit, 1,792 GB/s, 600 W, 125 TFLOPS FP32, 4,000 AI TOPS "
         "(FP4, sparse); PCIe Gen5 x16, no NVLink",
        .notes = "Dense FP4 = 4,000 / 2 (sparse to dense); FP8 and INT8 = FP4 / 2; FP16/BF16 = FP8 / 2; "
         "TF32 = FP16 / 2 (derived, Blackwell tensor-core ratios). A clock-based derivation "
         "(188 SMs x 1,024 FLOP/clk x 2.617 GHz) gives 503.8 TFLOPS FP16, within 1 %.",
    },
    {
        .name = "rtx-pro-6000-maxq",
        .vendor = HWFIT_GPU_VENDOR_NVIDIA,
        .edition = "NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition",
        .architecture = "Blackwell GB202",
        .compute_capability = 120,
        .form_factor = HWFIT_GPU_FORM_PCIE_CARD,
        .memory_bytes = GIB_(96),
        .memory_bandwidth_bytes_per_s = 1792 * G_,
        .tdp_w = 300,
        .fp64_flop_per_s = 110.0 / 64 * T_,
        .fp64_tensor_flop_per_s = 0,
        .fp32_flop_per_s = 110 * T_,
        .tf32_flop_per_s = 219.4 * T_,
        .fp16_bf16_flop_per_s = 438.9 * T_,
        .fp8_flop_per_s = 877.75 * T_,
        .int8_op_per_s = 877.75 * T_,
        .fp4_flop_per_s = 1755.5 * T_,
        .sparsity = 1,
        .sparse_speedup = 2.0,
        .pcie_gen = 5,
        .pcie_lanes = 16,
        .peer_link = HWFIT_GPU_PEER_NONE,
        .peer_topology = HWFIT_GPU_PEER_TOPOLOGY_NONE,
        .peer_generation = 0,
        .peer_links = 0,
        .peer_bytes_per_s = 0,
        .peer_bytes_per_s_bidir = 0,
        .peer_domain_gpus = 0,
        .p2p_pcie = 1,
        .nvls = 0,
        .source = "NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition datasheet, as read in "
         "Fixstars' blog (Sept. 2025): 96 GB GDDR7, 1,792 GB/s, 300 W, 110 TFLOPS FP32, "
         "3,511 AI TOPS (FP4, sparse); PCIe Gen5 x16",
        .notes = "Dense FP4 = 3,511 / 2; FP8/INT8 = FP4 / 2; FP16/BF16 = FP8 / 2; TF32 = FP16 / 2 "
         "(derived). Same die and memory as the Workstation Edition at half the power.",
    },
    /* ---- Ada ------------------------------------------------------------------------ */
    {
        .name = "rtx-6000-ada",
        .vendor = HWFIT_GPU_VENDOR_NVIDIA,
        .edition = "NVIDIA RTX 6000 Ada Generation",
        .architecture = "Ada AD102",
        .compute_capability = 89,
        .form_factor = HWFIT_GPU_FORM_PCIE_CARD,
        .memory_bytes = GIB_(48),
        .memory_bandwidth_bytes_per_s = 960 * G_,
        .tdp_w = 300,
        .fp64_flop_per_s = 91.1 / 64 * T_,
        .fp64_tensor_flop_per_s = 0,
        .fp32_flop_per_s = 91.1 * T_,
        .tf32_flop_per_s = 182.1 * T_,
        .fp16_bf16_flop_per_s = 364.2 * T_,
        .fp8_flop_per_s = 728.5 * T_,
        .int8_op_per_s = 728.5 * T_,
        .fp4_flop_per_s = 0,
        .sparsity = 1,
        .sparse_speedup = 2.0,
        .pcie_gen = 4,
        .pcie_lanes = 16,
        .peer_link = HWFIT_GPU_PEER_NONE,
        .peer_topology = HWFIT_GPU_PEER_TOPOLOGY_NONE,
        .peer_generation = 0,
        .peer_links = 0,
        .peer_bytes_per_s = 0,
        .peer_bytes_per_s_bidir = 0,
        .peer_domain_gpus = 0,
        .p2p_pcie = 1,
        .nvls = 0,
        .source = "NVIDIA RTX 6000 Ada Generation datasheet: 48 GB GDDR6 ECC, 960 GB/s, 300 W, "
         "91.1 TFLOPS FP32, 1,457 TFLOPS FP8 tensor (sparse); PCIe Gen4 x16, no NVLink",
        .notes = "Dense FP8 = 1,457 / 2; FP16/BF16 = FP8 / 2; TF32 = FP16 / 2 (derived). P2P over "
         "PCIe on this workstation card is reported by third parties (efeslab/Nanoflow#22), "
         "not confirmed in NVIDIA documentation.",
    },
    {
        .name = "l40s",
        .vendor = HWFIT_GPU_VENDOR_NVIDIA,
        .edition = "NVIDIA L40S",
        .architecture = "Ada AD102",
        .compute_capability = 89,
        .form_factor = HWFIT_GPU_FORM_PCIE_CARD,
        .memory_bytes = GIB_(48),
        .memory_bandwidth_bytes_per_s = 864 * G_,
        .tdp_w = 350,
        .fp64_flop_per_s = 91.6 / 64 * T_,
        .fp64_tensor_flop_per_s = 0,
        .fp32_flop_per_s = 91.6 * T_,
        .tf32_flop_per_s = 183 * T_,
        .fp16_bf16_flop_per_s = 362.05 * T_,
        .fp8_flop_per_s = 733 * T_,
        .int8_op_per_s = 733 * T_,
        .fp4_flop_per_s = 0,
        .sparsity = 1,
        .sparse_speedup = 2.0,
        .pcie_gen = 4,
        .pcie_lanes = 16,
        .peer_link = HWFIT_GPU_PEER_NONE,
        .peer_topology = HWFIT_GPU_PEER_TOPOLOGY_NONE,
        .peer_generation = 0,
        .peer_links = 0,
        .peer_bytes_per_s = 0,
        .peer_bytes_per_s_bidir = 0,
        .peer_domain_gpus = 0,
        .p2p_pcie = 1,
        .nvls = 0,
        .source = "NVIDIA L40S datasheet (nvidia.com/l40s): 48 GB GDDR6 ECC, 864 GB/s, 350 W, 91.6 TFLOPS "
         "FP32, TF32 366, BF16 733, FP8 1,466, INT8 1,466 TOPS (sparse); PCIe Gen4 x16, no NVLink",
        .notes = "Dense = sparse / 2. FP64 = FP32 / 64 (AD102 ratio; not on the datasheet). P2P over "
         "PCIe assumed as for other data-center cards; not stated on the datasheet.",
    },
    /* ---- Ampere --------------------------------------------------------------------- */
    {
        .name = "a100-sxm-80gb",
        .vendor = HWFIT_GPU_VENDOR_NVIDIA,
        .edition = "NVIDIA A100 80GB SXM",
        .architecture = "Ampere GA100",
        .compute_capability = 80,
        .form_factor = HWFIT_GPU_FORM_SXM,
        .memory_bytes = GIB_(80),
        .memory_bandwidth_bytes_per_s = 2039 * G_,
        .tdp_w = 400,
        .fp64_flop_per_s = 9.7 * T_,
        .fp64_tensor_flop_per_s = 19.5 * T_,
        .fp32_flop_per_s = 19.5 * T_,
        .tf32_flop_per_s = 156 * T_,
        .fp16_bf16_flop_per_s = 312 * T_,
        .fp8_flop_per_s = 0,
        .int8_op_per_s = 624 * T_,
        .fp4_flop_per_s = 0,
        .sparsity = 1,
        .sparse_speedup = 2.0,
        .pcie_gen = 4,
        .pcie_lanes = 16,
        .peer_link = HWFIT_GPU_PEER_NVLINK,
        .peer_topology = HWFIT_GPU_PEER_TOPOLOGY_SWITCH,
        .peer_generation = 3,
        .peer_links = 12,
        .peer_bytes_per_s = 300 * G_,
        .peer_bytes_per_s_bidir = 600 * G_,
        .peer_domain_gpus = 8,
        .p2p_pcie = 1,
        .nvls = 0,
        .source = "NVIDIA A100 Tensor Core GPU datasheet: 80 GB HBM2e, 2,039 GB/s, 400 W, FP64 9.7 "
         "(tensor 19.5), FP32 19.5, TF32 156, BF16 312, INT8 624 TOPS (dense); NVLink 600 GB/s; "
         "PCIe Gen4 x16",
        .notes = "NVLink 3: 12 links x 25 GB/s per direction, joined by NVSwitch on HGX A100 8-GPU. "
         "No FP8 or FP4 tensor cores on Ampere.",
    },
    {
        .name = "a100-pcie-80gb",
        .vendor = HWFIT_GPU_VENDOR_NVIDIA,
        .edition = "NVIDIA A100 80GB PCIe",
        .architecture = "Ampere GA100",
        .compute_capability = 80,
        .form_factor = HWFIT_GPU_FORM_PCIE_CARD,
        .memory_bytes = GIB_(80),
        .memory_bandwidth_bytes_per_s = 1935 * G_,
        .tdp_w = 300,
        .fp64_flop_per_s = 9.7 * T_,
        .fp64_tensor_flop_per_s = 19.5 * T_,
        .fp32_flop_per_s = 19.5 * T_,
        .tf32_flop_per_s = 156 * T_,
        .fp16_bf16_flop_per_s = 312 * T_,
        .fp8_flop_per_s = 0,
        .int8_op_per_s = 624 * T_,
        .fp4_flop_per_s = 0,
        .sparsity = 1,
        .sparse_speedup = 2.0,
        .pcie_gen = 4,
        .pcie_lanes = 16,
        .peer_link = HWFIT_GPU_PEER_NVLINK,
        .peer_topology = HWFIT_GPU_PEER_TOPOLOGY_BRIDGE,
        .peer_generation = 3,
        .peer_links = 12,
        .peer_bytes_per_s = 300 * G_,
        .peer_bytes_per_s_bidir = 600 * G_,
        .peer_domain_gpus = 2,
        .p2p_pcie = 1,
        .nvls = 0,
        .source = "NVIDIA A100 Tensor Core GPU datasheet: 80 GB HBM2e, 1,935 GB/s, 300 W, same tensor "
         "rates as SXM; NVLink bridge for 2 GPUs 600 GB/s; PCIe Gen4 x16",
        .notes = "The NVLink bridge joins pairs of cards; between pairs traffic uses PCIe.",
    },
    /* ---- Hopper --------------------------------------------------------------------- */
    {
        .name = "h100-sxm",
        .vendor = HWFIT_GPU_VENDOR_NVIDIA,
        .edition = "NVIDIA H100 SXM5 80GB",
        .architecture = "Hopper GH100",
        .compute_capability = 90,
        .form_factor = HWFIT_GPU_FORM_SXM,
        .memory_bytes = GIB_(80),
        .memory_bandwidth_bytes_per_s = 3350 * G_,
        .tdp_w = 700,
        .fp64_flop_per_s = 34 * T_,
        .fp64_tensor_flop_per_s = 67 * T_,
        .fp32_flop_per_s = 67 * T_,
        .tf32_flop_per_s = 494.5 * T_,
        .fp16_bf16_flop_per_s = 989.5 * T_,
        .fp8_flop_per_s = 1979 * T_,
        .int8_op_per_s = 1979 * T_,
        .fp4_flop_per_s = 0,
        .sparsity = 1,
        .sparse_speedup = 2.0,
        .pcie_gen = 5,
        .pcie_lanes = 16,
        .peer_link = HWFIT_GPU_PEER_NVLINK,
        .peer_topology = HWFIT_GPU_PEER_TOPOLOGY_SWITCH,
        .peer_generation = 4,
        .peer_links = 18,
        .peer_bytes_per_s = 450 * G_,
        .peer_bytes_per_s_bidir = 900 * G_,
        .peer_domain_gpus = 8,
        .p2p_pcie = 1,
        .nvls = 1,
        .source = "NVIDIA H100 Tensor Core GPU datasheet: 80 GB HBM3, 3.35 TB/s, up to 700 W, FP64 34 "
         "(tensor 67), FP32 67, TF32 989, BF16 1,979, FP8 3,958, INT8 3,958 (sparse); NVLink "
         "900 GB/s; PCIe Gen5 128 GB/s",
        .notes = "Dense = sparse / 2. NVLink 4: 18 links x 25 GB/s per direction through NVSwitch; "
         "NVLink SHARP (NVLS) on HGX H100.",
    },
    {
        .name = "h100-pcie",
        .vendor = HWFIT_GPU_VENDOR_NVIDIA,
        .edition = "NVIDIA H100 PCIe 80GB",
        .architecture = "Hopper GH100",
        .compute_capability = 90,
        .form_factor = HWFIT_GPU_FORM_PCIE_CARD,
        .memory_bytes = GIB_(80),
        .memory_bandwidth_bytes_per_s = 2000 * G_,
        .tdp_w = 350,
        .fp64_flop_per_s = 26 * T_,
        .fp64_tensor_flop_per_s = 51 * T_,
        .fp32_flop_per_s = 51 * T_,
        .tf32_flop_per_s = 378 * T_,
        .fp16_bf16_flop_per_s = 756 * T_,
        .fp8_flop_per_s = 1513 * T_,
        .int8_op_per_s = 1513 * T_,
        .fp4_flop_per_s = 0,
        .sparsity = 1,
        .sparse_speedup = 2.0,
        .pcie_gen = 5,
        .pcie_lanes = 16,
        .peer_link = HWFIT_GPU_PEER_NVLINK,
        .peer_topology = HWFIT_GPU_PEER_TOPOLOGY_BRIDGE,
        .peer_generation = 4,
        .peer_links = 12,
        .peer_bytes_per_s = 300 * G_,
        .peer_bytes_per_s_bidir = 600 * G_,
        .peer_domain_gpus = 2,
        .p2p_pcie = 1,
        .nvls = 0,
        .source = "NVIDIA H100 Tensor Core GPU datasheet (PCIe column) and product brief PB-11133: "
         "80 GB HBM2e, 2 TB/s, 300-350 W, FP64 26 (tensor 51), FP32 51, TF32 756, BF16 1,513, "
         "FP8 3,026 (sparse); NVLink bridge 600 GB/s; PCIe Gen5 x16",
        .notes = "Dense = sparse / 2. Measured 2-GPU all-reduce over the bridge reaches only ~116 GB/s "
         "(NVIDIA/nccl#1161), well under the bridge's line rate.",
    },
    {
        .name = "h100-nvl",
        .vendor = HWFIT_GPU_VENDOR_NVIDIA,
        .edition = "NVIDIA H100 NVL 94GB",
        .architecture = "Hopper GH100",
        .compute_capability = 90,
        .form_factor = HWFIT_GPU_FORM_PCIE_CARD,
        .memory_bytes = GIB_(94),
        .memory_bandwidth_bytes_per_s = 3900 * G_,
        .tdp_w = 400,
        .fp64_flop_per_s = 30 * T_,
        .fp64_tensor_flop_per_s = 60 * T_,
        .fp32_flop_per_s = 60 * T_,
        .tf32_flop_per_s = 417.5 * T_,
        .fp16_bf16_flop_per_s = 835.5 * T_,
        .fp8_flop_per_s = 1670.5 * T_,
        .int8_op_per_s = 1670.5 * T_,
        .fp4_flop_per_s = 0,
        .sparsity = 1,
        .sparse_speedup = 2.0,
        .pcie_gen = 5,
        .pcie_lanes = 16,
        .peer_link = HWFIT_GPU_PEER_NVLINK,
        .peer_topology = HWFIT_GPU_PEER_TOPOLOGY_BRIDGE,
        .peer_generation = 4,
        .peer_links = 12,
        .peer_bytes_per_s = 300 * G_,
        .peer_bytes_per_s_bidir = 600 * G_,
        .peer_domain_gpus = 2,
        .p2p_pcie = 1,
        .nvls = 0,
        .source = "NVIDIA H100 Tensor Core GPU datasheet (H100 NVL column): 94 GB HBM3, 3.9 TB/s, "
         "350-400 W, FP64 30 (tensor 60), FP32 60, TF32 835, BF16 1,671, FP8 3,341 (sparse); "
         "NVLink bridge 600 GB/s; PCIe Gen5 x16",
        .notes = "Dense = sparse / 2; TDP is the upper end of the configurable 350-400 W.",
    },
    {
        .name = "h200-sxm",
        .vendor = HWFIT_GPU_VENDOR_NVIDIA,
        .edition = "NVIDIA H200 SXM 141GB",
        .architecture = "Hopper GH100",
        .compute_capability = 90,
        .form_factor = HWFIT_GPU_FORM_SXM,
        .memory_bytes = GIB_(141),
        .memory_bandwidth_bytes_per_s = 4800 * G_,
        .tdp_w = 700,
        .fp64_flop_per_s = 34 * T_,
        .fp64_tensor_flop_per_s = 67 * T_,
        .fp32_flop_per_s = 67 * T_,
        .tf32_flop_per_s = 494.5 * T_,
        .fp16_bf16_flop_per_s = 989.5 * T_,
        .fp8_flop_per_s = 1979 * T_,
        .int8_op_per_s = 1979 * T_,
        .fp4_flop_per_s = 0,
        .sparsity = 1,
        .sparse_speedup = 2.0,
        .pcie_gen = 5,
        .pcie_lanes = 16,
        .peer_link = HWFIT_GPU_PEER_NVLINK,
        .peer_topology = HWFIT_GPU_PEER_TOPOLOGY_SWITCH,
        .peer_generation = 4,
        .peer_links = 18,
        .peer_bytes_per_s = 450 * G_,
        .peer_bytes_per_s_bidir = 900 * G_,
        .peer_domain_gpus = 8,
        .p2p_pcie = 1,
        .nvls = 1,
        .source = "NVIDIA H200 product page (nvidia.com/en-us/data-center/h200): 141 GB HBM3e, 4.8 TB/s, "
         "up to 700 W, FP64 34 (tensor 67), FP32 67, TF32 989, BF16 1,979, FP8 3,958 (sparse); "
         "NVLink 900 GB/s; PCIe Gen5 128 GB/s",
        .notes = "Dense = sparse / 2 (the page footnotes the tensor figures as with sparsity).",
    },
    {
        .name = "h200-nvl",
        .vendor = HWFIT_GPU_VENDOR_NVIDIA,
        .edition = "NVIDIA H200 NVL 141GB",
        .architecture = "Hopper GH100",
        .compute_capability = 90,
        .form_factor = HWFIT_GPU_FORM_PCIE_CARD,
        .memory_bytes = GIB_(141),
        .memory_bandwidth_bytes_per_s = 4800 * G_,
        .tdp_w = 600,
        .fp64_flop_per_s = 30 * T_,
        .fp64_tensor_flop_per_s = 60 * T_,
        .fp32_flop_per_s = 60 * T_,
        .tf32_flop_per_s = 417.5 * T_,
        .fp16_bf16_flop_per_s = 835.5 * T_,
        .fp8_flop_per_s = 1670.5 * T_,
        .int8_op_per_s = 1670.5 * T_,
        .fp4_flop_per_s = 0,
        .sparsity = 1,
        .sparse_speedup = 2.0,
        .pcie_gen = 5,
        .pcie_lanes = 16,
        .peer_link = HWFIT_GPU_PEER_NVLINK,
        .peer_topology = HWFIT_GPU_PEER_TOPOLOGY_BRIDGE,
        .peer_generation = 4,
        .peer_links = 18,
        .peer_bytes_per_s = 450 * G_,
        .peer_bytes_per_s_bidir = 900 * G_,
        .peer_domain_gpus = 4,
        .p2p_pcie = 1,
        .nvls = 0,
        .source = "NVIDIA H200 product page (H200 NVL column): 141 GB HBM3e, 4.8 TB/s, up to 600 W, "
         "FP64 30 (tensor 60), FP32 60, TF32 835, BF16 1,671, FP8 3,341 (sparse); 2- or 4-way "
         "NVLink bridge 900 GB/s per GPU; PCIe Gen5 128 GB/s",
        .notes = "Dense = sparse / 2. The 4-way bridge joins 4 cards.",
    },
    /* ---- Blackwell data center ------------------------------------------------------ */
    {
        .name = "b200",
        .vendor = HWFIT_GPU_VENDOR_NVIDIA,
        .edition = "NVIDIA B200 (HGX B200 / DGX B200)",
        .architecture = "Blackwell GB100",
        .compute_capability = 100,
        .form_factor = HWFIT_GPU_FORM_SXM,
        .memory_bytes = GIB_(180),
        .memory_bandwidth_bytes_per_s = 8000 * G_,
        .tdp_w = 1000,
        .fp64_flop_per_s = 37 * T_,
        .fp64_tensor_flop_per_s = 37 * T_,
        .fp32_flop_per_s = 75 * T_,
        .tf32_flop_per_s = 1100 * T_,
        .fp16_bf16_flop_per_s = 2250 * T_,
        .fp8_flop_per_s = 4500 * T_,
        .int8_op_per_s = 4500 * T_,
        .fp4_flop_per_s = 9000 * T_,
        .sparsity = 1,
        .sparse_speedup = 2.0,
        .pcie_gen = 5,
        .pcie_lanes = 16,
        .peer_link = HWFIT_GPU_PEER_NVLINK,
        .peer_topology = HWFIT_GPU_PEER_TOPOLOGY_SWITCH,
        .peer_generation = 5,
        .peer_links = 18,
        .peer_bytes_per_s = 900 * G_,
        .peer_bytes_per_s_bidir = 1800 * G_,
        .peer_domain_gpus = 8,
        .p2p_pcie = 1,
        .nvls = 1,
        .source = "NVIDIA HGX B200 datasheet (per GPU): FP4 18, FP8 9, INT8 9, FP16/BF16 4.5, TF32 2.2 "
         "PFLOPS (sparse), FP32 75, FP64 37 TFLOPS, 180 GB HBM3e, up to 1,000 W, NVLink 5 "
         "1.8 TB/s; DGX B200 user guide: 1,440 GB and 64 TB/s for 8 GPUs",
        .notes = "Dense = sparse / 2. Bandwidth 8 TB/s from the DGX B200 total / 8 (the HGX table "
         "prints 7.7 TB/s). Host link PCIe Gen5 x16 as in the HGX B200 table (some summaries "
         "say Gen6).",
    },
    {
        .name = "gb200",
        .vendor = HWFIT_GPU_VENDOR_NVIDIA,
        .edition = "NVIDIA GB200 NVL72 (one Blackwell GPU)",
        .architecture = "Blackwell GB100",
        .compute_capability = 100,
        .form_factor = HWFIT_GPU_FORM_SUPERCHIP,
        .memory_bytes = GIB_(186),
        .memory_bandwidth_bytes_per_s = 8000 * G_,
        .tdp_w = 1200,
        .fp64_flop_per_s = 40 * T_,
        .fp64_tensor_flop_per_s = 40 * T_,
        .fp32_flop_per_s = 80 * T_,
        .tf32_flop_per_s = 1250 * T_,
        .fp16_bf16_flop_per_s = 2500 * T_,
        .fp8_flop_per_s = 5000 * T_,
        .int8_op_per_s = 5000 * T_,
        .fp4_flop_per_s = 10000 * T_,
        .sparsity = 1,
        .sparse_speedup = 2.0,
        .pcie_gen = 0,
        .pcie_lanes = 0,
        .peer_link = HWFIT_GPU_PEER_NVLINK,
        .peer_topology = HWFIT_GPU_PEER_TOPOLOGY_SWITCH,
        .peer_generation = 5,
        .peer_links = 18,
        .peer_bytes_per_s = 900 * G_,
        .peer_bytes_per_s_bidir = 1800 * G_,
        .peer_domain_gpus = 72,
        .p2p_pcie = 1,
        .nvls = 1,
        .source = "NVIDIA GB200 NVL72 product page (per GPU): FP4 20, FP8 10, INT8 10, FP16/BF16 5, "
         "TF32 2.5 PFLOPS (sparse), FP32 80, FP64 40 TFLOPS, 186 GB HBM3e, 8 TB/s, up to "
         "1,200 W; NVLink 5 1.8 TB/s; NVLink-C2C 900 GB/s to Grace",
        .notes = "Dense = sparse / 2. No PCIe host link: the GPU reaches its Grace CPU over "
         "NVLink-C2C (900 GB/s bidirectional). One NVLink domain spans 72 GPUs.",
    },
    {
        .name = "b300",
        .vendor = HWFIT_GPU_VENDOR_NVIDIA,
        .edition = "NVIDIA B300 Blackwell Ultra (HGX B300)",
        .architecture = "Blackwell Ultra GB110",
        .compute_capability = 103,
        .form_factor = HWFIT_GPU_FORM_SXM,
        .memory_bytes = GIB_(288),
        .memory_bandwidth_bytes_per_s = 8000 * G_,
        .tdp_w = 1100,
        .fp64_flop_per_s = 1.25 * T_,
        .fp64_tensor_flop_per_s = 1.25 * T_,
        .fp32_flop_per_s = 75 * T_,
        .tf32_flop_per_s = 1100 * T_,
        .fp16_bf16_flop_per_s = 2250 * T_,
        .fp8_flop_per_s = 4500 * T_,
        .int8_op_per_s = 166.7 * T_,
        .fp4_flop_per_s = 13500 * T_,
        .sparsity = 1,
        .sparse_speedup = 2.0,
        .pcie_gen = 6,
        .pcie_lanes = 16,
        .peer_link = HWFIT_GPU_PEER_NVLINK,
        .peer_topology = HWFIT_GPU_PEER_TOPOLOGY_SWITCH,
        .peer_generation = 5,
        .peer_links = 18,
        .peer_bytes_per_s = 900 * G_,
        .peer_bytes_per_s_bidir = 1800 * G_,
        .peer_domain_gpus = 8,
        .p2p_pcie = 1,
        .nvls = 1,
        .source = "NVIDIA Blackwell Ultra technical blog: 288 GB HBM3e, 8 TB/s, FP4 1.5x Blackwell; HGX "
         "B300 datasheet: 108 PFLOPS dense FP4 for 8 GPUs; GB300 NVL72 page: INT8 24 POPS and "
         "FP64 100 TFLOPS per 72 GPUs; NVLink 5 1.8 TB/s; ConnectX-8 with PCIe Gen6",
        .notes = "Unconfirmed: TDP (OEM pages give ~1,100 W air-cooled HGX, 1,400 W for GB300), "
         "memory (288 GB from NVIDIA's blog; some HGX B300 listings give 2,144-2,304 GB per 8 "
         "GPUs), INT8 (GB300 NVL72 figure 24 POPS sparse / 72 / 2). BF16/FP8/TF32 as B200.",
    },
    /* ---- AMD Instinct --------------------------------------------------------------- */
    {
        .name = "mi300x",
        .vendor = HWFIT_GPU_VENDOR_AMD,
        .edition = "AMD Instinct MI300X",
        .architecture = "CDNA 3 (gfx942)",
        .compute_capability = 0,
        .form_factor = HWFIT_GPU_FORM_OAM,
        .memory_bytes = GIB_(192),
        .memory_bandwidth_bytes_per_s = 5300 * G_,
        .tdp_w = 750,
        .fp64_flop_per_s = 81.7 * T_,
        .fp64_tensor_flop_per_s = 163.4 * T_,
        .fp32_flop_per_s = 163.4 * T_,
        .tf32_flop_per_s = 653.7 * T_,
        .fp16_bf16_flop_per_s = 1307.4 * T_,
        .fp8_flop_per_s = 2614.9 * T_,
        .int8_op_per_s = 2614.9 * T_,
        .fp4_flop_per_s = 0,
        .sparsity = 1,
        .sparse_speedup = 2.0,
        .pcie_gen = 5,
        .pcie_lanes = 16,
        .peer_link = HWFIT_GPU_PEER_XGMI,
        .peer_topology = HWFIT_GPU_PEER_TOPOLOGY_MESH,
        .peer_generation = 3,
        .peer_links = 7,
        .peer_bytes_per_s = 448 * G_,
        .peer_bytes_per_s_bidir = 896 * G_,
        .peer_domain_gpus = 8,
        .p2p_pcie = 1,
        .nvls = 0,
        .source = "AMD Instinct MI300X data sheet (amd.com): 192 GB HBM3, 5.3 TB/s, 750 W, FP64 vector "
         "81.7 / matrix 163.4, FP32 163.4, TF32 653.7, FP16/BF16 1,307.4, FP8 2,614.9, INT8 "
         "2,614.9 (dense; sparsity doubles); 7 Infinity Fabric links, 896 GB/s aggregate; PCIe "
         "Gen5 x16",
        .notes = "Infinity Fabric: 7 links x 64 GB/s per direction (128 GB/s bidirectional each), one "
         "to each other OAM of an 8-GPU platform (AMD calls it 4th-generation Infinity Fabric; "
         "peer_generation 3 is hwfit's xGMI generation of 32 Gb/s lanes). No FP4 on CDNA 3.",
    },
    {
        .name = "mi325x",
        .vendor = HWFIT_GPU_VENDOR_AMD,
        .edition = "AMD Instinct MI325X",
        .architecture = "CDNA 3 (gfx942)",
        .compute_capability = 0,
        .form_factor = HWFIT_GPU_FORM_OAM,
        .memory_bytes = GIB_(256),
        .memory_bandwidth_bytes_per_s = 6000 * G_,
        .tdp_w = 1000,
        .fp64_flop_per_s = 81.7 * T_,
        .fp64_tensor_flop_per_s = 163.4 * T_,
        .fp32_flop_per_s = 163.4 * T_,
        .tf32_flop_per_s = 653.7 * T_,
        .fp16_bf16_flop_per_s = 1307.4 * T_,
        .fp8_flop_per_s = 2614.9 * T_,
        .int8_op_per_s = 2614.9 * T_,
        .fp4_flop_per_s = 0,
        .sparsity = 1,
        .sparse_speedup = 2.0,
        .pcie_gen = 5,
        .pcie_lanes = 16,
        .peer_link = HWFIT_GPU_PEER_XGMI,
        .peer_topology = HWFIT_GPU_PEER_TOPOLOGY_MESH,
        .peer_generation = 3,
        .peer_links = 7,
        .peer_bytes_per_s = 448 * G_,
        .peer_bytes_per_s_bidir = 896 * G_,
        .peer_domain_gpus = 8,
        .p2p_pcie = 1,
        .nvls = 0,
        .source = "AMD Instinct MI325X product page (amd.com): 256 GB HBM3E, 6 TB/s, 1,000 W, compute "
         "rates as MI300X; Infinity Fabric 896 GB/s; PCIe Gen5 x16",
        .notes = "Same CDNA 3 die as MI300X with more and faster HBM.",
    },
    /* ---- GeForce -------------------------------------------------------------------- */
    {
        .name = "rtx-4090",
        .vendor = HWFIT_GPU_VENDOR_NVIDIA,
        .edition = "NVIDIA GeForce RTX 4090",
        .architecture = "Ada AD102",
        .compute_capability = 89,
        .form_factor = HWFIT_GPU_FORM_PCIE_CARD,
        .memory_bytes = GIB_(24),
        .memory_bandwidth_bytes_per_s = 1008 * G_,
        .tdp_w = 450,
        .fp64_flop_per_s = 82.6 / 64 * T_,
        .fp64_tensor_flop_per_s = 0,
        .fp32_flop_per_s = 82.6 * T_,
        .tf32_flop_per_s = 82.6 * T_,
        .fp16_bf16_flop_per_s = 165.2 * T_,
        .fp8_flop_per_s = 330.3 * T_,
        .int8_op_per_s = 660.6 * T_,
        .fp4_flop_per_s = 0,
        .sparsity = 1,
        .sparse_speedup = 2.0,
        .pcie_gen = 4,
        .pcie_lanes = 16,
        .peer_link = HWFIT_GPU_PEER_NONE,
        .peer_topology = HWFIT_GPU_PEER_TOPOLOGY_NONE,
        .peer_generation = 0,
        .peer_links = 0,
        .peer_bytes_per_s = 0,
        .peer_bytes_per_s_bidir = 0,
        .peer_domain_gpus = 0,
        .p2p_pcie = 0,
        .nvls = 0,
        .source = "NVIDIA Ada Lovelace architecture whitepaper (RTX 4090 column): 24 GB GDDR6X, "
         "1,008 GB/s, 450 W, 82.6 TFLOPS FP32; tensor FP16 330.3 / FP8 660.6 with FP16 "
         "accumulate, half that with FP32 accumulate; INT8 660.6 TOPS (dense); PCIe Gen4 x16",
        .notes = "GeForce runs FP32-accumulate tensor math at half rate; this row gives the "
         "FP32-accumulate figures. No P2P with the stock driver (tinygrad's patched open "
         "kernel module enables it: tinygrad/open-gpu-kernel-modules).",
    },
    {
        .name = "rtx-5090",
        .vendor = HWFIT_GPU_VENDOR_NVIDIA,
        .edition = "NVIDIA GeForce RTX 5090",
        .architecture = "Blackwell GB202",
        .compute_capability = 120,
        .form_factor = HWFIT_GPU_FORM_PCIE_CARD,
        .memory_bytes = GIB_(32),
        .memory_bandwidth_bytes_per_s = 1792 * G_,
        .tdp_w = 575,
        .fp64_flop_per_s = 104.8 / 64 * T_,
        .fp64_tensor_flop_per_s = 0,
        .fp32_flop_per_s = 104.8 * T_,
        .tf32_flop_per_s = 104.8 * T_,
        .fp16_bf16_flop_per_s = 209.5 * T_,
        .fp8_flop_per_s = 419 * T_,
        .int8_op_per_s = 838 * T_,
        .fp4_flop_per_s = 1676 * T_,
        .sparsity = 1,
        .sparse_speedup = 2.0,
        .pcie_gen = 5,
        .pcie_lanes = 16,
        .peer_link = HWFIT_GPU_PEER_NONE,
        .peer_topology = HWFIT_GPU_PEER_TOPOLOGY_NONE,
        .peer_generation = 0,
        .peer_links = 0,
        .peer_bytes_per_s = 0,
        .peer_bytes_per_s_bidir = 0,
        .peer_domain_gpus = 0,
        .p2p_pcie = 0,
        .nvls = 0,
        .source = "NVIDIA RTX Blackwell GPU architecture whitepaper (RTX 5090 column): 32 GB GDDR7, "
         "1,792 GB/s, 575 W, 104.8 TFLOPS FP32, 3,352 AI TOPS (FP4 sparse); tensor FP16 419 "
         "with FP16 accumulate; PCIe Gen5 x16",
        .notes = "FP32-accumulate rates (half the FP16-accumulate ones); dense FP4 = 3,352 / 2. No P2P "
         "with the stock driver (tinygrad/open-gpu-kernel-modules#29; NVIDIA/nccl#1639 runs "
         "8 cards over host memory).",
    },
};

#define CATALOG_COUNT (sizeof catalog / sizeof catalog[0])

hwfit_status hwfit_gpu_find(const char *name, const hwfit_gpu **gpu) {
    if (name == NULL || gpu == NULL) return HWFIT_EINVAL;
    for (size_t i = 0; i < CATALOG_COUNT; i++) {
        if (strcmp(catalog[i].name, name) == 0) {
            *gpu = &catalog[i];
            return HWFIT_OK;
        }
    }
    return HWFIT_ENOTFOUND;
}

size_t hwfit_gpu_count(void) { return CATALOG_COUNT; }

const hwfit_gpu *hwfit_gpu_at(size_t index) {
    return index < CATALOG_COUNT ? &catalog[index] : NULL;
}

const char *hwfit_gpu_vendor_name(hwfit_gpu_vendor vendor) {
    switch (vendor) {
    case HWFIT_GPU_VENDOR_NVIDIA: return "nvidia";
    case HWFIT_GPU_VENDOR_AMD: return "amd";
    }
    return "unknown";
}

const char *hwfit_gpu_form_factor_name(hwfit_gpu_form_factor form) {
    switch (form) {
    case HWFIT_GPU_FORM_PCIE_CARD: return "pcie";
    case HWFIT_GPU_FORM_SXM: return "sxm";
    case HWFIT_GPU_FORM_OAM: return "oam";
    case HWFIT_GPU_FORM_SUPERCHIP: return "superchip";
    }
    return "unknown";
}

const char *hwfit_gpu_peer_link_name(hwfit_gpu_peer_link link) {
    switch (link) {
    case HWFIT_GPU_PEER_NONE: return "none";
    case HWFIT_GPU_PEER_NVLINK: return "nvlink";
    case HWFIT_GPU_PEER_XGMI: return "xgmi";
    }
    return "unknown";
}

const char *hwfit_gpu_peer_topology_name(hwfit_gpu_peer_topology topology) {
    switch (topology) {
    case HWFIT_GPU_PEER_TOPOLOGY_NONE: return "none";
    case HWFIT_GPU_PEER_TOPOLOGY_SWITCH: return "switch";
    case HWFIT_GPU_PEER_TOPOLOGY_BRIDGE: return "bridge";
    case HWFIT_GPU_PEER_TOPOLOGY_MESH: return "mesh";
    }
    return "unknown";
}
