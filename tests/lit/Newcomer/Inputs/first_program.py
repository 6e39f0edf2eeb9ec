#!/usr/bin/env python3
"""What docs/guide.md's first program prints on P processes, from closed
forms: P; the all_gathered sum of x_r[i] = r + i over the members r,
P (P - 1) / 2 + P i for i in [0, 2P); then max sqrt(r + 1) = sqrt(P), with
C's %g (vector.print) and %.17g (printf)."""
import math
import sys

P = int(sys.argv[1])
print(P)
for i in range(2 * P):
    print(P * (P - 1) // 2 + P * i)
print("%g" % math.sqrt(P))
print("%.17g" % math.sqrt(P))
