"""Raw ctypes layer: the request API (include/hwfit/request.h) and the few typed calls the
batch functions need (memory.h, shard.h, hf_config.h, dtype.h, gpu.h, units.h).

Every function has argtypes and restype set, with the C prototype quoted above it. The
struct mirrors are checked against the C compiler by tests/abi/check_layouts.py.

The shared library is found, in this order, through:
1. the environment variable HWFIT_LIBRARY (a path to libhwfit.so),
2. next to this package (a libhwfit.so* copied into bindings/python/hwfit/),
3. the build trees of a source checkout (build/<preset>/),
4. the prefix of a `hwfit` command on PATH (<prefix>/lib*/libhwfit.so.*),
5. the system's search path (ctypes.util.find_library("hwfit")).
"""
import ctypes
import ctypes.util
import glob
import os
import shutil

c_size_t_p = ctypes.POINTER(ctypes.c_size_t)
c_int_p = ctypes.POINTER(ctypes.c_int)
c_double_p = ctypes.POINTER(ctypes.c_double)


class HwfitError(Exception):
    """A hwfit call failed. `status` is the code, `name` e.g. "HWFIT_EDOM", `message` one
    line naming the keyword argument at fault ("micro_batch: must be at least 1, got 0"),
    `option` that keyword (or None)."""

    def __init__(self, status, name, message, option=None):
        self.status = status
        self.name = name
        self.message = message
        self.option = option
        super().__init__(f"{message} ({name})")

    def __reduce__(self):  # pickles (multiprocessing sweeps) with every field
        return (type(self), (self.status, self.name, self.message, self.option))


HwfitError.__module__ = "hwfit"


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
    cli = shutil.which("hwfit")  # an installed prefix: <prefix>/bin/hwfit, <prefix>/lib*/
    if cli:
        prefix = os.path.dirname(os.path.dirname(os.path.realpath(cli)))
        for path in sorted(glob.glob(os.path.join(prefix, "lib*", "libhwfit.so.*")) +
                           glob.glob(os.path.join(prefix, "lib", "*", "libhwfit.so.*"))):
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

(HWFIT_OK, HWFIT_EINVAL, HWFIT_EDOM, HWFIT_ERANGE, HWFIT_ENOTFOUND, HWFIT_EPARSE,
 HWFIT_ENOMEM, HWFIT_EIO, HWFIT_EUNSUPPORTED, HWFIT_EBUFSIZE, HWFIT_ELAYOUT) = range(11)
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


def status_name(status):
    return hwfit_status_name(status).decode()


def check(status, what=None, error=None):
    """Raise HwfitError unless status is HWFIT_OK; `what` says what was being done and
    `error` (a hwfit_error) gives the reader's message with its line and column."""
    if status == HWFIT_OK:
        return
    message = hwfit_status_str(status).decode()
    if error is not None and error.message:
        message = error.message.decode("utf-8", "replace")
        if error.line:
            message = f"{error.line}:{error.column}: {message}"
    raise HwfitError(status, status_name(status), f"{what}: {message}" if what else message)


# ---- version.h -----------------------------------------------------------------------

# unsigned hwfit_version_number(void);
hwfit_version_number = _fn("hwfit_version_number", ctypes.c_uint, [])
# const char *hwfit_version_string(void);
hwfit_version_string = _fn("hwfit_version_string", ctypes.c_char_p, [])

# ---- units.h -------------------------------------------------------------------------

(HWFIT_UNIT_NONE, HWFIT_UNIT_BYTES, HWFIT_UNIT_BYTES_PER_S, HWFIT_UNIT_BITS_PER_S,
 HWFIT_UNIT_WATTS, HWFIT_UNIT_SECONDS, HWFIT_UNIT_FLOP_PER_S, HWFIT_UNIT_FLOP) = range(8)

# hwfit_status hwfit_units_parse(const char *text, hwfit_unit unit, double *value);
hwfit_units_parse = _fn("hwfit_units_parse", ctypes.c_int,
                        [ctypes.c_char_p, ctypes.c_int, c_double_p])
# hwfit_status hwfit_units_format(double value, hwfit_unit unit, char *buf, size_t size);
hwfit_units_format = _fn("hwfit_units_format", ctypes.c_int,
                         [ctypes.c_double, ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t])
# hwfit_status hwfit_units_format_count(uint64_t count, char *buf, size_t size);
hwfit_units_format_count = _fn("hwfit_units_format_count", ctypes.c_int,
                               [ctypes.c_uint64, ctypes.c_char_p, ctypes.c_size_t])

# ---- request.h -----------------------------------------------------------------------

(HWFIT_FORMAT_JSON, HWFIT_FORMAT_TEXT, HWFIT_FORMAT_CSV, HWFIT_FORMAT_SVG,
 HWFIT_FORMAT_MARKDOWN, HWFIT_FORMAT_HTML) = range(6)


