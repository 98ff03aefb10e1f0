/**
 * @file locate.h
 * @brief Finding a model's `config.json` by name: a path, a Hugging Face id
 *        (`meta-llama/Llama-3.1-70B`) or a short name (`llama-3.1-70b`).
 *
 * ::hwfit_model_locate looks, in this order:
 * 1. the name as a path: a regular file, or a directory holding `config.json`;
 * 2. for an id `org/name`, the local Hugging Face cache: `$HF_HUB_CACHE`, else
 *    `$HF_HOME/hub`, else `$HOME/.cache/huggingface/hub`, in
 *    `models--org--name/snapshots/<revision>/config.json` (the revision `refs/main` names,
 *    else the first snapshot found);
 * 3. each directory of `$HWFIT_MODEL_PATH` (colon-separated), as `<stem>.config.json` or
 *    `<stem>/config.json`, where the stem is the name's last part in lower case
 *    (`meta-llama/Llama-3.1-70B` -> `llama-3.1-70b`);
 * 4. the catalog installed with hwfit: `share/hwfit/models/<stem>.config.json` beside the
 *    library's own installation (found from where the library was loaded, never from the
 *    working directory), then the source tree's `tests/data/models` of an uninstalled build.
 *
 * Thread safety: reentrant; reads the environment and the file system, allocates nothing.
 *
 * @defgroup locate Model lookup
 * @{
 */
#ifndef HWFIT_LOCATE_H
#define HWFIT_LOCATE_H

#include <stddef.h>

#include "hwfit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Size of a buffer that holds any path ::hwfit_model_locate writes, with its NUL. */
#define HWFIT_LOCATE_PATH_SIZE 4096

/**
 * @brief The path of a model's `config.json`, from a path, a Hugging Face id or a short name.
 * @param[in]  name  a path, `org/name` or `name`; NUL-terminated, at most 1024 bytes
 * @param[out] path  the path found (NUL-terminated); written only on success
 * @param[in]  size  bytes at path (::HWFIT_LOCATE_PATH_SIZE holds any)
 * @retval HWFIT_OK         found
 * @retval HWFIT_ENOTFOUND  none of the places holds it
 * @retval HWFIT_EBUFSIZE   the path found does not fit in size bytes
 * @retval HWFIT_EDOM       name is empty or longer than 1024 bytes
 * @retval HWFIT_EINVAL     name or path is NULL
 */
HWFIT_API hwfit_status hwfit_model_locate(const char *name, char *path, size_t size);

/**
 * @brief The directory of the model catalog installed with hwfit (item 4 above).
 * @param[out] path  the directory (NUL-terminated); written only on success
 * @param[in]  size  bytes at path
 * @retval HWFIT_OK         found
 * @retval HWFIT_ENOTFOUND  neither the installed nor the source-tree catalog exists
 * @retval HWFIT_EBUFSIZE   the directory's path does not fit in size bytes
 * @retval HWFIT_EINVAL     path is NULL
 */
HWFIT_API hwfit_status hwfit_model_catalog_dir(char *path, size_t size);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* HWFIT_LOCATE_H */
