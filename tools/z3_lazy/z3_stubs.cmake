# Writes the stubs through which the eqsat command calls Z3 (tools/z3_lazy/loader.cpp
# says why and how): for every function libz3 exports, a symbol of the same name that
# jumps through a table whose entries start at a loader and are then the functions
# themselves. Plain jumps, so no function's signature is needed (the System V x86-64
# calling convention; the loader keeps the argument registers).
#
#   eqsat_write_z3_stubs(LIBRARY OUTPUT SONAME_VARIABLE)
#
# LIBRARY: the libz3 found at configure time; OUTPUT: the assembly file to write;
# SONAME_VARIABLE: set to the library's SONAME, which the loader asks dlopen for.
function(eqsat_write_z3_stubs library output soname_variable)
  get_filename_component(real ${library} REALPATH)
  execute_process(COMMAND ${CMAKE_NM} -D --defined-only ${real} OUTPUT_VARIABLE exports RESULT_VARIABLE nm_status)
  execute_process(COMMAND ${CMAKE_OBJDUMP} -p ${real} OUTPUT_VARIABLE headers RESULT_VARIABLE objdump_status)
  if(NOT nm_status EQUAL 0 OR NOT objdump_status EQUAL 0)
    message(FATAL_ERROR "cannot read the exports of ${real} with nm and objdump: configure with -DEQSAT_LAZY_Z3=OFF")
  endif()
  string(REGEX MATCH "SONAME +([^\n ]+)" ignored "${headers}")
  if(NOT CMAKE_MATCH_1)
    message(FATAL_ERROR "${real} has no SONAME: configure with -DEQSAT_LAZY_Z3=OFF")
  endif()
  set(${soname_variable} ${CMAKE_MATCH_1} PARENT_SCOPE)
  string(REGEX MATCHALL " T Z3_[A-Za-z0-9_]+" functions "${exports}")
  list(TRANSFORM functions REPLACE " T " "")
  list(REMOVE_DUPLICATES functions)
  list(SORT functions)
  list(LENGTH functions count)
  if(count EQUAL 0)
    message(FATAL_ERROR "${real} exports no Z3_ function: configure with -DEQSAT_LAZY_Z3=OFF")
  endif()

  set(slots "")
  set(names "")
  set(stubs "")
  set(index 0)
  foreach(function IN LISTS functions)
    string(APPEND slots "  .quad eqsat_z3_first_call_${index}\n")
    string(APPEND names "  .asciz \"${function}\"\n")
    string(APPEND stubs
      "  .globl ${function}\n  .hidden ${function}\n  .type ${function}, @function\n${function}:\n"
      "  jmp *eqsat_z3_slots+${index}*8(%rip)\n  .size ${function}, .-${function}\n"
      "eqsat_z3_first_call_${index}:\n  movl $${index}, %r11d\n  jmp eqsat_z3_first_call\n")
    math(EXPR index "${index} + 1")
  endforeach()

  file(WRITE ${output}.new
"# Written by tools/z3_lazy/z3_stubs.cmake from ${real}: do not edit.
  .section .note.GNU-stack,\"\",@progbits

  .data
  .p2align 3
  .globl eqsat_z3_slots
  .hidden eqsat_z3_slots
eqsat_z3_slots:
${slots}
  .section .rodata
  .globl eqsat_z3_count
  .hidden eqsat_z3_count
  .p2align 2
eqsat_z3_count:
  .long ${count}
  .globl eqsat_z3_names
  .hidden eqsat_z3_names
eqsat_z3_names:
${names}
  .text
${stubs}
# The first call of any function: index in r11. Keeps the argument registers (the six
# integer ones, rax for variadic calls, xmm0-7), asks the loader for the function
# (which fills the whole table), and jumps to it as if called directly.
  .p2align 4
  .type eqsat_z3_first_call, @function
eqsat_z3_first_call:
  pushq %rbp
  movq %rsp, %rbp
  subq $192, %rsp
  movq %rdi, 0(%rsp)
  movq %rsi, 8(%rsp)
  movq %rdx, 16(%rsp)
  movq %rcx, 24(%rsp)
  movq %r8, 32(%rsp)
  movq %r9, 40(%rsp)
  movq %rax, 48(%rsp)
  movdqu %xmm0, 64(%rsp)
  movdqu %xmm1, 80(%rsp)
  movdqu %xmm2, 96(%rsp)
  movdqu %xmm3, 112(%rsp)
  movdqu %xmm4, 128(%rsp)
  movdqu %xmm5, 144(%rsp)
  movdqu %xmm6, 160(%rsp)
  movdqu %xmm7, 176(%rsp)
  movl %r11d, %edi
  call eqsat_z3_resolve
  movq %rax, %r11
  movq 0(%rsp), %rdi
  movq 8(%rsp), %rsi
  movq 16(%rsp), %rdx
  movq 24(%rsp), %rcx
  movq 32(%rsp), %r8
  movq 40(%rsp), %r9
  movq 48(%rsp), %rax
  movdqu 64(%rsp), %xmm0
  movdqu 80(%rsp), %xmm1
  movdqu 96(%rsp), %xmm2
  movdqu 112(%rsp), %xmm3
  movdqu 128(%rsp), %xmm4
  movdqu 144(%rsp), %xmm5
  movdqu 160(%rsp), %xmm6
  movdqu 176(%rsp), %xmm7
  leave
  jmp *%r11
  .size eqsat_z3_first_call, .-eqsat_z3_first_call
")
  # Rewritten only when it changes, so that a reconfigure does not rebuild eqsat.
  file(COPY_FILE ${output}.new ${output} ONLY_IF_DIFFERENT)
  file(REMOVE ${output}.new)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${real})
endfunction()
