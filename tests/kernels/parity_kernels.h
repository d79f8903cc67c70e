/* tests/kernels/parity_kernels.h - kernels that tests/test_parity.c runs on
 * both backends beyond the lessons' own: atomics. */
#ifndef TEST_PARITY_KERNELS_H
#define TEST_PARITY_KERNELS_H
#include "simt_cfg.h"

DECLARE_LAUNCHER(hist_red, (unsigned *, bins), (const int *, in), (int, n), (int, nbins));
DECLARE_LAUNCHER(hist_atom, (unsigned *, bins), (unsigned *, old), (const int *, in), (int, n), (int, nbins));
DECLARE_LAUNCHER(hist_shared, (unsigned *, bins), (const int *, in), (int, n), (int, nbins));
#endif
