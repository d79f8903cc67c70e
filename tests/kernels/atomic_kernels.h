/* tests/kernels/atomic_kernels.h - what tests/test_atomic.c calls in atomic_kernels.cu. */
#ifndef TEST_ATOMIC_KERNELS_H
#define TEST_ATOMIC_KERNELS_H
#include "simt_cfg.h"

enum { ATOM_ADD, ATOM_SUB, ATOM_MIN, ATOM_MAX, ATOM_EXCH, ATOM_CAS_ONCE, ATOM_CAS_LOOP };

DECLARE_LAUNCHER(atom_int_global, (int *, word), (int *, old), (const int *, val), (int, op));
DECLARE_LAUNCHER(atom_uint_global, (unsigned *, word), (unsigned *, old), (const unsigned *, val), (int, op));
DECLARE_LAUNCHER(atom_float_global, (float *, word), (float *, old), (const float *, val), (int, op));
DECLARE_LAUNCHER(atom_int_shared, (int *, result), (int *, old), (const int *, val), (const int *, init), (int, op));
DECLARE_LAUNCHER(atom_uint_shared, (unsigned *, result), (unsigned *, old), (const unsigned *, val), (const unsigned *, init), (int, op));
DECLARE_LAUNCHER(atom_float_shared, (float *, result), (float *, old), (const float *, val), (const float *, init), (int, op));
DECLARE_LAUNCHER(histogram, (unsigned *, bins), (const int *, in), (int, n), (int, nbins));
#endif
