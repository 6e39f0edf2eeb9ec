// Data-parallel gradient averaging, the two ways the guide describes
// (docs/guide.md, "Recipe: averaging gradients"), at any number of
// members with no per-size code:
//  - @average_sync: each layer's gradient (a tensor) is summed by its own
//    sync all_reduce as written; distruntime-combine-collectives makes the
//    six one all_reduce, whose small operands the runtime packs into one
//    MPI call where that cannot change a bit (groups of two; any group at
//    reproducibility ordered or exact);
//  - @average_overlap: each layer's gradient (a buffer) is summed by an
//    async all_reduce started as soon as its backward step wrote it, and
//    other work (the next batch's forward step) runs before the waits;
//    the pass makes the six one async op, still overlapped with that work.
// Then each average is the sum over the members divided by their number.
//
// Member r's gradient of layer l at element i is (i + r - (P - 1) / 2) *
// (l + 1) (its own shard of the batch): over the P members these sum to
// P * i * (l + 1) exactly, in any order and in f32 (half-integers below
// 2^24), so the average is i * (l + 1) at every P, on either MPI, with the
// passes on or off. Member 0 prints each layer's sum of averaged elements,
// (l + 1) n (n - 1) / 2 for a layer of n elements
// (examples/gradients_reference.py computes the same independently;
// tests/lit/Integration/gradients.mlir runs it at np 1-8).
// Run: scripts/run.sh examples/gradients.mlir -np 4
module {
  // Member r's gradient of `layer` into `g` (r's offset: r - (P - 1) / 2).
  func.func private @backward(%layer: index, %offset: f32, %g: memref<?xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %g, %c0 : memref<?xf32>
    %l1 = arith.addi %layer, %c1 : index
    %scalei = arith.index_cast %l1 : index to i64
    %scale = arith.uitofp %scalei : i64 to f32
    scf.for %i = %c0 to %n step %c1 {
      %fii = arith.index_cast %i : index to i64
      %fi = arith.uitofp %fii : i64 to f32
      %x = arith.addf %fi, %offset : f32
      %v = arith.mulf %x, %scale : f32
      memref.store %v, %g[%i] : memref<?xf32>
    }
    return
  }

  // The same gradient as a value.
  func.func private @gradient(%layer: index, %offset: f32, %n: index) -> tensor<?xf32> {
    %c1 = arith.constant 1 : index
    %l1 = arith.addi %layer, %c1 : index
    %scalei = arith.index_cast %l1 : index to i64
    %scale = arith.uitofp %scalei : i64 to f32
    %g = tensor.generate %n {
    ^bb0(%i: index):
      %fii = arith.index_cast %i : index to i64
      %fi = arith.uitofp %fii : i64 to f32
      %x = arith.addf %fi, %offset : f32
      %v = arith.mulf %x, %scale : f32
      tensor.yield %v : f32
    } : tensor<?xf32>
    return %g : tensor<?xf32>
  }

  // Other work between the starts and the waits: a forward step on the
  // next batch (it touches no gradient).
  func.func private @forward(%w: memref<4096xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cn = arith.constant 4096 : index
    %half = arith.constant 0.5 : f32
    scf.for %i = %c0 to %cn step %c1 {
      %v = memref.load %w[%i] : memref<4096xf32>
      %u = arith.mulf %v, %half : f32
      memref.store %u, %w[%i] : memref<4096xf32>
    }
    return
  }

  // The sum of a summed gradient's elements divided by the members'
  // number, as an integer (exact: every average is an integer).
  func.func private @average_sum(%g: memref<?xf32>, %p: f32) -> i64 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f64
    %n = memref.dim %g, %c0 : memref<?xf32>
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
      %v = memref.load %g[%i] : memref<?xf32>
      %avg = arith.divf %v, %p : f32
      %d = arith.extf %avg : f32 to f64
      %next = arith.addf %acc, %d : f64
      scf.yield %next : f64
    }
    %r = arith.fptosi %s : f64 to i64
    return %r : i64
  }

  func.func private @print_sum(%print: i1, %label: i1, %sum: i64) {
    scf.if %print {
      scf.if %label {
        vector.print str "sync "
      } else {
        vector.print str "overlap "
      }
      vector.print %sum : i64
    }
    return
  }

  // Written sync, on tensors: one all_reduce per layer.
  func.func private @average_sync(%offset: f32, %p: f32, %print: i1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %n0 = arith.constant 64 : index
    %n1 = arith.constant 3 : index
    %n2 = arith.constant 100 : index
    %n3 = arith.constant 257 : index
    %n4 = arith.constant 1 : index
    %n5 = arith.constant 1000 : index
    %true = arith.constant true
    %d0 = func.call @gradient(%c0, %offset, %n0) : (index, f32, index) -> tensor<?xf32>
    %g0 = tensor.cast %d0 : tensor<?xf32> to tensor<64xf32>
    %s0 = distruntime.all_reduce ins(%g0 : tensor<64xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>} -> tensor<64xf32>
    %d1 = func.call @gradient(%c1, %offset, %n1) : (index, f32, index) -> tensor<?xf32>
    %g1 = tensor.cast %d1 : tensor<?xf32> to tensor<3xf32>
    %s1 = distruntime.all_reduce ins(%g1 : tensor<3xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>} -> tensor<3xf32>
    %d2 = func.call @gradient(%c2, %offset, %n2) : (index, f32, index) -> tensor<?xf32>
    %g2 = tensor.cast %d2 : tensor<?xf32> to tensor<100xf32>
    %s2 = distruntime.all_reduce ins(%g2 : tensor<100xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>} -> tensor<100xf32>
    %d3 = func.call @gradient(%c3, %offset, %n3) : (index, f32, index) -> tensor<?xf32>
    %g3 = tensor.cast %d3 : tensor<?xf32> to tensor<257xf32>
    %s3 = distruntime.all_reduce ins(%g3 : tensor<257xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>} -> tensor<257xf32>
    %d4 = func.call @gradient(%c4, %offset, %n4) : (index, f32, index) -> tensor<?xf32>
    %g4 = tensor.cast %d4 : tensor<?xf32> to tensor<1xf32>
    %s4 = distruntime.all_reduce ins(%g4 : tensor<1xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>} -> tensor<1xf32>
    %d5 = func.call @gradient(%c5, %offset, %n5) : (index, f32, index) -> tensor<?xf32>
    %g5 = tensor.cast %d5 : tensor<?xf32> to tensor<1000xf32>
    %s5 = distruntime.all_reduce ins(%g5 : tensor<1000xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>} -> tensor<1000xf32>
    %t0 = tensor.cast %s0 : tensor<64xf32> to tensor<?xf32>
    %b0 = bufferization.to_buffer %t0 : tensor<?xf32> to memref<?xf32>
    %t1 = tensor.cast %s1 : tensor<3xf32> to tensor<?xf32>
    %b1 = bufferization.to_buffer %t1 : tensor<?xf32> to memref<?xf32>
    %t2 = tensor.cast %s2 : tensor<100xf32> to tensor<?xf32>
    %b2 = bufferization.to_buffer %t2 : tensor<?xf32> to memref<?xf32>
    %t3 = tensor.cast %s3 : tensor<257xf32> to tensor<?xf32>
    %b3 = bufferization.to_buffer %t3 : tensor<?xf32> to memref<?xf32>
    %t4 = tensor.cast %s4 : tensor<1xf32> to tensor<?xf32>
    %b4 = bufferization.to_buffer %t4 : tensor<?xf32> to memref<?xf32>
    %t5 = tensor.cast %s5 : tensor<1000xf32> to tensor<?xf32>
    %b5 = bufferization.to_buffer %t5 : tensor<?xf32> to memref<?xf32>
    %a0 = func.call @average_sum(%b0, %p) : (memref<?xf32>, f32) -> i64
    func.call @print_sum(%print, %true, %a0) : (i1, i1, i64) -> ()
    %a1 = func.call @average_sum(%b1, %p) : (memref<?xf32>, f32) -> i64
    func.call @print_sum(%print, %true, %a1) : (i1, i1, i64) -> ()
    %a2 = func.call @average_sum(%b2, %p) : (memref<?xf32>, f32) -> i64
    func.call @print_sum(%print, %true, %a2) : (i1, i1, i64) -> ()
    %a3 = func.call @average_sum(%b3, %p) : (memref<?xf32>, f32) -> i64
    func.call @print_sum(%print, %true, %a3) : (i1, i1, i64) -> ()
    %a4 = func.call @average_sum(%b4, %p) : (memref<?xf32>, f32) -> i64
    func.call @print_sum(%print, %true, %a4) : (i1, i1, i64) -> ()
    %a5 = func.call @average_sum(%b5, %p) : (memref<?xf32>, f32) -> i64
    func.call @print_sum(%print, %true, %a5) : (i1, i1, i64) -> ()
    return
  }

  // Written for overlap, on buffers: each layer's all_reduce starts as
  // soon as its gradient is written; the forward step runs before the
  // waits.
  func.func private @average_overlap(%offset: f32, %p: f32, %print: i1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %false = arith.constant false
    %one = arith.constant 1.0 : f32
    %w = memref.alloc() : memref<4096xf32>
    linalg.fill ins(%one : f32) outs(%w : memref<4096xf32>)
    %g0 = memref.alloc() : memref<64xf32>
    %g1 = memref.alloc() : memref<3xf32>
    %g2 = memref.alloc() : memref<100xf32>
    %g3 = memref.alloc() : memref<257xf32>
    %g4 = memref.alloc() : memref<1xf32>
    %g5 = memref.alloc() : memref<1000xf32>
    %d0 = memref.cast %g0 : memref<64xf32> to memref<?xf32>
    %d1 = memref.cast %g1 : memref<3xf32> to memref<?xf32>
    %d2 = memref.cast %g2 : memref<100xf32> to memref<?xf32>
    %d3 = memref.cast %g3 : memref<257xf32> to memref<?xf32>
    %d4 = memref.cast %g4 : memref<1xf32> to memref<?xf32>
    %d5 = memref.cast %g5 : memref<1000xf32> to memref<?xf32>
    // Backward from the last layer to the first, each reduction started at once.
    func.call @backward(%c5, %offset, %d5) : (index, f32, memref<?xf32>) -> ()
    %h5 = distruntime.all_reduce ins(%g5 : memref<1000xf32>) outs(%g5 : memref<1000xf32>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
    func.call @backward(%c4, %offset, %d4) : (index, f32, memref<?xf32>) -> ()
    %h4 = distruntime.all_reduce ins(%g4 : memref<1xf32>) outs(%g4 : memref<1xf32>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
    func.call @backward(%c3, %offset, %d3) : (index, f32, memref<?xf32>) -> ()
    %h3 = distruntime.all_reduce ins(%g3 : memref<257xf32>) outs(%g3 : memref<257xf32>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
    func.call @backward(%c2, %offset, %d2) : (index, f32, memref<?xf32>) -> ()
    %h2 = distruntime.all_reduce ins(%g2 : memref<100xf32>) outs(%g2 : memref<100xf32>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
    func.call @backward(%c1, %offset, %d1) : (index, f32, memref<?xf32>) -> ()
    %h1 = distruntime.all_reduce ins(%g1 : memref<3xf32>) outs(%g1 : memref<3xf32>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
    func.call @backward(%c0, %offset, %d0) : (index, f32, memref<?xf32>) -> ()
    %h0 = distruntime.all_reduce ins(%g0 : memref<64xf32>) outs(%g0 : memref<64xf32>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
    func.call @forward(%w) : (memref<4096xf32>) -> ()
    distruntime.wait %h0
    distruntime.wait %h1
    distruntime.wait %h2
    distruntime.wait %h3
    distruntime.wait %h4
    distruntime.wait %h5
    %a0 = func.call @average_sum(%d0, %p) : (memref<?xf32>, f32) -> i64
    func.call @print_sum(%print, %false, %a0) : (i1, i1, i64) -> ()
    %a1 = func.call @average_sum(%d1, %p) : (memref<?xf32>, f32) -> i64
    func.call @print_sum(%print, %false, %a1) : (i1, i1, i64) -> ()
    %a2 = func.call @average_sum(%d2, %p) : (memref<?xf32>, f32) -> i64
    func.call @print_sum(%print, %false, %a2) : (i1, i1, i64) -> ()
    %a3 = func.call @average_sum(%d3, %p) : (memref<?xf32>, f32) -> i64
    func.call @print_sum(%print, %false, %a3) : (i1, i1, i64) -> ()
    %a4 = func.call @average_sum(%d4, %p) : (memref<?xf32>, f32) -> i64
    func.call @print_sum(%print, %false, %a4) : (i1, i1, i64) -> ()
    %a5 = func.call @average_sum(%d5, %p) : (memref<?xf32>, f32) -> i64
    func.call @print_sum(%print, %false, %a5) : (i1, i1, i64) -> ()
    memref.dealloc %w : memref<4096xf32>
    memref.dealloc %g0 : memref<64xf32>
    memref.dealloc %g1 : memref<3xf32>
    memref.dealloc %g2 : memref<100xf32>
    memref.dealloc %g3 : memref<257xf32>
    memref.dealloc %g4 : memref<1xf32>
    memref.dealloc %g5 : memref<1000xf32>
    return
  }

  func.func @main() -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %me = distruntime.team_member team(0)
    %P = distruntime.team_size team(0)
    // r - (P - 1) / 2 = (2r - P + 1) / 2, exact in f32.
    %twice = arith.muli %me, %c2 : index
    %num = arith.subi %twice, %P : index
    %num1 = arith.addi %num, %c1 : index
    %numi = arith.index_cast %num1 : index to i64
    %numf = arith.sitofp %numi : i64 to f32
    %half = arith.constant 0.5 : f32
    %offset = arith.mulf %numf, %half : f32
    %pfi = arith.index_cast %P : index to i64
    %pf = arith.uitofp %pfi : i64 to f32
    %print = arith.cmpi eq, %me, %c0 : index
    func.call @average_sync(%offset, %pf, %print) : (f32, f32, i1) -> ()
    func.call @average_overlap(%offset, %pf, %print) : (f32, f32, i1) -> ()
    %ret = arith.constant 0 : i32
    return %ret : i32
  }
}
