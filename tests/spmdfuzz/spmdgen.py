#!/usr/bin/env python3
"""spmdgen.py: a random generator of SPMD distruntime programs (issue 33 part 3).

Usage:
  spmdgen.py --seed S --cases K [--np N] [--inject BUG] [--expect FILE]
             [--kinds k1,k2] [--contexts c1,c2] [--forms memref,tensor]

Prints ONE .mlir program, `func.func @main() -> i32` with K generated cases,
for a team of N processes (default 2): shapes and replica_groups are chosen
for that N. Every case is correct by construction and SPMD-agreeing:
collectives of several kinds (all_reduce sum/max/min over f32/f64/i32/i64
with enum or region reductions, all_gather, reduce_scatter, all_to_all,
collective_broadcast, collective_permute, send/recv, the RFC allreduce),
memref (in place or separate outputs) and tensor forms, sync or async (a
wait after unrelated work), inside contexts: straight line, branches on
uniform and on rank-dependent values (both sides run the same collective),
scf.for loops (uniform bounds, and bounds r+c .. r+c+T), private helper
functions (filling buffers, or running the whole case), memref.subview
views, two async ops in flight, loops that branch on (or stop at) the result
of an in-place all_reduce (convergence tests), batches of 1-D collectives on
views of one pool with writes and copies between them (combine and async
passes), a stencil loop over an output (carry-loads), and ping-pong time
loops whose memref iter_args swap.

Data are small integers derived from the member id (exact in f32/f64, so
reduction order does not matter). Each case prints one line per rank:
  c<case> r<rank> <checksum>
where the checksum (i64, acc = acc * 31 + x over every element of the case's
buffers, in row-major order) covers the inputs (which must come back
unchanged), the outputs and the unrelated work. --expect FILE writes the
lines the program must print, sorted, computed by a Python model of the
collectives.

--inject BUG makes exactly one case erroneous (and the others correct):
  mismatch     a rank-dependent branch whose sides run a different reduction
               or a different static shape;
  nowait       an async handle waited on one path of a rank-dependent branch
               only;
  early-touch  a buffer of an async op read (output) or written (input)
               before its wait.
The index of the injected case is written as a comment `// injected: ...`.
"""

import argparse
import random
import sys

MASK = (1 << 64) - 1


def wrap64(x):
    x &= MASK
    return x - (1 << 64) if x >> 63 else x


def prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


# --------------------------------------------------------------------------
# The model: arrays are (shape tuple, flat list of ints), row-major.

def unravel(i, shape):
    idx = []
    for s in reversed(shape):
        idx.append(i % s)
        i //= s
    return idx[::-1]


def ravel(idx, shape):
    i = 0
    for x, s in zip(idx, shape):
        i = i * s + x
    return i


def concat(arrs, d):
    shape = list(arrs[0][0])
    shape[d] = sum(a[0][d] for a in arrs)
    out = [0] * prod(shape)
    off = 0
    for s, v in arrs:
        for i, x in enumerate(v):
            idx = unravel(i, s)
            idx[d] += off
            out[ravel(idx, shape)] = x
        off += s[d]
    return (tuple(shape), out)


def split(arr, d, n):
    s, v = arr
    k = s[d] // n
    ns = list(s)
    ns[d] = k
    res = []
    for j in range(n):
        out = []
        for i in range(prod(ns)):
            idx = unravel(i, ns)
            idx[d] += j * k
            out.append(v[ravel(idx, s)])
        res.append((tuple(ns), out))
    return res


def reduce_arrays(arrs, red):
    f = {"sum": sum, "max": max, "min": min}[red]
    shape = arrs[0][0]
    return (shape, [f(vals) for vals in zip(*[a[1] for a in arrs])])


def zeros(shape):
    return (tuple(shape), [0] * prod(shape))


def checksum(acc, arr):
    for x in arr[1]:
        acc = wrap64(acc * 31 + x)
    return acc


class Formula:
    """v(r, flat, j) = ((r*a + flat*b + c + j*d) mod m) + lo."""

    def __init__(self, rng, signed=True):
        self.a = rng.randint(1, 13)
        self.b = rng.randint(0, 7)
        self.c = rng.randint(0, 20)
        self.d = rng.randint(0, 5)
        self.m = rng.randint(5, 60)
        self.lo = rng.randint(-30, 5) if signed else 0

    def value(self, r, flat, j):
        return ((r * self.a + flat * self.b + self.c + j * self.d) % self.m) + self.lo

    def array(self, shape, r, j):
        return (tuple(shape), [self.value(r, i, j) for i in range(prod(shape))])


# --------------------------------------------------------------------------
# Collective specs.

def groups_attr(groups, n):
    if groups is None:
        return "dense<> : tensor<0x0xi64>"
    rows = ", ".join("[" + ", ".join(str(x) for x in g) + "]" for g in groups)
    return f"dense<[{rows}]> : tensor<{len(groups)}x{len(groups[0])}xi64>"


def real_groups(groups, n):
    if groups is None:
        return [list(range(n))]
    return [[x for x in g if x >= 0] for g in groups]


def divisors(n):
    return [d for d in range(1, n + 1) if n % d == 0]


def equal_groups(rng, n, g, cover=True):
    perm = list(range(n))
    rng.shuffle(perm)
    count = n // g if cover else rng.randint(1, n // g)
    return [perm[i * g:(i + 1) * g] for i in range(count)]


def ragged_groups(rng, n):
    perm = list(range(n))
    rng.shuffle(perm)
    gs = []
    while perm:
        k = rng.randint(1, len(perm))
        gs.append(perm[:k])
        perm = perm[k:]
    width = max(len(g) for g in gs)
    out = []
    for g in gs:
        row = g + [-1] * (width - len(g))
        rng.shuffle(row)
        out.append(row)
    return out


ELT = ["f32", "f64", "i32", "i64"]


def is_float(t):
    return t.startswith("f")


def rand_shape(rng, mult_dim=None, mult=1, max_rank=3):
    rank = rng.randint(1, max_rank)
    shape = [rng.randint(1, 3 if rank > 1 else 5) for _ in range(rank)]
    if mult_dim is not None:
        d = mult_dim if mult_dim < rank else rank - 1
        shape[d] = mult * rng.randint(1, 2)
    return shape


def same_shape_operands(rng):
    """One or (less often) two operands whose output has the input's shape."""
    nops = rng.choice([1, 1, 2])
    operands = []
    for _ in range(nops):
        s = rand_shape(rng)
        operands.append((s, s, rng.choice(ELT)))
    return operands


def random_pairs(rng, n):
    """source_target_pairs: distinct sources to distinct targets, 1..n of them."""
    srcs = list(range(n))
    tgts = list(range(n))
    rng.shuffle(srcs)
    rng.shuffle(tgts)
    k = rng.randint(1, n)
    return list(zip(srcs[:k], tgts[:k]))


def pairs_attr(pairs):
    rows = ", ".join(f"[{a}, {b}]" for a, b in pairs)
    return f"source_target_pairs = dense<[{rows}]> : tensor<{len(pairs)}x2xi64>"


class Spec:
    """One collective: its attributes, operand shapes and a model.

    operands: list of (in_shape, out_shape, dtype).
    """

    kind = None
    inplace_ok = False
    region = None  # (arith op, dtype) of a computation region

    def attrs(self):
        raise NotImplementedError

    def model(self, ins):  # ins[r][k] -> outs[r][k]
        raise NotImplementedError

    def with_reduction(self, red):
        return None


REGION_OP = {
    ("sum", False): "arith.addi", ("sum", True): "arith.addf",
    ("max", False): "arith.maxsi", ("max", True): ["arith.maximumf", "arith.maxnumf"],
    ("min", False): "arith.minsi", ("min", True): ["arith.minimumf", "arith.minnumf"],
}


class ReplicatingSpec(Spec):
    """An op that gives every member of a group what `combine` makes of the
    group's inputs, operand by operand."""

    def replicated(self, ins, combine):
        outs = [[None] * len(self.operands) for _ in range(self.n)]
        for g in real_groups(self.groups, self.n):
            for k in range(len(self.operands)):
                value = combine([ins[m][k] for m in g])
                for m in g:
                    outs[m][k] = value
        return outs


class ReducingSpec(Spec):
    """An op with a reduction (`red`, or a `region` computing it)."""

    def with_reduction(self, red):
        import copy
        s = copy.copy(self)
        s.red = red
        if s.region:
            op = REGION_OP[(red, is_float(s.region[1]))]
            s.region = (op if isinstance(op, str) else op[0], s.region[1])
        return s


class PairSpec(Spec):
    """An op on source_target_pairs: each target receives its source's inputs."""

    def model(self, ins):
        outs = [[zeros(o) for (_, o, _) in self.operands] for _ in range(self.n)]
        for s, t in self.pairs:
            outs[t] = list(ins[s])
        return outs


class AllReduce(ReducingSpec, ReplicatingSpec):
    kind = "all_reduce"
    name = "all_reduce"
    inplace_ok = True

    def __init__(self, rng, n, groups_mode=None):
        self.n = n
        self.red = rng.choice(["sum", "max", "min"])
        mode = groups_mode or rng.choice(["whole", "equal", "ragged", "flat"])
        self.flat = mode == "flat"
        if mode == "whole":
            self.groups = None
        elif mode == "ragged":
            self.groups = ragged_groups(rng, n)
        else:
            self.groups = equal_groups(rng, n, rng.choice(divisors(n)))
        nops = rng.choice([1, 1, 1, 2])
        use_region = nops == 1 and rng.random() < 0.4
        self.operands = []
        dts = [rng.choice(ELT) for _ in range(nops)]
        if use_region:
            op = REGION_OP[(self.red, is_float(dts[0]))]
            if isinstance(op, list):
                op = rng.choice(op)
            self.region = (op, dts[0])
        for dt in dts:
            s = rand_shape(rng)
            self.operands.append((s, s, dt))

    def attrs(self):
        extra = ""
        if self.flat:
            extra = ", channel_id = 1 : i64, use_global_device_ids"
        red = "" if self.region else f"reduction = #distruntime.reduction<{self.red}>, "
        return "{" + red + "replica_groups = " + groups_attr(self.groups, self.n) + extra + "}"

    def model(self, ins):
        return self.replicated(ins, lambda xs: reduce_arrays(xs, self.red))


class RfcAllReduce(Spec):
    """The RFC's `allreduce <op> %buf team(0)`: in place, whole team."""
    kind = "allreduce"
    name = "allreduce"
    inplace_ok = True

    def __init__(self, rng, n):
        self.n = n
        self.red = rng.choice(["sum", "max", "min"])
        dt = rng.choice(ELT)
        s = rand_shape(rng)
        self.operands = [(s, s, dt)]
        self.groups = None

    def model(self, ins):
        red = reduce_arrays([ins[m][0] for m in range(self.n)], self.red)
        return [[red] for _ in range(self.n)]

    def with_reduction(self, red):
        import copy
        s = copy.copy(self)
        s.red = red
        return s


