/* tests/run/c_file/helper.h - C functions for C and C++ callers (the usual guard) */
#ifndef HELPER_H
#define HELPER_H
#ifdef __cplusplus
extern "C" {
#endif
int host_helper(int x);
extern int helper_calls;
#ifdef __cplusplus
}
#endif
#endif
