#!/usr/bin/env python3
"""Serial reference for examples/sample_sort.mlir: the same 10^6 values,
sorted by Python, printed in the same format."""

N = 1000000
MUL = 6364136223846793005
INC = 1442695040888963407


def values():
    """v(g) = ((g * MUL + INC) mod 2^64) >> 33, the low 31 bits."""
    return [(((g * MUL + INC) % 2**64) >> 33) & 0x7FFFFFFF for g in range(N)]


def main():
    s = sorted(values())
    print(f"count {len(s)}")
    print(f"sum {sum(s)}")
    print(f"min {s[0]}")
    print(f"median {s[N // 2]}")
    print(f"max {s[-1]}")
    print("sorted yes")


if __name__ == "__main__":
    main()
