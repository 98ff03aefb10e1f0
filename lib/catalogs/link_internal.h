/*
 * link_internal.h - what link.c shares with collective.c inside lib/. Never installed.
 */
#ifndef HWFIT_LINK_INTERNAL_H
#define HWFIT_LINK_INTERNAL_H

#include "hwfit/link.h"
#include "hwfit/status.h"

/* hwfit_link_rate without the NULL checks and without the name (out->name is left empty:
 * no printf-family frame on the calculations' chains, tests/stack). Every other field is
 * the same, bit for bit. */
hwfit_status hwfit__link_rate(const hwfit_link_in *in, hwfit_link_out *out);

#endif /* HWFIT_LINK_INTERNAL_H */
