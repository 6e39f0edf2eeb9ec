# MLIR/LLVM setup for the compiler parts (dialect, lowering, tools).
# Everything links against the shared libMLIR.so / libLLVM.so, so that a
# plugin loaded into stock mlir-opt shares one MLIR with it.

list(APPEND CMAKE_MODULE_PATH "${MLIR_CMAKE_DIR}" "${LLVM_CMAKE_DIR}")
set(LLVM_RUNTIME_OUTPUT_INTDIR ${CMAKE_BINARY_DIR}/bin)
set(LLVM_LIBRARY_OUTPUT_INTDIR ${CMAKE_BINARY_DIR}/lib)
set(MLIR_BINARY_DIR ${CMAKE_BINARY_DIR})
include(TableGen)
include(AddLLVM)
include(AddMLIR)

# mlir_target_link_libraries then links libMLIR.so instead of the static
# MLIR libraries it is given.
set(MLIR_LINK_MLIR_DYLIB ON)
# The static libraries end up in the plugin, a shared object.
set(CMAKE_POSITION_INDEPENDENT_CODE ON)

include_directories(SYSTEM ${LLVM_INCLUDE_DIRS} ${MLIR_INCLUDE_DIRS})
include_directories(${DISTRUNTIME_SOURCE_DIR}/include
                    ${DISTRUNTIME_BINARY_DIR}/include)
separate_arguments(_llvm_defs UNIX_COMMAND "${LLVM_DEFINITIONS}")
add_definitions(${_llvm_defs})

# lit and FileCheck come with the LLVM tools.
find_program(LLVM_EXTERNAL_LIT NAMES lit lit.py llvm-lit
             HINTS ${LLVM_TOOLS_BINARY_DIR} REQUIRED)
