/* dtype: bits per element against the block layouts of their specifications, exact bytes,
 * names, and every error path. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "hwfit.h"

static hwfit_dtype parse_ok(const char *name) {
    hwfit_dtype d = {HWFIT_DTYPE_COUNT_, 99};
    hwfit_status st = hwfit_dtype_parse(name, &d);
    cr_assert_eq(st, HWFIT_OK, "'%s': %s", name, hwfit_status_name(st));
    return d;
}

static double bits_of(const char *name) {
    double b = -1.0;
    cr_assert_eq(hwfit_dtype_bits(parse_ok(name), &b), HWFIT_OK, "%s", name);
    return b;
}

/* Bits are ratios of small integers, exact in binary floating point except 20/G and the
 * nf4-dq ratio, which are compared against the same ratio computed here. */
Test(dtype, bits_per_element_match_the_block_layouts) {
    cr_assert_eq(bits_of("fp32"), 32.0);
    cr_assert_eq(bits_of("tf32"), 32.0); /* stored as fp32 */
    cr_assert_eq(bits_of("fp16"), 16.0);
    cr_assert_eq(bits_of("bf16"), 16.0);
    cr_assert_eq(bits_of("fp8-e4m3"), 8.0);
    cr_assert_eq(bits_of("fp8-e5m2"), 8.0);
    cr_assert_eq(bits_of("int8"), 8.0);
    /* GPTQ/AWQ: fp16 scale + 4-bit zero per group: 4 + 20/G. */
    cr_assert_eq(bits_of("int4"), 4.0 + 20.0 / 128.0); /* 4.15625 */
    cr_assert_eq(bits_of("int4-g64"), 4.3125);
    cr_assert_eq(bits_of("int4-g32"), 4.625);
    /* QLoRA: 0.5 bit of fp32 absmax per 64 values; double quantisation 8/64 + 32/(64*256). */
    cr_assert_eq(bits_of("nf4"), 4.5);
    cr_assert_eq(bits_of("nf4-dq"), 4.0 + 8.0 / 64.0 + 32.0 / (64.0 * 256.0));
    cr_assert(bits_of("nf4-dq") > 4.126 && bits_of("nf4-dq") < 4.128); /* "0.127 bits" */
    /* NVFP4: E4M3 scale per 16 E2M1 values; MX: E8M0 scale per 32 (OCP MX v1.0). */
    cr_assert_eq(bits_of("nvfp4"), 4.5);
    cr_assert_eq(bits_of("mxfp4"), 4.25);
    cr_assert_eq(bits_of("mxfp6"), 6.25);
    cr_assert_eq(bits_of("mxfp8"), 8.25);
    /* ggml-common.h block sizes: q8_0 34 B/32, q6_K 210 B/256, q5_K 176, q4_K 144,
     * q4_0 18 B/32, q3_K 110, q2_K 84, iq4_xs 136. */
    cr_assert_eq(bits_of("q8_0"), 34.0 * 8 / 32);
    cr_assert_eq(bits_of("q6_k"), 6.5625);
    cr_assert_eq(bits_of("q5_k"), 5.5);
    cr_assert_eq(bits_of("q4_k"), 4.5);
    cr_assert_eq(bits_of("q4_0"), 4.5);
    cr_assert_eq(bits_of("q3_k"), 3.4375);
    cr_assert_eq(bits_of("q2_k"), 2.625);
    cr_assert_eq(bits_of("iq4_xs"), 4.25);
}

