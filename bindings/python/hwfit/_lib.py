"""Raw ctypes layer: mirrors the C headers one to one.

Every function has argtypes and restype set, with the C prototype quoted above it.
Functions that return hwfit_status are wrapped by `check`, which raises HwfitError.
Nothing here converts units or computes: the Pythonic layer is in __init__.py.

The shared library is found, in this order, through:
1. the environment variable HWFIT_LIBRARY (a path to libhwfit.so),
2. next to this package (a libhwfit.so* copied into bindings/python/hwfit/),
3. the build trees of a source checkout (build/<preset>/),
4. the system's search path (ctypes.util.find_library("hwfit")).
"""
import ctypes
import ctypes.util
import glob
import os

c_double_p = ctypes.POINTER(ctypes.c_double)
c_uint64_p = ctypes.POINTER(ctypes.c_uint64)
c_int_p = ctypes.POINTER(ctypes.c_int)


class HwfitError(Exception):
    """A hwfit call failed. `status` is the code, `name` e.g. "HWFIT_EDOM"."""

    def __init__(self, status, name, message, detail=None):
        self.status = status
        self.name = name
        self.message = message
        self.detail = detail
        text = f"{name}: {message}"
        if detail:
            text = f"{detail}: {text}"
        super().__init__(text)


def _candidates():
    env = os.environ.get("HWFIT_LIBRARY")
    if env:
        yield env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    for path in sorted(glob.glob(os.path.join(here, "libhwfit.so*"))):
        yield path
    root = os.path.abspath(os.path.join(here, "..", "..", ".."))
    for preset in ("dev", "release", "asan", "coverage"):
        for path in sorted(glob.glob(os.path.join(root, "build", preset, "libhwfit.so*"))):
            yield path
    found = ctypes.util.find_library("hwfit")
    if found:
        yield found


def _load():
    tried = []
    for path in _candidates():
        try:
            return ctypes.CDLL(path)
        except OSError as exc:
            tried.append(f"{path} ({exc})")
    raise ImportError(
        "hwfit: cannot find the shared library libhwfit.so; build it "
        "(cmake --workflow --preset dev) or set HWFIT_LIBRARY. Tried: " + "; ".join(tried))


lib = _load()


