// MBI class: Request lifecycle (MissingWait). np: 2. Erroneous.
// Every member issues an async all_reduce, but only member 0 waits for it:
// on the other members the request stays pending.
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %a = memref.alloc() : memref<4xf32>
  %h = distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  scf.if %is0 {
    distruntime.wait %h
  }
  %r = arith.constant 0 : i32
  return %r : i32
}