Test(dtype, bytes_are_whole_blocks) {
    uint64_t b = 0;
    cr_assert_eq(hwfit_dtype_bytes(parse_ok("q4_k"), 256, &b), HWFIT_OK);
    cr_assert_eq(b, 144);
    cr_assert_eq(hwfit_dtype_bytes(parse_ok("q4_k"), 257, &b), HWFIT_OK);
    cr_assert_eq(b, 288); /* a second, partly filled super-block */
    cr_assert_eq(hwfit_dtype_bytes(parse_ok("q8_0"), 4096, &b), HWFIT_OK);
    cr_assert_eq(b, 4096 / 32 * 34);
    cr_assert_eq(hwfit_dtype_bytes(parse_ok("bf16"), 0, &b), HWFIT_OK);
    cr_assert_eq(b, 0);
    cr_assert_eq(hwfit_dtype_bytes(parse_ok("bf16"), 8030261248ull, &b), HWFIT_OK);
    cr_assert_eq(b, 16060522496ull); /* Llama-3.1-8B in bf16 (memory.md c.2) */
    /* int4-g128: 128 values = 64 B + 2 B scale + 4-bit zero = 532 bits; two groups 1064 bits. */
    cr_assert_eq(hwfit_dtype_bytes(parse_ok("int4"), 128, &b), HWFIT_OK);
    cr_assert_eq(b, 67); /* ceil(532 / 8) */
    cr_assert_eq(hwfit_dtype_bytes(parse_ok("int4"), 256, &b), HWFIT_OK);
    cr_assert_eq(b, 133);
    /* nf4-dq: 16384 values = 8192 B + 256 B + 4 B. */
    cr_assert_eq(hwfit_dtype_bytes(parse_ok("nf4-dq"), 16384, &b), HWFIT_OK);
    cr_assert_eq(b, 8452);
    /* A 576-value MLA latent in fp8 and in mxfp8 (18 blocks of 33 B). */
    cr_assert_eq(hwfit_dtype_bytes(parse_ok("fp8"), 576, &b), HWFIT_OK);
    cr_assert_eq(b, 576);
    cr_assert_eq(hwfit_dtype_bytes(parse_ok("mxfp8"), 576, &b), HWFIT_OK);
    cr_assert_eq(b, 18 * 33);
}

Test(dtype, matrix_bytes_block_each_row_or_the_flattened_tensor) {
    uint64_t b = 0;
    /* Gemma-3-1B rows of 1152 values are 4.5 super-blocks: each row pads to 5 (q4_k). */
    cr_assert_eq(hwfit_dtype_matrix_bytes(parse_ok("q4_k"), 6912, 1152, &b), HWFIT_OK);
    cr_assert_eq(b, 6912ull * 5 * 144);
    /* nf4 blocks run over the flattened tensor: 6912 * 1152 / 64 blocks of 36 B. */
    cr_assert_eq(hwfit_dtype_matrix_bytes(parse_ok("nf4"), 6912, 1152, &b), HWFIT_OK);
    cr_assert_eq(b, 6912ull * 1152 / 64 * 36);
    cr_assert_eq(hwfit_dtype_matrix_bytes(parse_ok("bf16"), 4096, 14336, &b), HWFIT_OK);
    cr_assert_eq(b, 4096ull * 14336 * 2);
}

Test(dtype, matrix_bytes_equal_flat_bytes_when_rows_are_whole_blocks) {
    for (size_t i = 0; i < hwfit_dtype_count(); i++) {
        hwfit_dtype d;
        cr_assert_eq(hwfit_dtype_at(i, &d), HWFIT_OK);
        hwfit_dtype_info info;
        cr_assert_eq(hwfit_dtype_describe(d, &info), HWFIT_OK);
        /* Tile formats: whole tiles (tile rows); row formats add their scale per row. */
        uint64_t cols = (info.tile ? info.tile : info.block_elements) * 7,
                 rows = info.tile ? info.tile : 3, flat, mat;
        cr_assert_eq(hwfit_dtype_bytes(d, rows * cols, &flat), HWFIT_OK);
        cr_assert_eq(hwfit_dtype_matrix_bytes(d, rows, cols, &mat), HWFIT_OK);
        cr_assert_eq(flat + rows * info.row_scale_bits / 8, mat, "%s", info.name);
        /* bits per element agree with the block description */
        double bits;
        cr_assert_eq(hwfit_dtype_bits(d, &bits), HWFIT_OK);
        cr_assert_eq(bits, (double)info.block_bits / (double)info.block_elements);
        uint64_t blocks = rows * cols / info.block_elements; /* whole blocks: 21, or 7 tiles */
        cr_assert_eq(flat, (blocks * info.block_bits + 7) / 8);
    }
}

