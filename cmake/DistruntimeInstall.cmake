# `cmake --install <build> --prefix P`: headers (the generated .h.inc too),
# libdistrt, the dialect/lowering libraries, the plugin, distruntime-opt, the
# .td files, scripts/compile.sh (as P/bin/distruntime-compile and
# P/share/distruntime/compile.sh), a CMake package (DistRuntimeConfig.cmake,
# targets DistRuntime::distrt, DistRuntime::Dialect, DistRuntime::Pipelines,
# ...) and distrt.pc for pkg-config. Included at the end of the top-level
# CMakeLists, after every target exists.
#
#   P/include/distruntime/...          headers, .td, .def, generated .h.inc
#   P/lib/libdistrt.so, libDistRuntime*.a, DistRuntimePlugin.so
#   P/lib/cmake/DistRuntime/           the CMake package
#   P/lib/pkgconfig/distrt.pc
#   P/bin/distruntime-opt, distruntime-compile
#   P/share/distruntime/compile.sh
#
# The package's components: Runtime (DistRuntime::distrt, needs MPI) and
# Compiler (the MLIR libraries, the plugin, distruntime-opt; needs MLIR 22).
# find_package(DistRuntime) without components loads every installed one.
include_guard(GLOBAL)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(DISTRUNTIME_INSTALL_CMAKEDIR
    ${CMAKE_INSTALL_LIBDIR}/cmake/DistRuntime
    CACHE STRING "Where the CMake package (DistRuntimeConfig.cmake) goes")
mark_as_advanced(DISTRUNTIME_INSTALL_CMAKEDIR)

set(_distrt_components "")

