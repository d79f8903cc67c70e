/* tests/kernels/lds_patterns.h - the lane -> item patterns of the shared-memory
 * wavefront probe, one table for both sides: scripts/gpu/lds_patterns.cu
 * measures them on a GPU, tests/test_counters.c (shared_float4) holds the
 * simulator to what the H200 measured (docs/gpu/lds-patterns-h200.csv).
 * lds_item(p, lane) is the item (in units of the access width) lane reads. */
#ifndef TEST_LDS_PATTERNS_H
#define TEST_LDS_PATTERNS_H

#define LDS_NPAT 16

static inline int lds_item(int pattern, int lane)
{
    switch (pattern) {
    case 0: return 0;                        /* broadcast */
    case 1: return lane % 2;
    case 2: return lane % 4;                 /* a group of 4 consecutive lanes, 4 items */
    case 3: return lane % 8;
    case 4: return lane;                     /* consecutive */
    case 5: return lane / 8;                 /* each quarter-warp one item (broadcast), 4 items */
    case 6: return lane / 16;                /* each half-warp one item */
    case 7: return lane % 16;
    case 8: return lane / 4;                 /* 8 items, 4 lanes each */
    case 9: return lane / 2;                 /* 16 items */
    case 10: return (lane % 4) * 8;          /* 4 items 128 bytes apart at 128-bit (same banks) */
    case 11: return lane % 2 + 2 * (lane / 16);
    case 12: return (lane / 8) % 2;          /* quarters 0, 2 item 0; 1, 3 item 1 */
    case 13: return lane / 8 + 4 * (lane % 2);
    case 14: return 31 - lane;
    case 15: return (lane % 8) * 2;          /* stride 2 items */
    }
    return 0;
}
#endif
