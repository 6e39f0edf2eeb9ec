// The gradient-averaging example prints its closed form
// (examples/gradients_reference.py) at np 1-8 (oversubscribed) and in
// checked mode. Both recipes make one call: the six sync all_reduces and
// the six async ones each combine, the async one waited at the first wait,
// after the forward step it overlaps; every op is proven.
// RUN: %compile %examples/gradients.mlir --remarks -o %t 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARKS < %t.remarks
// RUN: not grep -e NotProven -e NotCombined %t.remarks
// RUN: python3 %examples/gradients_reference.py > %t.expected
// RUN: %mpirun 1 %t > %t.np1 && diff %t.expected %t.np1
// RUN: %mpirun 2 %t > %t.np2 && diff %t.expected %t.np2
// RUN: %mpirun 3 %t > %t.np3 && diff %t.expected %t.np3
// RUN: %mpirun 4 %t > %t.np4 && diff %t.expected %t.np4
// RUN: %mpirun 5 %t > %t.np5 && diff %t.expected %t.np5
// RUN: %mpirun 6 %t > %t.np6 && diff %t.expected %t.np6
// RUN: %mpirun 7 %t > %t.np7 && diff %t.expected %t.np7
// RUN: %mpirun 8 %t > %t.np8 && diff %t.expected %t.np8
// RUN: env DISTRT_CHECK=all %mpirun 3 %t > %t.checked && diff %t.expected %t.checked
// REMARKS-DAG: [Passed] Combined | Category:distruntime-combine-collectives | Function=average_sync | InputBytes=5700, Remark="6 distruntime.all_reduce ops combined into one"
// REMARKS-DAG: [Passed] Combined | Category:distruntime-combine-collectives | Function=average_overlap | InputBytes=5700, Remark="6 distruntime.all_reduce ops combined into one", {{.*}}, Remark="async: one wait, the first one's: distruntime.wait at {{.*}}gradients.mlir:[[#]]:5"