class AllGather(ReplicatingSpec):
    kind = "all_gather"
    name = "all_gather"

    def __init__(self, rng, n):
        self.n = n
        g = rng.choice(divisors(n))
        self.G = g
        self.flat = False
        if g == n and rng.random() < 0.5:
            self.groups = None
        else:
            self.groups = equal_groups(rng, n, g)
            self.flat = rng.random() < 0.25
        nops = rng.choice([1, 1, 2])
        rank = rng.randint(1, 3)
        self.dim = rng.randint(0, rank - 1)
        self.operands = []
        for _ in range(nops):
            s = [rng.randint(1, 3) for _ in range(rank)]
            o = list(s)
            o[self.dim] *= g
            self.operands.append((s, o, rng.choice(ELT)))

    def attrs(self):
        extra = ", channel_id = 1 : i64, use_global_device_ids" if self.flat else ""
        return (f"{{all_gather_dim = {self.dim} : i64, replica_groups = "
                f"{groups_attr(self.groups, self.n)}{extra}}}")

    def model(self, ins):
        return self.replicated(ins, lambda xs: concat(xs, self.dim))


class ReduceScatter(ReducingSpec):
    kind = "reduce_scatter"
    name = "reduce_scatter"

    def __init__(self, rng, n):
        self.n = n
        g = rng.choice(divisors(n))
        self.groups = None if (g == n and rng.random() < 0.5) else equal_groups(rng, n, g)
        self.red = rng.choice(["sum", "max", "min"])
        rank = rng.randint(1, 3)
        self.dim = rng.randint(0, rank - 1)
        dt = rng.choice(ELT)
        if rng.random() < 0.3:
            op = REGION_OP[(self.red, is_float(dt))]
            self.region = (op if isinstance(op, str) else rng.choice(op), dt)
        o = [rng.randint(1, 3) for _ in range(rank)]
        s = list(o)
        s[self.dim] *= g
        self.G = g
        self.operands = [(s, o, dt)]

    def attrs(self):
        red = "" if self.region else f"reduction = #distruntime.reduction<{self.red}>, "
        return (f"{{{red}scatter_dimension = {self.dim} : i64, replica_groups = "
                f"{groups_attr(self.groups, self.n)}}}")

    def model(self, ins):
        outs = [[None] for _ in range(self.n)]
        for g in real_groups(self.groups, self.n):
            red = reduce_arrays([ins[m][0] for m in g], self.red)
            parts = split(red, self.dim, len(g))
            for p, m in enumerate(g):
                outs[m][0] = parts[p]
        return outs


class AllToAll(Spec):
    kind = "all_to_all"
    name = "all_to_all"

    def __init__(self, rng, n):
        self.n = n
        g = rng.choice(divisors(n))
        self.groups = None if (g == n and rng.random() < 0.5) else equal_groups(rng, n, g)
        self.G = g
        rank = rng.randint(1, 3)
        self.sd = rng.randint(0, rank - 1)
        self.cd = rng.randint(0, rank - 1)
        nops = rng.choice([1, 1, 2])
        self.operands = []
        for _ in range(nops):
            s = [rng.randint(1, 3) for _ in range(rank)]
            s[self.sd] = g * rng.randint(1, 2)
            o = list(s)
            o[self.sd] //= g
            o[self.cd] *= g
            self.operands.append((s, o, rng.choice(ELT)))
        self.inplace_ok = self.sd == self.cd

    def attrs(self):
        return (f"{{split_dimension = {self.sd} : i64, concat_dimension = {self.cd} : i64, "
                f"split_count = {self.G} : i64, replica_groups = {groups_attr(self.groups, self.n)}}}")

    def model(self, ins):
        outs = [[None] * len(self.operands) for _ in range(self.n)]
        for g in real_groups(self.groups, self.n):
            for k in range(len(self.operands)):
                blocks = {m: split(ins[m][k], self.sd, len(g)) for m in g}
                for p, m in enumerate(g):
                    outs[m][k] = concat([blocks[q][p] for q in g], self.cd)
        return outs


class Broadcast(Spec):
    kind = "collective_broadcast"
    name = "collective_broadcast"
    inplace_ok = True

    def __init__(self, rng, n):
        self.n = n
        g = rng.choice(divisors(n))
        if g == n and rng.random() < 0.4:
            self.groups = None
        else:
            g = rng.randint(1, n)
            self.groups = equal_groups(rng, n, g, cover=rng.random() < 0.5)
        self.operands = same_shape_operands(rng)

    def attrs(self):
        return f"{{replica_groups = {groups_attr(self.groups, self.n)}}}"

    def model(self, ins):
        outs = [[zeros(o) for (_, o, _) in self.operands] for _ in range(self.n)]
        for g in real_groups(self.groups, self.n):
            for m in g:
                outs[m] = list(ins[g[0]])
        return outs


class Permute(PairSpec):
    kind = "collective_permute"
    name = "collective_permute"
    inplace_ok = True

    def __init__(self, rng, n):
        self.n = n
        self.pairs = random_pairs(rng, n)
        self.operands = same_shape_operands(rng)

    def attrs(self):
        return "{" + pairs_attr(self.pairs) + "}"


class SendRecv(PairSpec):
    """An async send and a recv (sync or async) on a channel of its own."""
    kind = "send_recv"
    name = "send_recv"
    channels = [0]

    def __init__(self, rng, n):
        self.n = n
        self.pairs = random_pairs(rng, n)
        SendRecv.channels[0] += 1
        # channel_id <= 0: pairs name replicas (ranks); one channel per op
        self.channel = 1 - SendRecv.channels[0]
        self.operands = same_shape_operands(rng)

    def attrs(self):
        return ("{" + pairs_attr(self.pairs)
                + f", channel_id = {self.channel} : i64}}")


SPECS = {
    "send_recv": SendRecv,
    "all_reduce": AllReduce,
    "allreduce": RfcAllReduce,
    "all_gather": AllGather,
    "reduce_scatter": ReduceScatter,
    "all_to_all": AllToAll,
    "collective_broadcast": Broadcast,
    "collective_permute": Permute,
}

CONTEXTS = ["plain", "rankbranch", "unibranch", "loop", "rankloop", "helperfill",
            "helperop", "converge", "whileconv", "subview", "twoflight", "batch", "batch",
            "stencil", "pingpong", "pingpong"]


def mtype(shape, dt):
    return "memref<" + "x".join(str(s) for s in shape) + f"x{dt}>"


def ttype(shape, dt):
    return "tensor<" + "x".join(str(s) for s in shape) + f"x{dt}>"


# --------------------------------------------------------------------------
# The emitter.