class hwfit_option(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("kind", ctypes.c_int),
        ("unit", ctypes.c_int),
        ("metavar", ctypes.c_char_p),
        ("default_text", ctypes.c_char_p),
        ("default_help", ctypes.c_char_p),
        ("min", ctypes.c_double),
        ("max", ctypes.c_double),
        ("choices", ctypes.POINTER(ctypes.c_char_p)),
        ("catalog", ctypes.c_char_p),
        ("flags", ctypes.c_uint),
        ("example", ctypes.c_char_p),
        ("help", ctypes.c_char_p),
        ("alias", ctypes.c_char_p),
    ]


# const char *hwfit_format_name(hwfit_format format);
hwfit_format_name = _fn("hwfit_format_name", ctypes.c_char_p, [ctypes.c_int])
# hwfit_status hwfit_command_describe(const hwfit_command *command, char *buf, size_t size,
#                                     size_t *needed);
hwfit_command_describe = _fn("hwfit_command_describe", ctypes.c_int,
                             [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, c_size_t_p])
# hwfit_status hwfit_request_new(const char *command, hwfit_request **out);
hwfit_request_new = _fn("hwfit_request_new", ctypes.c_int,
                        [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)])
# void hwfit_request_free(hwfit_request *request);
hwfit_request_free = _fn("hwfit_request_free", None, [ctypes.c_void_p])
# hwfit_status hwfit_request_set(hwfit_request *request, const char *name, const char *value);
hwfit_request_set = _fn("hwfit_request_set", ctypes.c_int,
                        [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p])
# hwfit_status hwfit_request_run(hwfit_request *request, hwfit_format format, char *buf,
#                                size_t size, size_t *needed);
hwfit_request_run = _fn("hwfit_request_run", ctypes.c_int,
                        [ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t,
                         c_size_t_p])
# hwfit_status hwfit_request_set_all(hwfit_request *request, const char *const *pairs,
#                                    size_t count);
hwfit_request_set_all = _fn("hwfit_request_set_all", ctypes.c_int,
                            [ctypes.c_void_p, ctypes.POINTER(ctypes.c_char_p), ctypes.c_size_t])
# hwfit_status hwfit_request_run_record(hwfit_request *request, char *buf, size_t size,
#                                       size_t *needed);
hwfit_request_run_record = _fn("hwfit_request_run_record", ctypes.c_int,
                               [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, c_size_t_p])
# hwfit_status hwfit_request_ask_record(hwfit_request *request, const char *const *pairs,
#                                       size_t count, char *buf, size_t size,
#                                       size_t *needed);
hwfit_request_ask_record = _fn("hwfit_request_ask_record", ctypes.c_int,
                               [ctypes.c_void_p, ctypes.POINTER(ctypes.c_char_p),
                                ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t, c_size_t_p])
# const char *hwfit_request_output(const hwfit_request *request, size_t *length);
hwfit_request_output = _fn("hwfit_request_output", ctypes.c_void_p,
                           [ctypes.c_void_p, c_size_t_p])
# const char *hwfit_request_message(const hwfit_request *request);
hwfit_request_message = _fn("hwfit_request_message", ctypes.c_char_p, [ctypes.c_void_p])
# const hwfit_option *hwfit_request_option(const hwfit_request *request);
hwfit_request_option = _fn("hwfit_request_option", ctypes.POINTER(hwfit_option),
                           [ctypes.c_void_p])
# const char *hwfit_request_option_name(const hwfit_request *request);
hwfit_request_option_name = _fn("hwfit_request_option_name", ctypes.c_char_p,
                                [ctypes.c_void_p])
# hwfit_status hwfit_request_reset(hwfit_request *request);
hwfit_request_reset = _fn("hwfit_request_reset", ctypes.c_int, [ctypes.c_void_p])
# hwfit_status hwfit_model_cache_new(hwfit_model_cache **out);
hwfit_model_cache_new = _fn("hwfit_model_cache_new", ctypes.c_int,
                            [ctypes.POINTER(ctypes.c_void_p)])
# void hwfit_model_cache_free(hwfit_model_cache *cache);
hwfit_model_cache_free = _fn("hwfit_model_cache_free", None, [ctypes.c_void_p])
# hwfit_status hwfit_model_cache_set_window(hwfit_model_cache *cache, double seconds);
hwfit_model_cache_set_window = _fn("hwfit_model_cache_set_window", ctypes.c_int,
                                   [ctypes.c_void_p, ctypes.c_double])
# double hwfit_model_cache_window(const hwfit_model_cache *cache);
hwfit_model_cache_window = _fn("hwfit_model_cache_window", ctypes.c_double, [ctypes.c_void_p])
# hwfit_status hwfit_request_use_cache(hwfit_request *request, hwfit_model_cache *cache);
hwfit_request_use_cache = _fn("hwfit_request_use_cache", ctypes.c_int,
                              [ctypes.c_void_p, ctypes.c_void_p])

# ---- dtype.h, model.h, hf_config.h (the batch functions) -----------------------------

class hwfit_dtype(ctypes.Structure):
    _fields_ = [("id", ctypes.c_int), ("group_size", ctypes.c_uint32)]


