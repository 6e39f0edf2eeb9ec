// distruntime-verify-spmd: collectives under a branch whose condition may
// differ between members. Sides that can never run the same collectives
// are errors naming both collectives, the branch and where its condition
// comes from; sides that may differ, loops whose trip count may differ,
// returns that may skip a collective and sizes that may differ are
// warnings. Correct programs get nothing.
// RUN: %distruntime-opt %s -split-input-file -distruntime-verify-spmd -verify-diagnostics
// With warnings-as-errors, a warning fails the pass.
// RUN: not %distruntime-opt %s -split-input-file -distruntime-verify-spmd=warnings-as-errors=1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=STRICT
// STRICT: error: 'distruntime.all_reduce' runs on team 0 in a loop whose trip count may differ between members

func.func @skipped(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  // expected-note @below {{it derives from the member id here}}
  %me = distruntime.team_member team(0)
  %is0 = arith.cmpi eq, %me, %c0 : index
  // expected-note @below {{the 'scf.if' that decides, on a value that may differ between members}}
  scf.if %is0 {
    // expected-error @below {{'distruntime.all_reduce' on team 0 runs on one side of a branch whose condition may differ between members, and the other side runs no matching collective}}
    distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
        {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  }
  return
}

// -----

func.func @reduction(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  // expected-note @below {{it derives from the member id here}}
  %me = distruntime.team_member team(0)
  %is0 = arith.cmpi eq, %me, %c0 : index
  // expected-note @below {{the 'scf.if' that decides, on a value that may differ between members}}
  scf.if %is0 {
    // expected-error @below {{'distruntime.all_reduce' on team 0 runs on one side of a branch whose condition may differ between members, and does not match the other side: reduction sum here, max on the other side}}
    distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
        {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    // expected-note @below {{the other side's 'distruntime.all_reduce'}}
    distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
        {reduction = #distruntime.reduction<max>, replica_groups = dense<> : tensor<0x0xi64>}
  }
  return
}

// -----

// The condition comes from memory the analysis cannot see whole (an
// argument); the sides run other ops, sync and async.
func.func @memory(%flag: memref<1xi1>, %a: memref<4xf32>, %b: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  // expected-note @below {{it derives from memory that may differ between members, read here}}
  %c = memref.load %flag[%c0] : memref<1xi1>
  // expected-note @below {{the 'scf.if' that decides, on a value that may differ between members}}
  scf.if %c {
    // expected-error @below {{op 'distruntime.all_reduce' here, 'distruntime.all_gather' on the other side}}
    distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
        {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    // expected-note @below {{the other side's 'distruntime.all_gather'}}
    distruntime.all_gather ins(%a : memref<4xf32>) outs(%b : memref<8xf32>)
        {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  }
  return
}

// -----

func.func @mode(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  // expected-note @below {{it derives from the member id here}}
  %me = distruntime.team_member team(0)
  %r = arith.remui %me, %c2 : index
  %odd = arith.cmpi ne, %r, %c0 : index
  // expected-note @below {{the 'scf.if' that decides, on a value that may differ between members}}
  scf.if %odd {
    // expected-error @below {{mode sync here, async on the other side}}
    distruntime.allreduce <sum> %a team(0) : memref<4xf32>
  } else {
    // expected-note @below {{the other side's 'distruntime.allreduce'}}
    %h = distruntime.allreduce <sum> %a team(0) : memref<4xf32> -> !distruntime.async_handle
    distruntime.wait %h
  }
  return
}

// -----

func.func @loop(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-note @below {{it derives from the member id here}}
  %me = distruntime.team_member team(0)
  // expected-note @below {{the 'scf.for' that decides, on a value that may differ between members}}
  scf.for %i = %c0 to %me step %c1 {
    // expected-warning @below {{'distruntime.all_reduce' runs on team 0 in a loop whose trip count may differ between members}}
    distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
        {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  }
  return
}

// -----

func.func @early_return(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  // expected-note @below {{it derives from the member id here}}
  %me = distruntime.team_member team(0)
  %is0 = arith.cmpi eq, %me, %c0 : index
  // expected-note @below {{the 'cf.cond_br' that decides, on a value that may differ between members}}
  cf.cond_br %is0, ^exit, ^work
^exit:
  // expected-warning @below {{this return, under a condition that may differ between members, may skip 'distruntime.all_reduce' on team 0}}
  return
^work:
  // expected-note @below {{the collective it may skip}}
  distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
      {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  return
}

// -----

func.func @sizes() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  // expected-note @below {{it derives from the member id here}}
  %me = distruntime.team_member team(0)
  %is0 = arith.cmpi eq, %me, %c0 : index
  %n = arith.select %is0, %c8, %c4 : index
  %x = memref.alloc(%n) : memref<?xf32>
  // expected-warning @below {{dimension 0 of input #0 of 'distruntime.all_reduce' may differ between members of team 0}}
  distruntime.all_reduce ins(%x : memref<?xf32>) outs(%x : memref<?xf32>)
      {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  return
}

// -----

// A group of the collective's replica_groups whose members take different
// sides: the condition folds for every member the groups list.
func.func @split_group(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  // expected-note @below {{it derives from the member id here}}
  %me = distruntime.team_member team(0)
  %r = arith.remui %me, %c2 : index
  %odd = arith.cmpi ne, %r, %c0 : index
  // expected-note @below {{the 'scf.if' that decides, on a value that may differ between members}}
  scf.if %odd {
    // expected-error @below {{'distruntime.all_reduce' on team 0 runs on one side of a branch whose condition may differ between members, and the other side runs no matching collective (members 0 and 1 of one group take different sides)}}
    distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
        {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>}
  }
  return
}

// -----

// Two teams, each in order on each side, interleaved differently.
func.func @teams(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  // expected-note @below {{it derives from the member id here}}
  %me = distruntime.team_member team(0)
  %is0 = arith.cmpi eq, %me, %c0 : index
  // expected-note @below {{the 'scf.if' that decides, on a value that may differ between members}}
  scf.if %is0 {
    // expected-warning @below {{'distruntime.allreduce' runs on one side of a branch whose condition may differ between members, in another order with the collectives of other teams than on the other side: members of several teams may wait for each other}}
    distruntime.allreduce <sum> %a team(0) : memref<4xf32>
    distruntime.allreduce <sum> %a team(1) : memref<4xf32>
  } else {
    // expected-note @below {{the other side's 'distruntime.allreduce'}}
    distruntime.allreduce <sum> %a team(1) : memref<4xf32>
    distruntime.allreduce <sum> %a team(0) : memref<4xf32>
  }
  return
}

// -----

// Correct: the sides run the same collectives; a condition decided twice
// (if c A; if !c A) runs A once everywhere; a condition uniform within the
// groups of the collectives under it; groups no member splits; uniform
// conditions, and a loop with uniform bounds.
func.func @correct(%a: memref<4xf32>, %t: tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %me = distruntime.team_member team(0)
  %n = distruntime.team_size team(0)
  %is0 = arith.cmpi eq, %me, %c0 : index
  scf.if %is0 {
    distruntime.allreduce <sum> %a team(0) : memref<4xf32>
  } else {
    distruntime.allreduce <sum> %a team(0) : memref<4xf32>
  }
  scf.if %is0 {
    distruntime.allreduce <max> %a team(0) : memref<4xf32>
  }
  %not0 = arith.cmpi ne, %me, %c0 : index
  scf.if %not0 {
    distruntime.allreduce <max> %a team(0) : memref<4xf32>
  }
  %g = distruntime.all_reduce ins(%t : tensor<4xf32>)
      {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} -> tensor<4xf32>
  %x = tensor.extract %g[%c0] : tensor<4xf32>
  %zero = arith.constant 0.0 : f32
  %pos = arith.cmpf ogt, %x, %zero : f32
  scf.if %pos {
    distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
        {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>}
  }
  %r = arith.remui %me, %c2 : index
  %odd = arith.cmpi ne, %r, %c0 : index
  scf.if %odd {
    distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
        {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[1, 3], [0, 2]]> : tensor<2x2xi64>}
  } else {
    distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
        {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[1, 3], [0, 2]]> : tensor<2x2xi64>}
  }
  %big = arith.cmpi ugt, %n, %c2 : index
  scf.if %big {
    distruntime.allreduce <sum> %a team(0) : memref<4xf32>
  }
  scf.for %i = %c0 to %n step %c1 {
    distruntime.allreduce <sum> %a team(0) : memref<4xf32>
  }
  return
}

// -----

// Code that never runs is not checked: a branch on a constant keeps only the
// side it takes live (BranchConstants gives the dead-code analysis the
// constant conditions), so the mismatch under `scf.if %false` is not
// reported, in either form of branch.
func.func @dead_side(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %false = arith.constant false
  %me = distruntime.team_member team(0)
  %is0 = arith.cmpi eq, %me, %c0 : index
  scf.if %false {
    scf.if %is0 {
      distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
          {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
    }
  }
  cf.cond_br %false, ^dead, ^live
^dead:
  cf.cond_br %is0, ^one, ^live
^one:
  distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
      {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  cf.br ^live
^live:
  return
}

// -----

// A dead side decides nothing: the same condition under `scf.if %false`
// does not make its collective part of the live branch's sides.
func.func @dead_prefix(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %false = arith.constant false
  // expected-note @below {{it derives from the member id here}}
  %me = distruntime.team_member team(0)
  %is0 = arith.cmpi eq, %me, %c0 : index
  scf.if %false {
    scf.if %is0 {
      distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
          {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
    }
  }
  // expected-note @below {{the 'cf.cond_br' that decides, on a value that may differ between members}}
  cf.cond_br %is0, ^one, ^done
^one:
  // expected-error @below {{'distruntime.all_reduce' on team 0 runs on one side of a branch whose condition may differ between members, and the other side runs no matching collective}}
  distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
      {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  cf.br ^done
^done:
  return
}

// -----

// An update_halo grid size that may differ between members is a warning;
// dims_create's sizes and team_size agree.
func.func @grid_values(%b: memref<10x8xf32>) {
  %c1 = arith.constant 1 : index
  %g:2 = distruntime.dims_create team(0) : index, index
  distruntime.update_halo %b grid [%g#0 : index, %g#1 : index] split_axes [[0], [1]] halo_sizes [1, 1, 0, 0] : memref<10x8xf32>
  %n = distruntime.team_size team(0)
  distruntime.update_halo %b grid [%n : index] split_axes [[0]] halo_sizes [1, 1, 0, 0] : memref<10x8xf32>
  // expected-note @below {{it derives from the member id here}}
  %me = distruntime.team_member team(0)
  %m1 = arith.addi %me, %c1 : index
  // expected-warning @below {{a grid size of 'distruntime.update_halo' may differ between members of team 0; fix: compute the grid from values every member agrees on (distruntime.dims_create, team_size, constants)}}
  distruntime.update_halo %b grid [%m1 : index] split_axes [[0]] halo_sizes [1, 1, 0, 0] : memref<10x8xf32>
  return
}

// -----

// The same exchange on both sides of a branch that may differ, its grid
// a constant on one side and a value on the other: no diagnostic (a value
// may equal the constant; only constants that differ prove a difference).
func.func @grid_sides(%b: memref<10x8xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %me = distruntime.team_member team(0)
  %first = arith.cmpi eq, %me, %c0 : index
  scf.if %first {
    distruntime.update_halo %b grid [2, 1] split_axes [[0], [1]] halo_sizes [1, 1, 0, 0] : memref<10x8xf32>
  } else {
    distruntime.update_halo %b grid [%c2 : index, 1] split_axes [[0], [1]] halo_sizes [1, 1, 0, 0] : memref<10x8xf32>
  }
  return
}
