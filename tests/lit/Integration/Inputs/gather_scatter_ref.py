#!/usr/bin/env python3
"""Independent reference for distruntime.gather / distruntime.scatter.

Implements StableHLO gather and scatter with batching dimensions literally
from the formulas of seed 004 (result_index -> operand_index for gather,
update_index -> result_index for scatter), over nested Python lists, with no
numpy and nothing shared with the MLIR side. It also writes the MLIR program
of a test case (inputs as dense constants / memref globals), so that the
program's printed output can be diffed against the reference's.

  gather_scatter_ref.py CASE PROGRAM.mlir EXPECTED.txt
  gather_scatter_ref.py --selftest      # the seed's two examples
  gather_scatter_ref.py --list          # case names

Output format (one line per printed array, elements in row-major order):
  label: v0 v1 ...
(prefixed by "rank R " in multi-rank cases). Integers print in decimal,
floats with C's "%g", as vector.print does.
"""

import itertools
import struct
import sys

# ---------------------------------------------------------------------------
# Nested-list helpers
# ---------------------------------------------------------------------------


def shape_of(x):
    shape = []
    while isinstance(x, list):
        shape.append(len(x))
        x = x[0] if x else None
    return shape


def index_space(shape):
    """All indices of `shape` in row-major (lexicographic) order."""
    return itertools.product(*[range(s) for s in shape])


def get(x, index):
    for i in index:
        x = x[i]
    return x


def put(x, index, value):
    for i in index[:-1]:
        x = x[i]
    x[index[-1]] = value


def build(shape, fn):
    """Nested list of `shape` whose element at index is fn(index)."""

    def rec(prefix, rest):
        if not rest:
            return fn(tuple(prefix))
        return [rec(prefix + [i], rest[1:]) for i in range(rest[0])]

    return rec([], list(shape))


def copy(x):
    return [copy(e) for e in x] if isinstance(x, list) else x


def flatten(x):
    if isinstance(x, list):
        return [v for e in x for v in flatten(e)]
    return [x]


def combine(rank, offset_dims, batch_sizes, offset_sizes):
    """The seed's combine(): offset sizes at offset_dims, batch sizes at the
    other axes, both in order."""
    batch = iter(batch_sizes)
    offset = iter(offset_sizes)
    return [next(offset) if d in offset_dims else next(batch) for d in range(rank)]


# ---------------------------------------------------------------------------
# Element types
# ---------------------------------------------------------------------------

INT_BITS = {"i8": 8, "i16": 16, "i32": 32, "i64": 64}
UINT_BITS = {"ui8": 8, "ui16": 16, "ui32": 32, "ui64": 64}


def is_float(t):
    return t in ("f32", "f64")


def normalize(t, v):
    """A value as stored in an element of type t (ints wrap, f32 rounds)."""
    if t in INT_BITS:
        bits = INT_BITS[t]
        v %= 1 << bits
        return v - (1 << bits) if v >= 1 << (bits - 1) else v
    if t in UINT_BITS:
        return v % (1 << UINT_BITS[t])
    if t == "f32":
        return struct.unpack("f", struct.pack("f", v))[0]
    return float(v)


def text(t, v):
    """How vector.print shows an element."""
    return "%g" % v if is_float(t) else str(v)


# ---------------------------------------------------------------------------
# gather, from the seed's formulas
# ---------------------------------------------------------------------------


def gather(operand, start_indices, offset_dims, collapsed_slice_dims,
           operand_batching_dims, start_indices_batching_dims,
           start_index_map, index_vector_dim, slice_sizes):
    operand_shape = shape_of(operand)
    indices_shape = shape_of(start_indices)
    # (C22): shape(result) = combine(batch_dim_sizes, offset_dim_sizes).
    batch_dim_sizes = [s for d, s in enumerate(indices_shape) if d != index_vector_dim]
    offset_dim_sizes = [
        s for d, s in enumerate(slice_sizes)
        if d not in collapsed_slice_dims and d not in operand_batching_dims
    ]
    result_rank = len(batch_dim_sizes) + len(offset_dim_sizes)
    result_shape = combine(result_rank, offset_dims, batch_dim_sizes, offset_dim_sizes)

    def element(result_index):
        batch_dims = [d for d in range(result_rank) if d not in offset_dims]
        batch_index = [result_index[d] for d in batch_dims]
        if index_vector_dim < len(indices_shape):
            start_index = [
                get(start_indices,
                    batch_index[:index_vector_dim] + [k] + batch_index[index_vector_dim:])
                for k in range(indices_shape[index_vector_dim])
            ]
        else:
            start_index = [get(start_indices, batch_index)]
        full_start_index = [0] * len(operand_shape)
        for d_operand in range(len(operand_shape)):
            if d_operand in start_index_map:
                d_start = start_index_map.index(d_operand)
                full_start_index[d_operand] = min(
                    max(start_index[d_start], 0),
                    operand_shape[d_operand] - slice_sizes[d_operand])
        full_batching_index = [0] * len(operand_shape)
        for d_operand in range(len(operand_shape)):
            if d_operand in operand_batching_dims:
                i_batching = operand_batching_dims.index(d_operand)
                d_start = start_indices_batching_dims[i_batching]
                full_batching_index[d_operand] = batch_index[
                    d_start - (0 if d_start < index_vector_dim else 1)]
        offset_index = iter([result_index[d] for d in offset_dims])
        full_offset_index = [
            0 if (d in collapsed_slice_dims or d in operand_batching_dims) else next(offset_index)
            for d in range(len(operand_shape))
        ]
        operand_index = [
            a + b + c for a, b, c in zip(full_start_index, full_batching_index, full_offset_index)
        ]
        return get(operand, operand_index)

    return build(result_shape, element)