Test(dtype, more_elements_never_take_fewer_bytes) {
    for (size_t i = 0; i < hwfit_dtype_count(); i++) {
        hwfit_dtype d;
        hwfit_dtype_at(i, &d);
        uint64_t prev = 0;
        for (uint64_t n = 0; n < 600; n++) {
            uint64_t b;
            cr_assert_eq(hwfit_dtype_bytes(d, n, &b), HWFIT_OK);
            cr_assert_geq(b, prev);
            prev = b;
        }
    }
}

Test(dtype, names_round_trip_through_the_listing) {
    cr_assert_eq(hwfit_dtype_count(), (size_t)HWFIT_DTYPE_COUNT_ + 2);
    for (size_t i = 0; i < hwfit_dtype_count(); i++) {
        hwfit_dtype d, back;
        char name[HWFIT_DTYPE_NAME_SIZE];
        cr_assert_eq(hwfit_dtype_at(i, &d), HWFIT_OK);
        cr_assert_eq(hwfit_dtype_format(d, name, sizeof name), HWFIT_OK);
        cr_assert_eq(hwfit_dtype_parse(name, &back), HWFIT_OK, "%s", name);
        char again[HWFIT_DTYPE_NAME_SIZE];
        cr_assert_eq(hwfit_dtype_format(back, again, sizeof again), HWFIT_OK);
        cr_assert_str_eq(name, again);
    }
    char name[HWFIT_DTYPE_NAME_SIZE];
    hwfit_dtype g64 = {HWFIT_DTYPE_INT4, 64}, g0 = {HWFIT_DTYPE_INT4, 0};
    cr_assert_eq(hwfit_dtype_format(g64, name, sizeof name), HWFIT_OK);
    cr_assert_str_eq(name, "int4-g64");
    cr_assert_eq(hwfit_dtype_format(g0, name, sizeof name), HWFIT_OK);
    cr_assert_str_eq(name, "int4"); /* 0 means the default group, 128 */
    cr_assert_eq(parse_ok("int4").group_size, 128);
    cr_assert_eq(parse_ok("int4-g128").group_size, 128);
    cr_assert_eq(parse_ok("fp8").id, HWFIT_DTYPE_FP8_E4M3);
    cr_assert_eq(parse_ok("bfloat16").id, HWFIT_DTYPE_BF16);
    cr_assert_eq(parse_ok("float16").id, HWFIT_DTYPE_FP16);
    cr_assert_eq(parse_ok("float32").id, HWFIT_DTYPE_FP32);
    cr_assert_eq(hwfit_dtype_make(HWFIT_DTYPE_Q4_K).id, HWFIT_DTYPE_Q4_K);
    cr_assert_eq(hwfit_dtype_make(HWFIT_DTYPE_Q4_K).group_size, 0);
}

Test(dtype, describes_quantized_and_flattened_formats) {
    hwfit_dtype_info info;
    cr_assert_eq(hwfit_dtype_describe(parse_ok("bf16"), &info), HWFIT_OK);
    cr_assert_eq(info.quantized, 0);
    cr_assert_eq(hwfit_dtype_describe(parse_ok("nf4-dq"), &info), HWFIT_OK);
    cr_assert_eq(info.quantized, 1);
    cr_assert_eq(info.flattened, 1);
    cr_assert_eq(info.block_elements, 16384);
    cr_assert_eq(hwfit_dtype_describe(parse_ok("q6_k"), &info), HWFIT_OK);
    cr_assert_eq(info.flattened, 0);
    cr_assert_eq(info.block_bits, 210 * 8);
    cr_assert_str_eq(info.name, "q6_k");
    cr_assert(strlen(info.source) > 0 && strlen(info.description) > 0);
}

