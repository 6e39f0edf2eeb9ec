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
config.substitutions.append(("%mlir-opt", os.path.join(config.llvm_tools_dir, "mlir-opt")))
config.substitutions.append(("%plugin", plugin))
config.substitutions.append(("%compile", os.path.join(scripts, "compile.sh")))
config.substitutions.append(("%examples", os.path.join(config.distruntime_src_root, "examples")))
# `%mpirun 3 prog` runs prog on 3 ranks; a hang is killed after 120 s.
config.substitutions.append(
    ("%mpirun", "timeout -k 5 120 %s %s -np" % (config.mpirun, config.mpirun_flags)))
