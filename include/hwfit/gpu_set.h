/**
 * @file gpu_set.h
 * @brief Cards of one's own: a set of ::hwfit_gpu rows the caller owns, looked up by name
 *        after the built-in catalog (gpu.h).
 *
 * The built-in catalog is a constant table; cards people describe themselves (a GPU file,
 * gpu_file.h, or a card inline in a node file) go into a ::hwfit_gpu_set that belongs to
 * whoever loaded them (a request, a program). Nothing is global: every lookup that should
 * see such cards takes the set as an argument (::hwfit_gpu_lookup).
 *
 * A set copies what it is given (the strings included); the rows it hands out stay valid
 * until the set is freed. Every row, built-in or not, passes the same checks
 * (::hwfit_gpu_validate).
 */
#ifndef HWFIT_GPU_SET_H
#define HWFIT_GPU_SET_H

#include "hwfit/gpu.h"
#include "hwfit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup gpu_set Cards of one's own
 *  @brief A caller-owned set of GPU rows. Thread safety: a set is used by one thread at a
 *  time (reads may be shared once it is filled); different sets are independent.
 *  @{ */

/** @brief Most cards a set holds. */
#define HWFIT_GPU_SET_MAX 1024
/** @brief Longest card name, in bytes without the NUL. */
#define HWFIT_GPU_NAME_MAX 63
/** @brief Longest edition, architecture, source or notes text, in bytes without the NUL. */
#define HWFIT_GPU_TEXT_MAX 4095

/** @brief A set of cards. Opaque; made by ::hwfit_gpu_set_new. */
typedef struct hwfit_gpu_set hwfit_gpu_set;

/**
 * @brief Check one row with the rules every catalog row follows.
 *
 * The name is 1 to ::HWFIT_GPU_NAME_MAX bytes of lowercase letters, digits, '-', '.' or
 * '_', starting with a letter or digit; texts are not NULL; enums are in range; memory,
 * bandwidth, power, FP32 and FP16/BF16 are positive; other rates are >= 0 (0: no such
 * path); sparse_speedup is 1 without sparsity and in [1, 4] with it; a PCIe generation
 * 1-6 goes with 1, 2, 4, 8 or 16 lanes and generation 0 with 0 lanes; a peer link has a
 * topology, a generation (NVLink 1-5, xGMI 3), 1-64 links, a positive rate whose
 * bidirectional figure is twice the per-direction one, and 2 or more GPUs in its domain;
 * no peer link means every peer field is 0; NVLS needs an NVSwitch topology.
 * @param[in]  gpu     The row; NULL gives ::HWFIT_EINVAL.
 * @param[out] problem The field at fault and its rule; may be NULL.
 * @retval HWFIT_OK     the row is valid.
 * @retval HWFIT_EINVAL @p gpu is NULL, a text is NULL or an enum is out of range.
 * @retval HWFIT_EDOM   a value breaks its rule.
 */
HWFIT_API hwfit_status hwfit_gpu_validate(const hwfit_gpu *gpu, hwfit_problem *problem);

/**
 * @brief Make an empty set.
 * @param[out] out The set; free it with ::hwfit_gpu_set_free. NULL gives ::HWFIT_EINVAL.
 * @retval HWFIT_OK     made.
 * @retval HWFIT_EINVAL @p out is NULL.
 * @retval HWFIT_ENOMEM out of memory.
 */
HWFIT_API hwfit_status hwfit_gpu_set_new(hwfit_gpu_set **out);

/**
 * @brief Free a set and every row it holds.
 * @param[in] set The set; NULL does nothing.
 */
HWFIT_API void hwfit_gpu_set_free(hwfit_gpu_set *set);

/**
 * @brief Add a copy of a row (its strings included).
 * @param[in,out] set     The set; NULL gives ::HWFIT_EINVAL.
 * @param[in]     gpu     The row; it must pass ::hwfit_gpu_validate. NULL gives ::HWFIT_EINVAL.
 * @param[out]    problem Why it was refused; may be NULL.
 * @retval HWFIT_OK     added.
 * @retval HWFIT_EINVAL a pointer is NULL, or as for ::hwfit_gpu_validate.
 * @retval HWFIT_EDOM   the row is invalid, its name is a built-in card's or already in the
 *                      set (field "name"), or a text is longer than ::HWFIT_GPU_TEXT_MAX.
 * @retval HWFIT_ERANGE the set already holds ::HWFIT_GPU_SET_MAX cards.
 * @retval HWFIT_ENOMEM out of memory.
 */
HWFIT_API hwfit_status hwfit_gpu_set_add(hwfit_gpu_set *set, const hwfit_gpu *gpu,
                                         hwfit_problem *problem);

/**
 * @brief Number of cards in a set.
 * @param[in] set The set; NULL counts as empty.
 * @return The count.
 */
HWFIT_API size_t hwfit_gpu_set_count(const hwfit_gpu_set *set);

/**
 * @brief One card of a set, in the order they were added.
 * @param[in] set   The set; may be NULL.
 * @param[in] index 0 to ::hwfit_gpu_set_count() - 1.
 * @return The row (valid until the set is freed), or NULL when out of range.
 */
HWFIT_API const hwfit_gpu *hwfit_gpu_set_at(const hwfit_gpu_set *set, size_t index);

/**
 * @brief Look a card up by name: the built-in catalog first, then the set.
 * @param[in]  set  The caller's cards; NULL means the built-in catalog only.
 * @param[in]  name The name; NULL gives ::HWFIT_EINVAL.
 * @param[out] gpu  The row; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK        found.
 * @retval HWFIT_EINVAL    @p name or @p gpu is NULL.
 * @retval HWFIT_ENOTFOUND neither the catalog nor the set has that name.
 */
HWFIT_API hwfit_status hwfit_gpu_lookup(const hwfit_gpu_set *set, const char *name,
                                        const hwfit_gpu **gpu);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* HWFIT_GPU_SET_H */