# hwfit_status hwfit_dtype_parse(const char *name, hwfit_dtype *out);
hwfit_dtype_parse = _fn("hwfit_dtype_parse", ctypes.c_int,
                        [ctypes.c_char_p, ctypes.POINTER(hwfit_dtype)])

HWFIT_MODEL_MAX_LAYERS = 1024
HWFIT_MODEL_NAME_SIZE = 64


class hwfit_model_stored(ctypes.Structure):
    """The formats a checkpoint stores (hwfit/model.h hwfit_model_stored)."""
    _fields_ = [
        ("checkpoint", hwfit_dtype),
        ("attention", hwfit_dtype),
        ("mlp", hwfit_dtype),
        ("experts", hwfit_dtype),
        ("method", ctypes.c_int),
        ("flags", ctypes.c_uint),
        # appended: per matrix, the layers a skip list keeps unquantized (model.h)
        ("kept_layers", ctypes.c_uint16 * 7),
    ]


class hwfit_model(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char * HWFIT_MODEL_NAME_SIZE),
        ("layers", ctypes.c_uint32),
        ("heads", ctypes.c_uint32),
        ("kv_heads", ctypes.c_uint32),
        ("head_dim", ctypes.c_uint32),
        ("v_head_dim", ctypes.c_uint32),
        ("attention_softcap", ctypes.c_int),
        ("hidden", ctypes.c_uint64),
        ("vocab", ctypes.c_uint64),
        ("intermediate", ctypes.c_uint64),
        ("attention", ctypes.c_int),
        ("q_lora_rank", ctypes.c_uint32),
        ("kv_lora_rank", ctypes.c_uint32),
        ("qk_nope_head_dim", ctypes.c_uint32),
        ("qk_rope_head_dim", ctypes.c_uint32),
        ("q_bias", ctypes.c_int),
        ("k_bias", ctypes.c_int),
        ("v_bias", ctypes.c_int),
        ("o_bias", ctypes.c_int),
        ("mlp_bias", ctypes.c_int),
        ("qk_norm", ctypes.c_int),
        ("mlp", ctypes.c_int),
        ("experts", ctypes.c_uint32),
        ("experts_per_token", ctypes.c_uint32),
        ("expert_intermediate", ctypes.c_uint64),
        ("shared_experts", ctypes.c_uint32),
        ("shared_expert_intermediate", ctypes.c_uint64),
        ("shared_expert_gate", ctypes.c_int),
        ("router_bias", ctypes.c_int),
        ("attention_sinks", ctypes.c_int),
        ("norm", ctypes.c_int),
        ("norms_per_layer", ctypes.c_uint32),
        ("tie_embeddings", ctypes.c_int),
        ("sliding_window", ctypes.c_uint64),
        ("chunked_attention", ctypes.c_int),
        ("mtp_layers", ctypes.c_uint32),
        ("max_context", ctypes.c_uint64),
        ("layer_flags", ctypes.c_uint8 * HWFIT_MODEL_MAX_LAYERS),
        ("stored", hwfit_model_stored),
        # appended: projections the checkpoint fuses (model.h fused_modules)
        ("fused_modules", ctypes.c_uint),
    ]


# hwfit_status hwfit_hf_config_load(const char *path, hwfit_model *out, hwfit_error *err);
hwfit_hf_config_load = _fn("hwfit_hf_config_load", ctypes.c_int,
                           [ctypes.c_char_p, ctypes.POINTER(hwfit_model),
                            ctypes.POINTER(hwfit_error)])
# hwfit_status hwfit_hf_config_parse(const char *text, size_t length, const char *name,
#                                    hwfit_model *out, hwfit_error *err);
hwfit_hf_config_parse = _fn("hwfit_hf_config_parse", ctypes.c_int,
                            [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p,
                             ctypes.POINTER(hwfit_model), ctypes.POINTER(hwfit_error)])

# ---- memory.h ------------------------------------------------------------------------

HWFIT_MEMORY_INFERENCE, HWFIT_MEMORY_FULL, HWFIT_MEMORY_LORA, HWFIT_MEMORY_QLORA = range(4)


