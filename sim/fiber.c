/* sim/fiber.c - the context switch under every simulated CUDA thread.
 *
 * A CUDA thread runs on a fiber: its own stack (with a PROT_NONE guard page
 * below it) and a saved stack pointer. Switching saves the callee-saved
 * registers on the old stack and restores them from the new one: a dozen
 * instructions, no system call (swapcontext makes a sigprocmask system call
 * each time and costs 10-20x more; docs/NOTES.md). x86-64 and aarch64.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"

/* void sim_ctx_switch(void **save_sp, void *to_sp)
 * A new context's stack holds, from its sp upwards, the registers that the
 * switch pops and then the address of sim_ctx_start, which calls fn(arg). */
#if defined(__x86_64__)
__asm__(".text\n"
        ".globl sim_ctx_switch\n"
        ".type sim_ctx_switch,@function\n"
        "sim_ctx_switch:\n"
        ".Lsim_ctx_switch:\n" /* the park below calls it by a local label: no relocation to resolve */
        "  pushq %rbp\n  pushq %rbx\n  pushq %r12\n  pushq %r13\n  pushq %r14\n  pushq %r15\n"
        "  movq %rsp, (%rdi)\n"
        "  movq %rsi, %rsp\n"
        "  popq %r15\n  popq %r14\n  popq %r13\n  popq %r12\n  popq %rbx\n  popq %rbp\n"
        "  ret\n"
        ".size sim_ctx_switch, .-sim_ctx_switch\n"
        /* uint64_t sim_ctx_park_result(void **save_sp, void *to_sp, const uint64_t *slot):
         * switches away as sim_ctx_switch does and, once resumed, returns *slot. Reached by a
         * tail jump from a warp intrinsic's fast path, which so keeps no frame (and saves no
         * registers) across the switch: its caller's return address is on the stack, and
         * the call below pairs with the switch's `ret` in the return predictor, as every
         * lane of a warp parks here. */
        ".globl sim_ctx_park_result\n"
        ".type sim_ctx_park_result,@function\n"
        "sim_ctx_park_result:\n"
        "  pushq %rdx\n"
        "  call .Lsim_ctx_switch\n"
        "  popq %rdx\n"
        "  movq (%rdx), %rax\n"
        "  ret\n"
        ".size sim_ctx_park_result, .-sim_ctx_park_result\n"
        ".globl sim_ctx_start\n.hidden sim_ctx_start\n"
        "sim_ctx_start:\n"
        "  movq %r12, %rdi\n"
        "  callq *%r13\n"
        "  ud2\n");
#define SIM_CTX_FRAME 7 /* r15 r14 r13 r12 rbx rbp ret */
#elif defined(__aarch64__)
__asm__(".text\n"
        ".globl sim_ctx_switch\n"
        ".type sim_ctx_switch,%function\n"
        "sim_ctx_switch:\n"
        ".Lsim_ctx_switch:\n" /* the park below calls it by a local label: no relocation to resolve */
        "  sub sp, sp, #160\n"
        "  stp x19, x20, [sp, #0]\n  stp x21, x22, [sp, #16]\n  stp x23, x24, [sp, #32]\n"
        "  stp x25, x26, [sp, #48]\n  stp x27, x28, [sp, #64]\n  stp x29, x30, [sp, #80]\n"
        "  stp d8, d9, [sp, #96]\n  stp d10, d11, [sp, #112]\n  stp d12, d13, [sp, #128]\n"
        "  stp d14, d15, [sp, #144]\n"
        "  mov x2, sp\n  str x2, [x0]\n  mov sp, x1\n"
        "  ldp x19, x20, [sp, #0]\n  ldp x21, x22, [sp, #16]\n  ldp x23, x24, [sp, #32]\n"
        "  ldp x25, x26, [sp, #48]\n  ldp x27, x28, [sp, #64]\n  ldp x29, x30, [sp, #80]\n"
        "  ldp d8, d9, [sp, #96]\n  ldp d10, d11, [sp, #112]\n  ldp d12, d13, [sp, #128]\n"
        "  ldp d14, d15, [sp, #144]\n"
        "  add sp, sp, #160\n"
        "  ret\n"
        ".size sim_ctx_switch, .-sim_ctx_switch\n"
        ".globl sim_ctx_park_result\n"
        ".type sim_ctx_park_result,%function\n"
        "sim_ctx_park_result:\n"
        "  stp x2, x30, [sp, #-16]!\n"
        "  bl .Lsim_ctx_switch\n"
        "  ldp x2, x30, [sp], #16\n"
        "  ldr x0, [x2]\n"
        "  ret\n"
        ".size sim_ctx_park_result, .-sim_ctx_park_result\n"
        ".globl sim_ctx_start\n.hidden sim_ctx_start\n"
        "sim_ctx_start:\n"
        "  mov x0, x19\n"
        "  blr x20\n"
        "  brk #0\n");
#else
#error "simtlab's fibers support x86-64 and aarch64"
#endif

extern char sim_ctx_start[];

void *sim_ctx_init(sim_stack *s, void (*fn)(void *), void *arg)
{
    uintptr_t top = ((uintptr_t)s->hi & ~(uintptr_t)15) - 16;
#if defined(__x86_64__)
    /* after `ret` pops sim_ctx_start, rsp = top (16-aligned) as a call needs */
    uintptr_t *sp = (uintptr_t *)(top - 8 * SIM_CTX_FRAME);
    memset(sp, 0, 8 * SIM_CTX_FRAME);
    sp[2] = (uintptr_t)fn;           /* r13 */
    sp[3] = (uintptr_t)arg;          /* r12 */
    sp[6] = (uintptr_t)sim_ctx_start;/* return address */
    return sp;
#else
    uintptr_t *sp = (uintptr_t *)(top - 160);
    memset(sp, 0, 160);
    sp[0] = (uintptr_t)arg;           /* x19 */
    sp[1] = (uintptr_t)fn;            /* x20 */
    sp[11] = (uintptr_t)sim_ctx_start;/* x30 */
    return sp;
#endif
}
