# SimGrid's SMPI as the MPI (DISTRUNTIME_MPI=smpi, DESIGN.md decision 16):
# the MPI::MPI_C / MPI::MPI_CXX targets FindMPI would give, built from what
# smpicc/smpicxx add to a compile and a link. Included by the top-level
# CMakeLists instead of find_package(MPI).
#
# SMPI runs every rank as a thread of one process (smpirun starts
# smpimain, which dlopen()s the program once per rank). A program is
# therefore a shared object exporting `main`: every target linking MPI is
# compiled -fPIC and linked -shared, as smpicxx does. SMPI's default
# privatization (smpi/privatization:dlopen) gives each rank its own copy
# of that object, so its globals, its static initializers and its
# thread_locals are per rank; the shared libraries it links are loaded once
# for all. libdistrt keeps global state (teams, caches, the teardown hooks
# registered at static initialization), so it is linked statically into
# each program under SMPI (runtime/CMakeLists.txt): one runtime per rank,
# with no change to the runtime.
include_guard(GLOBAL)

find_program(SMPIRUN smpirun REQUIRED)
find_path(SMPI_INCLUDE_DIR smpi/mpi.h REQUIRED)
find_library(SIMGRID_LIBRARY simgrid REQUIRED)
execute_process(
  COMMAND ${SMPIRUN} -version
  OUTPUT_VARIABLE _distrt_smpi_version
  OUTPUT_STRIP_TRAILING_WHITESPACE
  TIMEOUT 30)

foreach(lang C CXX)
  if(NOT TARGET MPI::MPI_${lang})
    add_library(MPI::MPI_${lang} INTERFACE IMPORTED)
    set_target_properties(
      MPI::MPI_${lang}
      PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${SMPI_INCLUDE_DIR}/smpi"
                 # -fno-gnu-unique: the function-local statics of inline
                 # functions and C++17 inline variables are STB_GNU_UNIQUE
                 # symbols by default, which the dynamic linker shares
                 # between every dlopen()ed copy: one object for all ranks
                 # (seen: a test's `static Team` initialized by two ranks).
                 INTERFACE_COMPILE_OPTIONS "-fPIC;-fno-gnu-unique"
                 INTERFACE_LINK_LIBRARIES "${SIMGRID_LIBRARY};m"
                 # An executable is the shared object smpimain loads;
                 # -z defs keeps an unresolved symbol a link error.
                 INTERFACE_LINK_OPTIONS
                 "$<$<STREQUAL:$<TARGET_PROPERTY:TYPE>,EXECUTABLE>:-shared;-Wl,-z,defs>")
  endif()
endforeach()
set(MPI_FOUND TRUE)
set(MPI_CXX_FOUND TRUE)
set(MPI_C_FOUND TRUE)
set(MPI_CXX_INCLUDE_DIRS "${SMPI_INCLUDE_DIR}/smpi")
set(MPI_CXX_LIBRARIES "${SIMGRID_LIBRARY}")
set(MPI_CXX_COMPILE_DEFINITIONS "")
find_program(MPI_C_COMPILER smpicc)
find_program(MPI_CXX_COMPILER smpicxx)
set(MPIEXEC_EXECUTABLE "${SMPIRUN}")
set(MPIEXEC_NUMPROC_FLAG "-np")
set(MPIEXEC_PREFLAGS "")
set(MPIEXEC_POSTFLAGS "")
# SMPI's smpi.h says which standard it implements (3.1 for SimGrid 3.32).
file(STRINGS "${SMPI_INCLUDE_DIR}/smpi/smpi.h" _distrt_smpi_ver
     REGEX "^#define MPI_(SUB)?VERSION")
string(REGEX MATCH "MPI_VERSION +([0-9]+)" _m "${_distrt_smpi_ver}")
set(_distrt_major "${CMAKE_MATCH_1}")
string(REGEX MATCH "MPI_SUBVERSION +([0-9]+)" _m "${_distrt_smpi_ver}")
set(MPI_CXX_VERSION "${_distrt_major}.${CMAKE_MATCH_1}")

# The platform the tests and smpirun.sh run on by default, and a host file
# naming its hosts (smpirun wants one; rank i runs on host i).
set(DISTRUNTIME_SMPI_PLATFORM
    "${DISTRUNTIME_SOURCE_DIR}/platforms/calibrated-2core.xml"
    CACHE FILEPATH "SimGrid platform file the SMPI tests run on")
set(DISTRUNTIME_SMPI_HOSTFILE
    "${DISTRUNTIME_SOURCE_DIR}/platforms/calibrated-2core.hosts"
    CACHE FILEPATH "smpirun host file matching DISTRUNTIME_SMPI_PLATFORM")
message(STATUS "distruntime: SMPI (${_distrt_smpi_version}), "
               "platform ${DISTRUNTIME_SMPI_PLATFORM}")