# ---------------------------------------------------------------------------
# scatter, from the seed's formulas
# ---------------------------------------------------------------------------


def scatter(inputs, scatter_indices, updates, update_window_dims,
            inserted_window_dims, input_batching_dims,
            scatter_indices_batching_dims, scatter_dims_to_operand_dims,
            index_vector_dim, update_computation):
    """update_computation(currents, updates) -> new values (lists)."""
    results = [copy(x) for x in inputs]
    input_shape = shape_of(inputs[0])
    indices_shape = shape_of(scatter_indices)
    update_shape = shape_of(updates[0])
    rank = len(input_shape)
    # schedule: row-major order of index_space(updates[0]).
    for update_index in index_space(update_shape):
        update_scatter_dims = [d for d in range(len(update_shape)) if d not in update_window_dims]
        update_scatter_index = [update_index[d] for d in update_scatter_dims]
        if index_vector_dim < len(indices_shape):
            start_index = [
                get(scatter_indices,
                    update_scatter_index[:index_vector_dim] + [k] +
                    update_scatter_index[index_vector_dim:])
                for k in range(indices_shape[index_vector_dim])
            ]
        else:
            start_index = [get(scatter_indices, update_scatter_index)]
        full_start_index = [0] * rank
        for d_input in range(rank):
            if d_input in scatter_dims_to_operand_dims:
                d_start = scatter_dims_to_operand_dims.index(d_input)
                full_start_index[d_input] = start_index[d_start]
        full_batching_index = [0] * rank
        for d_input in range(rank):
            if d_input in input_batching_dims:
                i_batching = input_batching_dims.index(d_input)
                d_start = scatter_indices_batching_dims[i_batching]
                full_batching_index[d_input] = update_scatter_index[
                    d_start - (0 if d_start < index_vector_dim else 1)]
        update_window_index = iter([update_index[d] for d in update_window_dims])
        full_window_index = [
            0 if (d in inserted_window_dims or d in input_batching_dims) else next(update_window_index)
            for d in range(rank)
        ]
        result_index = [
            a + b + c for a, b, c in zip(full_start_index, full_batching_index, full_window_index)
        ]
        if all(0 <= i < s for i, s in zip(result_index, input_shape)):
            current = [get(r, result_index) for r in results]
            new = update_computation(current, [get(u, update_index) for u in updates])
            for r, v in zip(results, new):
                put(r, result_index, v)
    return results


# ---------------------------------------------------------------------------
# Deterministic data
# ---------------------------------------------------------------------------


def closed_form(t, a, b, m, shift, scale=1):
    """value(k) = ((a k + b) mod m - shift) * scale at row-major position k;
    floats use scale = 1/4 or 1/8 so every value is an exact dyadic."""

    def gen(shape):
        strides = [1] * len(shape)
        for d in range(len(shape) - 2, -1, -1):
            strides[d] = strides[d + 1] * shape[d + 1]

        def value(index):
            k = sum(i * s for i, s in zip(index, strides))
            v = ((a * k + b) % m - shift)
            return normalize(t, v * scale) if is_float(t) else normalize(t, v)

        return build(shape, value)

    return gen


def lcg(lo, hi, seed, specials=None):
    """Fixed LCG values in [lo, hi]; `specials` maps row-major positions to
    values that replace them (e.g. unsigned values above the signed range)."""
    specials = specials or {}

    def gen(shape):
        state = [seed]
        counter = [0]

        def value(index):
            state[0] = (1103515245 * state[0] + 12345) % (1 << 31)
            k = counter[0]
            counter[0] += 1
            if k in specials:
                return specials[k]
            return lo + (state[0] >> 8) % (hi - lo + 1)

        return build(shape, value)

    return gen


def literal(values):
    return lambda shape: copy(values)


# ---------------------------------------------------------------------------
# Update computations: (MLIR op for integers, for floats, Python function)
# ---------------------------------------------------------------------------

COMPUTATIONS = {
    "add": ("arith.addi", "arith.addf", lambda c, u: c + u),
    "mul": ("arith.muli", "arith.mulf", lambda c, u: c * u),
    "max": ("arith.maxsi", "arith.maximumf", lambda c, u: max(c, u)),
    "replace": (None, None, lambda c, u: u),
}

# ---------------------------------------------------------------------------
# Test cases. An op is a dict; its data generators take a shape.
# ---------------------------------------------------------------------------


def G(label, form, operand, indices, offset_dims, collapsed, obd, sibd, sim, ivd, slice_sizes):
    return dict(kind="gather", label=label, form=form, operand=operand, indices=indices,
                offset_dims=offset_dims, collapsed=collapsed, obd=obd, sibd=sibd, sim=sim,
                ivd=ivd, slice_sizes=slice_sizes)


