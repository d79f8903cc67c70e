# plots/render.cmake - runs the sweeps on the simulator and renders every plot.
#
#   cmake -DLESSON=build/lesson -DOUT=plots/out -P plots/render.cmake
#
# is what `cmake --build build --target plots` (and ./simtlab plots) runs. It
# writes one CSV per sweep into OUT (each written to .tmp and renamed by the
# lesson), then, with gnuplot, OUT/<plot>.png (pngcairo) and OUT/<plot>.svg:
#   hbm_vs_n     (1) HBM bytes vs N, standard / v1 / v2, log-log   attn_n.csv
#   hbm_vs_sram  (2) HBM bytes vs SRAM size M at N = 1024, d = 64   attn_sram.csv
#   tensors      (3) per-tensor bytes, stacked, N = 1024, d = 64    attn_tensors.csv
#   sim_vs_gpu   (4) sim sectors vs GPU L1 sectors and DRAM bytes   GPU_CSV, else attn_detail.csv
#   softmax      (5) softmax accesses per element vs C              softmax.csv
#   model_vs_h200 (6) predicted DRAM bytes and times vs the H200's,  docs/gpu/l2-parity-{all,none}.csv
#                 one point per lesson kernel (committed GPU results; no sweep)
#   backward_vs_n    (7) lesson 7: backward HBM bytes vs N               bwd_n.csv
#   backward_vs_sram (8) lesson 7: backward HBM bytes vs M, N = 1024     bwd_sram.csv
# Without gnuplot it writes the CSVs, says how to install gnuplot, and succeeds.
#
# Variables: LESSON, OUT (required); SRC (this folder; default: the script's);
# GNUPLOT (default: found on PATH); GPU_CSV (a --mode compare CSV from a GPU
# machine; used for plot 4 when it exists); QUICK=ON (tiny sweeps, for tests);
# FORMATS (default "png;svg"). Fails (non-zero) if a lesson or gnuplot fails
# or a plot file is missing or empty.
cmake_minimum_required(VERSION 3.20)
foreach(v LESSON OUT)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "render.cmake needs -D${v}=...: cmake -DLESSON=build/lesson -DOUT=plots/out -P plots/render.cmake")
  endif()
endforeach()
if(NOT SRC)
  get_filename_component(SRC "${CMAKE_CURRENT_LIST_FILE}" DIRECTORY)
endif()
if(NOT FORMATS)
  set(FORMATS png svg)
endif()
file(MAKE_DIRECTORY "${OUT}")

# the sweeps: name, then the lesson's arguments (sizes chosen to finish in
# about a minute on two cores; QUICK: seconds)
if(QUICK)
  set(sweep_attn_n 4 --heads 1 --d 16 --version all --sweep n=32:128:x2)
  set(sweep_attn_sram 4 --heads 1 --n 128 --d 16 --version all --sweep sram=4k,8k,16k)
  set(sweep_attn_tensors 4 --heads 1 --n 64 --d 16 --version all)
  set(sweep_attn_detail 4 --heads 1 --d 16 --detail --version all --sweep n=32:64:x2)
  set(sweep_softmax 3 --rows 4 --sweep cols=64:256:x2)
  set(sweep_bwd_n 7 --heads 1 --d 16 --version all --sweep n=32:128:x2)
  set(sweep_bwd_sram 7 --heads 1 --n 128 --d 16 --version all --sweep sram=4k,8k,16k)
else()
  set(sweep_attn_n 4 --heads 1 --d 64 --sram 48k --version all --sweep n=128:2048:x2)
  set(sweep_attn_sram 4 --heads 1 --n 1024 --d 64 --version all --sweep sram=16k,24k,32k,48k,64k,96k,128k,192k)
  set(sweep_attn_tensors 4 --heads 1 --n 1024 --d 64 --sram 48k --version all)
  set(sweep_attn_detail 4 --heads 1 --d 64 --detail --version all --sweep n=128:1024:x2)
  set(sweep_softmax 3 --rows 64 --sweep cols=256:16384:x2)
  set(sweep_bwd_n 7 --heads 1 --d 64 --sram 48k --version all --sweep n=128:2048:x2)
  # 96k is the largest M whose Algorithm 4 tiles fit the 227 KB opt-in at d = 64
  set(sweep_bwd_sram 7 --heads 1 --n 1024 --d 64 --version all --sweep sram=16k,24k,32k,48k,64k,96k)