class hwfit_memory_in(ctypes.Structure):
    _fields_ = [
        ("mode", ctypes.c_int),
        ("weights", hwfit_dtype),
        ("unquantized", hwfit_dtype),
        ("keep_embeddings", ctypes.c_int),
        ("kv", hwfit_dtype),
        ("batch", ctypes.c_uint64),
        ("context", ctypes.c_uint64),
        ("prefill_chunk", ctypes.c_uint64),
        ("overhead_bytes", ctypes.c_double),
        ("micro_batch", ctypes.c_uint64),
        ("optimizer", ctypes.c_int),
        ("gradients", hwfit_dtype),
        ("master_weights", ctypes.c_int),
        ("recompute", ctypes.c_int),
        ("flash_attention", ctypes.c_int),
        ("dropout", ctypes.c_int),
        ("activations", hwfit_dtype),
        ("tensor_parallel", ctypes.c_uint32),
        ("sequence_parallel", ctypes.c_int),
        ("lora_rank", ctypes.c_uint32),
        ("lora_targets", ctypes.c_uint),
        ("lora_dtype", hwfit_dtype),
        ("qlora_base", hwfit_dtype),
        ("first_layer", ctypes.c_uint32),
        ("layer_count", ctypes.c_uint32),
        ("embedding", ctypes.c_int),
        ("head", ctypes.c_int),
        ("mtp", ctypes.c_int),
        # appended: framework choices (memory.h, profile.h)
        ("optimizer_states", hwfit_dtype),
        ("paged_optimizer", ctypes.c_int),
        ("optimizer_in_backward", ctypes.c_int),
        ("fused_optimizer", ctypes.c_int),
        ("gradient_buffer", ctypes.c_int),
        ("loss", ctypes.c_int),
        ("activation_offload", ctypes.c_int),
        ("compile", ctypes.c_int),
        ("softcap_eager", ctypes.c_int),
        ("fragmentation", ctypes.c_double),
        ("module_formats", ctypes.c_int),
        ("attention_weights", hwfit_dtype),
        ("mlp_weights", hwfit_dtype),
        ("expert_weights", hwfit_dtype),
        ("dora", ctypes.c_int),
        ("lora_dropout", ctypes.c_int),
        ("packed", ctypes.c_int),
        ("qlora_inputs_kept", ctypes.c_int),
        ("untied_head", ctypes.c_int),
        ("gated_act_kept", ctypes.c_int),
        ("kv_repeated", ctypes.c_int),
        ("dequant_transient", ctypes.c_int),
        ("previous_graph", ctypes.c_int),
        # appended: the load phase and FSDP's root unit (memory.h)
        ("load_quantize_bytes", ctypes.c_double),
        ("root_unsharded", ctypes.c_int),
        ("quant_scales_replicated", ctypes.c_int),
        # appended: trained parameters held in fp32 (memory.h)
        ("trained_fp32", ctypes.c_int),
        # appended: rows per chunk of the chunked-inplace loss (memory.h)
        ("loss_chunk_tokens", ctypes.c_uint32),
        # appended: parameter offload after the shards load on the card (memory.h)
        ("offload_after_load", ctypes.c_int),
        # appended: modules trained in full beside LoRA, HWFIT_FULL_* bits (memory.h)
        ("full_modules", ctypes.c_uint),
        # appended: the K/V built in the training forward, the outputs kept (memory.h)
        ("kv_built", ctypes.c_int),
        ("outputs_kept", ctypes.c_int),
        # appended: the eager softmax kept in fp32 (memory.h)
        ("softmax_fp32", ctypes.c_int),
        # appended: an eager RMSNorm's fp32 input copy kept (memory.h)
        ("norm_upcast_kept", ctypes.c_int),
        # appended: DeepSpeed ZeRO's contiguous gradient buffers (memory.h)
        ("zero_buckets", ctypes.c_int),
        # appended: per matrix, the layers kept unquantized (memory.h kept_layers)
        ("kept_layers", ctypes.c_uint16 * 7),
        # appended: ZeRO-3 units kept gathered, unsharded gradients held (memory.h)
        ("unsharded_grad_bytes", ctypes.c_uint16),
        ("no_reshard_after_forward", ctypes.c_int),
        # appended: what selective recomputation keeps, hwfit_memory_selective (memory.h)
        ("selective", ctypes.c_int),
        # appended: FSDP's fp32 flat shards under trained_fp32 (memory.h fsdp_flat_upcast)
        ("fsdp_flat_upcast", ctypes.c_int),
        # appended (ninth round): gradients kept on the card under optimizer offload
        # (memory.h offload_keeps_grads)
        ("offload_keeps_grads", ctypes.c_int),
        # appended: FSDP2's held reduce-scatter input (memory.h reduce_held_bytes)
        ("reduce_held_bytes", ctypes.c_uint16),
        # appended: MoE experts indexed one at a time (memory.h experts_indexed)
        ("experts_indexed", ctypes.c_int),
        # appended: the loop computes its loss after the model's call (memory.h loss_after_call)
        ("loss_after_call", ctypes.c_int),
        # appended: the loop drops the logits before backward (memory.h logits_freed)
        ("logits_freed", ctypes.c_int),
        # appended: the returned 16-bit logits' fp32 copy (memory.h outputs_fp32)
        ("outputs_fp32", ctypes.c_int),
        # appended: the op policy's FlexAttention structure (memory.h flex_attention) and
        # the expert-parallel ranks whose all-to-alls it saves (memory.h expert_parallel)
        ("flex_attention", ctypes.c_int),
        ("expert_parallel", ctypes.c_uint32),
        # appended: the allocator's expandable segments (memory.h expandable_segments)
        ("expandable_segments", ctypes.c_int),
        # appended: a unit's gradient covers its frozen elements (memory.h grad_covers_frozen)
        ("grad_covers_frozen", ctypes.c_int),
        # appended: fp32 hidden states between layers, PEFT's k-bit preparation (memory.h residual_fp32)
        ("residual_fp32", ctypes.c_int),
        # appended: Transformer Engine's linears keep FP8 inputs (memory.h fp8_inputs_saved)
        ("fp8_inputs_saved", ctypes.c_int),
        # appended: the step's fp32 copies of 16-bit gradients (memory.h grads_upcast_in_step)
        ("grads_upcast_in_step", ctypes.c_int),
        # appended: FSDP1's wrap residue stays reserved (memory.h fsdp_wrap_residue)
        ("fsdp_wrap_residue", ctypes.c_int),
        # appended: the op policy recomputes the expert all-to-alls (memory.h ep_a2a_recomputed)
        ("ep_a2a_recomputed", ctypes.c_int),
        # appended: one LoRA dropout for q, k and v (memory.h lora_qkv_one_dropout)
        ("lora_qkv_one_dropout", ctypes.c_int),
        # appended: the modules LoRA adapters wrap, hwfit_memory_lora_modules (memory.h lora_modules)
        ("lora_modules", ctypes.c_int),
        # appended: the evaluation phase (memory.h evaluation, eval_batch, eval_kv_cache)
        ("evaluation", ctypes.c_int),
        ("eval_batch", ctypes.c_uint32),
        ("eval_kv_cache", ctypes.c_int),
        # appended: Unsloth's chunked loss sized by free memory (memory.h loss_target_bytes,
        # loss_free_share, loss_chunks_round_up, card_bytes)
        ("loss_target_bytes", ctypes.c_double),
        ("loss_free_share", ctypes.c_double),
        ("loss_chunks_round_up", ctypes.c_int),
        ("card_bytes", ctypes.c_double),
        # appended: short micro-batches' whole logits (memory.h loss_short_tokens, loss_short)
        ("loss_short_tokens", ctypes.c_uint32),
        ("loss_short", ctypes.c_int),
        # appended: a logits-sized tensor kept after the loss (memory.h probs_kept)
        ("probs_kept", ctypes.c_int),
        # appended: DTensor loss parallelism under TP (memory.h loss_parallel)
        ("loss_parallel", ctypes.c_int),
        # appended: whole attention masks kept for the run (memory.h whole_masks)
        ("whole_masks", ctypes.c_uint32),
        # appended: the evaluation's allocator replay on (memory.h eval_replay)
        ("eval_replay", ctypes.c_int),
        # appended: bytes per pair of a sink attention's dense mask built (memory.h
        # sink_mask_bytes)
        ("sink_mask_bytes", ctypes.c_uint32),
        # appended: earlier record lengths of unpacked micro-batches (memory.h
        # record_lengths, HWFIT_MEMORY_RECORDS of them)
        ("record_lengths", ctypes.c_uint32 * 8),
        # appended: the card has no flash SDPA kernel (memory.h card_no_flash)
        ("card_no_flash", ctypes.c_int),
        # appended: SDPA called as transformers calls it (memory.h sdpa_gqa_math)
        ("sdpa_gqa_math", ctypes.c_int),
        # appended: a frozen fp32 head's autocast copy kept to its backward (memory.h
        # head_cast_kept)
        ("head_cast_kept", ctypes.c_int),
        # appended (seventeenth round): transformers' load warm-up (memory.h load_warmup)
        # and whether the figure counts the loading (load_counted)
        ("load_warmup", ctypes.c_int),
        ("load_counted", ctypes.c_int),
        # appended (eighteenth round): Unsloth's FastModel path (unsloth_fast_model)
        ("unsloth_fast_model", ctypes.c_int),
        # appended (eighteenth round): FSDP's whole model as one unit (fsdp_single_unit)
        ("fsdp_single_unit", ctypes.c_int),
        # appended (nineteenth round): the whole model on the card before ZeRO-3 sharding
        # (built_whole)
        ("built_whole", ctypes.c_int),
        # appended (nineteenth round): LitGPT's norm keeps its normalized tensor in fp32
        # (norm_weight_fp32)
        ("norm_weight_fp32", ctypes.c_int),
        # appended (nineteenth round): the dequantization's own work (dequant_work_bytes)
        ("dequant_work_bytes", ctypes.c_uint16),
        # appended (nineteenth round): DeepSpeed ZeRO-3's gathered weights kept by the
        # matmuls' saved views (zero3_linear_views_kept)
        ("zero3_linear_views_kept", ctypes.c_int),
    ]

