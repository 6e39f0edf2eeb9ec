#!/usr/bin/env python3
"""Serial reference for linalg-stencil.mlir: heat2d's Jacobi iteration
(examples/heat2d_reference.py, the same floating-point order) on an R x C
array for `steps` steps, on one process, and its exact checksum.
Usage: linalg_stencil_ref.py R C steps"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "..", "examples"))
import heat2d_reference  # noqa: E402

rows, cols, steps = (int(a) for a in sys.argv[1:4])
grid, _ = heat2d_reference.jacobi(rows, cols, steps)
print("checksum %d" % heat2d_reference.checksum(grid))
