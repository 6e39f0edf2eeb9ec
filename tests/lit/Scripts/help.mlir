// Every script in scripts/ answers --help: exit 0 and a usage line
// (Inputs/check-help.sh).
// RUN: bash %S/Inputs/check-help.sh %examples/../scripts | FileCheck %s
// CHECK-DAG: ok: bench.sh
// CHECK-DAG: ok: build.sh
// CHECK-DAG: ok: compile.sh
// CHECK-DAG: ok: fresh-check.sh
// CHECK-DAG: ok: fuzz.sh
// CHECK-DAG: ok: run.sh
// CHECK-DAG: ok: scale.sh
// CHECK-DAG: ok: scaling_report.py
// CHECK-DAG: ok: setup.sh
// CHECK-DAG: ok: test.sh
// CHECK-DAG: ok: tidy.sh
// CHECK-DAG: ok: pass-cost.sh
// CHECK-DAG: ok: plot_benchmarks.py
