// MBI class: Parameter matching (DatatypeMatching: the type signature's
// length). np: 2. Erroneous.
// all_reduce of 8 elements on member 0 and 4 on the others (MPI: the
// counts, hence the type signatures, differ; MPI may write past a buffer).
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %n = arith.select %is0, %c8, %c4 : index
  %x = memref.alloc(%n) : memref<?xf32>
  distruntime.all_reduce ins(%x : memref<?xf32>) outs(%x : memref<?xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  %r = arith.constant 0 : i32
  return %r : i32
}
