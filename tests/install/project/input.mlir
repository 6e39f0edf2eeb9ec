// The tool parses and verifies distruntime ops and lowers them to calls into
// libdistrt (convert-distruntime-to-runtime).
func.func @f(%buf: memref<4xf64>) -> index {
  distruntime.allreduce <sum> %buf team(0) : memref<4xf64>
  %n = distruntime.team_size team(0)
  return %n : index
}
