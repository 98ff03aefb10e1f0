/*
 * assess_internal.h - what the library's own callers of hwfit_assess_ws need to size its
 * workspace at compile time (the request layer keeps it in a command's workspace). Never
 * installed; not API.
 */
#ifndef HWFIT_ASSESS_INTERNAL_H
#define HWFIT_ASSESS_INTERNAL_H

/* At least hwfit_assess_workspace_size(); assess.c checks it at compile time. */
#define HWFIT__ASSESS_WORKSPACE_BYTES (240u * 1024u)

#endif /* HWFIT_ASSESS_INTERNAL_H */
