/*
 * readers/hf_quant_internal.h - the stored formats of a parsed config.json (hf_quant.c), for
 * hf_config.c, which reads them with the model. Never installed; not API.
 */
#ifndef HWFIT_READERS_HF_QUANT_INTERNAL_H
#define HWFIT_READERS_HF_QUANT_INTERNAL_H

#include "hwfit/model.h"
#include "hwfit/status.h"
#include "readers/json.h"

/* The formats of root (a config.json object, or a bare quantization_config object) into
 * *out; messages start with where. Fails as hwfit_hf_quant_parse does. */
hwfit_status hwfit__hf_quant_read(const hwfit__json_value *root, const char *where,
                                  hwfit_model_stored *out, hwfit_error *err);

#endif /* HWFIT_READERS_HF_QUANT_INTERNAL_H */