Test(dtype, refuses_unknown_names_and_bad_groups_without_touching_the_output) {
    static const struct {
        const char *name;
        hwfit_status want;
    } cases[] = {
        {"", HWFIT_ENOTFOUND},          {"BF16", HWFIT_ENOTFOUND}, /* lowercase only */
        {"fp4", HWFIT_ENOTFOUND},       {"q4_k_m", HWFIT_ENOTFOUND},
        {"int4-g", HWFIT_ENOTFOUND},    {"int4-g0", HWFIT_ENOTFOUND},
        {"int4-g064", HWFIT_ENOTFOUND}, {"int4-g64x", HWFIT_ENOTFOUND},
        {"int4-g-8", HWFIT_ENOTFOUND},  {"int4-g1048577", HWFIT_EDOM},
        {"int4-g99999999999999999999", HWFIT_EDOM},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hwfit_dtype d;
        memset(&d, 0x5a, sizeof d);
        cr_assert_eq(hwfit_dtype_parse(cases[i].name, &d), cases[i].want, "'%s'", cases[i].name);
        hwfit_dtype poison;
        memset(&poison, 0x5a, sizeof poison);
        cr_assert_eq(memcmp(&d, &poison, sizeof d), 0, "'%s' wrote the output", cases[i].name);
    }
    cr_assert_eq(parse_ok("int4-g1048576").group_size, 1048576);
    hwfit_dtype d;
    cr_assert_eq(hwfit_dtype_parse(NULL, &d), HWFIT_EINVAL);
    cr_assert_eq(hwfit_dtype_parse("bf16", NULL), HWFIT_EINVAL);
}

Test(dtype, invalid_values_are_refused_by_every_function) {
    const hwfit_dtype bad_id = {HWFIT_DTYPE_COUNT_, 0}, bad_group = {HWFIT_DTYPE_BF16, 32},
                      big_group = {HWFIT_DTYPE_INT4, HWFIT_DTYPE_MAX_GROUP + 1};
    const struct {
        hwfit_dtype d;
        hwfit_status want;
    } cases[] = {{bad_id, HWFIT_EINVAL}, {bad_group, HWFIT_EDOM}, {big_group, HWFIT_EDOM}};
    for (size_t i = 0; i < 3; i++) {
        double bits = -7.0;
        uint64_t bytes = 77;
        char buf[HWFIT_DTYPE_NAME_SIZE] = "untouched";
        hwfit_dtype_info info;
        memset(&info, 0x5a, sizeof info);
        hwfit_dtype_info poison;
        memset(&poison, 0x5a, sizeof poison);
        cr_assert_eq(hwfit_dtype_bits(cases[i].d, &bits), cases[i].want);
        cr_assert_eq(bits, -7.0);
        cr_assert_eq(hwfit_dtype_bytes(cases[i].d, 10, &bytes), cases[i].want);
        cr_assert_eq(hwfit_dtype_matrix_bytes(cases[i].d, 2, 10, &bytes), cases[i].want);
        cr_assert_eq(bytes, 77);
        cr_assert_eq(hwfit_dtype_describe(cases[i].d, &info), cases[i].want);
        cr_assert_eq(memcmp(&info, &poison, sizeof info), 0);
        cr_assert_eq(hwfit_dtype_format(cases[i].d, buf, sizeof buf), cases[i].want);
    }
    hwfit_dtype ok = {HWFIT_DTYPE_BF16, 0};
    cr_assert_eq(hwfit_dtype_bits(ok, NULL), HWFIT_EINVAL);
    cr_assert_eq(hwfit_dtype_bytes(ok, 1, NULL), HWFIT_EINVAL);
    cr_assert_eq(hwfit_dtype_matrix_bytes(ok, 1, 1, NULL), HWFIT_EINVAL);
    cr_assert_eq(hwfit_dtype_describe(ok, NULL), HWFIT_EINVAL);
    cr_assert_eq(hwfit_dtype_format(ok, NULL, 8), HWFIT_EINVAL);
    cr_assert_eq(hwfit_dtype_at(0, NULL), HWFIT_EINVAL);
    hwfit_dtype out = {HWFIT_DTYPE_Q2_K, 5};
    cr_assert_eq(hwfit_dtype_at(hwfit_dtype_count(), &out), HWFIT_EDOM);
    cr_assert_eq(out.id, HWFIT_DTYPE_Q2_K);
    char small[4];
    cr_assert_eq(hwfit_dtype_format(ok, small, 4), HWFIT_EBUFSIZE); /* "bf16" needs 5 */
}

