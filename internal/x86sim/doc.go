// Package x86sim runs x86-64 assembly in an interpreter, so that kernels
// written for instruction sets the CPU lacks (AVX-512 and its extensions:
// VNNI, VBMI, BF16, GFNI, ...) can be tested on any machine, CI included.
//
// It reads the listing the Go assembler prints (go tool asm -S): macros are
// expanded there, branch targets are resolved to offsets, and the operands
// are in the Go assembler's syntax, so the interpreter runs exactly the
// instructions the package's .s files assemble to. Memory operands address
// the real process memory (the arguments of a call point into Go slices);
// the stack is the interpreter's own.
//
// It covers the instructions the repository's kernels use, with the
// semantics of Intel's Software Developer's Manual, and nothing else: an
// instruction it does not know stops the run with an error naming it and
// its source line. It is a test tool: it is slow (tens of nanoseconds per
// instruction) and says nothing about speed.
//
// Layout:
//   - vec.go: the vector register type and its lane accessors;
//   - ops.go: the interface between the interpreter and the semantics of
//     the vector instructions (VecOp), and the table of them (vectorOps);
//   - the interpreter (parsing the listing, the general-purpose and mask
//     registers, flags, control flow, operand decoding, masking, broadcast,
//     memory) lives in its own files: listing.go (Parse), machine.go
//     (Program.Call, the stack, memory checks), gp.go (general-purpose
//     instructions and jumps), vecexec.go (vector instructions through
//     VecOp), special.go (stack, opmask, gather, legacy SSE moves) and
//     assemble.go (go tool asm -S, Load), lazy.go (a package's Program loaded
//     at first use, for the generated bodies of a test build);
//   - gensim generates the avx512sim build's bodies of a package's
//     assembly declarations (shards/tensor, shards/model).
package x86sim
