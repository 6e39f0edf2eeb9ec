# MPI launch settings and a helper that registers a test at several rank
# counts. Included by the top-level CMakeLists after find_package(MPI).
include_guard(GLOBAL)

# Open MPI refuses to run as root and, on a machine with fewer cores than
# ranks, refuses to oversubscribe; an oversubscribed rank that busy-polls makes
# every operation take milliseconds. MPICH needs none of this.
set(_distrt_default_flags "")
if(MPIEXEC_EXECUTABLE)
  # (smpirun prints its version for -version, and ignores --version.)
  execute_process(
    COMMAND ${MPIEXEC_EXECUTABLE} -version
    OUTPUT_VARIABLE _distrt_mpiexec_version
    ERROR_VARIABLE _distrt_mpiexec_version
    RESULT_VARIABLE _distrt_mpiexec_result
    TIMEOUT 30)
  if(_distrt_mpiexec_version MATCHES "Open MPI|OpenRTE")
    set(_distrt_default_flags --allow-run-as-root --oversubscribe --mca
                              mpi_yield_when_idle 1)
  endif()
endif()

# Which implementation this build uses: scripts/build.sh passes it with the
# implementation's own wrappers and launcher (DISTRUNTIME_MPI=mpich); else
# the launcher's --version says. Scripts read it from the cache to refuse a
# build directory of the other MPI.
if(_distrt_mpiexec_version MATCHES "Open MPI|OpenRTE")
  set(_distrt_found_mpi openmpi)
elseif(_distrt_mpiexec_version MATCHES "HYDRA|MPICH")
  set(_distrt_found_mpi mpich)
elseif(_distrt_mpiexec_version MATCHES "SimGrid")
  set(_distrt_found_mpi smpi)
  # The platform and its hosts, and quiet: no configuration echo, no
  # "host speed not set" notice (SMPI then times computation as it ran).
  # smpi/errors-are-fatal:no: SMPI aborts on any MPI error by default,
  # whatever the communicator's handler; the runtime sets
  # MPI_ERRORS_RETURN and reports errors itself.
  set(_distrt_default_flags
      -platform ${DISTRUNTIME_SMPI_PLATFORM} -hostfile
      ${DISTRUNTIME_SMPI_HOSTFILE} --log=xbt_cfg.thres:warning
      --log=smpi_config.thres:error --cfg=smpi/errors-are-fatal:no)
else()
  set(_distrt_found_mpi unknown)
endif()
set(DISTRUNTIME_MPI
    "${_distrt_found_mpi}"
    CACHE STRING "MPI implementation of this build (openmpi, mpich, smpi)")
if(NOT DISTRUNTIME_MPI STREQUAL _distrt_found_mpi)
  message(
    FATAL_ERROR
      "DISTRUNTIME_MPI=${DISTRUNTIME_MPI} but the launcher ${MPIEXEC_EXECUTABLE} "
      "is ${_distrt_found_mpi}'s: pass MPIEXEC_EXECUTABLE and the MPI compiler "
      "wrappers of ${DISTRUNTIME_MPI} (scripts/build.sh does)")
endif()
message(STATUS "distruntime: ${DISTRUNTIME_MPI} (MPI ${MPI_CXX_VERSION}), "
               "launcher ${MPIEXEC_EXECUTABLE}")

set(DISTRUNTIME_MPIRUN
    "${MPIEXEC_EXECUTABLE}"
    CACHE FILEPATH "MPI launcher used by the tests and benchmarks")
set(DISTRUNTIME_MPIEXEC_FLAGS
    "${_distrt_default_flags}"
    CACHE STRING "Extra launcher flags (a CMake list) placed after -np N")
# The full launcher prefix up to (excluding) the rank count, for lit configs.
set(DISTRUNTIME_MPIEXEC_NUMPROC_FLAG
    "${MPIEXEC_NUMPROC_FLAG}"
    CACHE STRING "Launcher flag that precedes the rank count")

# Open MPI keeps each job's session directory under
# <base>/ompi.<host>.<uid>/, and the job that ends last removes that shared
# parent: a job starting meanwhile fails in orte_init ("A call to mkdir was
# unable to create the desired directory"), seen with ctest -j 2 under load.
# Gives test <name> a base of its own (MPICH ignores the variable).
function(distrt_isolate_mpi_sessions name)
  set_property(
    TEST ${name} APPEND
    PROPERTY ENVIRONMENT
             "OMPI_MCA_orte_tmpdir_base=${CMAKE_BINARY_DIR}/mpi-sessions/${name}")
endfunction()

# distrt_add_mpi_test(NAME <name> COMMAND <exe> [args...] NP <n...>
#                     [TIMEOUT <s>] [PASS_REGULAR_EXPRESSION <re>])
# Adds one test `<name>.np<n>` per rank count. TIMEOUT (default 120 s) makes a
# hang a failure instead of a stuck run.
function(distrt_add_mpi_test)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "" "NAME;TIMEOUT"
                        "COMMAND;NP;PASS_REGULAR_EXPRESSION")
  if(NOT ARG_NAME OR NOT ARG_COMMAND OR NOT ARG_NP)
    message(FATAL_ERROR "distrt_add_mpi_test needs NAME, COMMAND and NP")
  endif()
  if(ARG_UNPARSED_ARGUMENTS)
    message(
      FATAL_ERROR
        "distrt_add_mpi_test: unexpected arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 120)
  endif()
  list(POP_FRONT ARG_COMMAND exe)
  if(TARGET ${exe})
    set(exe $<TARGET_FILE:${exe}>)
  endif()
  foreach(np IN LISTS ARG_NP)
    set(test_name ${ARG_NAME}.np${np})
    add_test(
      NAME ${test_name}
      COMMAND
        ${DISTRUNTIME_MPIRUN} ${DISTRUNTIME_MPIEXEC_NUMPROC_FLAG} ${np}
        ${DISTRUNTIME_MPIEXEC_FLAGS} ${MPIEXEC_PREFLAGS} ${exe}
        ${MPIEXEC_POSTFLAGS} ${ARG_COMMAND})
    # SMPI simulates every rank in one process on one core.
    set(_procs ${np})
    if(DISTRUNTIME_MPI STREQUAL "smpi")
      set(_procs 1)
    endif()
    set_tests_properties(${test_name} PROPERTIES TIMEOUT ${ARG_TIMEOUT}
                                                 PROCESSORS ${_procs})
    distrt_isolate_mpi_sessions(${test_name})
    if(ARG_PASS_REGULAR_EXPRESSION)
      set_tests_properties(
        ${test_name} PROPERTIES PASS_REGULAR_EXPRESSION
                                "${ARG_PASS_REGULAR_EXPRESSION}")
    endif()
  endforeach()
endfunction()