def _fn(name, restype, argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = argtypes
    return f


# ---- status.h ------------------------------------------------------------------------

HWFIT_OK = 0
HWFIT_EINVAL = 1
HWFIT_EDOM = 2
HWFIT_ERANGE = 3
HWFIT_ENOTFOUND = 4
HWFIT_EPARSE = 5
HWFIT_ENOMEM = 6
HWFIT_EIO = 7
HWFIT_EUNSUPPORTED = 8
HWFIT_EBUFSIZE = 9
HWFIT_ELAYOUT = 10

HWFIT_ERROR_MESSAGE_SIZE = 256


class hwfit_error(ctypes.Structure):
    _fields_ = [
        ("status", ctypes.c_int),
        ("line", ctypes.c_uint32),
        ("column", ctypes.c_uint32),
        ("offset", ctypes.c_size_t),
        ("message", ctypes.c_char * HWFIT_ERROR_MESSAGE_SIZE),
    ]


# const char *hwfit_status_name(hwfit_status status);
hwfit_status_name = _fn("hwfit_status_name", ctypes.c_char_p, [ctypes.c_int])
# const char *hwfit_status_str(hwfit_status status);
hwfit_status_str = _fn("hwfit_status_str", ctypes.c_char_p, [ctypes.c_int])
# void hwfit_error_clear(hwfit_error *error);
hwfit_error_clear = _fn("hwfit_error_clear", None, [ctypes.POINTER(hwfit_error)])


def check(status, detail=None, error=None):
    """Raise HwfitError unless status is HWFIT_OK. `error` is an optional hwfit_error."""
    if status == HWFIT_OK:
        return
    name = hwfit_status_name(status).decode()
    message = hwfit_status_str(status).decode()
    if error is not None and error.message:
        message = error.message.decode("utf-8", "replace")
        if error.line:
            message = f"{error.line}:{error.column}: {message}"
    raise HwfitError(status, name, message, detail)


# ---- version.h -----------------------------------------------------------------------

# unsigned hwfit_version_number(void);
hwfit_version_number = _fn("hwfit_version_number", ctypes.c_uint, [])
# const char *hwfit_version_string(void);
hwfit_version_string = _fn("hwfit_version_string", ctypes.c_char_p, [])

# ---- units.h -------------------------------------------------------------------------

HWFIT_UNIT_NONE = 0
HWFIT_UNIT_BYTES = 1
HWFIT_UNIT_BYTES_PER_S = 2
HWFIT_UNIT_BITS_PER_S = 3
HWFIT_UNIT_WATTS = 4
HWFIT_UNIT_SECONDS = 5
HWFIT_UNIT_FLOP_PER_S = 6
HWFIT_UNIT_FLOP = 7

# hwfit_status hwfit_units_parse(const char *text, hwfit_unit unit, double *value);
hwfit_units_parse = _fn("hwfit_units_parse", ctypes.c_int,
                        [ctypes.c_char_p, ctypes.c_int, c_double_p])
# hwfit_status hwfit_units_format(double value, hwfit_unit unit, char *buf, size_t size);
hwfit_units_format = _fn("hwfit_units_format", ctypes.c_int,
                         [ctypes.c_double, ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t])
# hwfit_status hwfit_units_format_count(uint64_t count, char *buf, size_t size);
hwfit_units_format_count = _fn("hwfit_units_format_count", ctypes.c_int,
                               [ctypes.c_uint64, ctypes.c_char_p, ctypes.c_size_t])

# ---- gpu.h ---------------------------------------------------------------------------

HWFIT_GPU_VENDOR_NVIDIA = 0
HWFIT_GPU_VENDOR_AMD = 1
HWFIT_GPU_FORM_PCIE_CARD = 0
HWFIT_GPU_FORM_SXM = 1
HWFIT_GPU_FORM_OAM = 2
HWFIT_GPU_FORM_SUPERCHIP = 3
HWFIT_GPU_PEER_NONE = 0
HWFIT_GPU_PEER_NVLINK = 1
HWFIT_GPU_PEER_XGMI = 2
HWFIT_GPU_PEER_TOPOLOGY_NONE = 0
HWFIT_GPU_PEER_TOPOLOGY_SWITCH = 1
HWFIT_GPU_PEER_TOPOLOGY_BRIDGE = 2
HWFIT_GPU_PEER_TOPOLOGY_MESH = 3


class hwfit_gpu(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("vendor", ctypes.c_int),
        ("edition", ctypes.c_char_p),
        ("architecture", ctypes.c_char_p),
        ("compute_capability", ctypes.c_uint32),
        ("form_factor", ctypes.c_int),
        ("memory_bytes", ctypes.c_uint64),
        ("memory_bandwidth_bytes_per_s", ctypes.c_double),
        ("tdp_w", ctypes.c_double),
        ("fp64_flop_per_s", ctypes.c_double),
        ("fp64_tensor_flop_per_s", ctypes.c_double),
        ("fp32_flop_per_s", ctypes.c_double),
        ("tf32_flop_per_s", ctypes.c_double),
        ("fp16_bf16_flop_per_s", ctypes.c_double),
        ("fp8_flop_per_s", ctypes.c_double),
        ("int8_op_per_s", ctypes.c_double),
        ("fp4_flop_per_s", ctypes.c_double),
        ("sparsity", ctypes.c_int),
        ("sparse_speedup", ctypes.c_double),
        ("pcie_gen", ctypes.c_uint32),
        ("pcie_lanes", ctypes.c_uint32),
        ("peer_link", ctypes.c_int),
        ("peer_topology", ctypes.c_int),
        ("peer_generation", ctypes.c_uint32),
        ("peer_links", ctypes.c_uint32),
        ("peer_bytes_per_s", ctypes.c_double),
        ("peer_bytes_per_s_bidir", ctypes.c_double),
        ("peer_domain_gpus", ctypes.c_uint32),
        ("p2p_pcie", ctypes.c_int),
        ("nvls", ctypes.c_int),
        ("source", ctypes.c_char_p),
        ("notes", ctypes.c_char_p),
    ]


hwfit_gpu_p = ctypes.POINTER(hwfit_gpu)

# hwfit_status hwfit_gpu_find(const char *name, const hwfit_gpu **gpu);
hwfit_gpu_find = _fn("hwfit_gpu_find", ctypes.c_int,
                     [ctypes.c_char_p, ctypes.POINTER(hwfit_gpu_p)])
# size_t hwfit_gpu_count(void);
hwfit_gpu_count = _fn("hwfit_gpu_count", ctypes.c_size_t, [])
# const hwfit_gpu *hwfit_gpu_at(size_t index);
hwfit_gpu_at = _fn("hwfit_gpu_at", hwfit_gpu_p, [ctypes.c_size_t])
# const char *hwfit_gpu_vendor_name(hwfit_gpu_vendor vendor);
hwfit_gpu_vendor_name = _fn("hwfit_gpu_vendor_name", ctypes.c_char_p, [ctypes.c_int])
# const char *hwfit_gpu_form_factor_name(hwfit_gpu_form_factor form);
hwfit_gpu_form_factor_name = _fn("hwfit_gpu_form_factor_name", ctypes.c_char_p, [ctypes.c_int])
# const char *hwfit_gpu_peer_link_name(hwfit_gpu_peer_link link);
hwfit_gpu_peer_link_name = _fn("hwfit_gpu_peer_link_name", ctypes.c_char_p, [ctypes.c_int])
# const char *hwfit_gpu_peer_topology_name(hwfit_gpu_peer_topology topology);
hwfit_gpu_peer_topology_name = _fn("hwfit_gpu_peer_topology_name", ctypes.c_char_p,
                                   [ctypes.c_int])

# ---- link.h --------------------------------------------------------------------------

HWFIT_LINK_PCIE = 0
HWFIT_LINK_NVLINK = 1
HWFIT_LINK_INFINIBAND = 2
HWFIT_LINK_ETHERNET = 3
HWFIT_LINK_XGMI = 4
HWFIT_LINK_UPI = 5
HWFIT_LINK_IB_EDR = 1
HWFIT_LINK_IB_HDR = 2
HWFIT_LINK_IB_NDR = 3
HWFIT_LINK_IB_XDR = 4
HWFIT_LINK_TRANSPORT_ROCEV2 = 0
HWFIT_LINK_TRANSPORT_TCP = 1


class hwfit_link_in(ctypes.Structure):
    _fields_ = [
        ("kind", ctypes.c_int),
        ("generation", ctypes.c_uint32),
        ("width", ctypes.c_uint32),
        ("port_bits_per_s", ctypes.c_double),
        ("transport", ctypes.c_int),
        ("payload_bytes", ctypes.c_double),
    ]


class hwfit_link_out(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char * 48),
        ("lanes", ctypes.c_uint32),
        ("lane_raw_bits_per_s", ctypes.c_double),
        ("encoding_efficiency", ctypes.c_double),
        ("line_bytes_per_s", ctypes.c_double),
        ("line_bytes_per_s_bidir", ctypes.c_double),
        ("payload_bytes", ctypes.c_double),
        ("overhead_bytes", ctypes.c_double),
        ("protocol_efficiency", ctypes.c_double),
        ("payload_bytes_per_s", ctypes.c_double),
        ("payload_bytes_per_s_bidir", ctypes.c_double),
    ]


