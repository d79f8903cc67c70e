/* sim/tls.c - the simulator's own thread-locals, in an object of their own.
 *
 * The executable's TLS block is also the static __shared__ window (launch.c tls_window): every
 * __shared__ variable of every kernel lives there, for the blocks its worker runs. The window
 * starts past these variables, so that an index before a __shared__ array's start is reported
 * and never overwrites the worker pointer (a hang before: test run_shared_overrun). They are in
 * .tdata, which comes before .tbss (where __shared__ variables without an initializer go); and
 * `simtlab run` links this object before the program's (sim/run/run.c link), so that they also
 * come before the program's own .tdata: a __shared__ object whose type has a constant,
 * non-zero initializer (`__shared__ dim3 d;`, a struct with `float m = -1;`) lands there, and
 * was outside the window, every access to it reported as invalid (test run_shared_init). */
#include "internal.h"

#define SIM_OWN_TLS __attribute__((section(".tdata")))
SIM_OWN_TLS _Thread_local sim_worker *sim_tls_worker;
SIM_OWN_TLS _Thread_local sim_worker *sim_tls_fast = &sim_idle_worker;
SIM_OWN_TLS _Thread_local sim_worker *sim_tls_my_worker; /* worker_get's */
SIM_OWN_TLS _Thread_local unsigned sim_tls_stacks_made;  /* stack_take's colouring */
