/**
 * @file hwfit.h
 * @brief hwfit: hardware-fit calculations for GPU servers. Include this one header.
 *
 * Will a model fit on these GPUs, how fast will it run, and is this server built right?
 * Every module has its own header in include/hwfit/; this header includes them all.
 *
 * Conventions (see docs/units.md):
 * - Fallible calls return ::hwfit_status and write their output only on ::HWFIT_OK.
 * - Input structs have an @c _init function that fills documented defaults; call it
 *   first, then set what you need.
 * - Binary compatibility: structs nest by value and outputs are written without a size,
 *   so no layout change, not even an appended field, is binary compatible. While the
 *   version is 0.x, any change of a public struct's layout raises the minor version and
 *   the SONAME is libhwfit.so.0.N for minor version N; from 1.0 on it is the major version
 *   (docs/units.md, "How structs evolve"; tests/abi/layouts.json records the layouts).
 * - Exact counts are @c uint64_t; physical quantities are @c double in SI base units
 *   with the unit in the field name (@c _bytes, @c _s, @c _w, @c _bytes_per_s).
 * - Calculations are pure, reentrant and allocate nothing; only readers allocate, and
 *   they say who frees.
 */
#ifndef HWFIT_H
#define HWFIT_H

#include "hwfit/status.h"
#include "hwfit/version.h"
#include "hwfit/units.h"
#include "hwfit/dtype.h"
#include "hwfit/model.h"
#include "hwfit/memory.h"
#include "hwfit/profile.h"
#include "hwfit/hf_config.h"
#include "hwfit/hf_quant.h"
#include "hwfit/safetensors.h"
#include "hwfit/locate.h"
#include "hwfit/storage.h"
#include "hwfit/power.h"
#include "hwfit/host.h"
#include "hwfit/gpu.h"
#include "hwfit/gpu_set.h"
#include "hwfit/link.h"
#include "hwfit/topology.h"
#include "hwfit/collective.h"
#include "hwfit/svg.h"
#include "hwfit/shard.h"
#include "hwfit/perf.h"
#include "hwfit/serve.h"
#include "hwfit/node.h"
#include "hwfit/node_spec.h"
#include "hwfit/gpu_file.h"
#include "hwfit/assess.h"
#include "hwfit/chart.h"
#include "hwfit/report.h"
#include "hwfit/request.h"

#endif /* HWFIT_H */
