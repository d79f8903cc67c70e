# tests/inline_as_reloads.cmake - simtlab-as's second job (sim/inline_as.c, elide): in straight-line
# code, a stack slot's reload after hook calls, when the slot was stored from a register that
# nothing wrote since, becomes a register operation, and each hook call in between reloads the
# register on its slow path. Made-up functions, one case each: c1 and c2 elided, c3 to c14 not
# (something the analysis must not look past), c15 registers 16-31, c16 one register stored at
# two widths (helper-57's case), c17 bare instructions; then the result assembles.
#   cmake -DAS=<build>/toolchain/as -DOBJDUMP=objdump -DWORK=dir -P inline_as_reloads.cmake
file(MAKE_DIRECTORY ${WORK})
string(ASCII 9 t)
set(S "${t}vmovss${t}%xmm0, 12(%rsp)\n${t}movq${t}%rbx, %rdi\n${t}call${t}__tsan_read4@PLT\n")
set(R "${t}vmovss${t}12(%rsp), %xmm0\n${t}ret\n")
set(src "${t}.file 1 \"x.c\"\n${t}.text\n")
# c1: the dot product of flash v1 as gcc writes it, with gcc's debugging lines in between
string(APPEND src "c1:\n${S}.LVL5:\n${t}.loc 1 2 3\n${t}.p2align 4\n${t}vmovss${t}-4(%rbx), %xmm1\n"
       "${t}vmovss${t}%xmm1, (%rsp)\n${t}movl${t}%eax, 100(%rsp)\n${t}cmpq${t}%rbp, 568(%rsp)\n${t}movq${t}%r12, %rdi\n"
       "${t}call${t}__tsan_read4@PLT\n${t}vmovss${t}(%rsp), %xmm1\n${t}vmovss${t}12(%rsp), %xmm0\n"
       "${t}vfmadd231ss${t}(%r12), %xmm1, %xmm0\n${t}ret\n")
# c2: into another register; 16, 32 and 8 bytes
string(APPEND src "c2:\n${t}vmovss${t}%xmm2, 16(%rsp)\n${t}vmovaps${t}%xmm4, 32(%rsp)\n${t}vmovups${t}%ymm6, 64(%rsp)\n"
       "${t}vmovsd${t}%xmm7, 8(%rsp)\n${t}call${t}__tsan_write16\n${t}vmovss${t}16(%rsp), %xmm5\n"
       "${t}vmovaps${t}32(%rsp), %xmm4\n${t}vmovups${t}64(%rsp), %ymm6\n${t}vmovsd${t}8(%rsp), %xmm9\n${t}ret\n")
set(between
    ".L7:\n"                                       # c3: a label a jump may reach
    "${t}vmovss${t}%xmm2, (%rax)\n"                # c4: a store the slot may be
    "${t}vaddss${t}%xmm3, %xmm3, %xmm0\n"          # c5: the register written
    "${t}call${t}expf@PLT\n"                       # c6: another call
    "#APP\n${t}nop\n#NO_APP\n"                     # c7: inline assembly
    "${t}movb${t}%al, 13(%rsp)\n"                  # c8: a store into the slot
    "${t}subq${t}$16, %rsp\n"                      # c9: %rsp moved
    "${t}vgatherdps${t}%xmm2, (%rax,%xmm1,4), %xmm5\n" # c10: an instruction that writes more than its last operand
    "${t}jne${t}.L8\n"                             # c11: a jump
    "${t}vmovq${t}%rax, %xmm0\n"                   # c12: the register written, from a general one
    "${t}vmovss${t}%xmm1, 12(%rsp)\n"              # c13: the slot written from another register
    "${t}encodekey128${t}%eax, %ebx\n")            # c14: writes xmm0-2, its operands general registers
set(i 3)
foreach(b ${between})
  string(APPEND src "c${i}:\n${S}${b}${R}")
  math(EXPR i "${i} + 1")
endforeach()
string(APPEND src "c15:\n${t}vmovss${t}%xmm17, 12(%rsp)\n${t}call${t}__tsan_read4\n${t}vmovss${t}12(%rsp), %xmm17\n${t}ret\n")
# c16: one register in two slots of two widths: only the last store's slot is its own
string(APPEND src "c16:\n${t}vmovaps${t}%xmm1, 16(%rsp)\n${t}vmovss${t}%xmm1, 8(%rsp)\n${t}call${t}__tsan_read4\n"
       "${t}vmovss${t}8(%rsp), %xmm1\n${t}vmovaps${t}16(%rsp), %xmm0\n${t}ret\n")
