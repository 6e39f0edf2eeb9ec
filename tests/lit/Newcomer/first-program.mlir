// The guide's "Your first program" compiles and runs as written: the program
// is extracted from docs/guide.md and its output at np 1-4 must equal the
// closed forms of Inputs/first_program.py. A newcomer's first program, and
// executable documentation.
// RUN: python3 %S/Inputs/extract.py %examples/../docs/guide.md first-program > %t.mlir
// RUN: %compile %t.mlir -o %t
// RUN: %mpirun 1 %t > %t.1 && python3 %S/Inputs/first_program.py 1 | diff - %t.1
// RUN: %mpirun 2 %t > %t.2 && python3 %S/Inputs/first_program.py 2 | diff - %t.2
// RUN: %mpirun 3 %t > %t.3 && python3 %S/Inputs/first_program.py 3 | diff - %t.3
// RUN: %mpirun 4 %t > %t.4 && python3 %S/Inputs/first_program.py 4 | diff - %t.4
// The guide shows the np 4 output and the np 3 floats: they are these.
// RUN: python3 %S/Inputs/extract.py %examples/../docs/guide.md first-program-output | diff - %t.4
// RUN: FileCheck %s --check-prefix=NP3 < %t.3
// NP3: 1.73205
// NP3-NEXT: 1.7320508075688772