# void hwfit_link_init(hwfit_link_in *in);
hwfit_link_init = _fn("hwfit_link_init", None, [ctypes.POINTER(hwfit_link_in)])
# hwfit_status hwfit_link_rate(const hwfit_link_in *in, hwfit_link_out *out);
hwfit_link_rate = _fn("hwfit_link_rate", ctypes.c_int,
                      [ctypes.POINTER(hwfit_link_in), ctypes.POINTER(hwfit_link_out)])
# hwfit_status hwfit_link_parse(const char *text, hwfit_link_in *in);
hwfit_link_parse = _fn("hwfit_link_parse", ctypes.c_int,
                       [ctypes.c_char_p, ctypes.POINTER(hwfit_link_in)])
# const char *hwfit_link_kind_name(hwfit_link_kind kind);
hwfit_link_kind_name = _fn("hwfit_link_kind_name", ctypes.c_char_p, [ctypes.c_int])

# ---- collective.h --------------------------------------------------------------------

HWFIT_TOPOLOGY_MAX_GPUS_PER_NODE = 128
HWFIT_TOPOLOGY_MAX_NODES = 65536
HWFIT_TOPOLOGY_AUTO = 0
HWFIT_TOPOLOGY_ON = 1
HWFIT_TOPOLOGY_OFF = 2
HWFIT_CPU_AMD = 0
HWFIT_CPU_INTEL = 1
HWFIT_CPU_ARM = 2
HWFIT_NIC_ROCE = 0
HWFIT_NIC_INFINIBAND = 1
HWFIT_NIC_TCP = 2
HWFIT_COLLECTIVE_ALLREDUCE = 0
HWFIT_COLLECTIVE_ALLGATHER = 1
HWFIT_COLLECTIVE_REDUCESCATTER = 2
HWFIT_COLLECTIVE_BROADCAST = 3
HWFIT_COLLECTIVE_REDUCE = 4
HWFIT_COLLECTIVE_ALLTOALL = 5
HWFIT_COLLECTIVE_SENDRECV = 6
HWFIT_COLLECTIVE_ALGO_AUTO = 0
HWFIT_COLLECTIVE_ALGO_RING = 1
HWFIT_COLLECTIVE_ALGO_TREE = 2
HWFIT_COLLECTIVE_ALGO_RECURSIVE = 3
HWFIT_COLLECTIVE_ALGO_DIRECT = 4
HWFIT_COLLECTIVE_ALGO_NVLS = 5
HWFIT_COLLECTIVE_ALGO_HIERARCHICAL = 6
HWFIT_COLLECTIVE_PROTO_AUTO = 0
HWFIT_COLLECTIVE_PROTO_LL = 1
HWFIT_COLLECTIVE_PROTO_LL128 = 2
HWFIT_COLLECTIVE_PROTO_SIMPLE = 3
HWFIT_COLLECTIVE_LIBRARY_NCCL = 0
HWFIT_COLLECTIVE_LIBRARY_ANY = 1


