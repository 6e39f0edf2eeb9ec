// MBI class: Invalid parameter (InvalidCommunicator). np: 2. Erroneous.
// The RFC allreduce on team 1, a team no host program registered (only
// team 0, the world, exists): an invalid communicator.
func.func @main() -> i32 {
  %x = memref.alloc() : memref<4xf32>
  distruntime.allreduce <sum> %x team(1) : memref<4xf32>
  %r = arith.constant 0 : i32
  return %r : i32
}
