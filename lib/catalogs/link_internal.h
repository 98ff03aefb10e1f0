/*
 * link_internal.h - what link.c shares with collective.c inside lib/. Never installed.
 */
#ifndef HWFIT_LINK_INTERNAL_H
#define HWFIT_LINK_INTERNAL_H

#include "hwfit/link.h"
#include "hwfit/status.h"

/* hwfit_link_rate without the NULL checks; out->name is formatted only when `named` (it is
 * left empty otherwise). Every other field is the same, bit for bit. */
hwfit_status hwfit__link_rate(const hwfit_link_in *in, hwfit_link_out *out, int named);

#endif /* HWFIT_LINK_INTERNAL_H */