Test(dtype, sizes_that_overflow_64_bits_are_refused) {
    uint64_t b = 5;
    cr_assert_eq(hwfit_dtype_bytes(hwfit_dtype_make(HWFIT_DTYPE_FP32), UINT64_MAX / 2, &b),
                 HWFIT_ERANGE);
    cr_assert_eq(hwfit_dtype_matrix_bytes(hwfit_dtype_make(HWFIT_DTYPE_BF16), 1ull << 40,
                                          1ull << 40, &b),
                 HWFIT_ERANGE);
    cr_assert_eq(hwfit_dtype_matrix_bytes(hwfit_dtype_make(HWFIT_DTYPE_Q4_K), 1ull << 40,
                                          1ull << 40, &b),
                 HWFIT_ERANGE);
    cr_assert_eq(b, 5);
    /* The largest count that fits: 4-bit blocks of UINT64_MAX values. */
    cr_assert_eq(hwfit_dtype_bytes(hwfit_dtype_make(HWFIT_DTYPE_INT8), UINT64_MAX, &b), HWFIT_OK);
    cr_assert_eq(b, UINT64_MAX);
}

/* hwfit_dtype_format writes its names without snprintf (issue 19): the same bytes, the
 * same truncation (what fits, NUL-terminated) and status as snprintf's. */
Test(dtype, format_writes_what_snprintf_wrote) {
    char buf[HWFIT_DTYPE_NAME_SIZE], want[HWFIT_DTYPE_NAME_SIZE];
    const uint32_t groups[] = {1, 9, 10, 32, 64, 100, 127, 129, 4096, 999999,
                               HWFIT_DTYPE_MAX_GROUP};
    for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++) {
        hwfit_dtype d = {HWFIT_DTYPE_INT4, groups[i]};
        snprintf(want, sizeof want, "int4-g%u", (unsigned)groups[i]);
        cr_assert_eq(hwfit_dtype_format(d, buf, sizeof buf), HWFIT_OK);
        cr_assert_str_eq(buf, want);
        hwfit_dtype back;
        cr_assert_eq(hwfit_dtype_parse(buf, &back), HWFIT_OK);
        cr_assert_eq(back.group_size, groups[i]);
    }
    hwfit_dtype g = {HWFIT_DTYPE_INT4, HWFIT_DTYPE_MAX_GROUP}; /* "int4-g1048576": 13 bytes */
    for (size_t size = 1; size <= 14; size++) {
        memset(buf, 'x', sizeof buf);
        cr_assert_eq(hwfit_dtype_format(g, buf, size), size >= 14 ? HWFIT_OK : HWFIT_EBUFSIZE);
        snprintf(want, size, "int4-g%u", (unsigned)HWFIT_DTYPE_MAX_GROUP);
        cr_assert_str_eq(buf, want, "size %zu", size);
        cr_assert_eq(buf[size], 'x', "size %zu: wrote past the buffer", size);
    }
    hwfit_dtype bf16 = hwfit_dtype_make(HWFIT_DTYPE_BF16);
    memset(buf, 'x', sizeof buf);
    cr_assert_eq(hwfit_dtype_format(bf16, buf, 3), HWFIT_EBUFSIZE);
    cr_assert_str_eq(buf, "bf");
    cr_assert_eq(buf[3], 'x');
    buf[0] = 'x';
    cr_assert_eq(hwfit_dtype_format(bf16, buf, 0), HWFIT_EBUFSIZE);
    cr_assert_eq(buf[0], 'x'); /* nothing written into no room */
    cr_assert_eq(hwfit_dtype_format(bf16, buf, 5), HWFIT_OK);
    cr_assert_str_eq(buf, "bf16");
}