class hwfit_topology(ctypes.Structure):
    _fields_ = [
        ("gpus_per_node", ctypes.c_uint64),
        ("nodes", ctypes.c_uint64),
        ("gpu_pcie_gen", ctypes.c_uint32),
        ("gpu_pcie_lanes", ctypes.c_uint32),
        ("compute_capability", ctypes.c_uint32),
        ("gpu_p2p_capable", ctypes.c_int),
        ("peer_link", ctypes.c_int),
        ("peer_topology", ctypes.c_int),
        ("peer_links", ctypes.c_uint32),
        ("peer_domain_gpus", ctypes.c_uint32),
        ("peer_bytes_per_s", ctypes.c_double),
        ("nvls", ctypes.c_int),
        ("sockets", ctypes.c_uint64),
        ("cpu_vendor", ctypes.c_int),
        ("pcie_switches", ctypes.c_uint64),
        ("switch_uplink_lanes", ctypes.c_uint32),
        ("p2p", ctypes.c_int),
        ("socket_link_kind", ctypes.c_int),
        ("socket_link_generation", ctypes.c_uint32),
        ("socket_links", ctypes.c_uint32),
        ("host_memory_bytes_per_s", ctypes.c_double),
        ("nics_per_node", ctypes.c_uint64),
        ("nic_kind", ctypes.c_int),
        ("nic_bits_per_s", ctypes.c_double),
        ("nic_mtu_bytes", ctypes.c_double),
        ("gpudirect_rdma", ctypes.c_int),
        ("pcie_efficiency", ctypes.c_double),
        ("shm_efficiency", ctypes.c_double),
        ("host_memory_efficiency", ctypes.c_double),
        ("socket_link_efficiency", ctypes.c_double),
        ("peer_efficiency", ctypes.c_double),
        ("nvls_efficiency", ctypes.c_double),
        ("nic_efficiency", ctypes.c_double),
        ("shm_step_latency_s", ctypes.c_double),
        ("net_overhead_s", ctypes.c_double),
    ]


