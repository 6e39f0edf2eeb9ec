// A pipeline-parallel ring: P stages (np = P, any P), stage s on rank
// s applies its layer y = W_s x + 1 (8 x 8, W_s(i, j) = ((3 i + 5 j + 7 s)
// mod 9 - 4) / 8) to each of M = 6 micro-batches of 8 activations. Stage 0
// feeds micro-batch m (x_j = (8 m + j) mod 13 - 6), each stage passes its
// output to the next with async send/recv over source_target_pairs
// [[0, 1], [1, 2], ..., [P - 1, 0]], and stage 0 receives the last stage's
// output back and sums it, weighted, into a checksum.
//
// Every tick every stage posts the receive of its predecessor's next
// activation and the send of the activation it computed in the previous
// tick, computes its next micro-batch (from the activation received in the
// previous tick) while they are in flight, then waits for both. Stage s
// computes micro-batch m at tick m + 2 s; the outputs return to stage 0 at
// tick m + 2 P; M + 2 P ticks in all. The ring's source_target_pairs are a
// table main fills from the team's size, so one program runs at any np (at
// np 1 the one stage sends to itself).
//
// Run:      ./scripts/run.sh examples/pipeline.mlir -np 3
// Check:    python3 examples/pipeline_reference.py 3

module {
  // Stage s's layer on x into y: y_i = (sum_j W_s(i, j) x_j) + 1.
  func.func private @layer(%x: memref<8xf64>, %y: memref<8xf64>, %s: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %c9 = arith.constant 9 : index
    %four = arith.constant 4 : i64
    %zero = arith.constant 0.0 : f64
    %one = arith.constant 1.0 : f64
    %eighth = arith.constant 0.125 : f64
    %s7 = arith.muli %s, %c7 : index
    scf.for %i = %c0 to %c8 step %c1 {
      %i3 = arith.muli %i, %c3 : index
      %sum = scf.for %j = %c0 to %c8 step %c1 iter_args(%a = %zero) -> (f64) {
        %j5 = arith.muli %j, %c5 : index
        %k0 = arith.addi %i3, %j5 : index
        %k = arith.addi %k0, %s7 : index
        %m = arith.remui %k, %c9 : index
        %mi = arith.index_cast %m : index to i64
        %wi = arith.subi %mi, %four : i64
        %wf = arith.sitofp %wi : i64 to f64
        %w = arith.mulf %wf, %eighth : f64
        %xj = memref.load %x[%j] : memref<8xf64>
        %p = arith.mulf %w, %xj : f64
        %n = arith.addf %a, %p : f64
        scf.yield %n : f64
      }
      %y_i = arith.addf %sum, %one : f64
      memref.store %y_i, %y[%i] : memref<8xf64>
    }
    return
  }

  // This stage's work at tick t: stage 0 feeds micro-batch t and sums the
  // returned output of micro-batch t - 2 P into acc; stage s > 0 applies
  // its layer to micro-batch t - 2 s (received last tick, in cur).
  func.func private @compute(%cur: memref<8xf64>, %snew: memref<8xf64>,
                             %acc: memref<1xf64>, %t: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c6 = arith.constant 6 : index
    %c8 = arith.constant 8 : index
    %c13 = arith.constant 13 : index
    %M = arith.constant 6 : index
    %six = arith.constant 6 : i64
    %s = distruntime.team_member team(0)
    %P = distruntime.team_size team(0)
    %first = arith.cmpi eq, %s, %c0 : index
    scf.if %first {
      %feed = arith.cmpi ult, %t, %M : index
      scf.if %feed {
        %x = memref.alloca() : memref<8xf64>
        %m8 = arith.muli %t, %c8 : index
        scf.for %j = %c0 to %c8 step %c1 {
          %k = arith.addi %m8, %j : index
          %r = arith.remui %k, %c13 : index
          %ri = arith.index_cast %r : index to i64
          %v = arith.subi %ri, %six : i64
          %vf = arith.sitofp %v : i64 to f64
          memref.store %vf, %x[%j] : memref<8xf64>
        }
        func.call @layer(%x, %snew, %s) : (memref<8xf64>, memref<8xf64>, index) -> ()
      }
      %p2 = arith.muli %P, %c2 : index
      %back = arith.cmpi uge, %t, %p2 : index
      scf.if %back {
        %m = arith.subi %t, %p2 : index
        %done = arith.cmpi ult, %m, %M : index
        scf.if %done {
          %m8 = arith.muli %m, %c8 : index
          %total = memref.load %acc[%c0] : memref<1xf64>
          %new = scf.for %j = %c0 to %c8 step %c1 iter_args(%a = %total) -> (f64) {
            %k = arith.addi %m8, %j : index
            %k1 = arith.addi %k, %c1 : index
            %ki = arith.index_cast %k1 : index to i64
            %w = arith.sitofp %ki : i64 to f64
            %y = memref.load %cur[%j] : memref<8xf64>
            %wy = arith.mulf %w, %y : f64
            %n = arith.addf %a, %wy : f64
            scf.yield %n : f64
          }
          memref.store %new, %acc[%c0] : memref<1xf64>
        }
      }
    } else {
      %s2 = arith.muli %s, %c2 : index
      %started = arith.cmpi uge, %t, %s2 : index
      scf.if %started {
        %m = arith.subi %t, %s2 : index
        %live = arith.cmpi ult, %m, %M : index
        scf.if %live {
          func.call @layer(%cur, %snew, %s) : (memref<8xf64>, memref<8xf64>, index) -> ()
        }
      }
    }
    return
  }

  // One tick: post the receive of the predecessor's activation and the send
  // of mine, compute the next micro-batch meanwhile, then wait for both.
  // The ring's pairs are a table built when the program runs, for any P.
  func.func private @tick(%rin: memref<8xf64>, %sout: memref<8xf64>,
                          %cur: memref<8xf64>, %snew: memref<8xf64>,
                          %acc: memref<1xf64>, %t: index,
                          %ring: memref<?x2xi64>) {
    %hr = distruntime.recv outs(%rin : memref<8xf64>)
        source_target_pairs(%ring : memref<?x2xi64>) async
        {channel_id = 0 : i64, is_host_transfer = false}
    %hs = distruntime.send ins(%sout : memref<8xf64>)
        source_target_pairs(%ring : memref<?x2xi64>) async
        {channel_id = 0 : i64, is_host_transfer = false}
    func.call @compute(%cur, %snew, %acc, %t)
        : (memref<8xf64>, memref<8xf64>, memref<1xf64>, index) -> ()
    distruntime.wait %hr
    distruntime.wait %hs
    return
  }

  func.func @main() -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %M = arith.constant 6 : index
    %zero = arith.constant 0.0 : f64
    %P = distruntime.team_size team(0)
    %me = distruntime.team_member team(0)
    %is_root = arith.cmpi eq, %me, %c0 : index
    %rin = memref.alloc() : memref<8xf64>
    %sout = memref.alloc() : memref<8xf64>
    %cur = memref.alloc() : memref<8xf64>
    %snew = memref.alloc() : memref<8xf64>
    %acc = memref.alloc() : memref<1xf64>
    linalg.fill ins(%zero : f64) outs(%sout : memref<8xf64>)
    linalg.fill ins(%zero : f64) outs(%cur : memref<8xf64>)
    linalg.fill ins(%zero : f64) outs(%snew : memref<8xf64>)
    linalg.fill ins(%zero : f64) outs(%acc : memref<1xf64>)
    %p2 = arith.muli %P, %c2 : index
    %ticks = arith.addi %M, %p2 : index
    // The ring [[0, 1], [1, 2], ..., [P - 1, 0]]: stage s sends to s + 1.
    %ring = memref.alloc(%P) : memref<?x2xi64>
    scf.for %s = %c0 to %P step %c1 {
      %s1 = arith.addi %s, %c1 : index
      %next = arith.remui %s1, %P : index
      %from = arith.index_cast %s : index to i64
      %to = arith.index_cast %next : index to i64
      memref.store %from, %ring[%s, %c0] : memref<?x2xi64>
      memref.store %to, %ring[%s, %c1] : memref<?x2xi64>
    }
    scf.for %t = %c0 to %ticks step %c1 {
      func.call @tick(%rin, %sout, %cur, %snew, %acc, %t, %ring)
          : (memref<8xf64>, memref<8xf64>, memref<8xf64>, memref<8xf64>,
             memref<1xf64>, index, memref<?x2xi64>) -> ()
      memref.copy %rin, %cur : memref<8xf64> to memref<8xf64>
      memref.copy %snew, %sout : memref<8xf64> to memref<8xf64>
    }
    memref.dealloc %ring : memref<?x2xi64>
    scf.if %is_root {
      // The outputs are multiples of 8^-P: scaled by 2^24 = 8^8 the sum is
      // an integer for up to 8 stages.
      %total = memref.load %acc[%c0] : memref<1xf64>
      %scale = arith.constant 16777216.0 : f64
      %ts = arith.mulf %total, %scale : f64
      %ti = arith.fptosi %ts : f64 to i64
      %P64 = arith.index_cast %P : index to i64
      vector.print str "stages "
      vector.print %P64 : i64
      vector.print str "checksum "
      vector.print %ti : i64
    }
    %ok = arith.constant 0 : i32
    return %ok : i32
  }
}
