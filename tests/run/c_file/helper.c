/* tests/run/c_file/helper.c - host code in C, as course repositories mix it with .cu files:
 * nvcc compiles it as C, so does `simtlab run` (C-only syntax below: a C++ compiler refuses it) */
#include <stdlib.h>
#include "helper.h"

int helper_calls;

int host_helper(int x)
{
    int *new = malloc(sizeof *new); /* `new` is a name in C; malloc's void * converts implicitly */
    *new = x + 1;
    int r = *new;
    free(new);
    helper_calls++;
    return r;
}
