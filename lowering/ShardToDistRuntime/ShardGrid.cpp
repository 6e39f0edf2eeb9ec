//===- ShardGrid.cpp - shard grids as distruntime teams -------------------===//

#include "ShardGrid.h"

#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"

#include <map>

using namespace mlir;
using namespace mlir::distruntime;

std::string ShardGrid::describe() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(
      getShape(), os,
      [&](int64_t s) {
        if (ShapedType::isDynamic(s))
          os << '?';
        else
          os << s;
      },
      "x");
  return text;
}

bool ShardGrid::isStatic() const {
  return !ShapedType::isDynamicShape(getShape());
}

int64_t ShardGrid::getSize() const { return getStaticSize(); }

int64_t ShardGrid::getStaticSize() const {
  int64_t size = 1;
  for (int64_t extent : getShape())
    if (!ShapedType::isDynamic(extent))
      size *= extent;
  return size;
}

SmallVector<int64_t> ShardGrid::toAxes(ArrayRef<shard::GridAxis> axes) {
  return llvm::map_to_vector(axes,
                             [](shard::GridAxis a) { return int64_t(a); });
}

SmallVector<int64_t>
ShardGrid::resolveAxes(ArrayRef<shard::GridAxis> axes) const {
  if (axes.empty())
    return llvm::to_vector(llvm::seq<int64_t>(0, getShape().size()));
  return toAxes(axes);
}

int64_t ShardGrid::getGroupSize(ArrayRef<shard::GridAxis> axes) const {
  int64_t size = 1;
  for (int64_t axis : toAxes(axes))
    size *= getShape()[axis];
  return size;
}

/// Row-major coordinates of `rank` in `shape`.
static SmallVector<int64_t> coordinatesOf(int64_t rank,
                                          ArrayRef<int64_t> shape) {
  SmallVector<int64_t> coords(shape.size());
  for (int64_t d = shape.size() - 1; d >= 0; --d) {
    coords[d] = rank % shape[d];
    rank /= shape[d];
  }
  return coords;
}

/// The row-major index of the coordinates `coords` has on `axes`.
static int64_t linearIndexOf(ArrayRef<int64_t> coords, ArrayRef<int64_t> axes,
                             ArrayRef<int64_t> shape) {
  int64_t index = 0;
  for (int64_t axis : axes)
    index = index * shape[axis] + coords[axis];
  return index;
}

int64_t ShardGrid::getInGroupIndex(ArrayRef<shard::GridAxis> axes,
                                   ArrayRef<int64_t> coords) const {
  SmallVector<int64_t> onAxes = toAxes(axes);
  // `coords` lists one coordinate per axis in `axes`: spread them out.
  SmallVector<int64_t> all(getShape().size());
  for (auto [axis, coord] : llvm::zip_equal(onAxes, coords))
    all[axis] = coord;
  return linearIndexOf(all, onAxes, getShape());
}

SmallVector<SmallVector<int64_t>>
ShardGrid::getGroups(ArrayRef<shard::GridAxis> axes) const {
  SmallVector<int64_t> inGroup = toAxes(axes);
  SmallVector<int64_t> others;
  for (int64_t axis : llvm::seq<int64_t>(0, getShape().size()))
    if (!llvm::is_contained(inGroup, axis))
      others.push_back(axis);
  int64_t groupSize = getGroupSize(axes);
  // Groups keyed by the coordinates outside `axes`, in rank order.
  std::map<int64_t, SmallVector<int64_t>> groups;
  for (int64_t rank : llvm::seq<int64_t>(0, getSize())) {
    SmallVector<int64_t> coords = coordinatesOf(rank, getShape());
    SmallVector<int64_t> &group =
        groups[linearIndexOf(coords, others, getShape())];
    group.resize(groupSize);
    group[linearIndexOf(coords, inGroup, getShape())] = rank;
  }
  return llvm::to_vector(llvm::make_second_range(groups));
}

static DenseIntElementsAttr
toAttr(Builder &b, ArrayRef<SmallVector<int64_t>> rows, int64_t width) {
  SmallVector<int64_t> flat;
  for (ArrayRef<int64_t> row : rows)
    llvm::append_range(flat, row);
  auto type =
      RankedTensorType::get({int64_t(rows.size()), width}, b.getI64Type());
  return DenseIntElementsAttr::get(type, flat);
}

DenseIntElementsAttr
ShardGrid::getGroupsAttr(Builder &b, ArrayRef<shard::GridAxis> axes) const {
  return toAttr(b, getGroups(axes), getGroupSize(axes));
}