class Emitter:
    def __init__(self):
        self.lines = []
        self.ind = 2
        self.count = 0

    def fresh(self, hint="v"):
        self.count += 1
        return f"%{hint}{self.count}"

    def emit(self, s):
        self.lines.append("  " * self.ind + s)

    def open(self, s):
        self.emit(s)
        self.ind += 1

    def close(self, s="}"):
        self.ind -= 1
        self.emit(s)

    def const(self, v, ty="index"):
        name = self.fresh("c")
        if is_float(ty):
            self.emit(f"{name} = arith.constant {float(v)!r} : {ty}")
        else:
            self.emit(f"{name} = arith.constant {v} : {ty}")
        return name

    def to_elt(self, v64, dt):
        if dt == "i64":
            return v64
        out = self.fresh("e")
        if dt == "i32":
            self.emit(f"{out} = arith.trunci {v64} : i64 to i32")
        else:
            self.emit(f"{out} = arith.sitofp {v64} : i64 to {dt}")
        return out

    def to_i64(self, x, dt):
        if dt == "i64":
            return x
        out = self.fresh("x")
        if dt == "i32":
            self.emit(f"{out} = arith.extsi {x} : i32 to i64")
        else:
            self.emit(f"{out} = arith.fptosi {x} : {dt} to i64")
        return out

    def formula(self, F, r, flat, j, dt):
        ca, cb, cc, cm = (self.const(F.a), self.const(F.b), self.const(F.c), self.const(F.m))
        t1, t2, t3 = self.fresh("t"), self.fresh("t"), self.fresh("t")
        self.emit(f"{t1} = arith.muli {r}, {ca} : index")
        self.emit(f"{t2} = arith.muli {flat}, {cb} : index")
        self.emit(f"{t3} = arith.addi {t1}, {t2} : index")
        t4 = self.fresh("t")
        self.emit(f"{t4} = arith.addi {t3}, {cc} : index")
        if j is not None:
            cd = self.const(F.d)
            t5, t6 = self.fresh("t"), self.fresh("t")
            self.emit(f"{t5} = arith.muli {j}, {cd} : index")
            self.emit(f"{t6} = arith.addi {t4}, {t5} : index")
            t4 = t6
        tm, ti, v = self.fresh("t"), self.fresh("t"), self.fresh("t")
        self.emit(f"{tm} = arith.remui {t4}, {cm} : index")
        self.emit(f"{ti} = arith.index_cast {tm} : index to i64")
        clo = self.const(F.lo, "i64")
        self.emit(f"{v} = arith.addi {ti}, {clo} : i64")
        return self.to_elt(v, dt)

    def flat_index(self, ivs, shape):
        acc = ivs[0]
        for iv, s in zip(ivs[1:], shape[1:]):
            cs = self.const(s)
            m, a = self.fresh("f"), self.fresh("f")
            self.emit(f"{m} = arith.muli {acc}, {cs} : index")
            self.emit(f"{a} = arith.addi {m}, {iv} : index")
            acc = a
        return acc

    def loops_open(self, shape):
        c0, c1 = self.const(0), self.const(1)
        ivs = []
        for s in shape:
            cs = self.const(s)
            iv = self.fresh("i")
            self.open(f"scf.for {iv} = {c0} to {cs} step {c1} {{")
            ivs.append(iv)
        return ivs

    def fill_memref(self, buf, ty, shape, dt, F, r, j, offsets=None):
        """Stores F over `shape` (at `offsets` into buf if given)."""
        ivs = self.loops_open(shape)
        flat = self.flat_index(ivs, shape)
        v = self.formula(F, r, flat, j, dt)
        idx = ivs
        if offsets:
            idx = []
            for iv, o in zip(ivs, offsets):
                if o:
                    co, x = self.const(o), self.fresh("o")
                    self.emit(f"{x} = arith.addi {iv}, {co} : index")
                    idx.append(x)
                else:
                    idx.append(iv)
        self.emit(f"memref.store {v}, {buf}[{', '.join(idx)}] : {ty}")
        for _ in shape:
            self.close()

    def fill_tensor(self, shape, dt, F, r, j):
        ty = ttype(shape, dt)
        e = self.fresh("te")
        self.emit(f"{e} = tensor.empty() : {ty}")
        c0, c1 = self.const(0), self.const(1)
        ivs = []
        accs = [e]
        res = []
        for s in shape:
            cs = self.const(s)
            iv, a, rres = self.fresh("i"), self.fresh("ta"), self.fresh("tr")
            self.open(f"{rres} = scf.for {iv} = {c0} to {cs} step {c1} iter_args({a} = {accs[-1]}) -> ({ty}) {{")
            ivs.append(iv)
            accs.append(a)
            res.append(rres)
        flat = self.flat_index(ivs, shape)
        v = self.formula(F, r, flat, j, dt)
        ins = self.fresh("tn")
        self.emit(f"{ins} = tensor.insert {v} into {accs[-1]}[{', '.join(ivs)}] : {ty}")
        self.emit(f"scf.yield {ins} : {ty}")
        for k in range(len(shape) - 1, 0, -1):
            self.close()
            self.emit(f"scf.yield {res[k]} : {ty}")
        self.close()
        return res[0]

    def checksum(self, acc, val, shape, dt, form, ty=None):
        """acc' = fold(acc * 31 + x) over val's elements, row-major."""
        ty = ty or (mtype(shape, dt) if form == "memref" else ttype(shape, dt))
        c0, c1, c31 = self.const(0), self.const(1), self.const(31, "i64")
        accs = [acc]
        res = []
        ivs = []
        for s in shape:
            cs = self.const(s)
            iv, a, rr = self.fresh("i"), self.fresh("ca"), self.fresh("cr")
            self.open(f"{rr} = scf.for {iv} = {c0} to {cs} step {c1} iter_args({a} = {accs[-1]}) -> (i64) {{")
            ivs.append(iv)
            accs.append(a)
            res.append(rr)
        x = self.fresh("ld")
        if form == "memref":
            self.emit(f"{x} = memref.load {val}[{', '.join(ivs)}] : {ty}")
        else:
            self.emit(f"{x} = tensor.extract {val}[{', '.join(ivs)}] : {ty}")
        xi = self.to_i64(x, dt)
        m, n = self.fresh("cm"), self.fresh("cn")
        self.emit(f"{m} = arith.muli {accs[-1]}, {c31} : i64")
        self.emit(f"{n} = arith.addi {m}, {xi} : i64")
        self.emit(f"scf.yield {n} : i64")
        for k in range(len(shape) - 1, 0, -1):
            self.close()
            self.emit(f"scf.yield {res[k]} : i64")
        self.close()
        return res[0]

    def sentinel(self, buf, ty, dt):
        s = self.const(-7, dt)
        self.emit(f"linalg.fill ins({s} : {dt}) outs({buf} : {ty})")

    def region_lines(self, region):
        op, dt = region
        a, b, m = self.fresh("ra"), self.fresh("rb"), self.fresh("rm")
        return [f"^bb0({a}: {dt}, {b}: {dt}):",
                f"  {m} = {op} {a}, {b} : {dt}",
                f"  distruntime.yield {m} : {dt}"]

    def collective(self, spec, ins, in_types, outs=None, out_types=None,
                   async_=False, result_types=None):
        """Emits the op; returns (result names, handle name)."""
        results = [self.fresh("res") for _ in (result_types or [])]
        handle = self.fresh("h") if async_ else None
        lhs = results + ([handle] if handle else [])
        prefix = (", ".join(lhs) + " = ") if lhs else ""
        if spec.kind == "allreduce":
            red = spec.red
            tail = " -> !distruntime.async_handle" if async_ else ""
            self.emit(f"{prefix}distruntime.allreduce <{red}> {ins[0]} team(0) : {in_types[0]}{tail}")
            return results, handle
        if spec.kind == "send_recv":
            hs = self.fresh("hs")
            self.emit(f"{hs} = distruntime.send ins({', '.join(ins)} : {', '.join(in_types)}) "
                      f"async {spec.attrs()}")
            s = prefix + "distruntime.recv"
            if outs:
                s += f" outs({', '.join(outs)} : {', '.join(out_types)})"
            if async_:
                s += " async"
            s += " " + spec.attrs()
            if result_types:
                s += f" -> {', '.join(result_types)}"
            self.emit(s)
            self.emit(f"distruntime.wait {hs}")
            return results, handle
        s = f"{prefix}distruntime.{spec.name} ins({', '.join(ins)} : {', '.join(in_types)})"
        if outs:
            s += f" outs({', '.join(outs)} : {', '.join(out_types)})"
        if async_:
            s += " async"
        s += " " + spec.attrs()
        tail = f" -> {', '.join(result_types)}" if result_types else ""
        if spec.region:
            self.emit(s + " computation {")
            for ln in self.region_lines(spec.region):
                self.emit(ln)
            self.emit("}" + tail)
        else:
            self.emit(s + tail)
        return results, handle


# --------------------------------------------------------------------------
# A case: a collective in a context, emitted and modelled.

class Core:
    """The data of one collective instance: buffers (memref) or values (tensor)."""

    def __init__(self, g, spec, form, inplace, async_):
        self.g, self.spec, self.form = g, spec, form
        self.inplace = inplace
        self.async_ = async_

    # -- memref --
    def alloc(self, e):
        """Allocates the memref buffers (in the current block)."""
        self.ins, self.outs = [], []
        for (si, so, dt) in self.spec.operands:
            b = e.fresh("b")
            e.emit(f"{b} = memref.alloc() : {mtype(si, dt)}")
            self.ins.append(b)
            if self.inplace:
                self.outs.append(b)
            else:
                o = e.fresh("o")
                e.emit(f"{o} = memref.alloc() : {mtype(so, dt)}")
                e.sentinel(o, mtype(so, dt), dt)
                self.outs.append(o)

    def run(self, e, F, r, j, scratch=None, spec=None, between=None):
        """Fills the inputs with formulas F (one per operand), runs the op,
        fills scratch (if any) between op and wait. Memref: returns []. Tensor:
        returns the values [in0, res0, in1, res1, ...] to check."""
        spec = spec or self.spec
        ops = spec.operands
        if self.form == "memref":
            for k, (si, so, dt) in enumerate(ops):
                e.fill_memref(self.ins[k], mtype(si, dt), si, dt, F[k], r, j)
            if self.inplace:
                _, h = e.collective(spec, self.ins, [mtype(si, dt) for si, _, dt in ops],
                                    self.outs, [mtype(so, dt) for _, so, dt in ops], self.async_)
            else:
                _, h = e.collective(spec, self.ins, [mtype(si, dt) for si, _, dt in ops],
                                    self.outs, [mtype(so, dt) for _, so, dt in ops], self.async_)
            self.finish(e, h, scratch, r, j, between)
            return []
        vals = [e.fill_tensor(si, dt, F[k], r, j) for k, (si, _, dt) in enumerate(ops)]
        res, h = e.collective(spec, vals, [ttype(si, dt) for si, _, dt in ops],
                              async_=self.async_, result_types=[ttype(so, dt) for _, so, dt in ops])
        self.finish(e, h, scratch, r, j, between)
        out = []
        for v, x in zip(vals, res):
            out += [v, x]
        return out

    def finish(self, e, h, scratch, r, j, between):
        if scratch is not None:
            buf, n, Fs = scratch
            e.fill_memref(buf, mtype([n], "i64"), [n], "i64", Fs, r, j)
        if between:
            between(e)
        if h:
            e.emit(f"distruntime.wait {h}")

    def check_items(self):
        """(shape, dt) of each checked value, in order."""
        items = []
        for (si, so, dt) in self.spec.operands:
            if self.form == "memref" and self.inplace:
                items.append((so, dt))
            else:
                items += [(si, dt), (so, dt)]
        return items

    def checksum_memref(self, e, acc):
        for k, (si, so, dt) in enumerate(self.spec.operands):
            if not self.inplace:
                acc = e.checksum(acc, self.ins[k], si, dt, "memref")
            acc = e.checksum(acc, self.outs[k], so, dt, "memref")
        return acc

    def checksum_values(self, e, acc, vals):
        items = self.check_items()
        for v, (s, dt) in zip(vals, items):
            acc = e.checksum(acc, v, s, dt, "tensor")
        return acc

    # -- model --
    def model(self, acc_by_rank, F_by_rank, j_by_rank, spec=None):
        """F_by_rank[r]: the formulas rank r fills with; returns new accs."""
        spec = spec or self.spec
        n = spec.n
        ins = [[F_by_rank[r][k].array(si, r, j_by_rank[r]) for k, (si, _, _) in
                enumerate(spec.operands)] for r in range(n)]
        outs = spec.model(ins)
        res = []
        for r in range(n):
            acc = acc_by_rank[r]
            for k in range(len(spec.operands)):
                if not (self.form == "memref" and self.inplace):
                    acc = checksum(acc, ins[r][k])
                acc = checksum(acc, outs[r][k])
            res.append(acc)
        return res


