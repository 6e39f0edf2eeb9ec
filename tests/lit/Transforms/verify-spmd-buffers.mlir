// distruntime-verify-spmd: async handles not waited on every path or waited
// in a loop, and buffers an op may not use twice, are errors; handles that
// leave their block are left to the run time, and an operand's own input
// and output may share a buffer.
// RUN: %distruntime-opt %s -split-input-file -distruntime-verify-spmd -verify-diagnostics

func.func @never_waited(%a: memref<4xf32>) {
  // expected-error @below {{the async handle of 'distruntime.all_reduce' is never waited; fix: wait it (distruntime.wait) on every path, before its buffers are used or freed}}
  %h = distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) async
      {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  return
}

// -----

func.func @some_paths(%a: memref<4xf32>, %c: i1) {
  // expected-error @below {{the async handle of 'distruntime.allreduce' is not waited on every path; fix: wait it on every path, in each region of the branch or once after it}}
  %h = distruntime.allreduce <sum> %a team(0) : memref<4xf32> -> !distruntime.async_handle
  // expected-note @below {{when this 'scf.if' runs the region of the wait}}
  scf.if %c {
    // expected-note @below {{it is waited here only}}
    distruntime.wait %h
  }
  return
}

// -----

func.func @in_loop(%a: memref<4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{the async handle of 'distruntime.allreduce' is waited in a loop that does not issue it: the second turn waits a completed handle; fix: issue the op in the loop too, or wait once after the loop}}
  %h = distruntime.allreduce <sum> %a team(0) : memref<4xf32> -> !distruntime.async_handle
  // expected-note @below {{the loop}}
  scf.for %i = %c0 to %n step %c1 {
    // expected-note @below {{the wait}}
    distruntime.wait %h
  }
  return
}

// -----

func.func @cf_path(%a: memref<4xf32>, %c: i1) {
  // expected-error @below {{the async handle of 'distruntime.allreduce' is not waited on every path}}
  %h = distruntime.allreduce <sum> %a team(0) : memref<4xf32> -> !distruntime.async_handle
  cf.cond_br %c, ^wait, ^done
^wait:
  // expected-note @below {{it is waited here only}}
  distruntime.wait %h
  cf.br ^done
^done:
  return
}

// -----

func.func @two_outputs(%a: memref<4xf32>, %b: memref<4xf32>, %c: memref<4xf32>) {
  // expected-error @below {{outputs #0 and #1 (outs) of 'distruntime.all_reduce' are the same buffer: the op writes both, and the last write wins; fix: give each output its own buffer}}
  distruntime.all_reduce ins(%a, %b : memref<4xf32>, memref<4xf32>) outs(%c, %c : memref<4xf32>, memref<4xf32>)
      {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  return
}

// -----

func.func @crossed(%a: memref<4xf32>, %b: memref<4xf32>) {
  %d = memref.cast %a : memref<4xf32> to memref<?xf32>
  %e = memref.cast %d : memref<?xf32> to memref<4xf32>
  // expected-error @below {{input #1 and output #0 (outs) of 'distruntime.all_reduce' are the same buffer: the op may write the output before it reads the input; only an operand's own input and output may share a buffer; fix: give the output its own buffer}}
  distruntime.all_reduce ins(%b, %e : memref<4xf32>, memref<4xf32>) outs(%a, %b : memref<4xf32>, memref<4xf32>)
      {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  return
}

// -----

func.func @gather_in_place(%m: memref<4x4xf32>, %i: memref<4xi32>) {
  // expected-error @below {{input #0 and output #0 (outs) of 'distruntime.gather' are the same buffer: the op may write the output before it reads the input; fix: give the output its own buffer}}
  distruntime.gather ins(%m, %i : memref<4x4xf32>, memref<4xi32>) outs(%m : memref<4x4xf32>) {
    dimension_numbers = #distruntime.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 4>
  }
  return
}

// -----

// Correct: in place, waits in the same block or a region that always
// runs, a handle returned to the caller, and a wait in a loop that runs
// once.
func.func @correct(%a: memref<4xf32>, %b: memref<4xf32>) -> !distruntime.async_handle {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  distruntime.all_reduce ins(%a, %b : memref<4xf32>, memref<4xf32>) outs(%a, %b : memref<4xf32>, memref<4xf32>)
      {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  %h = distruntime.allreduce <sum> %a team(0) : memref<4xf32> -> !distruntime.async_handle
  distruntime.wait %h
  %h2 = distruntime.allreduce <sum> %a team(0) : memref<4xf32> -> !distruntime.async_handle
  scf.execute_region {
    distruntime.wait %h2
    scf.yield
  }
  %h3 = distruntime.allreduce <sum> %b team(0) : memref<4xf32> -> !distruntime.async_handle
  scf.for %i = %c0 to %c1 step %c1 {
    distruntime.wait %h3
  }
  %h4 = distruntime.allreduce <sum> %b team(0) : memref<4xf32> -> !distruntime.async_handle
  return %h4 : !distruntime.async_handle
}

// -----

func.func @scatter_into_updates(%in: memref<2x2xi32>, %idx: memref<2x1xi64>, %out: memref<2x2xi32>) {
  // expected-error @below {{an output (outs) of 'distruntime.scatter' is the buffer of its indices or updates, which it reads while it writes the output; fix: give the output its own buffer}}
  distruntime.scatter ins(%in : memref<2x2xi32>) indices(%idx : memref<2x1xi64>) updates(%out : memref<2x2xi32>) outs(%out : memref<2x2xi32>) {
    scatter_dimension_numbers = #distruntime.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
  } update_computation {
  ^bb0(%cur: i32, %upd: i32):
    %sum = arith.addi %cur, %upd : i32
    distruntime.yield %sum : i32
  }
  return
}