class hwfit_collective_in(ctypes.Structure):
    _fields_ = [
        ("topology", hwfit_topology),
        ("op", ctypes.c_int),
        ("bytes", ctypes.c_double),
        ("ranks", ctypes.c_uint64),
        ("ranks_per_node", ctypes.c_uint64),
        ("algorithm", ctypes.c_int),
        ("protocol", ctypes.c_int),
        ("library", ctypes.c_int),
    ]


class hwfit_collective_out(ctypes.Structure):
    _fields_ = [
        ("time_s", ctypes.c_double),
        ("algbw_bytes_per_s", ctypes.c_double),
        ("busbw_bytes_per_s", ctypes.c_double),
        ("busbw_factor", ctypes.c_double),
        ("latency_s", ctypes.c_double),
        ("bandwidth_time_s", ctypes.c_double),
        ("bottleneck_bytes_per_s", ctypes.c_double),
        ("algorithm", ctypes.c_int),
        ("protocol", ctypes.c_int),
        ("bottleneck", ctypes.c_int),
        ("ranks", ctypes.c_uint64),
        ("ranks_per_node", ctypes.c_uint64),
        ("nodes", ctypes.c_uint64),
        ("p2p", ctypes.c_int),
        ("gpudirect_rdma", ctypes.c_int),
    ]


class hwfit_collective_step_in(ctypes.Structure):
    _fields_ = [
        ("topology", hwfit_topology),
        ("tp", ctypes.c_uint64),
        ("pp", ctypes.c_uint64),
        ("dp", ctypes.c_uint64),
        ("ep", ctypes.c_uint64),
        ("zero_stage", ctypes.c_uint64),
        ("layers_per_stage", ctypes.c_uint64),
        ("micro_batches", ctypes.c_uint64),
        ("tp_collectives_per_layer", ctypes.c_uint64),
        ("sequence_parallel", ctypes.c_int),
        ("tp_bytes", ctypes.c_double),
        ("grad_bytes", ctypes.c_double),
        ("param_bytes", ctypes.c_double),
        ("pp_bytes", ctypes.c_double),
        ("moe_layers_per_stage", ctypes.c_uint64),
        ("ep_bytes", ctypes.c_double),
        ("library", ctypes.c_int),
    ]


class hwfit_collective_step_out(ctypes.Structure):
    _fields_ = [
        ("tp_s", ctypes.c_double),
        ("dp_s", ctypes.c_double),
        ("zero_s", ctypes.c_double),
        ("pp_s", ctypes.c_double),
        ("ep_s", ctypes.c_double),
        ("total_s", ctypes.c_double),
        ("tp_count", ctypes.c_uint64),
        ("dp_count", ctypes.c_uint64),
        ("zero_count", ctypes.c_uint64),
        ("pp_count", ctypes.c_uint64),
        ("ep_count", ctypes.c_uint64),
        ("tp", hwfit_collective_out),
        ("dp", hwfit_collective_out),
        ("pp", hwfit_collective_out),
        ("ep", hwfit_collective_out),
    ]