class Program:
    def __init__(self, seed, cases, n, inject=None, kinds=None, contexts=None, forms=None):
        self.rng = random.Random(seed)
        self.seed = seed
        self.ncases = cases
        self.n = n
        self.inject = inject
        self.kinds = kinds or list(SPECS)
        self.contexts = contexts or CONTEXTS
        self.forms = forms or ["memref", "tensor"]
        self.main = Emitter()
        self.funcs = []
        self.expect = []
        self.comments = []
        self.keep = None

    # helpers
    def rank_cond(self, e, r):
        """A condition that differs between members; returns (ssa, pyfunc)."""
        rng = self.rng
        n = self.n
        choice = rng.choice(["even", "lt", "eq"])
        if choice == "even":
            c2, c0 = e.const(2), e.const(0)
            m, c = e.fresh("rc"), e.fresh("rc")
            e.emit(f"{m} = arith.remui {r}, {c2} : index")
            e.emit(f"{c} = arith.cmpi eq, {m}, {c0} : index")
            return c, (lambda x: x % 2 == 0)
        t = rng.randint(0, max(0, n - 1))
        ct = e.const(t)
        c = e.fresh("rc")
        pred = "ult" if choice == "lt" else "eq"
        e.emit(f"{c} = arith.cmpi {pred}, {r}, {ct} : index")
        if choice == "lt":
            return c, (lambda x, t=t: x < t)
        return c, (lambda x, t=t: x == t)

    def uniform_cond(self, e):
        rng = self.rng
        p = e.fresh("P")
        e.emit(f"{p} = distruntime.team_size team(0)")
        t = rng.randint(1, 4)
        ct = e.const(t)
        c = e.fresh("uc")
        pred = rng.choice(["sgt", "sle", "eq", "ne"])
        e.emit(f"{c} = arith.cmpi {pred}, {p}, {ct} : index")
        val = {"sgt": self.n > t, "sle": self.n <= t, "eq": self.n == t, "ne": self.n != t}[pred]
        return c, val

    def formulas(self, spec):
        return [Formula(self.rng) for _ in spec.operands]

    def pick_spec(self, allowed=None):
        kinds = [k for k in self.kinds if allowed is None or k in allowed]
        kind = self.rng.choice(kinds)
        return SPECS[kind](self.rng, self.n)

    def pick_form(self, spec, memref_only=False):
        forms = [f for f in self.forms if not (memref_only and f == "tensor")]
        if spec.kind == "allreduce":
            forms = ["memref"]
        if not forms:
            return None
        return self.rng.choice(forms)

    def scratch(self, e, core):
        """A buffer the async op's unrelated work writes: (buf, n, formula)."""
        if not core.async_:
            return None
        nn = self.rng.randint(1, 6)
        b = e.fresh("s")
        e.emit(f"{b} = memref.alloc() : {mtype([nn], 'i64')}")
        return (b, nn, Formula(self.rng))

    def model_scratch(self, accs, scratch, js):
        if scratch is None:
            return accs
        _, nn, Fs = scratch
        return [checksum(a, Fs.array([nn], r, js[r])) for r, a in enumerate(accs)]

    def print_line(self, e, k, acc):
        e.emit(f'vector.print str "c{k} r"')
        e.emit(f"vector.print {self.rank64} : i64 punctuation <no_punctuation>")
        e.emit('vector.print str " "')
        e.emit(f"vector.print {acc} : i64 punctuation <no_punctuation>")
        e.emit("vector.print punctuation <newline>")

    # ---------------------------------------------------------------------
    def gen(self):
        e = self.main
        self.r = e.fresh("rank")
        e.emit(f"{self.r} = distruntime.team_member team(0)")
        self.rank64 = e.fresh("rank64_")
        e.emit(f"{self.rank64} = arith.index_cast {self.r} : index to i64")
        inj_at = self.rng.randrange(self.ncases) if self.inject else -1
        self.spans = []
        for k in range(self.ncases):
            span = [len(e.lines), len(self.funcs)]
            if k == inj_at:
                self.comments.append(f"// injected: {self.inject} in case {k}")
                e.emit(f"// case {k}: injected {self.inject}")
                self.gen_injected(k)
            else:
                ctx = self.rng.choice(self.contexts)
                e.emit(f"// case {k}: {ctx}")
                getattr(self, "ctx_" + ctx)(k)
            self.spans.append(span + [len(e.lines), len(self.funcs)])
        return self.text()

    def text(self):
        out = []
        out.append(f"// Generated by tests/spmdfuzz/spmdgen.py --seed {self.seed} "
                   f"--cases {self.ncases} --np {self.n}"
                   + (f" --inject {self.inject}" if self.inject else ""))
        out += self.comments
        attr = f" attributes {{distruntime.num_replicas = {self.n} : i64}}" if self.modattr else ""
        out.append(f"module{attr} {{")
        keep = [k for k in range(self.ncases) if self.keep is None or k in self.keep]
        for k in keep:
            for f in self.funcs[self.spans[k][1]:self.spans[k][3]]:
                out += f
        out.append("  func.func @main() -> i32 {")
        out += self.main.lines[:self.spans[0][0]]
        for k in keep:
            out += self.main.lines[self.spans[k][0]:self.spans[k][2]]
        out.append("    %ret = arith.constant 0 : i32")
        out.append("    return %ret : i32")
        out.append("  }")
        out.append("}")
        return "\n".join(out) + "\n"

    def record(self, k, accs):
        if self.keep is not None and k not in self.keep:
            return
        for r, a in enumerate(accs):
            self.expect.append(f"c{k} r{r} {a}")

    def new_core(self, spec, form, async_=None):
        rng = self.rng
        inplace = form == "memref" and (spec.kind == "allreduce" or
                                        (spec.inplace_ok and rng.random() < 0.5))
        if async_ is None:
            async_ = rng.random() < 0.4
        return Core(self, spec, form, inplace, async_)

    # --- contexts ---------------------------------------------------------
    def ctx_plain(self, k):
        e = self.main
        spec = self.pick_spec()
        form = self.pick_form(spec)
        core = self.new_core(spec, form)
        F = self.formulas(spec)
        n = self.n
        acc0 = e.const(17, "i64")
        if form == "memref":
            core.alloc(e)
        sc = self.scratch(e, core)
        vals = core.run(e, F, self.r, None, sc)
        acc = core.checksum_memref(e, acc0) if form == "memref" else core.checksum_values(e, acc0, vals)
        if sc:
            acc = e.checksum(acc, sc[0], [sc[1]], "i64", "memref")
        self.print_line(e, k, acc)
        accs = core.model([17] * n, [F] * n, [0] * n)
        self.record(k, self.model_scratch(accs, sc, [0] * n))

    def ctx_rankbranch(self, k, uniform=False):
        e = self.main
        spec = self.pick_spec()
        form = self.pick_form(spec)
        core = self.new_core(spec, form)
        n = self.n
        FA, FB = self.formulas(spec), self.formulas(spec)
        acc0 = e.const(17, "i64")
        if uniform:
            cond, val = self.uniform_cond(e)
            side = [val] * n
        else:
            cond, pred = self.rank_cond(e, self.r)
            side = [pred(r) for r in range(n)]
        if form == "memref":
            core.alloc(e)
        sc = self.scratch(e, core)
        if form == "memref":
            e.open(f"scf.if {cond} {{")
            core.run(e, FA, self.r, None, sc)
            e.close("} else {")
            e.ind += 1
            core.run(e, FB, self.r, None, sc)
            e.close()
            acc = core.checksum_memref(e, acc0)
        else:
            items = core.check_items()
            tys = [ttype(s, dt) for s, dt in items]
            res = [e.fresh("y") for _ in tys]
            e.open(f"{', '.join(res)} = scf.if {cond} -> ({', '.join(tys)}) {{")
            vals = core.run(e, FA, self.r, None, sc)
            e.emit(f"scf.yield {', '.join(vals)} : {', '.join(tys)}")
            e.close("} else {")
            e.ind += 1
            vals = core.run(e, FB, self.r, None, sc)
            e.emit(f"scf.yield {', '.join(vals)} : {', '.join(tys)}")
            e.close()
            acc = core.checksum_values(e, acc0, res)
        if sc:
            acc = e.checksum(acc, sc[0], [sc[1]], "i64", "memref")
        self.print_line(e, k, acc)
        Fr = [FA if side[r] else FB for r in range(n)]
        accs = core.model([17] * n, Fr, [0] * n)
        self.record(k, self.model_scratch(accs, sc, [0] * n))

    def ctx_unibranch(self, k):
        self.ctx_rankbranch(k, uniform=True)

    def ctx_loop(self, k, rankdep=False):
        e = self.main
        rng = self.rng
        spec = self.pick_spec()
        form = self.pick_form(spec)
        core = self.new_core(spec, form)
        n = self.n
        F = self.formulas(spec)
        T = rng.randint(1, 3)
        acc0 = e.const(17, "i64")
        c1 = e.const(1)
        if rankdep:
            # from r to r + T, or from r + off to r + off + T
            off = rng.choice([0, 0, 1, 2])
            cT = e.const(T + off)
            lo, hi = self.r, e.fresh("hi")
            if off:
                co, lo = e.const(off), e.fresh("lo")
                e.emit(f"{lo} = arith.addi {self.r}, {co} : index")
            e.emit(f"{hi} = arith.addi {self.r}, {cT} : index")
        else:
            lo, hi = e.const(0), e.const(T)
        iv, a, res = e.fresh("it"), e.fresh("la"), e.fresh("lr")
        e.open(f"{res} = scf.for {iv} = {lo} to {hi} step {c1} iter_args({a} = {acc0}) -> (i64) {{")
        j = iv
        if rankdep:
            j = e.fresh("j")
            e.emit(f"{j} = arith.subi {iv}, {lo} : index")
        if form == "memref":
            core.alloc(e)
        sc = self.scratch(e, core)
        vals = core.run(e, F, self.r, j, sc)
        acc = core.checksum_memref(e, a) if form == "memref" else core.checksum_values(e, a, vals)
        if sc:
            acc = e.checksum(acc, sc[0], [sc[1]], "i64", "memref")
        e.emit(f"scf.yield {acc} : i64")
        e.close()
        self.print_line(e, k, res)
        accs = [17] * n
        for it in range(T):
            accs = core.model(accs, [F] * n, [it] * n)
            accs = self.model_scratch(accs, sc, [it] * n)
        self.record(k, accs)

    def ctx_rankloop(self, k):
        self.ctx_loop(k, rankdep=True)

    def ctx_helperfill(self, k):
        """A private function fills the input buffers; main runs the op."""
        e = self.main
        spec = self.pick_spec()
        core = self.new_core(spec, "memref")
        n = self.n
        F = self.formulas(spec)
        # the helper
        h = Emitter()
        h.count = e.count + 100000 * (k + 1)
        h.ind = 2
        name = f"@fill{k}"
        args = [f"%arg{i}: {mtype(si, dt)}" for i, (si, _, dt) in enumerate(spec.operands)]
        lines = [f"  func.func private {name}({', '.join(args)}, %r: index) {{"]
        for i, (si, _, dt) in enumerate(spec.operands):
            h.fill_memref(f"%arg{i}", mtype(si, dt), si, dt, F[i], "%r", None)
        lines += h.lines + ["    return", "  }"]
        self.funcs.append(lines)
        acc0 = e.const(17, "i64")
        core.alloc(e)
        sc = self.scratch(e, core)
        tys = [mtype(si, dt) for si, _, dt in spec.operands]
        e.emit(f"func.call {name}({', '.join(core.ins)}, {self.r}) : ({', '.join(tys)}, index) -> ()")
        ops = spec.operands
        _, hd = e.collective(spec, core.ins, tys, core.outs, [mtype(so, dt) for _, so, dt in ops], core.async_)
        core.finish(e, hd, sc, self.r, None, None)
        acc = core.checksum_memref(e, acc0)
        if sc:
            acc = e.checksum(acc, sc[0], [sc[1]], "i64", "memref")
        self.print_line(e, k, acc)
        accs = core.model([17] * n, [F] * n, [0] * n)
        self.record(k, self.model_scratch(accs, sc, [0] * n))

    def ctx_helperop(self, k):
        """The whole case in a private function returning its checksum."""
        e = self.main
        spec = self.pick_spec()
        form = self.pick_form(spec)
        core = self.new_core(spec, form)
        n = self.n
        F = self.formulas(spec)
        h = Emitter()
        h.count = e.count + 100000 * (k + 1)
        h.ind = 2
        name = f"@case{k}"
        acc0 = h.const(17, "i64")
        if form == "memref":
            core.alloc(h)
        sc = self.scratch(h, core)
        vals = core.run(h, F, "%r", None, sc)
        acc = core.checksum_memref(h, acc0) if form == "memref" else core.checksum_values(h, acc0, vals)
        if sc:
            acc = h.checksum(acc, sc[0], [sc[1]], "i64", "memref")
        lines = [f"  func.func private {name}(%r: index) -> i64 {{"] + h.lines
        lines += [f"    return {acc} : i64", "  }"]
        self.funcs.append(lines)
        res = e.fresh("hc")
        e.emit(f"{res} = func.call {name}({self.r}) : (index) -> i64")
        self.print_line(e, k, res)
        accs = core.model([17] * n, [F] * n, [0] * n)
        self.record(k, self.model_scratch(accs, sc, [0] * n))

    def residual(self, e, T, it, red_dt):
        """res = (r + 1) * (T - it), reduced with max in place; returns the
        loaded (uniform) i64 value. Uses the all_reduce or the RFC op."""
        rng = self.rng
        rb = e.fresh("resid")
        ty = mtype([1], red_dt)
        e.emit(f"{rb} = memref.alloc() : {ty}")
        c1, cT, c0 = e.const(1, "i64"), e.const(T, "i64"), e.const(0)
        r1, i64, d, v = e.fresh("q"), e.fresh("q"), e.fresh("q"), e.fresh("q")
        r64 = e.fresh("q")
        e.emit(f"{r64} = arith.index_cast {self.r} : index to i64")
        e.emit(f"{r1} = arith.addi {r64}, {c1} : i64")
        e.emit(f"{i64} = arith.index_cast {it} : index to i64")
        e.emit(f"{d} = arith.subi {cT}, {i64} : i64")
        e.emit(f"{v} = arith.muli {r1}, {d} : i64")
        ve = e.to_elt(v, red_dt)
        e.emit(f"memref.store {ve}, {rb}[{c0}] : {ty}")
        if rng.random() < 0.5:
            e.emit(f"distruntime.all_reduce ins({rb} : {ty}) outs({rb} : {ty}) "
                   "{reduction = #distruntime.reduction<max>, replica_groups = dense<> : tensor<0x0xi64>}")
        else:
            e.emit(f"distruntime.allreduce <max> {rb} team(0) : {ty}")
        m = e.fresh("mx")
        e.emit(f"{m} = memref.load {rb}[{c0}] : {ty}")
        return e.to_i64(m, red_dt)

    def ctx_converge(self, k):
        """for it in 0..T: residual = allreduce max; if residual > thr: op."""
        e = self.main
        rng = self.rng
        spec = self.pick_spec()
        form = self.pick_form(spec)
        core = self.new_core(spec, form)
        n = self.n
        F = self.formulas(spec)
        T = rng.randint(1, 4)
        thr = rng.randint(0, n * T)
        red_dt = rng.choice(ELT)
        acc0 = e.const(17, "i64")
        c0, c1, cT = e.const(0), e.const(1), e.const(T)
        iv, a, res = e.fresh("it"), e.fresh("la"), e.fresh("lr")
        e.open(f"{res} = scf.for {iv} = {c0} to {cT} step {c1} iter_args({a} = {acc0}) -> (i64) {{")
        m = self.residual(e, T, iv, red_dt)
        cthr = e.const(thr, "i64")
        cond, ifres = e.fresh("cv"), e.fresh("ci")
        e.emit(f"{cond} = arith.cmpi sgt, {m}, {cthr} : i64")
        e.open(f"{ifres} = scf.if {cond} -> (i64) {{")
        if form == "memref":
            core.alloc(e)
        sc = self.scratch(e, core)
        vals = core.run(e, F, self.r, iv, sc)
        acc = core.checksum_memref(e, a) if form == "memref" else core.checksum_values(e, a, vals)
        if sc:
            acc = e.checksum(acc, sc[0], [sc[1]], "i64", "memref")
        e.emit(f"scf.yield {acc} : i64")
        e.close("} else {")
        e.ind += 1
        c31 = e.const(31, "i64")
        x, y = e.fresh("el"), e.fresh("el")
        e.emit(f"{x} = arith.muli {a}, {c31} : i64")
        e.emit(f"{y} = arith.addi {x}, {m} : i64")
        e.emit(f"scf.yield {y} : i64")
        e.close()
        e.emit(f"scf.yield {ifres} : i64")
        e.close()
        self.print_line(e, k, res)
        accs = [17] * n
        for it in range(T):
            mv = n * (T - it)
            if mv > thr:
                accs = core.model(accs, [F] * n, [it] * n)
                accs = self.model_scratch(accs, sc, [it] * n)
            else:
                accs = [wrap64(x * 31 + mv) for x in accs]
        self.record(k, accs)

    def ctx_whileconv(self, k):
        """scf.while: before: residual = allreduce max, continue while > thr;
        do: the op with j = it."""
        e = self.main
        rng = self.rng
        spec = self.pick_spec()
        form = self.pick_form(spec)
        core = self.new_core(spec, form)
        n = self.n
        F = self.formulas(spec)
        T = rng.randint(1, 4)
        thr = rng.randint(0, n * T)
        red_dt = rng.choice(ELT)
        acc0 = e.const(17, "i64")
        c0 = e.const(0)
        it, a, res, racc = e.fresh("wi"), e.fresh("wa"), e.fresh("wr"), e.fresh("wr")
        e.open(f"{res}:2 = scf.while ({it} = {c0}, {a} = {acc0}) : (index, i64) -> (index, i64) {{")
        m = self.residual(e, T, it, red_dt)
        cthr = e.const(thr, "i64")
        cond = e.fresh("cv")
        e.emit(f"{cond} = arith.cmpi sgt, {m}, {cthr} : i64")
        e.emit(f"scf.condition({cond}) {it}, {a} : index, i64")
        e.close("} do {")
        it2, a2 = e.fresh("wj"), e.fresh("wb")
        e.emit(f"^bb0({it2}: index, {a2}: i64):")
        e.ind += 1
        if form == "memref":
            core.alloc(e)
        sc = self.scratch(e, core)
        vals = core.run(e, F, self.r, it2, sc)
        acc = core.checksum_memref(e, a2) if form == "memref" else core.checksum_values(e, a2, vals)
        if sc:
            acc = e.checksum(acc, sc[0], [sc[1]], "i64", "memref")
        c1 = e.const(1)
        nx = e.fresh("wn")
        e.emit(f"{nx} = arith.addi {it2}, {c1} : index")
        e.emit(f"scf.yield {nx}, {acc} : index, i64")
        e.close()
        self.print_line(e, k, f"{res}#1")
        accs = [17] * n
        itv = 0
        while n * (T - itv) > thr:
            accs = core.model(accs, [F] * n, [itv] * n)
            accs = self.model_scratch(accs, sc, [itv] * n)
            itv += 1
        self.record(k, accs)

    def ctx_subview(self, k):
        """all_reduce (in place or into another view) or RFC allreduce on a
        memref.subview of a larger buffer; the whole buffers are checked."""
        e = self.main
        rng = self.rng
        n = self.n
        kinds = [x for x in ("all_reduce", "allreduce") if x in self.kinds]
        if not kinds or "memref" not in self.forms:
            return self.ctx_plain(k)
        kind = rng.choice(kinds)
        spec = SPECS[kind](rng, n) if kind == "allreduce" else AllReduce(rng, n)
        spec.operands = spec.operands[:1]
        if spec.region:
            spec.region = (spec.region[0], spec.operands[0][2])
        s, _, dt = spec.operands[0]
        big = [x + rng.randint(0, 2) for x in s]
        offs = [rng.randint(0, b - x) for b, x in zip(big, s)]
        strides = [prod(big[i + 1:]) for i in range(len(big))]
        off = sum(o * st for o, st in zip(offs, strides))
        vty = ("memref<" + "x".join(str(x) for x in s) + f"x{dt}, strided<["
               + ", ".join(str(x) for x in strides) + f"], offset: {off}>>")
        bty = mtype(big, dt)
        inplace = kind == "allreduce" or rng.random() < 0.6
        async_ = rng.random() < 0.4
        F = Formula(rng)
        Fo = Formula(rng)
        acc0 = e.const(17, "i64")
        base = e.fresh("big")
        e.emit(f"{base} = memref.alloc() : {bty}")
        e.fill_memref(base, bty, big, dt, F, self.r, None)
        view = e.fresh("sv")
        e.emit(f"{view} = memref.subview {base}[{', '.join(map(str, offs))}] "
               f"[{', '.join(map(str, s))}] [{', '.join('1' for _ in s)}] : {bty} to {vty}")
        obase = None
        if not inplace:
            obig = [x + rng.randint(0, 2) for x in s]
            ooffs = [rng.randint(0, b - x) for b, x in zip(obig, s)]
            ostrides = [prod(obig[i + 1:]) for i in range(len(obig))]
            ooff = sum(o * st for o, st in zip(ooffs, ostrides))
            ovty = ("memref<" + "x".join(str(x) for x in s) + f"x{dt}, strided<["
                    + ", ".join(str(x) for x in ostrides) + f"], offset: {ooff}>>")
            obty = mtype(obig, dt)
            obase = e.fresh("obig")
            e.emit(f"{obase} = memref.alloc() : {obty}")
            e.fill_memref(obase, obty, obig, dt, Fo, self.r, None)
            oview = e.fresh("osv")
            e.emit(f"{oview} = memref.subview {obase}[{', '.join(map(str, ooffs))}] "
                   f"[{', '.join(map(str, s))}] [{', '.join('1' for _ in s)}] : {obty} to {ovty}")
            _, h = e.collective(spec, [view], [vty], [oview], [ovty], async_)
        else:
            _, h = e.collective(spec, [view], [vty], [view], [vty], async_)
        if h:
            e.emit(f"distruntime.wait {h}")
        acc = e.checksum(acc0, base, big, dt, "memref")
        if obase:
            acc = e.checksum(acc, obase, obig, dt, "memref")
        self.print_line(e, k, acc)
        # model
        ins = [[(tuple(s), self._view_vals(F.array(big, r, 0), big, offs, s))] for r in range(n)]
        outs = spec.model(ins)
        accs = []
        for r in range(n):
            b = F.array(big, r, 0)
            if inplace:
                b = self._view_store(b, big, offs, s, outs[r][0][1])
                acc = checksum(17, b)
            else:
                acc = checksum(17, b)
                ob = self._view_store(Fo.array(obig, r, 0), obig, ooffs, s, outs[r][0][1])
                acc = checksum(acc, ob)
            accs.append(acc)
        self.record(k, accs)

    @staticmethod
    def _view_vals(arr, big, offs, s):
        out = []
        for i in range(prod(s)):
            idx = [a + b for a, b in zip(unravel(i, s), offs)]
            out.append(arr[1][ravel(idx, big)])
        return out

    @staticmethod
    def _view_store(arr, big, offs, s, vals):
        v = list(arr[1])
        for i in range(prod(s)):
            idx = [a + b for a, b in zip(unravel(i, s), offs)]
            v[ravel(idx, big)] = vals[i]
        return (arr[0], v)

    def ctx_twoflight(self, k):
        """Two async ops in flight at once, waited in either order."""
        e = self.main
        rng = self.rng
        n = self.n
        spec1, spec2 = self.pick_spec(), self.pick_spec()
        form1, form2 = self.pick_form(spec1), self.pick_form(spec2)
        c1 = self.new_core(spec1, form1, async_=True)
        c2 = self.new_core(spec2, form2, async_=True)
        F1, F2 = self.formulas(spec1), self.formulas(spec2)
        acc0 = e.const(17, "i64")
        for c in (c1, c2):
            if c.form == "memref":
                c.alloc(e)
        sc = self.scratch(e, c1)
        # issue both, then wait: emit by hand
        handles = []
        valsets = []
        for c, F in ((c1, F1), (c2, F2)):
            ops = c.spec.operands
            if c.form == "memref":
                for kk, (si, so, dt) in enumerate(ops):
                    e.fill_memref(c.ins[kk], mtype(si, dt), si, dt, F[kk], self.r, None)
                _, h = e.collective(c.spec, c.ins, [mtype(si, dt) for si, _, dt in ops],
                                    c.outs, [mtype(so, dt) for _, so, dt in ops], True)
                valsets.append([])
            else:
                vals = [e.fill_tensor(si, dt, F[kk], self.r, None) for kk, (si, _, dt) in enumerate(ops)]
                res, h = e.collective(c.spec, vals, [ttype(si, dt) for si, _, dt in ops], async_=True,
                                      result_types=[ttype(so, dt) for _, so, dt in ops])
                vs = []
                for v, x in zip(vals, res):
                    vs += [v, x]
                valsets.append(vs)
            handles.append(h)
        if sc:
            e.fill_memref(sc[0], mtype([sc[1]], "i64"), [sc[1]], "i64", sc[2], self.r, None)
        order = [0, 1] if rng.random() < 0.5 else [1, 0]
        for i in order:
            e.emit(f"distruntime.wait {handles[i]}")
        acc = acc0
        for c, vs in ((c1, valsets[0]), (c2, valsets[1])):
            acc = c.checksum_memref(e, acc) if c.form == "memref" else c.checksum_values(e, acc, vs)
        if sc:
            acc = e.checksum(acc, sc[0], [sc[1]], "i64", "memref")
        self.print_line(e, k, acc)
        accs = c1.model([17] * n, [F1] * n, [0] * n)
        accs = c2.model(accs, [F2] * n, [0] * n)
        self.record(k, self.model_scratch(accs, sc, [0] * n))

    def ctx_batch(self, k):
        """Several 1-D collectives in one block before any check: the ground
        of combine-collectives and async-collectives. Buffers are fresh
        allocations or views (subviews) of one shared pool; between ops, a
        store into an earlier op's buffer or a copy out of it (which an op
        may not be moved across); an async op waited one op later."""
        e = self.main
        rng = self.rng
        n = self.n
        dt = rng.choice(ELT)
        g = rng.choice(divisors(n))
        groups = None if (g == n and rng.random() < 0.6) else equal_groups(rng, n, g)
        gl = real_groups(groups, n)
        red0 = rng.choice(["sum", "max", "min"])
        poolLen = rng.randint(8, 16)
        pool = e.fresh("pool")
        e.emit(f"{pool} = memref.alloc() : {mtype([poolLen], dt)}")
        Fp = Formula(rng)
        e.fill_memref(pool, mtype([poolLen], dt), [poolLen], dt, Fp, self.r, None)
        mem = {pool: [Fp.array([poolLen], r, 0)[1] for r in range(n)]}  # base -> per rank
        bases = [(pool, poolLen)]
        acc0 = e.const(17, "i64")

        def fresh_base(length):
            b = e.fresh("fb")
            e.emit(f"{b} = memref.alloc() : {mtype([length], dt)}")
            F = Formula(rng)
            e.fill_memref(b, mtype([length], dt), [length], dt, F, self.r, None)
            mem[b] = [F.array([length], r, 0)[1] for r in range(n)]
            bases.append((b, length))
            return (b, 0, length)

        def view(region):
            """SSA value and type of a region (base, off, len)."""
            b, off, ln = region
            blen = dict(bases)[b]
            if off == 0 and ln == blen:
                return b, mtype([ln], dt)
            ty = f"memref<{ln}x{dt}, strided<[1], offset: {off}>>"
            v = e.fresh("pv")
            e.emit(f"{v} = memref.subview {b}[{off}] [{ln}] [1] : {mtype([blen], dt)} to {ty}")
            return v, ty

        def pool_region(ln, avoid=None):
            for _ in range(20):
                off = rng.randint(0, poolLen - ln)
                if avoid is None or off + ln <= avoid[1] or avoid[1] + avoid[2] <= off:
                    return (pool, off, ln)
            return None

        def refill(region):
            b, off, ln = region
            F = Formula(rng)
            blen = dict(bases)[b]
            e.fill_memref(b, mtype([blen], dt), [ln], dt, F, self.r, None, offsets=[off])
            for r in range(n):
                mem[b][r][off:off + ln] = F.array([ln], r, 0)[1]

        done = []       # regions of earlier ops
        pending = None  # (handle, regions) of an async op not yet waited
        nops = rng.randint(2, 5)
        for i in range(nops):
            kind = rng.choice([x for x in ("all_reduce", "all_reduce", "allreduce", "all_gather")
                               if x in self.kinds] or ["all_reduce"])
            red = red0 if rng.random() < 0.8 else rng.choice(["sum", "max", "min"])
            ln = rng.randint(1, 4)
            use_pool = pending is None and rng.random() < 0.6
            # interference with an earlier op's buffers
            if done and rng.random() < 0.5:
                cands = [x for x in done if pending is None or x[0] not in [p[0] for p in pending[1]]]
                if cands:
                    reg = rng.choice(cands)
                    if rng.random() < 0.5:
                        e.emit("// batch: overwrite an earlier op's buffer")
                        refill(reg)
                    else:
                        e.emit("// batch: copy an earlier op's buffer out")
                        src, sty = view(reg)
                        cp = e.fresh("cp")
                        e.emit(f"{cp} = memref.alloc() : {mtype([reg[2]], dt)}")
                        e.emit(f"memref.copy {src}, {cp} : {sty} to {mtype([reg[2]], dt)}")
                        mem[cp] = [mem[reg[0]][r][reg[1]:reg[1] + reg[2]] for r in range(n)]
                        bases.append((cp, reg[2]))
            inr = pool_region(ln) if use_pool else fresh_base(ln)
            if inr is None:
                inr = fresh_base(ln)
            if use_pool and rng.random() < 0.5:
                refill(inr)
            if kind == "allreduce":
                outr = inr
            elif kind == "all_gather":
                olen = ln * len(gl[0])
                outr = None
                if use_pool and olen <= poolLen:
                    outr = pool_region(olen, avoid=inr)
                if outr is None:
                    outr = fresh_base(olen)
            else:
                outr = inr if rng.random() < 0.5 else None
                if outr is None and use_pool:
                    outr = pool_region(ln, avoid=inr)
                if outr is None:
                    outr = fresh_base(ln)
            async_ = (i < nops - 1 and pending is None and kind != "all_gather"
                      and rng.random() < 0.3)
            iv, ity = view(inr)
            ov, oty = view(outr)
            h = None
            if kind == "allreduce":
                h = e.fresh("h") if async_ else None
                pre = f"{h} = " if h else ""
                tail = " -> !distruntime.async_handle" if h else ""
                e.emit(f"{pre}distruntime.allreduce <{red}> {iv} team(0) : {ity}{tail}")
                grp = [list(range(n))]
            else:
                h = e.fresh("h") if async_ else None
                pre = f"{h} = " if h else ""
                if kind == "all_gather":
                    attrs = f"{{all_gather_dim = 0 : i64, replica_groups = {groups_attr(groups, n)}}}"
                else:
                    attrs = (f"{{reduction = #distruntime.reduction<{red}>, "
                             f"replica_groups = {groups_attr(groups, n)}}}")
                e.emit(f"{pre}distruntime.{kind} ins({iv} : {ity}) outs({ov} : {oty})"
                       f"{' async' if h else ''} {attrs}")
                grp = gl
            # model
            ins = [mem[inr[0]][r][inr[1]:inr[1] + inr[2]] for r in range(n)]
            outs = [None] * n
            for gg in grp:
                if kind == "all_gather":
                    cat = sum((ins[m] for m in gg), [])
                    for m in gg:
                        outs[m] = cat
                else:
                    f = {"sum": sum, "max": max, "min": min}[red]
                    vals = [f(x) for x in zip(*[ins[m] for m in gg])]
                    for m in gg:
                        outs[m] = list(vals)
            for r in range(n):
                mem[outr[0]][r][outr[1]:outr[1] + outr[2]] = outs[r]
            if pending is not None:
                e.emit(f"distruntime.wait {pending[0]}")
                pending = None
            if h:
                pending = (h, [inr, outr])
            done += [inr, outr]
        if pending is not None:
            e.emit(f"distruntime.wait {pending[0]}")
        acc = acc0
        for b, ln in bases:
            acc = e.checksum(acc, b, [ln], dt, "memref")
        self.print_line(e, k, acc)
        accs = []
        for r in range(n):
            a = 17
            for b, ln in bases:
                a = checksum(a, ((ln,), mem[b][r]))
            accs.append(a)
        self.record(k, accs)

    def ctx_stencil(self, k):
        """A collective, then a loop reading its 1-D output at i, i+1, i+2
        (carry-loads), writing another buffer or the output itself."""
        e = self.main
        rng = self.rng
        n = self.n
        spec = AllReduce(rng, n, rng.choice(["whole", "equal"]))
        L = rng.randint(3, 9)
        dt = rng.choice(["i32", "i64", "f64"])
        spec.operands = [([L], [L], dt)]
        spec.region = None
        core = self.new_core(spec, "memref", async_=rng.random() < 0.3)
        F = self.formulas(spec)
        acc0 = e.const(17, "i64")
        core.alloc(e)
        core.run(e, F, self.r, None)
        width = rng.randint(2, 3)
        inplace = rng.random() < 0.3
        out = core.outs[0]
        ty = mtype([L], dt)
        dst = out
        if not inplace:
            dst = e.fresh("st")
            e.emit(f"{dst} = memref.alloc() : {ty}")
            e.sentinel(dst, ty, dt)
        c0, c1, cu = e.const(0), e.const(1), e.const(L - width + 1)
        iv = e.fresh("si")
        e.open(f"scf.for {iv} = {c0} to {cu} step {c1} {{")
        vals = []
        for d in range(width):
            idx = iv
            if d:
                cd, idx = e.const(d), e.fresh("sx")
                e.emit(f"{idx} = arith.addi {iv}, {cd} : index")
            x = e.fresh("sl")
            e.emit(f"{x} = memref.load {out}[{idx}] : {ty}")
            vals.append(x)
        s = vals[0]
        for x in vals[1:]:
            t = e.fresh("ss")
            e.emit(f"{t} = arith.{'addf' if is_float(dt) else 'addi'} {s}, {x} : {dt}")
            s = t
        e.emit(f"memref.store {s}, {dst}[{iv}] : {ty}")
        e.close()
        acc = core.checksum_memref(e, acc0)
        if not inplace:
            acc = e.checksum(acc, dst, [L], dt, "memref")
        self.print_line(e, k, acc)
        # model
        ins = [[F[0].array([L], r, 0)] for r in range(n)]
        outs = spec.model(ins)
        accs = []
        for r in range(n):
            o = list(outs[r][0][1])
            d = [-7] * L if not inplace else o
            for i in range(L - width + 1):
                d[i] = sum(o[i + j] if inplace is False else d[i + j] for j in range(width))
            a = 17
            if not core.inplace:
                a = checksum(a, ins[r][0])
            if inplace:
                a = checksum(a, ((L,), d))
            else:
                a = checksum(a, ((L,), o))
                a = checksum(a, ((L,), d))
            accs.append(a)
        self.record(k, accs)

    def ctx_pingpong(self, k):
        """A time loop over two buffers passed on permuted in iter_args
        (`scf.yield %v, %u`): each step reduces u into v (out of place),
        then writes u (the op's input: its wait must stay before) and
        updates v, optionally through a private helper with llvm.noalias
        arguments."""
        e = self.main
        rng = self.rng
        n = self.n
        L = rng.randint(1, 6)
        dt = rng.choice(ELT)
        red = rng.choice(["sum", "max", "min"])
        g = rng.choice(divisors(n))
        groups = None if (g == n and rng.random() < 0.5) else equal_groups(rng, n, g)
        gl = real_groups(groups, n)
        rfc = "allreduce" in self.kinds and rng.random() < 0.2
        T = rng.randint(1, 4)
        ty = mtype([L], dt)
        Fu, Fv = Formula(rng), Formula(rng)
        acc0 = e.const(17, "i64")
        u0, v0 = e.fresh("pu"), e.fresh("pv")
        e.emit(f"{u0} = memref.alloc() : {ty}")
        e.emit(f"{v0} = memref.alloc() : {ty}")
        e.fill_memref(u0, ty, [L], dt, Fu, self.r, None)
        e.fill_memref(v0, ty, [L], dt, Fv, self.r, None)
        helper = rng.random() < 0.4
        if helper:
            name = f"@step{k}"
            h = Emitter()
            h.ind = 2
            c0, c1, cL = h.const(0), h.const(1), h.const(L)
            one = h.const(1, dt)
            h.open(f"scf.for %i = {c0} to {cL} step {c1} {{")
            h.emit(f"%x = memref.load %a[%i] : {ty}")
            h.emit(f"%y = arith.{'addf' if is_float(dt) else 'addi'} %x, {one} : {dt}")
            h.emit(f"memref.store %y, %b[%i] : {ty}")
            h.close()
            noalias = " {llvm.noalias}" if rng.random() < 0.7 else ""
            self.funcs.append([f"  func.func private {name}(%a: {ty}{noalias}, %b: {ty}{noalias}) {{"]
                              + h.lines + ["    return", "  }"])
        c0, c1, cT = e.const(0), e.const(1), e.const(T)
        it, u, v, ru, rv = e.fresh("pt"), e.fresh("u"), e.fresh("v"), e.fresh("ru"), e.fresh("rv")
        e.open(f"{ru}, {rv} = scf.for {it} = {c0} to {cT} step {c1} iter_args({u} = {u0}, {v} = {v0}) -> ({ty}, {ty}) {{")
        if rfc:
            # in place on v after copying u into it
            e.emit(f"memref.copy {u}, {v} : {ty} to {ty}")
            e.emit(f"distruntime.allreduce <{red}> {v} team(0) : {ty}")
            gl_used = [list(range(n))]
        else:
            e.emit(f"distruntime.all_reduce ins({u} : {ty}) outs({v} : {ty}) "
                   f"{{reduction = #distruntime.reduction<{red}>, replica_groups = {groups_attr(groups, n)}}}")
            gl_used = gl
        # u[i] = u[i] * 2 - it ; v[i] = v[i] + 1 (helper: v[i] = u[i] + 1 ... )
        ci, ii = e.const(0), None
        iv = e.fresh("pi")
        cL = e.const(L)
        e.open(f"scf.for {iv} = {ci} to {cL} step {c1} {{")
        x = e.fresh("px")
        e.emit(f"{x} = memref.load {u}[{iv}] : {ty}")
        two = e.const(2, dt)
        itx = e.fresh("pit")
        e.emit(f"{itx} = arith.index_cast {it} : index to i64")
        ite = e.to_elt(itx, dt)
        m, s = e.fresh("pm"), e.fresh("ps")
        e.emit(f"{m} = arith.{'mulf' if is_float(dt) else 'muli'} {x}, {two} : {dt}")
        e.emit(f"{s} = arith.{'subf' if is_float(dt) else 'subi'} {m}, {ite} : {dt}")
        e.emit(f"memref.store {s}, {u}[{iv}] : {ty}")
        e.close()
        if helper:
            # v = v + 1 via a helper reading v and writing a scratch, copied back
            sc = e.fresh("psc")
            e.emit(f"{sc} = memref.alloc() : {ty}")
            e.emit(f"func.call {name}({v}, {sc}) : ({ty}, {ty}) -> ()")
            e.emit(f"memref.copy {sc}, {v} : {ty} to {ty}")
        else:
            iv2 = e.fresh("pj")
            e.open(f"scf.for {iv2} = {ci} to {cL} step {c1} {{")
            x2, y2 = e.fresh("pq"), e.fresh("pr")
            e.emit(f"{x2} = memref.load {v}[{iv2}] : {ty}")
            one = e.const(1, dt)
            e.emit(f"{y2} = arith.{'addf' if is_float(dt) else 'addi'} {x2}, {one} : {dt}")
            e.emit(f"memref.store {y2}, {v}[{iv2}] : {ty}")
            e.close()
        e.emit(f"scf.yield {v}, {u} : {ty}, {ty}")
        e.close()
        acc = e.checksum(acc0, ru, [L], dt, "memref")
        acc = e.checksum(acc, rv, [L], dt, "memref")
        self.print_line(e, k, acc)
        U = [Fu.array([L], r, 0)[1] for r in range(n)]
        V = [Fv.array([L], r, 0)[1] for r in range(n)]
        f = {"sum": sum, "max": max, "min": min}[red]
        for t in range(T):
            newV = [None] * n
            for gg in gl_used:
                vals = [f(x) for x in zip(*[U[m] for m in gg])]
                for m in gg:
                    newV[m] = list(vals)
            U = [[x * 2 - t for x in U[r]] for r in range(n)]
            V = [[x + 1 for x in newV[r]] for r in range(n)]
            U, V = V, U
        self.record(k, [checksum(checksum(17, ((L,), U[r])), ((L,), V[r])) for r in range(n)])

    # --- injected bugs -----------------------------------------------------
    def gen_injected(self, k):
        e = self.main
        rng = self.rng
        bug = self.inject
        if bug == "mismatch":
            how = rng.choice(["direct", "direct", "loaded", "helper-cond", "helper-ops",
                              "permuted", "dynamic-size", "loop-side"])
            self.comments.append(f"// injected variant: {how}")
            e.emit(f"// mismatch variant: {how}")
            self.inject_mismatch(e, how)
        elif bug == "nowait":
            how = rng.choice(["rank-branch", "uniform-branch", "never", "loop-last"])
            self.comments.append(f"// injected variant: {how}")
            e.emit(f"// nowait variant: {how}")
            self.inject_nowait(e, how)
        elif bug == "early-touch":
            how = rng.choice(["read-output", "write-input", "in-loop", "in-branch", "cast",
                              "dealloc"])
            self.comments.append(f"// injected variant: {how}")
            e.emit(f"// early-touch variant: {how}")
            self.inject_early(e, how)
        else:
            raise SystemExit(f"spmdgen.py: unknown --inject {bug}")
        # the injected case prints nothing of its own and is not modelled

    def split_cond(self, e, how):
        """A condition true on rank 0 only, derived from the member id
        directly, through memory, through a helper, or through data received
        by a collective_permute."""
        c0 = e.const(0)
        c = e.fresh("rc")
        if how == "loaded":
            m = e.fresh("mr")
            e.emit(f"{m} = memref.alloc() : memref<1xindex>")
            e.emit(f"memref.store {self.r}, {m}[{c0}] : memref<1xindex>")
            x = e.fresh("lr")
            e.emit(f"{x} = memref.load {m}[{c0}] : memref<1xindex>")
            e.emit(f"{c} = arith.cmpi eq, {x}, {c0} : index")
        elif how == "helper-cond":
            name = f"@is_root{len(self.funcs)}"
            self.funcs.append([f"  func.func private {name}(%x: index) -> i1 {{",
                               "    %z = arith.constant 0 : index",
                               "    %c = arith.cmpi eq, %x, %z : index",
                               "    return %c : i1", "  }"])
            e.emit(f"{c} = func.call {name}({self.r}) : (index) -> i1")
        elif how == "permuted":
            # every member sends its id to itself; the received id decides
            t = e.fresh("pt")
            ri = e.fresh("pi")
            e.emit(f"{ri} = arith.index_cast {self.r} : index to i64")
            e.emit(f"{t} = tensor.from_elements {ri} : tensor<1xi64>")
            pairs = ", ".join(f"[{i}, {i}]" for i in range(self.n))
            p = e.fresh("pr")
            e.emit(f"{p} = distruntime.collective_permute ins({t} : tensor<1xi64>) "
                   f"{{source_target_pairs = dense<[{pairs}]> : tensor<{self.n}x2xi64>}} -> tensor<1xi64>")
            x = e.fresh("px")
            e.emit(f"{x} = tensor.extract {p}[{c0}] : tensor<1xi64>")
            z = e.const(0, "i64")
            e.emit(f"{c} = arith.cmpi eq, {x}, {z} : i64")
        else:
            e.emit(f"{c} = arith.cmpi eq, {self.r}, {c0} : index")
        return c

    def inject_mismatch(self, e, how):
        import copy
        rng = self.rng
        n = self.n
        kind = rng.choice(["all_reduce", "allreduce", "reduce_scatter"])
        # one group of the whole team: rank 0 and the others meet (with
        # groups that separate them, different sides would not be a bug)
        spec = SPECS[kind](rng, n)
        while spec.groups is not None:
            spec = SPECS[kind](rng, n)
        F = self.formulas(spec)
        what = rng.choice(["reduction", "shape"])
        if what == "reduction":
            other = rng.choice([x for x in ("sum", "max", "min") if x != spec.red])
            spec2 = spec.with_reduction(other)
        else:
            spec2 = copy.copy(spec)
            si, so, dt = spec.operands[0]
            si2, so2 = list(si), list(so)
            if kind == "reduce_scatter":
                si2[spec.dim] += spec.G
                so2[spec.dim] += 1
            else:
                si2[0] += 1
                so2[0] += 1
            spec2.operands = [(si2, so2, dt)] + spec.operands[1:]
        e.emit(f"// mismatch by {what}: {kind}")
        if how == "dynamic-size":
            # no branch: the size of a dynamic buffer derives from the member id
            (si, so, dt) = spec.operands[0]
            if kind == "reduce_scatter":
                spec = AllReduce(rng, n)
                dt = spec.operands[0][2]
            c0, c2, c3 = e.const(0), e.const(2), e.const(3)
            is0, nn, b = e.fresh("z"), e.fresh("dn"), e.fresh("db")
            e.emit(f"{is0} = arith.cmpi eq, {self.r}, {c0} : index")
            e.emit(f"{nn} = arith.select {is0}, {c2}, {c3} : index")
            e.emit(f"{b} = memref.alloc({nn}) : memref<?x{dt}>")
            ty = f"memref<?x{dt}>"
            if spec.kind == "allreduce":
                e.emit(f"distruntime.allreduce <{spec.red}> {b} team(0) : {ty}")
            else:
                e.emit(f"distruntime.all_reduce ins({b} : {ty}) outs({b} : {ty}) "
                       f"{{reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}}")
            return
        cond = self.split_cond(e, how if how in ("loaded", "helper-cond", "permuted") else "direct")
        core = self.new_core(spec, "memref", async_=rng.random() < 0.3)
        core.alloc(e)
        core2 = self.new_core(spec2, "memref", async_=core.async_)
        core2.inplace = core.inplace
        if what == "shape":
            core2.alloc(e)
        else:
            core2.ins, core2.outs = core.ins, core.outs
        if how == "helper-ops":
            names = []
            for c in (core, core2):
                name = f"@side{len(self.funcs)}"
                h = Emitter()
                h.ind = 2
                ops = c.spec.operands
                args = ([f"%in{i}: {mtype(si, dt)}" for i, (si, _, dt) in enumerate(ops)] +
                        ([] if c.inplace else
                         [f"%out{i}: {mtype(so, dt)}" for i, (_, so, dt) in enumerate(ops)]))
                ins = [f"%in{i}" for i in range(len(ops))]
                outs = ins if c.inplace else [f"%out{i}" for i in range(len(ops))]
                _, hd = h.collective(c.spec, ins, [mtype(si, dt) for si, _, dt in ops], outs,
                                     [mtype(so, dt) for _, so, dt in ops], c.async_)
                if hd:
                    h.emit(f"distruntime.wait {hd}")
                self.funcs.append([f"  func.func private {name}({', '.join(args)}) {{"] + h.lines +
                                  ["    return", "  }"])
                vals = c.ins + ([] if c.inplace else c.outs)
                tys = ([mtype(si, dt) for si, _, dt in ops] +
                       ([] if c.inplace else [mtype(so, dt) for _, so, dt in ops]))
                names.append((name, vals, tys))
            e.open(f"scf.if {cond} {{")
            for kk, (name, vals, tys) in enumerate(names):
                if kk == 1:
                    e.close("} else {")
                    e.ind += 1
                e.emit(f"func.call {name}({', '.join(vals)}) : ({', '.join(tys)}) -> ()")
            e.close()
            return
        e.open(f"scf.if {cond} {{")
        core.run(e, F, self.r, None)
        e.close("} else {")
        e.ind += 1
        if how == "loop-side":
            c0, c1 = e.const(0), e.const(1)
            iv = e.fresh("one")
            e.open(f"scf.for {iv} = {c0} to {c1} step {c1} {{")
            core2.run(e, [Formula(rng) for _ in spec2.operands], self.r, None)
            e.close()
        else:
            core2.run(e, [Formula(rng) for _ in spec2.operands], self.r, None)
        e.close()

    def issue_async(self, e, spec=None):
        spec = spec or self.pick_spec()
        core = self.new_core(spec, "memref", async_=True)
        core.alloc(e)
        F = self.formulas(spec)
        ops = spec.operands
        for kk, (si, so, dt) in enumerate(ops):
            e.fill_memref(core.ins[kk], mtype(si, dt), si, dt, F[kk], self.r, None)
        _, h = e.collective(spec, core.ins, [mtype(si, dt) for si, _, dt in ops],
                            core.outs, [mtype(so, dt) for _, so, dt in ops], True)
        return core, h

    def inject_nowait(self, e, how):
        if how == "loop-last":
            # issued in every iteration, waited in the last one only
            c0, c1, c3 = e.const(0), e.const(1), e.const(3)
            c2 = e.const(2)
            iv = e.fresh("it")
            e.open(f"scf.for {iv} = {c0} to {c3} step {c1} {{")
            core, h = self.issue_async(e)
            last = e.fresh("last")
            e.emit(f"{last} = arith.cmpi eq, {iv}, {c2} : index")
            e.open(f"scf.if {last} {{")
            e.emit(f"distruntime.wait {h}")
            e.close()
            e.close()
            return
        if how == "uniform-branch":
            core, h = self.issue_async(e)
            p, ct, c = e.fresh("P"), e.const(64), e.fresh("uc")
            e.emit(f"{p} = distruntime.team_size team(0)")
            e.emit(f"{c} = arith.cmpi sgt, {p}, {ct} : index")
            e.open(f"scf.if {c} {{")
            e.emit(f"distruntime.wait {h}")
            e.close()
            return
        if how == "never":
            self.issue_async(e)
            return
        cond = self.split_cond(e, "direct")
        core, h = self.issue_async(e)
        e.open(f"scf.if {cond} {{")
        e.emit(f"distruntime.wait {h}")
        e.close()

    def inject_early(self, e, how):
        rng = self.rng
        spec = self.pick_spec()
        core, h = self.issue_async(e, spec)
        si, so, dt = spec.operands[0]
        ity, oty = mtype(si, dt), mtype(so, dt)
        # send_recv: the send is waited at once; the recv's output is pending
        sr = spec.kind == "send_recv"
        if how == "dealloc":
            if sr:
                e.emit(f"memref.dealloc {core.outs[0]} : {oty}")
            else:
                e.emit(f"memref.dealloc {core.ins[0]} : {ity}")
            e.emit(f"distruntime.wait {h}")
            return
        read = sr or how == "read-output" or (how != "write-input" and rng.random() < 0.5)
        buf, ty, shape = (core.outs[0], oty, so) if read else (core.ins[0], ity, si)
        e.emit(f"// touches the {'output' if read else 'input'} before the wait")
        sink = e.fresh("sink")
        e.emit(f"{sink} = memref.alloc() : memref<1x{dt}>")
        zero = e.const(0)
        if how == "cast":
            dyn = "memref<" + "x".join("?" for _ in shape) + f"x{dt}>"
            cb = e.fresh("cast")
            e.emit(f"{cb} = memref.cast {buf} : {ty} to {dyn}")
            buf, ty = cb, dyn
        idx = [e.const(0) for _ in shape]

        def touch():
            if read:
                x = e.fresh("early")
                e.emit(f"{x} = memref.load {buf}[{', '.join(idx)}] : {ty}")
                e.emit(f"memref.store {x}, {sink}[{zero}] : memref<1x{dt}>")
            else:
                v = e.const(3, dt)
                e.emit(f"memref.store {v}, {buf}[{', '.join(idx)}] : {ty}")

        if how == "in-loop":
            c0, c1, c2 = e.const(0), e.const(1), e.const(2)
            iv = e.fresh("el")
            e.open(f"scf.for {iv} = {c0} to {c2} step {c1} {{")
            touch()
            e.close()
        elif how == "in-branch":
            c = self.split_cond(e, "direct")
            e.open(f"scf.if {c} {{")
            touch()
            e.close()
        else:
            touch()
        e.emit(f"distruntime.wait {h}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--cases", type=int, default=10)
    ap.add_argument("--np", type=int, default=2, dest="n")
    ap.add_argument("--inject", choices=["mismatch", "nowait", "early-touch"])
    ap.add_argument("--expect", help="write the expected sorted output here")
    ap.add_argument("--kinds", help="comma-separated subset of: " + ",".join(SPECS))
    ap.add_argument("--contexts", help="comma-separated subset of: " + ",".join(CONTEXTS))
    ap.add_argument("--forms", help="memref,tensor")
    ap.add_argument("--keep", help="emit only these case numbers (comma-separated; "
                    "the others are generated and dropped, for minimizing)")
    a = ap.parse_args()
    kinds = a.kinds.split(",") if a.kinds else None
    contexts = a.contexts.split(",") if a.contexts else None
    forms = a.forms.split(",") if a.forms else None
    for x in kinds or []:
        if x not in SPECS:
            ap.error(f"unknown kind {x}")
    for x in contexts or []:
        if x not in CONTEXTS:
            ap.error(f"unknown context {x}")
    p = Program(a.seed, a.cases, a.n, a.inject, kinds, contexts, forms)
    p.modattr = p.rng.random() < 0.7
    if a.keep:
        p.keep = set(int(x) for x in a.keep.split(","))
    sys.stdout.write(p.gen())
    if a.expect:
        with open(a.expect, "w") as f:
            for line in sorted(p.expect):
                f.write(line + "\n")


if __name__ == "__main__":
    main()
