# DISTRUNTIME_ENABLE_FUZZER: everything compiled from here on (the dialect,
# the lowering, the tools) gets libFuzzer's coverage and ASan + UBSan; the
# distruntime-fuzz target adds libFuzzer's main. MLIR itself (libMLIR.so)
# stays uninstrumented. Any UBSan report aborts, so the fuzzer sees it.
# vptr is off: MLIR is built without RTTI.
include_guard(GLOBAL)

if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "DISTRUNTIME_ENABLE_FUZZER needs clang (CXX=clang++-22)")
endif()
set(_distrt_sanitizers -fsanitize=address,undefined -fno-sanitize=vptr
                       -fno-sanitize-recover=all)
add_compile_options(-fsanitize=fuzzer-no-link ${_distrt_sanitizers}
                    -fno-omit-frame-pointer -g)
add_link_options(${_distrt_sanitizers})