def S(label, form, input_shape, inputs, indices, window_sizes, updates, uwd, iwd, ibd, sibd,
      sdod, ivd, computations, unique=False):
    return dict(kind="scatter", label=label, form=form, input_shape=input_shape, inputs=inputs,
                indices=indices, window_sizes=window_sizes, updates=updates, uwd=uwd, iwd=iwd,
                ibd=ibd, sibd=sibd, sdod=sdod, ivd=ivd, computations=computations,
                unique=unique)


CASES = {
    # Batching dim of start_indices after index_vector_dim (ivd = 0) paired
    # with the operand's leading dim; then one before ivd (ivd = 2) paired
    # with the operand's trailing dim. Start indices run negative and past
    # dim - slice_size (clamped); slice sizes 3 and 2.
    "gather_batching_positions": [
        G("gather_i32_idx_i64", "tensor",
          ([3, 7, 5], "i32", closed_form("i32", 7, 3, 97, 20)),
          ([2, 3, 4], "i64", lcg(-4, 9, 11)),
          offset_dims=[1, 3], collapsed=[], obd=[0], sibd=[1], sim=[2, 1], ivd=0,
          slice_sizes=[1, 3, 2]),
        G("gather_f32_idx_i32", "tensor",
          ([4, 6, 2], "f32", closed_form("f32", 5, 1, 61, 30, 0.25)),
          ([2, 5, 2], "i32", lcg(-3, 8, 12)),
          offset_dims=[2], collapsed=[0], obd=[2], sibd=[0], sim=[0, 1], ivd=2,
          slice_sizes=[1, 3, 1]),
    ],
    # Two batching dims in swapped order: operand [0, 2] with start indices
    # [2, 0] (one on each side of ivd = 1); then operand [1, 2] with [1, 0],
    # an explicit size-1 index vector, offset dim in front, and ui16 indices
    # above the signed range (clamped to the upper bound).
    "gather_swapped_batching": [
        G("gather_f64_swapped", "tensor",
          ([2, 5, 3, 4], "f64", closed_form("f64", 13, 5, 83, 40, 0.125)),
          ([3, 2, 2, 4], "i64", lcg(-3, 7, 13)),
          offset_dims=[1], collapsed=[1], obd=[0, 2], sibd=[2, 0], sim=[3, 1], ivd=1,
          slice_sizes=[1, 1, 1, 3]),
        G("gather_i64_idx_ui16", "tensor",
          ([5, 3, 2], "i64", closed_form("i64", 3, 1000, 100003, 40000)),
          ([2, 3, 1], "ui16", literal([[[65535], [0], [40000]], [[1], [32768], [2]]])),
          offset_dims=[0], collapsed=[], obd=[1, 2], sibd=[1, 0], sim=[0], ivd=2,
          slice_sizes=[3, 1, 1]),
    ],
    # index_vector_dim == rank(start_indices): implicit size-1 index vectors,
    # with ui32 indices (values above 2^31 must clamp to the upper bound,
    # not to 0) and with i32 indices and a trailing batching dim.
    "gather_implicit_index_vector": [
        G("gather_i32_idx_ui32", "tensor",
          ([3, 8], "i32", closed_form("i32", 11, 2, 89, 44)),
          ([3, 4], "ui32", literal([[4294967295, 0, 2147483648, 5],
                                    [2147483647, 6, 1, 3],
                                    [7, 4294967294, 2, 65536]])),
          offset_dims=[2], collapsed=[], obd=[0], sibd=[0], sim=[1], ivd=2,
          slice_sizes=[1, 3]),
        G("gather_f32_idx_i32_implicit", "tensor",
          ([6, 4], "f32", closed_form("f32", 9, 4, 53, 26, 0.5)),
          ([5, 4], "i32", lcg(-5, 10, 14)),
          offset_dims=[1], collapsed=[], obd=[1], sibd=[1], sim=[0], ivd=2,
          slice_sizes=[2, 1]),
    ],
    # Scatter-add with windows partially and fully out of bounds (negative
    # and too-large starts): i32 with the batching dim of the indices after
    # ivd = 0 and the input's leading dim; f64 with an inserted window dim,
    # the input's trailing batching dim and i32 indices.
    "scatter_add_out_of_bounds": [
        S("scatter_add_i32", "tensor", [3, 6, 4],
          [("i32", closed_form("i32", 7, 1, 31, 10))],
          ([2, 3, 5], "i64", lcg(-3, 7, 21)),
          window_sizes=[2, 3], updates=[("i32", closed_form("i32", 5, 2, 19, 6))],
          uwd=[1, 3], iwd=[], ibd=[0], sibd=[1], sdod=[1, 2], ivd=0,
          computations=["add"]),
        S("scatter_add_f64", "tensor", [5, 4, 3],
          [("f64", closed_form("f64", 3, 0, 41, 20, 0.25))],
          ([3, 4, 2], "i32", lcg(-2, 6, 22)),
          window_sizes=[2], updates=[("f64", closed_form("f64", 7, 3, 17, 8, 0.125))],
          uwd=[2], iwd=[1], ibd=[2], sibd=[0], sdod=[0, 1], ivd=2,
          computations=["add"]),
    ],
    # Scatter-max (arith.maximumf) with swapped batching dims (input [0, 2]
    # with indices [2, 0]) and an implicit index vector; scatter-mul on i64
    # with ui16 indices, some above the signed range (skipped), and a window
    # dim in front of the updates.
    "scatter_max_mul": [
        S("scatter_max_f32", "tensor", [2, 5, 3],
          [("f32", closed_form("f32", 11, 7, 43, 21, 0.25))],
          ([3, 4, 2], "i32", lcg(-2, 6, 23)),
          window_sizes=[2], updates=[("f32", closed_form("f32", 13, 2, 47, 23, 0.25))],
          uwd=[3], iwd=[], ibd=[0, 2], sibd=[2, 0], sdod=[1], ivd=3,
          computations=["max"]),
        S("scatter_mul_i64", "tensor", [4, 5, 3],
          [("i64", closed_form("i64", 1, 0, 3, -1))],
          ([2, 4, 3], "ui16", lcg(0, 4, 24, {1: 65535, 5: 40000, 8: 32768, 14: 65534})),
          window_sizes=[2], updates=[("i64", closed_form("i64", 3, 1, 6, 2))],
          uwd=[0], iwd=[1], ibd=[0], sibd=[1], sdod=[2, 1], ivd=0,
          computations=["mul"]),
    ],
    # Variadic scatter: i32 (arith.maxsi) and f32 (arith.addf) inputs under
    # one two-result update_computation, ui32 indices (huge ones skipped)
    # along an explicit size-1 index vector.
    "scatter_variadic": [
        S("scatter_i32_f32", "tensor", [4, 7],
          [("i32", closed_form("i32", 5, 3, 23, 11)),
           ("f32", closed_form("f32", 3, 1, 29, 14, 0.5))],
          ([4, 3, 1], "ui32", lcg(0, 6, 25, {0: 4294967295, 4: 2147483648, 7: 4294967294,
                                            10: 2147483647})),
          window_sizes=[3],
          updates=[("i32", closed_form("i32", 7, 0, 37, 18)),
                   ("f32", closed_form("f32", 5, 2, 13, 6, 0.25))],
          uwd=[2], iwd=[], ibd=[0], sibd=[0], sdod=[1], ivd=2,
          computations=["max", "add"]),
    ],
    # Plain replacement (yield the update) with unique target indices only:
    # f64 with a batching dim (one window fully out at -2, one partially out
    # at 7), and i32 without batching dims (implicit index vector).
    "scatter_replace_unique": [
        S("scatter_replace_f64", "tensor", [2, 8],
          [("f64", closed_form("f64", 1, 0, 100, 0, 0.5))],
          ([2, 3, 1], "i64", literal([[[0], [3], [6]], [[-2], [7], [2]]])),
          window_sizes=[2], updates=[("f64", closed_form("f64", 1, 1, 100, 0, -1.0))],
          uwd=[2], iwd=[], ibd=[0], sibd=[0], sdod=[1], ivd=2,
          computations=["replace"], unique=True),
        S("scatter_replace_i32", "tensor", [6],
          [("i32", closed_form("i32", 1, 0, 100, 0))],
          ([3], "i32", literal([4, -1, 6])),
          window_sizes=[1], updates=[("i32", closed_form("i32", 1, 1, 100, 0, 1))],
          uwd=[1], iwd=[], ibd=[], sibd=[], sdod=[0], ivd=1,
          computations=["replace"], unique=True),
    ],
    # Index types at their limits. ui64 indices at and above 2^63 are huge
    # positive values: gather clamps them to the upper bound; scatter skips
    # every element of their windows (start + window offset must not wrap
    # around into bounds). i8 (ui8) indices with a batching dim of 130 (260)
    # positions: batching positions that do not fit the index type.
    "index_type_edges": [
        G("gather_i64_idx_ui64", "tensor",
          ([2, 6], "i64", closed_form("i64", 5, 1, 23, 11)),
          ([2, 3], "ui64", literal([[18446744073709551615, 9223372036854775808, 2],
                                    [9223372036854775807, 0, 4]])),
          offset_dims=[2], collapsed=[], obd=[0], sibd=[0], sim=[1], ivd=2,
          slice_sizes=[1, 3]),
        S("scatter_add_idx_ui64", "tensor", [2, 6],
          [("i32", closed_form("i32", 1, 0, 100, 0))],
          ([2, 2], "ui64", literal([[18446744073709551615, 18446744073709551614],
                                    [9223372036854775808, 3]])),
          window_sizes=[3], updates=[("i32", closed_form("i32", 0, 100, 1000, 0))],
          uwd=[2], iwd=[], ibd=[0], sibd=[0], sdod=[1], ivd=2,
          computations=["add"]),
        G("gather_i8_idx_130_batches", "tensor",
          ([130, 4], "i32", closed_form("i32", 1, 0, 100000, 0)),
          ([130, 1], "i8", lcg(-1, 3, 15)),
          offset_dims=[1], collapsed=[], obd=[0], sibd=[0], sim=[1], ivd=1,
          slice_sizes=[1, 2]),
        S("scatter_max_idx_ui8_260_batches", "tensor", [260, 3],
          [("i32", closed_form("i32", 7, 0, 50, 25))],
          ([260, 1], "ui8", lcg(0, 2, 16, {3: 255, 100: 255, 200: 128, 259: 255})),
          window_sizes=[2], updates=[("i32", closed_form("i32", 11, 5, 60, 30))],
          uwd=[1], iwd=[], ibd=[0], sibd=[0], sdod=[1], ivd=1,
          computations=["max"]),
    ],
    # The memref form: gather into an outs buffer; scatter into a separate
    # outs buffer (the input must stay unchanged); variadic scatter in place
    # (outs are the input buffers) with ui32 indices.
    "memref_forms": [
        G("memref_gather_i64", "memref",
          ([4, 6, 3], "i64", closed_form("i64", 17, 5, 101, 50)),
          ([3, 5, 2], "i32", lcg(-3, 8, 31)),
          offset_dims=[0, 2], collapsed=[], obd=[2], sibd=[0], sim=[1, 0], ivd=2,
          slice_sizes=[2, 3, 1]),
        S("memref_scatter_add_i32", "memref", [6, 3],
          [("i32", closed_form("i32", 3, 2, 17, 8))],
          ([3, 4, 1], "i64", lcg(-3, 6, 32)),
          window_sizes=[3], updates=[("i32", closed_form("i32", 1, 1, 7, 0))],
          uwd=[2], iwd=[], ibd=[1], sibd=[0], sdod=[0], ivd=2,
          computations=["add"]),
        S("memref_scatter_inplace", "memref_inplace", [3, 5],
          [("i64", closed_form("i64", 1, 1, 3, -1)),
           ("f64", closed_form("f64", 7, 2, 19, 9, 0.25))],
          ([3, 2], "ui32", lcg(0, 5, 33, {2: 4294967295})),
          window_sizes=[2],
          updates=[("i64", closed_form("i64", 1, 0, 3, -1)),
                   ("f64", closed_form("f64", 5, 3, 23, 11, 0.125))],
          uwd=[2], iwd=[], ibd=[0], sibd=[0], sdod=[1], ivd=2,
          computations=["mul", "max"]),
    ],
}