_topo_p = ctypes.POINTER(hwfit_topology)
# void hwfit_topology_init(hwfit_topology *topology);
hwfit_topology_init = _fn("hwfit_topology_init", None, [_topo_p])
# hwfit_status hwfit_topology_set_gpu(hwfit_topology *topology, const hwfit_gpu *gpu);
hwfit_topology_set_gpu = _fn("hwfit_topology_set_gpu", ctypes.c_int, [_topo_p, hwfit_gpu_p])
# hwfit_status hwfit_topology_set_cpu(hwfit_topology *topology, hwfit_cpu_vendor vendor);
hwfit_topology_set_cpu = _fn("hwfit_topology_set_cpu", ctypes.c_int, [_topo_p, ctypes.c_int])
# hwfit_status hwfit_topology_parse_nic(const char *text, hwfit_topology *topology);
hwfit_topology_parse_nic = _fn("hwfit_topology_parse_nic", ctypes.c_int,
                               [ctypes.c_char_p, _topo_p])
# void hwfit_collective_init(hwfit_collective_in *in);
hwfit_collective_init = _fn("hwfit_collective_init", None,
                            [ctypes.POINTER(hwfit_collective_in)])
# hwfit_status hwfit_collective_estimate(const hwfit_collective_in *in, hwfit_collective_out *out);
hwfit_collective_estimate = _fn("hwfit_collective_estimate", ctypes.c_int,
                                [ctypes.POINTER(hwfit_collective_in),
                                 ctypes.POINTER(hwfit_collective_out)])
# hwfit_status hwfit_collective_busbw_factor(hwfit_collective_op op, uint64_t ranks, double *factor);
hwfit_collective_busbw_factor = _fn("hwfit_collective_busbw_factor", ctypes.c_int,
                                    [ctypes.c_int, ctypes.c_uint64, c_double_p])
# const char *hwfit_collective_op_name(hwfit_collective_op op);
hwfit_collective_op_name = _fn("hwfit_collective_op_name", ctypes.c_char_p, [ctypes.c_int])
# const char *hwfit_collective_algorithm_name(hwfit_collective_algorithm algorithm);
hwfit_collective_algorithm_name = _fn("hwfit_collective_algorithm_name", ctypes.c_char_p,
                                      [ctypes.c_int])
# const char *hwfit_collective_protocol_name(hwfit_collective_protocol protocol);
hwfit_collective_protocol_name = _fn("hwfit_collective_protocol_name", ctypes.c_char_p,
                                     [ctypes.c_int])
# const char *hwfit_collective_bottleneck_name(hwfit_collective_bottleneck bottleneck);
hwfit_collective_bottleneck_name = _fn("hwfit_collective_bottleneck_name", ctypes.c_char_p,
                                       [ctypes.c_int])
# hwfit_status hwfit_collective_op_from_name(const char *name, hwfit_collective_op *op);
hwfit_collective_op_from_name = _fn("hwfit_collective_op_from_name", ctypes.c_int,
                                    [ctypes.c_char_p, c_int_p])
# hwfit_status hwfit_collective_algorithm_from_name(const char *name, hwfit_collective_algorithm *algorithm);
hwfit_collective_algorithm_from_name = _fn("hwfit_collective_algorithm_from_name", ctypes.c_int,
                                           [ctypes.c_char_p, c_int_p])
# hwfit_status hwfit_collective_protocol_from_name(const char *name, hwfit_collective_protocol *protocol);
hwfit_collective_protocol_from_name = _fn("hwfit_collective_protocol_from_name", ctypes.c_int,
                                          [ctypes.c_char_p, c_int_p])
# void hwfit_collective_step_init(hwfit_collective_step_in *in);
hwfit_collective_step_init = _fn("hwfit_collective_step_init", None,
                                 [ctypes.POINTER(hwfit_collective_step_in)])
# hwfit_status hwfit_collective_step(const hwfit_collective_step_in *in, hwfit_collective_step_out *out);
hwfit_collective_step = _fn("hwfit_collective_step", ctypes.c_int,
                            [ctypes.POINTER(hwfit_collective_step_in),
                             ctypes.POINTER(hwfit_collective_step_out)])
