# lit configuration of distruntime: dialect, lowering, plugin and integration
# tests. Integration tests compile .mlir programs and run them under mpirun.
import os

import lit.formats

config.name = "distruntime"
config.test_format = lit.formats.ShTest(not lit_config.noExecute)
config.suffixes = [".mlir"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.distruntime_obj_root, "tests", "lit")

bin_dir = os.path.join(config.distruntime_obj_root, "bin")
lib_dir = os.path.join(config.distruntime_obj_root, "lib")
scripts = os.path.join(config.distruntime_src_root, "scripts")
config.environment["PATH"] = os.pathsep.join(
    [bin_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
config.environment["DISTRUNTIME_BUILD_DIR"] = config.distruntime_obj_root

plugin = os.path.join(lib_dir, "DistRuntimePlugin.so")
config.substitutions.append(("%distruntime-opt", os.path.join(bin_dir, "distruntime-opt")))
mlir_opt = os.path.join(config.llvm_tools_dir, "mlir-opt")
# A sanitized build (DISTRUNTIME_SANITIZE): every command runs with the
# sanitizers' options, and stock mlir-opt, built without them, preloads their
# runtimes to load the sanitized plugin.
for kv in filter(None, config.sanitize_env.split(";")):
    key, value = kv.split("=", 1)
    config.environment[key] = value
if config.sanitize_preload:
    mlir_opt = "env LD_PRELOAD=%s %s" % (config.sanitize_preload, mlir_opt)
config.substitutions.append(("%mlir-opt", mlir_opt))
config.substitutions.append(("%plugin", plugin))
config.substitutions.append(("%compile", os.path.join(scripts, "compile.sh")))
config.substitutions.append(("%examples", os.path.join(config.distruntime_src_root, "examples")))
# Open MPI keeps each job's session directory under
# <base>/ompi.<host>.<uid>/, and the job that ends last removes that shared
# parent: a job starting meanwhile fails in orte_init ("A call to mkdir was
# unable to create the desired directory"), seen under load with two lit
# workers. `%ompi-session` gives the test's launches a base of their own
# (MPICH ignores the variable); %mpirun includes it, and tests that start
# Open MPI otherwise (run.sh, a singleton) prefix it.
config.substitutions.append(
    ("%ompi-session", "env OMPI_MCA_orte_tmpdir_base=%t.ompi"))
# `%mpirun 3 prog` runs prog on 3 ranks; a hang is killed after 120 s.
mpirun = "env OMPI_MCA_orte_tmpdir_base=%%t.ompi timeout -k 5 120 %s %s -np" % (
    config.mpirun, config.mpirun_flags)
# Under MPICH the ranks' lines arrive whole because libdistrt line-buffers
# stdout after MPICH's MPI_Init unbuffers it (docs/runtime.md, "MPICH").
# Sanitized: the compiled programs run under ASan and UBSan, without
# LeakSanitizer. They own their buffers and need not free them (the default
# pipeline never frees the buffers bufferization allocates), and LSan's scan
# finds such a buffer or not depending on what the stack still holds at exit.
# libdistrt's leaks are checked by the runtime tests (ctest runtime.*).
if "ASAN_OPTIONS" in config.environment:
    mpirun = "env ASAN_OPTIONS=%s:detect_leaks=0 %s" % (
        config.environment["ASAN_OPTIONS"], mpirun)
config.substitutions.append(("%mpirun", mpirun))

# The launcher's kind, for tests that use its own options
# (`REQUIRES: openmpi` / `REQUIRES: mpich`).
import subprocess
try:
    _launcher = subprocess.run([config.mpirun, "--version"], capture_output=True,
                               text=True, timeout=30)
    _launcher = _launcher.stdout + _launcher.stderr
except (OSError, subprocess.SubprocessError):
    _launcher = ""
if "Open MPI" in _launcher or "OpenRTE" in _launcher:
    config.available_features.add("openmpi")
elif "HYDRA" in _launcher or "MPICH" in _launcher:
    config.available_features.add("mpich")

# scripts/tidy.sh's own test needs the clang-tidy it runs (tidy.sh installs
# it when run; the suite does not).
import shutil
if shutil.which("clang-tidy-22"):
    config.available_features.add("clang-tidy")
