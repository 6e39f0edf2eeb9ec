// The MPI Bugs Initiative's classes of errors (MBI, Laurent et al. 2021),
// written anew as distruntime programs (Inputs/mbi/, one per case, named
// <class>-<name>-<ok|bad>.mlir), scored as MBI scores a tool: per case and
// per mode (static: distruntime-verify-spmd alone; runtime: compiled without
// it and run checked, DISTRT_CHECK=1; both: the default pipeline, then run
// checked), a true or false positive or negative. docs/verification.md ("The
// MPI Bugs Initiative's classes") tabulates the classes and the figures.
// The expectations come from the cases' labels: every erroneous case is
// reported by the two together, and no correct case in any mode. (Either
// check alone may miss an erroneous case: those are the rows of the table.)
// RUN: %S/Inputs/mbi-score.sh %distruntime-opt %compile "%mpirun" %t %S/Inputs/mbi/*.mlir > %t.out
// RUN: FileCheck %s --input-file=%t.out
// CHECK-DAG: mbi: callordering-both_sides-ok: static=TN runtime=TN both=TN (
// CHECK-DAG: mbi: callordering-branch_reduced-ok: static=TN runtime=TN both=TN (
// CHECK-DAG: mbi: callordering-early_return-bad: static={{[A-Z]+}} runtime={{[A-Z]+}} both=TP (
// CHECK-DAG: mbi: callordering-local_branch-ok: static=TN runtime=TN both=TN (
// CHECK-DAG: mbi: callordering-loop-bad: static={{[A-Z]+}} runtime={{[A-Z]+}} both=TP (
// CHECK-DAG: mbi: callordering-loop_reduced-ok: static=TN runtime=TN both=TN (
// CHECK-DAG: mbi: callordering-mode-bad: static={{[A-Z]+}} runtime={{[A-Z]+}} both=TP (
// CHECK-DAG: mbi: callordering-order-bad: static={{[A-Z]+}} runtime={{[A-Z]+}} both=TP (
// CHECK-DAG: mbi: callordering-relay-bad: static={{[A-Z]+}} runtime={{[A-Z]+}} both=TP (
// CHECK-DAG: mbi: callordering-relay-ok: static=TN runtime=TN both=TN (
// CHECK-DAG: mbi: callordering-skip-bad: static={{[A-Z]+}} runtime={{[A-Z]+}} both=TP (
// CHECK-DAG: mbi: invalidparam-group_rank-bad: static={{[A-Z]+}} runtime={{[A-Z]+}} both=TP (
// CHECK-DAG: mbi: invalidparam-group_rank-ok: static=TN runtime=TN both=TN (
// CHECK-DAG: mbi: invalidparam-negative_count-bad: static={{[A-Z]+}} runtime={{[A-Z]+}} both=TP (
// CHECK-DAG: mbi: invalidparam-pair_rank-bad: static={{[A-Z]+}} runtime={{[A-Z]+}} both=TP (
// CHECK-DAG: mbi: invalidparam-pairs-ok: static=TN runtime=TN both=TN (
// CHECK-DAG: mbi: invalidparam-root_range-bad: static={{[A-Z]+}} runtime={{[A-Z]+}} both=TP (
// CHECK-DAG: mbi: invalidparam-singleton_groups-ok: static=TN runtime=TN both=TN (
// CHECK-DAG: mbi: invalidparam-team-bad: static={{[A-Z]+}} runtime={{[A-Z]+}} both=TP (
// CHECK-DAG: mbi: invalidparam-zero_count-ok: static=TN runtime=TN both=TN (
// CHECK-DAG: mbi: localconcurrency-after_wait-ok: static=TN runtime=TN both=TN (
// CHECK-DAG: mbi: localconcurrency-disjoint-ok: static=TN runtime=TN both=TN (
// CHECK-DAG: mbi: localconcurrency-input_read-ok: static=TN runtime=TN both=TN (
// CHECK-DAG: mbi: localconcurrency-recv_read-bad: static={{[A-Z]+}} runtime={{[A-Z]+}} both=TP (
// CHECK-DAG: mbi: localconcurrency-send_write-bad: static={{[A-Z]+}} runtime={{[A-Z]+}} both=TP (
// CHECK-DAG: mbi: localconcurrency-subview-bad: static={{[A-Z]+}} runtime={{[A-Z]+}} both=TP (
// CHECK-DAG: mbi: parammatching-count-bad: static={{[A-Z]+}} runtime={{[A-Z]+}} both=TP (
// CHECK-DAG: mbi: parammatching-count-ok: static=TN runtime=TN both=TN (
// CHECK-DAG: mbi: parammatching-data-ok: static=TN runtime=TN both=TN (
// CHECK-DAG: mbi: parammatching-dtype-bad: static={{[A-Z]+}} runtime={{[A-Z]+}} both=TP (
// CHECK-DAG: mbi: parammatching-groups-bad: static={{[A-Z]+}} runtime={{[A-Z]+}} both=TP (
// CHECK-DAG: mbi: parammatching-groups-ok: static=TN runtime=TN both=TN (
// CHECK-DAG: mbi: parammatching-p2p-ok: static=TN runtime=TN both=TN (
// CHECK-DAG: mbi: parammatching-p2p_count-bad: static={{[A-Z]+}} runtime={{[A-Z]+}} both=TP (
// CHECK-DAG: mbi: parammatching-p2p_type-bad: static={{[A-Z]+}} runtime={{[A-Z]+}} both=TP (
// CHECK-DAG: mbi: parammatching-pairs-bad: static={{[A-Z]+}} runtime={{[A-Z]+}} both=TP (
// CHECK-DAG: mbi: parammatching-permute-ok: static=TN runtime=TN both=TN (
// CHECK-DAG: mbi: parammatching-reduction-bad: static={{[A-Z]+}} runtime={{[A-Z]+}} both=TP (
// CHECK-DAG: mbi: parammatching-reduction_region-ok: static=TN runtime=TN both=TN (
// CHECK-DAG: mbi: parammatching-root-bad: static={{[A-Z]+}} runtime={{[A-Z]+}} both=TP (
// CHECK-DAG: mbi: parammatching-root-ok: static=TN runtime=TN both=TN (
// CHECK-DAG: mbi: parammatching-root_dynamic-bad: static={{[A-Z]+}} runtime={{[A-Z]+}} both=TP (
// CHECK-DAG: mbi: parammatching-root_dynamic-ok: static=TN runtime=TN both=TN (
// CHECK-DAG: mbi: parammatching-tag-bad: static={{[A-Z]+}} runtime={{[A-Z]+}} both=TP (
// CHECK-DAG: mbi: reqlifecycle-across_loop-ok: static=TN runtime=TN both=TN (
// CHECK-DAG: mbi: reqlifecycle-both_paths-ok: static=TN runtime=TN both=TN (
// CHECK-DAG: mbi: reqlifecycle-later-ok: static=TN runtime=TN both=TN (
// CHECK-DAG: mbi: reqlifecycle-loop-ok: static=TN runtime=TN both=TN (
// CHECK-DAG: mbi: reqlifecycle-never_waited-bad: static={{[A-Z]+}} runtime={{[A-Z]+}} both=TP (
// CHECK-DAG: mbi: reqlifecycle-one_path-bad: static={{[A-Z]+}} runtime={{[A-Z]+}} both=TP (
// CHECK-DAG: mbi: reqlifecycle-p2p_async-ok: static=TN runtime=TN both=TN (
// CHECK-DAG: mbi: reqlifecycle-recv_unwaited-bad: static={{[A-Z]+}} runtime={{[A-Z]+}} both=TP (
// CHECK-DAG: mbi: reqlifecycle-twice-bad: static={{[A-Z]+}} runtime={{[A-Z]+}} both=TP (
// CHECK: cases: 53 (28 erroneous, 25 correct)
// CHECK-NEXT: mode static: TP {{[0-9]+}} FP 0 TN 25 FN {{[0-9]+}} TO 0 FAIL 0
// CHECK-NEXT: mode runtime: TP {{[0-9]+}} FP 0 TN 25 FN {{[0-9]+}} TO 0 FAIL 0
// CHECK-NEXT: mode both: TP 28 FP 0 TN 25 FN 0 TO 0 FAIL 0 precision 1.000 recall 1.000 F1 1.000
