# tests/run.cmake - `simtlab run` on the examples and on tests/run/*.cu
# (tests/scripts/run_case.cmake holds the checks): the examples' counters
# against their closed forms (examples/README.md), --lines naming the right
# lines, a kernel fault as the CUDA error a GPU gives, an unsupported feature
# as one message, bad options. Plus the rewriter's unit tests (test_rewrite.c).
foreach(case vector_add matmul wmma_gemm cublas_gemm transpose coalescing reduce histogram lines fault course anon warp_sync partial_warp complex half simd_video dpx launch_kernel explicit_spec nested_launch interblock_wait pitched3d assert cg cg_groups cg_bad cg_grid runtime_api
             no_globals warp_collectives device_heap heap_bad intrinsics trap host_speed unsupported usage
             builtin_names static_shared extern_shared
             internal_kernel headers c_file bad_config std_headers host_pass_error stack_limit kernel_args type_pun shared_overrun program_name kernel_lambda legacy_warp fast_math half_include lock_fault header_gaps static_symbols curand curand_host kernel_table struct_args macro_launch macro_kernel shared_init cublas_by_name constexpr_targ vector_align vector_fields vector_elision builtin_registers atomic_aggregate atomic_one_word global_race openmp_host cublas event_timing link_hint interrupt interrupt_host host_threads fnptr_launch host_call wmma wmma_layout wmma_fault_line address_space async_copy ptx_cp_async ptx_mma arch_single async_race atomic_race race_names cuda_barrier block_pipeline volatile_race runtime_names host_ub macro_names spin_lock ptx_restrict race_order static_init nvcc_compat timeout_turns static_local split_barrier runtime_flags timeout_barrier device_new graph_capture narrowing ptx_ldst graph_explicit race_fault)
  add_test(NAME run_${case}
           COMMAND ${CMAKE_COMMAND} -DRUN=$<TARGET_FILE:simtlab-run> -DSRC=${PROJECT_SOURCE_DIR}
                   -DWORK=${CMAKE_CURRENT_BINARY_DIR}/run_${case} -DCASE=${case}
                   -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/run_case.cmake)
  set_tests_properties(run_${case} PROPERTIES TIMEOUT 300 LABELS run ENVIRONMENT "OMP_WAIT_POLICY=passive")
endforeach()

# cuRAND: the toolkit's own curand_kernel.h, compiled by nvcc for the host, against the simulator's
if(CMAKE_CUDA_COMPILER OR EXISTS /usr/local/cuda/bin/nvcc)
  if(CMAKE_CUDA_COMPILER)
    set(curand_nvcc ${CMAKE_CUDA_COMPILER})
  else()
    set(curand_nvcc /usr/local/cuda/bin/nvcc)
  endif()
  add_test(NAME run_curand_reference
           COMMAND ${CMAKE_COMMAND} -DRUN=$<TARGET_FILE:simtlab-run> -DSRC=${PROJECT_SOURCE_DIR} -DNVCC=${curand_nvcc}
                   -DWORK=${CMAKE_CURRENT_BINARY_DIR}/run_curand_reference -DCASE=curand_reference
                   -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/run_case.cmake)
  set_tests_properties(run_curand_reference PROPERTIES TIMEOUT 400 LABELS run ENVIRONMENT "OMP_WAIT_POLICY=passive")
endif()

# the L2 model against the H200's DRAM bytes on the softmax probe (issue 15; dram_parity_probe.cmake)
add_test(NAME dram_parity_probe
         COMMAND ${CMAKE_COMMAND} -DRUN=$<TARGET_FILE:simtlab-run> -DSRC=${PROJECT_SOURCE_DIR}
                 -DWORK=${CMAKE_CURRENT_BINARY_DIR}/dram_parity_probe -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/dram_parity_probe.cmake)
set_tests_properties(dram_parity_probe PROPERTIES TIMEOUT 300 LABELS run ENVIRONMENT "OMP_WAIT_POLICY=passive")

add_executable(test_rewrite test_rewrite.c)
target_include_directories(test_rewrite PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${CRITERION_INCLUDE_DIR})
target_compile_options(test_rewrite PRIVATE ${SIMTLAB_WARNINGS})
target_link_libraries(test_rewrite PRIVATE simtlab_rewrite ${CRITERION_LIBRARY})
add_test(NAME rewrite COMMAND test_rewrite)

# --mode compare's pairing of launches (sim/run/run_cuda.c, included by the test)
add_executable(test_compare test_compare.c ${PROJECT_SOURCE_DIR}/sim/run/proc.c)
target_include_directories(test_compare PRIVATE ${PROJECT_SOURCE_DIR}/sim/run ${CRITERION_INCLUDE_DIR})
target_compile_options(test_compare PRIVATE ${SIMTLAB_WARNINGS})
target_link_libraries(test_compare PRIVATE lesson_json ${CRITERION_LIBRARY})
add_test(NAME compare COMMAND test_compare)