HWFIT_MEMORY_RECORDS = 8


class hwfit_memory_out(ctypes.Structure):
    _fields_ = [(n, ctypes.c_uint64) for n in (
        "weights_bytes", "kv_bytes", "activation_bytes", "gradient_bytes", "optimizer_bytes",
        "overhead_bytes", "total_bytes", "params", "trainable_params", "adapter_params")] + [
        ("layers", ctypes.c_uint32)] + [(n, ctypes.c_uint64) for n in (
        "activation_dense_layer_bytes", "activation_moe_layer_bytes", "activation_other_bytes",
        "expert_params", "expert_weights_bytes", "expert_trainable_params",
        "expert_gradient_bytes", "expert_optimizer_bytes",
        # appended: the peak by phase
        "loss_bytes", "forward_bytes", "backward_bytes", "step_bytes")] + [
        ("peak_phase", ctypes.c_int)] + [(n, ctypes.c_uint64) for n in (
        "allocated_bytes", "reserved_bytes", "peak_bytes",
        # appended: the dequantized weight and the previous micro-batch's graph
        "dequant_bytes", "carried_bytes",
        # appended: the load phase
        "load_bytes",
        # appended: the outputs held (K/V built, logits kept)
        "outputs_bytes",
        # appended: the loss's stranded logits blocks in the reserve (memory.h
        # stranded_bytes)
        "stranded_bytes",
        # appended: the evaluation phase (memory.h eval_bytes)
        "eval_bytes",
        # appended: Unsloth's chunked loss (memory.h loss_chunks, loss_chunk_bytes)
        "loss_chunks", "loss_chunk_bytes",
        # appended: whole attention masks (memory.h masks_bytes)
        "masks_bytes",
        # appended: the earlier records' segments (memory.h records_bytes)
        "records_bytes",
        # appended: the head weight's copy the loss keeps (memory.h head_cast_bytes)
        "head_cast_bytes")]