# SPMD: each rank runs the same gather and scatter on its own local data
# (rank 0 and rank 1 get different constants); run on 2 ranks.
SPMD_CASES = {
    "spmd_two_ranks": [
        [
            G("spmd_gather", "tensor",
              ([2, 5, 3], "i32", closed_form("i32", 7, 3 + 50 * rank, 89, 40)),
              ([2, 4, 1], "i64", lcg(-2, 6, 40 + rank)),
              offset_dims=[2, 3], collapsed=[], obd=[0], sibd=[0], sim=[1], ivd=2,
              slice_sizes=[1, 2, 3]),
            S("spmd_scatter", "tensor", [2, 6],
              [("f32", closed_form("f32", 5, 1 + 9 * rank, 31, 15, 0.5))],
              ([2, 3], "i32", lcg(-2, 6, 50 + rank)),
              window_sizes=[2], updates=[("f32", closed_form("f32", 3, rank, 11, 5, 0.25))],
              uwd=[2], iwd=[], ibd=[0], sibd=[0], sdod=[1], ivd=2,
              computations=["add"]),
        ]
        for rank in range(2)
    ],
}

# ---------------------------------------------------------------------------
# Evaluating a case with the reference
# ---------------------------------------------------------------------------


def gather_shapes(op):
    indices_shape = op["indices"][0]
    batch = [s for d, s in enumerate(indices_shape) if d != op["ivd"]]
    offset = [s for d, s in enumerate(op["slice_sizes"])
              if d not in op["collapsed"] and d not in op["obd"]]
    return combine(len(batch) + len(offset), op["offset_dims"], batch, offset)


