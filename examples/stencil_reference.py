#!/usr/bin/env python3
"""Serial reference for examples/stencil.mlir: the same Jacobi steps on an
N x N grid on one process (heat2d_reference.jacobi), printed in the same
format.
    python3 examples/stencil_reference.py [N] [steps]   (defaults 64 100)"""

import sys

from heat2d_reference import checksum, jacobi

N = int(sys.argv[1]) if len(sys.argv) > 1 else 64
STEPS = int(sys.argv[2]) if len(sys.argv) > 2 else 100

print("N %d steps %d" % (N, STEPS))
print("checksum %d" % checksum(jacobi(N, N, STEPS)[0]))