# void hwfit_memory_init(hwfit_memory_in *in);
hwfit_memory_init = _fn("hwfit_memory_init", None, [ctypes.POINTER(hwfit_memory_in)])
# hwfit_status hwfit_memory_lora_targets_parse(const char *text, unsigned *targets);
# hwfit_status hwfit_memory_profile_apply(const char *name, uint32_t gpus,
#                                         hwfit_memory_in *in, uint64_t *sets);
hwfit_memory_profile_apply = _fn("hwfit_memory_profile_apply", ctypes.c_int,
                                 [ctypes.c_char_p, ctypes.c_uint32,
                                  ctypes.POINTER(hwfit_memory_in), ctypes.POINTER(ctypes.c_uint64)])
# hwfit_status hwfit_memory_profile_apply_fp8(const char *name, uint32_t gpus,
#                                             hwfit_memory_in *in, uint64_t *sets);
hwfit_memory_profile_apply_fp8 = _fn("hwfit_memory_profile_apply_fp8", ctypes.c_int,
                                     [ctypes.c_char_p, ctypes.c_uint32,
                                      ctypes.POINTER(hwfit_memory_in),
                                      ctypes.POINTER(ctypes.c_uint64)])
# hwfit_status hwfit_memory_profile_apply_release(const char *name, const char *release,
#                                                 uint32_t gpus, hwfit_memory_in *in,
#                                                 uint64_t *sets);
hwfit_memory_profile_apply_release = _fn("hwfit_memory_profile_apply_release", ctypes.c_int,
                                         [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_uint32,
                                          ctypes.POINTER(hwfit_memory_in),
                                          ctypes.POINTER(ctypes.c_uint64)])
# typedef struct hwfit_memory_releases { const char *framework, *trl, *transformers; }
class hwfit_memory_releases(ctypes.Structure):
    _fields_ = [("framework", ctypes.c_char_p), ("trl", ctypes.c_char_p),
                ("transformers", ctypes.c_char_p)]


# hwfit_status hwfit_memory_profile_apply_releases(const char *name,
#                                                  const hwfit_memory_releases *releases,
#                                                  uint32_t gpus, hwfit_memory_in *in,
#                                                  uint64_t *sets);
hwfit_memory_profile_apply_releases = _fn("hwfit_memory_profile_apply_releases", ctypes.c_int,
                                          [ctypes.c_char_p,
                                           ctypes.POINTER(hwfit_memory_releases),
                                           ctypes.c_uint32, ctypes.POINTER(hwfit_memory_in),
                                           ctypes.POINTER(ctypes.c_uint64)])
# hwfit_status hwfit_memory_profile_library_dated(const char *name, const char *library,
#                                                 int *dated);
hwfit_memory_profile_library_dated = _fn("hwfit_memory_profile_library_dated", ctypes.c_int,
                                         [ctypes.c_char_p, ctypes.c_char_p,
                                          ctypes.POINTER(ctypes.c_int)])
# hwfit_status hwfit_memory_profile_dated(const char *name, int *dated);
hwfit_memory_profile_dated = _fn("hwfit_memory_profile_dated", ctypes.c_int,
                                 [ctypes.c_char_p, ctypes.POINTER(ctypes.c_int)])
# const char *hwfit_memory_profile_name(size_t i);
hwfit_memory_profile_name = _fn("hwfit_memory_profile_name", ctypes.c_char_p, [ctypes.c_size_t])
HWFIT_PROFILE_RECOMPUTE = 0x0400
hwfit_memory_lora_targets_parse = _fn("hwfit_memory_lora_targets_parse", ctypes.c_int,
                                      [ctypes.c_char_p, ctypes.POINTER(ctypes.c_uint)])