def scatter_update_shape(op):
    indices_shape = op["indices"][0]
    scatter_sizes = [s for d, s in enumerate(indices_shape) if d != op["ivd"]]
    rank = len(scatter_sizes) + len(op["window_sizes"])
    return combine(rank, op["uwd"], scatter_sizes, op["window_sizes"])


def materialize(op):
    """The op's input data as nested lists."""
    data = {}
    if op["kind"] == "gather":
        shape, t, gen = op["operand"]
        data["operand"] = gen(shape)
    else:
        data["inputs"] = [gen(op["input_shape"]) for _, gen in op["inputs"]]
        ushape = scatter_update_shape(op)
        data["updates"] = [gen(ushape) for _, gen in op["updates"]]
    shape, t, gen = op["indices"]
    data["indices"] = gen(shape)
    return data


def evaluate(op, data):
    """[(label, element type, nested list)] the program prints for op."""
    if op["kind"] == "gather":
        result = gather(data["operand"], data["indices"], op["offset_dims"], op["collapsed"],
                        op["obd"], op["sibd"], op["sim"], op["ivd"], op["slice_sizes"])
        return [(op["label"], op["operand"][1], result)]
    types = [t for t, _ in op["inputs"]]
    funcs = [COMPUTATIONS[c][2] for c in op["computations"]]

    def computation(current, updates):
        return [normalize(t, f(c, u)) for t, f, c, u in zip(types, funcs, current, updates)]

    results = scatter(data["inputs"], data["indices"], data["updates"], op["uwd"], op["iwd"],
                      op["ibd"], op["sibd"], op["sdod"], op["ivd"], computation)
    printed = [("%s_result%d" % (op["label"], i), t, r)
               for i, (t, r) in enumerate(zip(types, results))]
    if op["form"] != "memref_inplace":
        printed += [("%s_input%d" % (op["label"], i), t, x)
                    for i, (t, x) in enumerate(zip(types, data["inputs"]))]
    return printed