# --- Runtime: libdistrt and its C/C++ headers --------------------------------
if(DISTRUNTIME_BUILD_RUNTIME)
  list(APPEND _distrt_components Runtime)
  set_target_properties(distrt PROPERTIES EXPORT_NAME distrt)
  add_library(DistRuntime::distrt ALIAS distrt)
  target_include_directories(
    distrt PUBLIC $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  install(
    TARGETS distrt
    EXPORT DistRuntimeRuntimeTargets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT Runtime
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT Runtime
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT Runtime)
  install(
    FILES ${DISTRUNTIME_SOURCE_DIR}/include/distruntime/Runtime/distrt.h
          ${DISTRUNTIME_SOURCE_DIR}/include/distruntime/Runtime/distrt.hpp
          ${DISTRUNTIME_SOURCE_DIR}/include/distruntime/Runtime/distrt_mpi.h
          ${DISTRUNTIME_SOURCE_DIR}/include/distruntime/Runtime/RuntimeFunctions.def
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/distruntime/Runtime
    COMPONENT Runtime)
  install(
    EXPORT DistRuntimeRuntimeTargets
    NAMESPACE DistRuntime::
    DESTINATION ${DISTRUNTIME_INSTALL_CMAKEDIR}
    COMPONENT Runtime)

  # pkg-config: the MPI the build found, as a Requires on that
  # implementation's own .pc file when there is one (Open MPI: ompi-cxx,
  # MPICH: mpich), else as flags.
  set(_distrt_pc_requires "")
  set(_distrt_pc_mpi_cflags "")
  set(_distrt_pc_mpi_libs "")
  set(_distrt_mpi_pc "")
  # DISTRUNTIME_MPI (cmake/DistruntimeMPI.cmake) names it; else the paths.
  if(DISTRUNTIME_MPI STREQUAL "openmpi"
     OR (NOT DISTRUNTIME_MPI AND MPI_CXX_LIBRARIES MATCHES "openmpi|libmpi_cxx"))
    set(_distrt_mpi_pc ompi-cxx)
  elseif(DISTRUNTIME_MPI STREQUAL "mpich"
         OR (NOT DISTRUNTIME_MPI AND MPI_CXX_LIBRARIES MATCHES "mpich"))
    set(_distrt_mpi_pc mpich)
  endif()
  find_package(PkgConfig QUIET)
  if(_distrt_mpi_pc AND PKG_CONFIG_FOUND)
    execute_process(COMMAND ${PKG_CONFIG_EXECUTABLE} --exists ${_distrt_mpi_pc}
                    RESULT_VARIABLE _distrt_pc_result)
    if(NOT _distrt_pc_result EQUAL 0)
      set(_distrt_mpi_pc "")
    endif()
  else()
    set(_distrt_mpi_pc "")
  endif()
  if(_distrt_mpi_pc)
    set(_distrt_pc_requires "Requires: ${_distrt_mpi_pc}")
  else()
    foreach(dir IN LISTS MPI_CXX_INCLUDE_DIRS)
      string(APPEND _distrt_pc_mpi_cflags " -I${dir}")
    endforeach()
    foreach(def IN LISTS MPI_CXX_COMPILE_DEFINITIONS)
      string(APPEND _distrt_pc_mpi_cflags " -D${def}")
    endforeach()
    foreach(lib IN LISTS MPI_CXX_LIBRARIES)
      string(APPEND _distrt_pc_mpi_libs " ${lib}")
    endforeach()
  endif()
  # prefix=${pcfiledir}/.. per component of <libdir>/pkgconfig: relocatable.
  set(_distrt_pc_up "")
  if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
    message(FATAL_ERROR "distrt.pc wants a relative CMAKE_INSTALL_LIBDIR")
  endif()
  string(REPLACE "/" ";" _distrt_parts "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
  foreach(_part IN LISTS _distrt_parts)
    string(APPEND _distrt_pc_up "/..")
  endforeach()
  configure_file(${DISTRUNTIME_SOURCE_DIR}/cmake/distrt.pc.in
                 ${DISTRUNTIME_BINARY_DIR}/distrt.pc @ONLY)
  install(FILES ${DISTRUNTIME_BINARY_DIR}/distrt.pc
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT Runtime)
endif()

# --- Compiler: the MLIR libraries, the plugin, distruntime-opt ---------------
if(DISTRUNTIME_BUILD_COMPILER)
  list(APPEND _distrt_components Compiler)
  # target -> exported name (DistRuntime::<name>)
  set(_distrt_compiler_libs
      DistRuntimeDialect:Dialect
      DistRuntimeAnalysis:Analysis
      DistRuntimeTransforms:Transforms
      DistRuntimeRuntimeAPI:RuntimeAPI
      DistRuntimeToRuntime:ToRuntime
      DistRuntimeShardToDistRuntime:ShardToDistRuntime
      DistRuntimePipelines:Pipelines)
  set(_distrt_compiler_targets "")
  foreach(pair IN LISTS _distrt_compiler_libs)
    string(REPLACE ":" ";" pair "${pair}")
    list(GET pair 0 target)
    list(GET pair 1 name)
    set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
    add_library(DistRuntime::${name} ALIAS ${target})
    target_include_directories(
      ${target} INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
    list(APPEND _distrt_compiler_targets ${target})
  endforeach()
  set_target_properties(DistRuntimePlugin PROPERTIES EXPORT_NAME Plugin)
  install(
    TARGETS ${_distrt_compiler_targets} DistRuntimePlugin distruntime-opt
    EXPORT DistRuntimeCompilerTargets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT Compiler
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT Compiler
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT Compiler)
  install(
    EXPORT DistRuntimeCompilerTargets
    NAMESPACE DistRuntime::
    DESTINATION ${DISTRUNTIME_INSTALL_CMAKEDIR}
    COMPONENT Compiler)

  # Every header and .td file; the generated declarations (.h.inc) the
  # public headers include.
  install(
    DIRECTORY ${DISTRUNTIME_SOURCE_DIR}/include/distruntime
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
    COMPONENT Compiler
    FILES_MATCHING
    PATTERN "*.h"
    PATTERN "*.hpp"
    PATTERN "*.def"
    PATTERN "*.td")
  install(
    DIRECTORY ${DISTRUNTIME_BINARY_DIR}/include/distruntime
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
    COMPONENT Compiler
    FILES_MATCHING
    PATTERN "*.h.inc"
    PATTERN "CMakeFiles" EXCLUDE)

  # scripts/compile.sh finds distruntime-opt and libdistrt relative to
  # itself when it is not in a source tree.
  install(
    PROGRAMS ${DISTRUNTIME_SOURCE_DIR}/scripts/compile.sh
    DESTINATION ${CMAKE_INSTALL_BINDIR}
    RENAME distruntime-compile
    COMPONENT Compiler)
  install(
    PROGRAMS ${DISTRUNTIME_SOURCE_DIR}/scripts/compile.sh
    DESTINATION ${CMAKE_INSTALL_DATADIR}/distruntime
    COMPONENT Compiler)
  # What the installed compile.sh reads from a build's CMakeCache.txt: the
  # compiler and the sanitizer link flags libdistrt was built with.
  file(
    GENERATE
    OUTPUT ${DISTRUNTIME_BINARY_DIR}/compile-cache.txt
    CONTENT
      "CMAKE_CXX_COMPILER:FILEPATH=${CMAKE_CXX_COMPILER}\nDISTRUNTIME_SANITIZE_LINK_FLAGS:INTERNAL=${DISTRUNTIME_SANITIZE_LINK_FLAGS}\n")
  install(FILES ${DISTRUNTIME_BINARY_DIR}/compile-cache.txt
          DESTINATION ${CMAKE_INSTALL_DATADIR}/distruntime COMPONENT Compiler)
endif()

# --- The package -------------------------------------------------------------
# Hints recorded for the package's find_dependency calls: the same MPI (an
# MPICH build finds MPICH again, not the system default) and the same MLIR.
set(DISTRUNTIME_CONFIG_MPI_C_COMPILER "${MPI_C_COMPILER}")
set(DISTRUNTIME_CONFIG_MPI_CXX_COMPILER "${MPI_CXX_COMPILER}")
set(DISTRUNTIME_CONFIG_MPIEXEC "${MPIEXEC_EXECUTABLE}")
set(DISTRUNTIME_CONFIG_MLIR_DIR "${MLIR_DIR}")
if(MLIR_DIR)
  get_filename_component(DISTRUNTIME_CONFIG_MLIR_DIR "${MLIR_DIR}" ABSOLUTE)
endif()
set(DISTRUNTIME_CONFIG_COMPONENTS "${_distrt_components}")
configure_package_config_file(
  ${DISTRUNTIME_SOURCE_DIR}/cmake/DistRuntimeConfig.cmake.in
  ${DISTRUNTIME_BINARY_DIR}/DistRuntimeConfig.cmake
  INSTALL_DESTINATION ${DISTRUNTIME_INSTALL_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_LIBDIR CMAKE_INSTALL_BINDIR
            CMAKE_INSTALL_DATADIR)
write_basic_package_version_file(
  ${DISTRUNTIME_BINARY_DIR}/DistRuntimeConfigVersion.cmake
  VERSION ${distruntime_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES ${DISTRUNTIME_BINARY_DIR}/DistRuntimeConfig.cmake
              ${DISTRUNTIME_BINARY_DIR}/DistRuntimeConfigVersion.cmake
        DESTINATION ${DISTRUNTIME_INSTALL_CMAKEDIR})

# --- The test: an external project against an install prefix ----------------
# tests/install/run.sh installs into <build>/install-test/prefix, builds
# tests/install/project against it (a host program on DistRuntime::distrt run
# under the launcher, an opt-like tool on DistRuntime::Pipelines), compiles a
# C program with pkg-config and a .mlir program with the installed
# distruntime-compile.
if(DISTRUNTIME_BUILD_RUNTIME AND DISTRUNTIME_BUILD_COMPILER
   AND NOT DISTRUNTIME_ENABLE_FUZZER)
  string(REPLACE ";" " " _distrt_flags_str "${DISTRUNTIME_MPIEXEC_FLAGS}")
  add_test(
    NAME install.external_project
    COMMAND
      ${CMAKE_COMMAND} -E env
      "DISTRUNTIME_MPIRUN=${DISTRUNTIME_MPIRUN}"
      "DISTRUNTIME_MPIEXEC_NUMPROC_FLAG=${DISTRUNTIME_MPIEXEC_NUMPROC_FLAG}"
      "DISTRUNTIME_MPIEXEC_FLAGS=${_distrt_flags_str}"
      "DISTRUNTIME_TEST_CC=${CMAKE_C_COMPILER}"
      "DISTRUNTIME_TEST_CXX=${CMAKE_CXX_COMPILER}"
      "DISTRUNTIME_TEST_LINK_FLAGS=${DISTRUNTIME_SANITIZE_LINK_FLAGS}"
      "DISTRUNTIME_TEST_GENERATOR=${CMAKE_GENERATOR}"
      "DISTRUNTIME_TEST_MLIR_DIR=${DISTRUNTIME_CONFIG_MLIR_DIR}"
      bash ${DISTRUNTIME_SOURCE_DIR}/tests/install/run.sh
      ${DISTRUNTIME_BINARY_DIR} ${DISTRUNTIME_BINARY_DIR}/install-test)
  set_tests_properties(install.external_project
                       PROPERTIES TIMEOUT 300 PROCESSORS 2)
  distrt_isolate_mpi_sessions(install.external_project)
endif()