# int hwfit_memory_attention_flash(const hwfit_model *model, const hwfit_memory_in *in);
hwfit_memory_attention_flash = _fn("hwfit_memory_attention_flash", ctypes.c_int,
                                   [ctypes.POINTER(hwfit_model), ctypes.POINTER(hwfit_memory_in)])
HWFIT_ATTENTION_EAGER, HWFIT_ATTENTION_FLASH, HWFIT_ATTENTION_SDPA = 0, 1, 2
# hwfit_status hwfit_memory_record_lengths_parse(const char *text,
#                                                uint32_t lengths[HWFIT_MEMORY_RECORDS]);
hwfit_memory_record_lengths_parse = _fn("hwfit_memory_record_lengths_parse", ctypes.c_int,
                                        [ctypes.c_char_p, ctypes.POINTER(ctypes.c_uint32)])
# hwfit_status hwfit_memory_records_typical(double mean, double sd, uint64_t bound,
#                                           uint64_t samples, uint64_t micro_batch,
#                                           uint32_t lengths[HWFIT_MEMORY_RECORDS]);
hwfit_memory_records_typical = _fn("hwfit_memory_records_typical", ctypes.c_int,
                                   [ctypes.c_double, ctypes.c_double, ctypes.c_uint64,
                                    ctypes.c_uint64, ctypes.c_uint64,
                                    ctypes.POINTER(ctypes.c_uint32)])
# hwfit_memory_recompute hwfit_memory_recompute_default(hwfit_memory_mode mode);
hwfit_memory_recompute_default = _fn("hwfit_memory_recompute_default", ctypes.c_int,
                                     [ctypes.c_int])
# hwfit_status hwfit_memory_estimate_batch(const hwfit_model *model, const hwfit_memory_in *ins,
#                                          size_t n, hwfit_memory_out *outs,
#                                          hwfit_status *statuses);
hwfit_memory_estimate_batch = _fn("hwfit_memory_estimate_batch", ctypes.c_int,
                                  [ctypes.POINTER(hwfit_model), ctypes.POINTER(hwfit_memory_in),
                                   ctypes.c_size_t, ctypes.POINTER(hwfit_memory_out), c_int_p])

# ---- gpu.h ---------------------------------------------------------------------------


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
        ("fp16_acc16_flop_per_s", ctypes.c_double),
        ("peer_bridges", ctypes.c_uint32),
    ]


# hwfit_status hwfit_gpu_find(const char *name, const hwfit_gpu **gpu);
hwfit_gpu_find = _fn("hwfit_gpu_find", ctypes.c_int,
                     [ctypes.c_char_p, ctypes.POINTER(ctypes.POINTER(hwfit_gpu))])

# ---- shard.h -------------------------------------------------------------------------

class hwfit_layout(ctypes.Structure):
    _fields_ = [
        ("tp", ctypes.c_uint32),
        ("pp", ctypes.c_uint32),
        ("dp", ctypes.c_uint32),
        ("cp", ctypes.c_uint32),
        ("ep", ctypes.c_uint32),
        ("etp", ctypes.c_uint32),
        ("virtual_stages", ctypes.c_uint32),
        ("sequence_parallel", ctypes.c_int),
        ("zero_stage", ctypes.c_uint32),
        ("offload", ctypes.c_uint),
        ("micro_batch", ctypes.c_uint64),
        ("global_batch", ctypes.c_uint64),
        ("recompute", ctypes.c_int),
        ("uneven_layers", ctypes.c_int),
    ]


class hwfit_shard_in(ctypes.Structure):
    _fields_ = [
        ("memory", hwfit_memory_in),
        ("layout", hwfit_layout),
        ("gpus", ctypes.c_uint32),
        ("capacity_bytes", ctypes.c_double),
        ("utilization", ctypes.c_double),
        ("reserve_bytes", ctypes.c_double),
        ("comm_group_bytes", ctypes.c_double),
        ("bucket_bytes", ctypes.c_double),
        ("zero3_live_layers", ctypes.c_uint32),
        ("host_memory_bytes", ctypes.c_double),
        ("host_utilization", ctypes.c_double),
        ("host_buffer_factor", ctypes.c_double),
        ("host_memory_given", ctypes.c_int),
        # appended: DeepSpeed's reduce_bucket_size and overlap_comm (shard.h)
        ("reduce_bucket_elements", ctypes.c_double),
        ("overlap_comm", ctypes.c_int),
    ]


