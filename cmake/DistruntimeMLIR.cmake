# MLIR/LLVM setup for the compiler parts (dialect, lowering, tools).
# Everything links against the shared libMLIR.so / libLLVM.so, so that a
# plugin loaded into stock mlir-opt-22 shares one MLIR with it.

list(APPEND CMAKE_MODULE_PATH "${MLIR_CMAKE_DIR}" "${LLVM_CMAKE_DIR}")
set(LLVM_RUNTIME_OUTPUT_INTDIR ${CMAKE_BINARY_DIR}/bin)
set(LLVM_LIBRARY_OUTPUT_INTDIR ${CMAKE_BINARY_DIR}/lib)
set(MLIR_BINARY_DIR ${CMAKE_BINARY_DIR})
include(TableGen)
include(AddLLVM)
include(AddMLIR)

include_directories(SYSTEM ${LLVM_INCLUDE_DIRS} ${MLIR_INCLUDE_DIRS})
include_directories(${DISTRUNTIME_SOURCE_DIR}/include
                    ${DISTRUNTIME_BINARY_DIR}/include)
separate_arguments(_llvm_defs UNIX_COMMAND "${LLVM_DEFINITIONS}")
add_definitions(${_llvm_defs})

set(MLIR_TOOLS_DIR /usr/lib/llvm-22/bin)

# distruntime_add_library(<name> <sources>... [DEPENDS <targets>...]
#                         [LINK_LIBS <libs>...])
# A position-independent static library of compiler code, linked into both
# distruntime-opt and the mlir-opt plugin, on top of libMLIR.so.
function(distruntime_add_library name)
  cmake_parse_arguments(ARG "" "" "DEPENDS;LINK_LIBS" ${ARGN})
  add_library(${name} STATIC ${ARG_UNPARSED_ARGUMENTS})
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  if(ARG_DEPENDS)
    add_dependencies(${name} ${ARG_DEPENDS})
  endif()
  target_link_libraries(${name} PUBLIC ${ARG_LINK_LIBS} MLIR LLVM)
endfunction()

# lit and FileCheck come with llvm-22-tools.
find_program(LLVM_EXTERNAL_LIT NAMES lit lit.py llvm-lit
             HINTS ${LLVM_TOOLS_BINARY_DIR} REQUIRED)
