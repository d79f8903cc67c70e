/* sim/tls_dev_end.c - the end of the program's instrumented thread-locals.
 *
 * `simtlab run` links this object right after the program's instrumented objects (the device
 * passes: sim/run/run.c link_prog) and before its host passes and the libraries. Its one
 * thread-local then follows every __shared__ variable a kernel can use, in the executable's TLS
 * block, and the static __shared__ window (launch.c tls_window) ends there: a write one element
 * past the last __shared__ array is reported, as compute-sanitizer reports a write past a block's
 * shared memory, rather than landing in the host pass's unused copies of the same variables or in
 * the runtime's own thread-locals (test run_shared_overrun). Programs built without it (the
 * lessons) keep the window to the block's end. */
_Thread_local char simtlab_tls_dev_end;

char *simtlab_tls_dev_end_addr(void);
char *simtlab_tls_dev_end_addr(void) { return &simtlab_tls_dev_end; }