class hwfit_shard_card(ctypes.Structure):
    _fields_ = [
        ("stage", ctypes.c_uint32),
        ("first_layer", ctypes.c_uint32),
        ("layers", ctypes.c_uint32),
        ("embedding", ctypes.c_int),
        ("head", ctypes.c_int),
        ("in_flight", ctypes.c_uint64),
        ("params", ctypes.c_uint64),
        ("trainable_params", ctypes.c_uint64),
        ("shard_weights_bytes", ctypes.c_uint64),
        ("weights_bytes", ctypes.c_uint64),
        ("kv_bytes", ctypes.c_uint64),
        ("activation_bytes", ctypes.c_uint64),
        ("gradient_bytes", ctypes.c_uint64),
        ("optimizer_bytes", ctypes.c_uint64),
        ("buffer_bytes", ctypes.c_uint64),
        ("overhead_bytes", ctypes.c_uint64),
        ("total_bytes", ctypes.c_uint64),
        ("host_bytes", ctypes.c_uint64),
        ("kv_bytes_per_token", ctypes.c_uint64),
        # appended: the peak by phase
        ("forward_bytes", ctypes.c_uint64),
        ("backward_bytes", ctypes.c_uint64),
        ("step_bytes", ctypes.c_uint64),
        ("peak_phase", ctypes.c_int),
        ("allocated_bytes", ctypes.c_uint64),
        ("reserved_bytes", ctypes.c_uint64),
        ("peak_bytes", ctypes.c_uint64),
        # appended: the evaluation phase (shard.h eval_bytes)
        ("eval_bytes", ctypes.c_uint64),
        # appended: Unsloth's chunked loss (shard.h loss_chunks, loss_chunk_bytes)
        ("loss_chunks", ctypes.c_uint64),
        ("loss_chunk_bytes", ctypes.c_uint64),
        # appended (seventeenth round): the load phase (load_warmup)
        ("load_bytes", ctypes.c_uint64),
    ]


class hwfit_shard_out(ctypes.Structure):
    _fields_ = [
        ("layout", hwfit_layout),
        ("micro_batches", ctypes.c_uint64),
        ("batch_per_replica", ctypes.c_uint64),
        ("stages", ctypes.c_uint32),
        ("worst_stage", ctypes.c_uint32),
        ("worst", hwfit_shard_card),
        ("capacity_bytes", ctypes.c_uint64),
        ("usable_bytes", ctypes.c_uint64),
        ("headroom_bytes", ctypes.c_double),
        ("gpu_fits", ctypes.c_int),
        ("host_bytes", ctypes.c_uint64),
        ("host_usable_bytes", ctypes.c_uint64),
        ("host_checked", ctypes.c_int),
        ("host_fits", ctypes.c_int),
        ("fits", ctypes.c_int),
        ("kv_tokens", ctypes.c_uint64),
        ("total_bytes", ctypes.c_uint64),
    ]


# void hwfit_shard_init(hwfit_shard_in *in);
hwfit_shard_init = _fn("hwfit_shard_init", None, [ctypes.POINTER(hwfit_shard_in)])
# hwfit_status hwfit_shard_estimate_batch(const hwfit_model *model, const hwfit_shard_in *ins,
#                                         size_t n, hwfit_shard_out *outs,
#                                         hwfit_status *statuses);
hwfit_shard_estimate_batch = _fn("hwfit_shard_estimate_batch", ctypes.c_int,
                                 [ctypes.POINTER(hwfit_model), ctypes.POINTER(hwfit_shard_in),
                                  ctypes.c_size_t, ctypes.POINTER(hwfit_shard_out), c_int_p])
# hwfit_status hwfit_shard_estimate_batch_ws(const hwfit_model *model,
#     const hwfit_shard_in *ins, size_t n, hwfit_shard_out *outs, hwfit_status *statuses,
#     void *workspace, size_t workspace_size);
hwfit_shard_estimate_batch_ws = _fn("hwfit_shard_estimate_batch_ws", ctypes.c_int,
                                    [ctypes.POINTER(hwfit_model),
                                     ctypes.POINTER(hwfit_shard_in), ctypes.c_size_t,
                                     ctypes.POINTER(hwfit_shard_out), c_int_p,
                                     ctypes.c_void_p, ctypes.c_size_t])
# size_t hwfit_shard_batch_workspace_size(void);
hwfit_shard_batch_workspace_size = _fn("hwfit_shard_batch_workspace_size", ctypes.c_size_t,
                                       [])
# size_t hwfit_shard_cache_size(void);
hwfit_shard_cache_size = _fn("hwfit_shard_cache_size", ctypes.c_size_t, [])
# hwfit_status hwfit_shard_cache_init(void *cache, size_t cache_size);
hwfit_shard_cache_init = _fn("hwfit_shard_cache_init", ctypes.c_int,
                             [ctypes.c_void_p, ctypes.c_size_t])
# hwfit_status hwfit_shard_estimate_cached(const hwfit_model *model, const hwfit_shard_in *in,
#                                          hwfit_shard_out *out, void *cache,
#                                          size_t cache_size);
hwfit_shard_estimate_cached = _fn("hwfit_shard_estimate_cached", ctypes.c_int,
                                  [ctypes.POINTER(hwfit_model), ctypes.POINTER(hwfit_shard_in),
                                   ctypes.POINTER(hwfit_shard_out), ctypes.c_void_p,
                                   ctypes.c_size_t])
