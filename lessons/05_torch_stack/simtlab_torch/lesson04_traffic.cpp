/* lessons/05_torch_stack/simtlab_torch/lesson04_traffic.cpp - lesson 4's
 * traffic.c, compiled into the extension.
 *
 * ops.cpp chooses the forward's tiles with attn_v2_tiles, the same function
 * lesson 4's driver calls, and sizes its shared memory with
 * attn_flash_v2_shared_bytes; both live in traffic.c. torch's loader hands
 * every source that is not a .cu to the C++ compiler, and traffic.c is
 * valid C++ as it is (memset and plain arithmetic), so this file just
 * includes it: no copy of its logic to keep in step. attention.h declares
 * its functions inside extern "C", so they keep C linkage here too.
 * The path is relative to this file: lesson 7 has a traffic.c of its own. */
#include "../../04_attention/traffic.c"