def expected_lines(ops, data, prefix=""):
    lines = []
    for op, d in zip(ops, data):
        for label, t, value in evaluate(op, d):
            lines.append(prefix + label + ":" + "".join(" " + text(t, v) for v in flatten(value)))
    return lines


# ---------------------------------------------------------------------------
# Writing the MLIR program
# ---------------------------------------------------------------------------


def tensor_type(shape, t):
    return "tensor<%s>" % "x".join([str(s) for s in shape] + [t])


def memref_type(shape, t):
    return "memref<%s>" % "x".join([str(s) for s in shape] + [t])


def dense(t, value):
    def fmt(x):
        if isinstance(x, list):
            return "[" + ", ".join(fmt(e) for e in x) + "]"
        if is_float(t):
            s = repr(float(x))
            assert "e" not in s and "n" not in s, s
            return s
        return str(x)

    return "dense<%s>" % fmt(value)


def dim_list(name, dims):
    return "%s = [%s]" % (name, ", ".join(map(str, dims))) if dims else None


class Emitter:
    def __init__(self, ranks):
        self.ranks = ranks
        self.globals = []
        self.body = []
        self.count = 0

    def fresh(self, stem):
        self.count += 1
        return "%s%d" % (stem, self.count)

    def line(self, s):
        self.body.append("  " + s)

    def global_(self, shape, t, value):
        name = self.fresh("g")
        self.globals.append('memref.global "private" constant @%s : %s = %s' % (
            name, memref_type(shape, t), dense(t, value)))
        return name

    def constant_tensor(self, shape, t, values):
        """A tensor value with per-rank data `values` (one per data set)."""
        ty = tensor_type(shape, t)
        parts = []
        for value in values:
            v = "%" + self.fresh("c")
            if t in UINT_BITS:
                # arith.constant cannot have unsigned types: read a global.
                m = "%" + self.fresh("m")
                self.line("%s = memref.get_global @%s : %s" % (
                    m, self.global_(shape, t, value), memref_type(shape, t)))
                self.line("%s = bufferization.to_tensor %s restrict : %s to %s" % (
                    v, m, memref_type(shape, t), ty))
            else:
                self.line("%s = arith.constant %s : %s" % (v, dense(t, value), ty))
            parts.append(v)
        return self.select(parts, ty)

    def constant_memref(self, shape, t, values, writable):
        ty = memref_type(shape, t)
        parts = []
        for value in values:
            m = "%" + self.fresh("m")
            self.line("%s = memref.get_global @%s : %s" % (m, self.global_(shape, t, value), ty))
            if writable:
                a = "%" + self.fresh("a")
                self.line("%s = memref.alloc() : %s" % (a, ty))
                self.line("memref.copy %s, %s : %s to %s" % (m, a, ty, ty))
                m = a
            parts.append(m)
        return self.select(parts, ty)

    def select(self, parts, ty):
        if len(parts) == 1:
            return parts[0]
        v = "%" + self.fresh("sel")
        self.line("%s = arith.select %%is_rank0, %s, %s : %s" % (v, parts[0], parts[1], ty))
        return v

    def print_array(self, label, value, shape, t, memref):
        n = 1
        for s in shape:
            n *= s
        ty = (memref_type if memref else tensor_type)(shape, t)
        flat_ty = (memref_type if memref else tensor_type)([n], t)
        dyn_ty = (memref_type if memref else tensor_type)(["?"], t)
        dialect = "memref" if memref else "tensor"
        if len(shape) != 1:
            f = "%" + self.fresh("flat")
            self.line("%s = %s.collapse_shape %s [[%s]] : %s into %s" % (
                f, dialect, value, ", ".join(map(str, range(len(shape)))), ty, flat_ty))
            value = f
        d = "%" + self.fresh("dyn")
        self.line("%s = %s.cast %s : %s to %s" % (d, dialect, value, flat_ty, dyn_ty))
        if self.ranks > 1:
            self.line('vector.print str "rank "')
            self.line("vector.print %me : index punctuation <no_punctuation>")
            self.line('vector.print str " "')
        self.line('vector.print str "%s:"' % label)
        self.line("func.call @print_%s_%s(%s) : (%s) -> ()" % (dialect, t, d, dyn_ty))

    def gather(self, op, datas):
        shape, t, _ = op["operand"]
        ishape, it, _ = op["indices"]
        rshape = gather_shapes(op)
        memref = op["form"] == "memref"
        if memref:
            operand = self.constant_memref(shape, t, [d["operand"] for d in datas], True)
            indices = self.constant_memref(ishape, it, [d["indices"] for d in datas], False)
        else:
            operand = self.constant_tensor(shape, t, [d["operand"] for d in datas])
            indices = self.constant_tensor(ishape, it, [d["indices"] for d in datas])
        ty = memref_type if memref else tensor_type
        entries = [e for e in [
            dim_list("offset_dims", op["offset_dims"]),
            dim_list("collapsed_slice_dims", op["collapsed"]),
            dim_list("operand_batching_dims", op["obd"]),
            dim_list("start_indices_batching_dims", op["sibd"]),
            dim_list("start_index_map", op["sim"]),
            "index_vector_dim = %d" % op["ivd"]] if e]
        attrs = ("{\n    dimension_numbers = #distruntime.gather<%s>,\n"
                 "    slice_sizes = array<i64: %s>,\n    indices_are_sorted = false\n  }") % (
                     ", ".join(entries), ", ".join(map(str, op["slice_sizes"])))
        ins = "ins(%s, %s : %s, %s)" % (operand, indices, ty(shape, t), ty(ishape, it))
        if memref:
            result = "%" + self.fresh("out")
            self.line("%s = memref.alloc() : %s" % (result, memref_type(rshape, t)))
            self.line("distruntime.gather %s outs(%s : %s) %s" % (
                ins, result, memref_type(rshape, t), attrs))
        else:
            result = "%" + self.fresh("gather")
            self.line("%s = distruntime.gather %s %s -> %s" % (
                result, ins, attrs, tensor_type(rshape, t)))
        self.print_array(op["label"], result, rshape, t, memref)

    def scatter(self, op, datas):
        shape = op["input_shape"]
        types = [t for t, _ in op["inputs"]]
        ishape, it, _ = op["indices"]
        ushape = scatter_update_shape(op)
        memref = op["form"] != "tensor"
        inplace = op["form"] == "memref_inplace"
        ty = memref_type if memref else tensor_type
        if memref:
            inputs = [self.constant_memref(shape, t, [d["inputs"][i] for d in datas], True)
                      for i, t in enumerate(types)]
            indices = self.constant_memref(ishape, it, [d["indices"] for d in datas], False)
            updates = [self.constant_memref(ushape, t, [d["updates"][i] for d in datas], False)
                       for i, t in enumerate(types)]
        else:
            inputs = [self.constant_tensor(shape, t, [d["inputs"][i] for d in datas])
                      for i, t in enumerate(types)]
            indices = self.constant_tensor(ishape, it, [d["indices"] for d in datas])
            updates = [self.constant_tensor(ushape, t, [d["updates"][i] for d in datas])
                       for i, t in enumerate(types)]
        in_types = ", ".join(ty(shape, t) for t in types)
        up_types = ", ".join(ty(ushape, t) for t in types)
        entries = [e for e in [
            dim_list("update_window_dims", op["uwd"]),
            dim_list("inserted_window_dims", op["iwd"]),
            dim_list("input_batching_dims", op["ibd"]),
            dim_list("scatter_indices_batching_dims", op["sibd"]),
            dim_list("scatter_dims_to_operand_dims", op["sdod"]),
            "index_vector_dim = %d" % op["ivd"]] if e]
        n = len(types)
        args = ["%%cur%d: %s" % (i, t) for i, t in enumerate(types)] + \
               ["%%upd%d: %s" % (i, t) for i, t in enumerate(types)]
        body = ["  ^bb0(%s):" % ", ".join(args)]
        yields = []
        for i, (t, c) in enumerate(zip(types, op["computations"])):
            int_op, float_op, _ = COMPUTATIONS[c]
            if c == "replace":
                yields.append("%%upd%d" % i)
                continue
            body.append("    %%new%d = %s %%cur%d, %%upd%d : %s" % (
                i, float_op if is_float(t) else int_op, i, i, t))
            yields.append("%%new%d" % i)
        body.append("    distruntime.yield %s : %s" % (", ".join(yields), ", ".join(types)))
        text_ = ("distruntime.scatter ins(%s : %s)\n      indices(%s : %s)\n"
                 "      updates(%s : %s)" % (", ".join(inputs), in_types, indices,
                                             ty(ishape, it), ", ".join(updates), up_types))
        if memref:
            if inplace:
                outputs = inputs
            else:
                outputs = []
                for t in types:
                    o = "%" + self.fresh("out")
                    self.line("%s = memref.alloc() : %s" % (o, memref_type(shape, t)))
                    outputs.append(o)
            text_ += " outs(%s : %s)" % (", ".join(outputs), in_types)
        text_ += (" {\n    scatter_dimension_numbers = #distruntime.scatter<%s>,\n"
                  "    indices_are_sorted = false, unique_indices = %s\n  } update_computation {\n"
                  % (", ".join(entries), "true" if op["unique"] else "false"))
        text_ += "\n".join(body) + "\n  }"
        if memref:
            self.line(text_)
            results = outputs
        else:
            r = "%" + self.fresh("scatter")
            self.line("%s%s = %s -> %s" % (r, ":%d" % n if n > 1 else "", text_, in_types))
            results = ["%s#%d" % (r, i) for i in range(n)] if n > 1 else [r]
        for i, (t, v) in enumerate(zip(types, results)):
            self.print_array("%s_result%d" % (op["label"], i), v, shape, t, memref)
        if not inplace:
            for i, (t, v) in enumerate(zip(types, inputs)):
                self.print_array("%s_input%d" % (op["label"], i), v, shape, t, memref)

    def program(self):
        out = ["// Generated by gather_scatter_ref.py; do not edit.", "module {"]
        out += ["  " + g for g in self.globals]
        out.append("  func.func @main() -> i32 {")
        if self.ranks > 1:
            out.append("    %c0_idx = arith.constant 0 : index")
            out.append("    %me = distruntime.team_member team(0)")
            out.append("    %is_rank0 = arith.cmpi eq, %me, %c0_idx : index")
        out += ["  " + line for line in self.body]
        out.append("    %ok = arith.constant 0 : i32")
        out.append("    return %ok : i32")
        out.append("  }")
        for kind, value in (("tensor", "tensor.extract %t[%i]"), ("memref", "memref.load %t[%i]")):
            for t in ("i32", "i64", "f32", "f64"):
                dyn = (tensor_type if kind == "tensor" else memref_type)(["?"], t)
                out += [
                    "  func.func @print_%s_%s(%%t: %s) {" % (kind, t, dyn),
                    "    %c0 = arith.constant 0 : index",
                    "    %c1 = arith.constant 1 : index",
                    "    %%n = %s.dim %%t, %%c0 : %s" % (kind, dyn),
                    "    scf.for %i = %c0 to %n step %c1 {",
                    "      %%v = %s : %s" % (value, dyn),
                    '      vector.print str " "',
                    "      vector.print %%v : %s punctuation <no_punctuation>" % t,
                    "    }",
                    "    vector.print punctuation <newline>",
                    "    return",
                    "  }",
                ]
        out.append("}")
        return "\n".join(out) + "\n"