# c17: instructions without operands that leave it alone (vzeroupper keeps bits 0-127)
string(APPEND src "c17:\n${S}${t}cltq\n${t}vzeroupper\n${R}")
string(APPEND src ".L8:\n${t}ret\n")
file(WRITE ${WORK}/reloads.s "${src}")
execute_process(COMMAND ${AS} --simtlab-print ${WORK}/reloads.s OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "simtlab-as --simtlab-print failed (${rc})")
endif()
# one function's text
function(body n var)
  math(EXPR next "${n} + 1")
  string(FIND "${out}" "\nc${n}:\n" a)
  string(FIND "${out}" "\nc${next}:\n" b)
  if(b EQUAL -1)
    string(FIND "${out}" "\n.L8:\n" b)
  endif()
  math(EXPR len "${b} - ${a} + 1")
  string(SUBSTRING "${out}" ${a} ${len} text)
  set(${var} "${text}" PARENT_SCOPE)
endfunction()
function(expect n what)
  body(${n} text)
  foreach(w ${ARGN})
    string(FIND "${text}" "${w}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "c${n} (${what}): no \"${w}\" in\n${text}")
    endif()
  endforeach()
endfunction()
set(slow "call${t}*%rcx\n")
set(done "${t}jmp${t}.Lsimtlab_done")
expect(1 "elided" "${t}vinsertps${t}$14, %xmm1, %xmm1, %xmm1\n${t}vinsertps${t}$14, %xmm0, %xmm0, %xmm0\n${t}vfmadd231ss"
       "${slow}${t}vmovss${t}12(%rsp), %xmm0\n${done}0\n"
       "${slow}${t}vmovss${t}0(%rsp), %xmm1\n${t}vmovss${t}12(%rsp), %xmm0\n${done}1\n")
expect(2 "other registers, widths" "${t}vinsertps${t}$14, %xmm2, %xmm2, %xmm5\n" "${t}vmovaps${t}%xmm4, %xmm4\n"
       "${t}vmovaps${t}%ymm6, %ymm6\n" "${t}vmovq${t}%xmm7, %xmm9\n"
       "${slow}${t}vmovss${t}16(%rsp), %xmm2\n${t}vmovups${t}32(%rsp), %xmm4\n${t}vmovups${t}64(%rsp), %ymm6\n${t}vmovsd${t}8(%rsp), %xmm7\n${done}")
expect(15 "registers 16-31" "${t}vinsertps${t}$14, %xmm17, %xmm17, %xmm17\n" "${slow}${t}vmovss${t}12(%rsp), %xmm17\n${done}")
expect(16 "two widths" "${t}vinsertps${t}$14, %xmm1, %xmm1, %xmm1\n${t}vmovaps${t}16(%rsp), %xmm0\n"
       "${slow}${t}vmovss${t}8(%rsp), %xmm1\n${done}")
expect(17 "bare instructions" "${t}vzeroupper\n${t}vinsertps${t}$14, %xmm0, %xmm0, %xmm0\n"
       "${slow}${t}vmovss${t}12(%rsp), %xmm0\n${done}")
foreach(n RANGE 3 14)
  body(${n} text)
  string(REGEX MATCH "vinsertps|vmovaps${t}%|call${t}\\*%rcx\n${t}vmov" bad "${text}")
  string(FIND "${text}" "${R}" kept)
  if(bad OR kept EQUAL -1)
    message(FATAL_ERROR "c${n}: the reload after the call was changed, or a slow path reloads:\n${text}")
  endif()
endforeach()
execute_process(COMMAND ${AS} --64 -o ${WORK}/reloads.o ${WORK}/reloads.s RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the rewritten text does not assemble (${rc}): ${err}")
endif()
execute_process(COMMAND ${OBJDUMP} -d ${WORK}/reloads.o OUTPUT_VARIABLE dis)
string(REGEX MATCHALL "vinsertps" v "${dis}")
list(LENGTH v nv)
if(NOT nv EQUAL 6)
  message(FATAL_ERROR "${nv} vinsertps in the object, expected 6:\n${dis}")
endif()
# Intel syntax: nothing elided
string(REPLACE "${t}.text\n" "${t}.intel_syntax noprefix\n${t}.att_syntax\n${t}.text\n" isrc "${src}")
file(WRITE ${WORK}/reloads-intel.s "${isrc}")
execute_process(COMMAND ${AS} --simtlab-print ${WORK}/reloads-intel.s OUTPUT_VARIABLE iout)
string(FIND "${iout}" "vinsertps" at)
if(NOT at EQUAL -1)
  message(FATAL_ERROR "a unit with .intel_syntax was given register forms:\n${iout}")
endif()
message(STATUS "simtlab-as: reloads elided in c1, c2, c15-c17 and kept in c3-c14")