DenseIntElementsAttr
ShardGrid::getRootFirstGroupsAttr(Builder &b, ArrayRef<shard::GridAxis> axes,
                                  int64_t root) const {
  SmallVector<SmallVector<int64_t>> groups = getGroups(axes);
  for (SmallVector<int64_t> &group : groups)
    std::rotate(group.begin(), group.begin() + root, group.end());
  return toAttr(b, groups, getGroupSize(axes));
}

DenseIntElementsAttr ShardGrid::getShiftPairsAttr(Builder &b, int64_t axis,
                                                  int64_t offset,
                                                  bool rotate) const {
  SmallVector<SmallVector<int64_t>> pairs;
  int64_t extent = getShape()[axis];
  SmallVector<int64_t> all = resolveAxes({});
  // Reduced first, so that adding it cannot overflow; without rotate an
  // offset of at least the extent leaves every target outside.
  int64_t step = rotate ? offset % extent : std::clamp(offset, -extent, extent);
  for (int64_t rank : llvm::seq<int64_t>(0, getSize())) {
    SmallVector<int64_t> coords = coordinatesOf(rank, getShape());
    int64_t target = coords[axis] + step;
    if (rotate)
      target = (target + extent) % extent;
    else if (target < 0 || target >= extent)
      continue;
    coords[axis] = target;
    pairs.push_back({rank, linearIndexOf(coords, all, getShape())});
  }
  return toAttr(b, pairs, 2);
}

DenseIntElementsAttr
ShardGrid::getInGroupPairsAttr(Builder &b, ArrayRef<shard::GridAxis> axes,
                               int64_t from, int64_t to) const {
  SmallVector<SmallVector<int64_t>> pairs;
  for (ArrayRef<int64_t> group : getGroups(axes))
    pairs.push_back({group[from], group[to]});
  return toAttr(b, pairs, 2);
}

SmallVector<Value> ShardGrid::createShape(OpBuilder &b, Location loc) const {
  int64_t known = getStaticSize();
  SmallVector<Value> shape;
  for (int64_t extent : getShape()) {
    if (!ShapedType::isDynamic(extent)) {
      shape.push_back(arith::ConstantIndexOp::create(b, loc, extent));
      continue;
    }
    // The verifier of the conversion allows one dynamic axis.
    Value size = TeamSizeOp::create(b, loc, b.getIndexType(), team);
    shape.push_back(arith::DivUIOp::create(
        b, loc, size, arith::ConstantIndexOp::create(b, loc, known)));
  }
  return shape;
}

Value ShardGrid::createLinearIndex(OpBuilder &b, Location loc,
                                   ArrayRef<int64_t> axes, ValueRange coords,
                                   ValueRange shape) {
  Value index = arith::ConstantIndexOp::create(b, loc, 0);
  for (auto [axis, coord] : llvm::zip_equal(axes, coords)) {
    index = arith::MulIOp::create(b, loc, index, shape[axis]);
    index = arith::AddIOp::create(b, loc, index, coord);
  }
  return index;
}

SmallVector<Value>
ShardGrid::createMultiIndex(OpBuilder &b, Location loc,
                            ArrayRef<shard::GridAxis> axes) const {
  return createMultiIndex(b, loc, axes, createShape(b, loc));
}

SmallVector<Value> ShardGrid::createMultiIndex(OpBuilder &b, Location loc,
                                               ArrayRef<shard::GridAxis> axes,
                                               ValueRange shape) const {
  Value rank = TeamMemberOp::create(b, loc, b.getIndexType(), team);
  // Stride of axis a: the product of the sizes of the axes after it.
  SmallVector<Value> coords;
  for (int64_t axis : resolveAxes(axes)) {
    Value stride = arith::ConstantIndexOp::create(b, loc, 1);
    for (int64_t later = axis + 1; later < int64_t(shape.size()); ++later)
      stride = arith::MulIOp::create(b, loc, stride, shape[later]);
    Value slow = arith::DivUIOp::create(b, loc, rank, stride);
    coords.push_back(arith::RemUIOp::create(b, loc, slow, shape[axis]));
  }
  return coords;
}

Value ShardGrid::createInGroupIndex(OpBuilder &b, Location loc,
                                    ArrayRef<shard::GridAxis> axes) const {
  if (axes.empty())
    return arith::ConstantIndexOp::create(b, loc, 0);
  SmallVector<Value> shape = createShape(b, loc);
  return createLinearIndex(b, loc, toAxes(axes),
                           createMultiIndex(b, loc, axes, shape), shape);
}