endif()
set(gpu_csv_used OFF)
if(GPU_CSV AND EXISTS "${GPU_CSV}")
  set(gpu_csv_used ON)
endif()
set(sweeps attn_n attn_sram attn_tensors softmax bwd_n bwd_sram)
if(NOT gpu_csv_used)
  list(APPEND sweeps attn_detail)
endif()
foreach(s ${sweeps})
  set(args ${sweep_${s}} --csv "${OUT}/${s}.csv")
  list(JOIN args " " shown)
  message(STATUS "plots: lesson ${shown}")
  # the lesson's report goes to OUT/<sweep>.log; its progress lines to the terminal
  execute_process(COMMAND "${LESSON}" ${args} OUTPUT_FILE "${OUT}/${s}.log" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "plots: `lesson ${shown}` exited with ${rc}; its report is in ${OUT}/${s}.log")
  endif()
endforeach()

set(csv_hbm_vs_n "${OUT}/attn_n.csv")
set(csv_hbm_vs_sram "${OUT}/attn_sram.csv")
set(csv_tensors "${OUT}/attn_tensors.csv")
set(csv_softmax "${OUT}/softmax.csv")
set(csv_backward_vs_n "${OUT}/bwd_n.csv")
set(csv_backward_vs_sram "${OUT}/bwd_sram.csv")
if(gpu_csv_used)
  set(csv_sim_vs_gpu "${GPU_CSV}")
  message(STATUS "plots: plot 4 (sim_vs_gpu) from the GPU CSV ${GPU_CSV}")
else()
  set(csv_sim_vs_gpu "${OUT}/attn_detail.csv")
  if(NOT GPU_CSV)
    set(GPU_CSV "(none given: -DGPU_CSV=PATH)")
  endif()
  message(STATUS "plots: plot 4 (sim_vs_gpu) has simulator rows only: no GPU CSV at ${GPU_CSV}; "
                 "docs/plots/README.md says how to make one on a GPU machine")
endif()

if(NOT GNUPLOT)
  find_program(GNUPLOT gnuplot)
endif()
if(NOT GNUPLOT)
  message(STATUS "gnuplot not found: apt-get install gnuplot-nox (then build the plots target again). "
                 "The CSVs are in ${OUT}.")
  return()
endif()

set(csv_model_vs_h200 "${SRC}/../docs/gpu/l2-parity-none.csv")
set(csv2_model_vs_h200 "${SRC}/../docs/gpu/l2-parity-all.csv")
set(csv3_model_vs_h200 "${SRC}/../docs/gpu/timemodel-val-all.csv")
set(plots hbm_vs_n hbm_vs_sram tensors sim_vs_gpu softmax model_vs_h200 backward_vs_n backward_vs_sram)
set(made)
foreach(p ${plots})
  foreach(fmt ${FORMATS})
    set(file "${OUT}/${p}.${fmt}")
    file(REMOVE "${file}")
    execute_process(COMMAND "${GNUPLOT}" -e "dir='${SRC}'; csv='${csv_${p}}'; csv2='${csv2_${p}}'; csv3='${csv3_${p}}'; out='${OUT}/${p}'; fmt='${fmt}'"
                            "${SRC}/${p}.gp"
                    RESULT_VARIABLE rc ERROR_VARIABLE err)
    if(EXISTS "${file}")
      file(SIZE "${file}" size)
    else()
      set(size 0)
    endif()
    if(NOT rc EQUAL 0 OR size EQUAL 0)
      message(FATAL_ERROR "plots: gnuplot ${SRC}/${p}.gp (${fmt}) failed (exit ${rc}, ${file}: ${size} bytes):\n${err}")
    endif()
    list(APPEND made "${p}.${fmt}")
  endforeach()
endforeach()
list(JOIN made " " made)
message(STATUS "plots: wrote ${made} in ${OUT}")