def write_case(name, program_path, expected_path):
    if name in CASES:
        ops = CASES[name]
        per_rank = [ops]
    else:
        per_rank = SPMD_CASES[name]
        ops = per_rank[0]
    ranks = len(per_rank)
    data = [[materialize(op) for op in rank_ops] for rank_ops in per_rank]
    emitter = Emitter(ranks)
    for k, op in enumerate(ops):
        datas = [data[r][k] for r in range(ranks)]
        (emitter.gather if op["kind"] == "gather" else emitter.scatter)(op, datas)
    lines = []
    for r in range(ranks):
        prefix = "rank %d " % r if ranks > 1 else ""
        lines += expected_lines(per_rank[r], data[r], prefix)
    with open(program_path, "w") as f:
        f.write(emitter.program())
    with open(expected_path, "w") as f:
        f.write("\n".join(lines) + "\n")


# ---------------------------------------------------------------------------
# The seed's examples, as a check of the reference itself
# ---------------------------------------------------------------------------


def selftest():
    operand = build([2, 3, 4, 2], lambda i: 1 + i[3] + 2 * i[2] + 8 * i[1] + 24 * i[0])
    indices = [[[[0, 0], [1, 0], [2, 1]], [[0, 1], [1, 1], [0, 9]]],
               [[[0, 0], [2, 1], [2, 2]], [[1, 2], [0, 1], [1, 0]]]]
    result = gather(operand, indices, [3, 4], [1], [0], [1], [2, 1], 3, [1, 1, 2, 2])
    assert result == [
        [[[[1, 2], [3, 4]], [[3, 4], [5, 6]], [[13, 14], [15, 16]]],
         [[[33, 34], [35, 36]], [[35, 36], [37, 38]], [[41, 42], [43, 44]]]],
        [[[[1, 2], [3, 4]], [[13, 14], [15, 16]], [[21, 22], [23, 24]]],
         [[[43, 44], [45, 46]], [[33, 34], [35, 36]], [[27, 28], [29, 30]]]]], result
    updates = build([2, 2, 3, 2, 2], lambda i: 1)
    (scattered,) = scatter([operand], indices, [updates], [3, 4], [1], [0], [1], [2, 1], 3,
                           lambda c, u: [c[0] + u[0]])
    assert scattered == [
        [[[3, 4], [6, 7], [6, 7], [7, 8]],
         [[9, 10], [11, 12], [15, 16], [17, 18]],
         [[17, 18], [19, 20], [22, 23], [24, 25]]],
        [[[25, 26], [28, 29], [30, 31], [31, 32]],
         [[35, 36], [38, 39], [38, 39], [39, 40]],
         [[41, 42], [44, 45], [46, 47], [47, 48]]]], scattered
    assert operand[0][0][0] == [1, 2]  # inputs are not modified
    print("selftest: ok")


def main(argv):
    if argv[1:] == ["--selftest"]:
        selftest()
        return 0
    if argv[1:] == ["--list"]:
        print("\n".join(list(CASES) + list(SPMD_CASES)))
        return 0
    if len(argv) != 4 or (argv[1] not in CASES and argv[1] not in SPMD_CASES):
        sys.stderr.write(__doc__)
        return 2
    write_case(argv[1], argv[2], argv[3])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
