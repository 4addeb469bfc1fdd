package tensor

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"testing"
)

// goldenProducts holds, per weight type, a hash of the output bits of
// goldenProduct: the products of one fixed matrix with fixed activations
// for 1, 2, 5, 13 and 32 positions. They were computed once on amd64; every
// kernel set on every architecture must give them, because a swarm may
// chain an x86 machine to an ARM one and the chain must produce exactly
// what one machine produces. TestKernelsMatchGeneric compares the sets of
// one CPU with each other; only a constant catches a difference between
// architectures, such as the Go compiler fusing a multiply-add on arm64
// that it keeps separate on amd64.
var goldenProducts = map[Type]uint64{
	F32:  0xef7508e3410bd10d,
	F16:  0xa779459b8800c2a9,
	BF16: 0x1a475d1c7c24285d,
	Q8_0: 0x1aab028d29d71395,
	Q4_0: 0x5ce2e99e320c53ca,
	Q4_1: 0xdd73d9f66debc230,
	Q5_0: 0x7a6e5bb4fbcddeb4,
	Q5_1: 0xcb5717313f63278f,
	Q2_K: 0x4b5ac7fe5569a9ac,
	Q3_K: 0x7e64d16f480129c1,
	Q4_K: 0xf3825017d6e5c468,
	Q5_K: 0x56c7bda86bc35844,
	Q6_K: 0x78fbbb7aa5bf3381,
}

// goldenPositions are the position counts goldenProduct multiplies: the
// one-position kernels, small batches, and the prompt tiles.
var goldenPositions = []int{1, 2, 5, 13, 32}

func TestKernelsGolden(t *testing.T) {
	p := NewPool(2)
	defer p.Close()
	for _, typ := range allTypes {
		w, x := goldenInputs(typ)
		want, ok := goldenProducts[typ]
		for _, ks := range kernelSets() {
			got := goldenProduct(t, func(n int, out []float32) {
				matMul(ks, p, NewWorkspace(), w, x, n, out)
			}, w.Rows)
			if !ok {
				t.Errorf("%v: no golden hash; %s gives %#016x", typ, ks.name, got)
				continue
			}
			if got != want {
				t.Errorf("%v: kernel set %s gives %#016x, want %#016x (computed on amd64)", typ, ks.name, got, want)
			}
		}
		// The layout Pack chooses for the best set (x layouts, where its
		// kernels exist) must not change the bits either.
		pw, err := Pack(w)
		if err != nil {
			t.Fatalf("%v: Pack: %v", typ, err)
		}
		got := goldenProduct(t, func(n int, out []float32) {
			MatMul(p, NewWorkspace(), pw, x, n, out)
		}, w.Rows)
		if ok && got != want {
			t.Errorf("%v: packed, kernel set %s gives %#016x, want %#016x", typ, KernelSet(), got, want)
		}
	}
}

// goldenProduct hashes the output bits of mul for each of goldenPositions.
func goldenProduct(t *testing.T, mul func(n int, out []float32), rows int) uint64 {
	t.Helper()
	h := fnv.New64a()
	var b [4]byte
	for _, n := range goldenPositions {
		out := make([]float32, n*rows)
		mul(n, out)
		for i, v := range out {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				t.Fatalf("position count %d: element %d is %g: the golden inputs must keep every output finite", n, i, v)
			}
			binary.LittleEndian.PutUint32(b[:], math.Float32bits(v))
			h.Write(b[:])
		}
	}
	return h.Sum64()
}

// goldenInputs builds the matrix (40 rows) and the activations (32
// positions) of typ's golden product from integer operations only, so
// that they are the same bits on every architecture: randomMatrix's normal
// deviates pass through math.Exp and math.Log, whose last bit may differ
// between the amd64 and arm64 implementations.
func goldenInputs(typ Type) (Matrix, []float32) {
	const rows, npos = 40, 32
	cols := map[int]int{1: 32*9 + 7, 32: 32 * 18}[typ.BlockSize()]
	if cols == 0 {
		cols = 256 * 3
	}
	r := rand.New(rand.NewPCG(18, uint64(typ)))
	rb, err := RowBytes(typ, cols)
	if err != nil {
		panic(fmt.Sprintf("golden inputs for %v: %v", typ, err))
	}
	data := make([]byte, rows*rb)
	switch typ {
	case F32:
		for i := 0; i < rows*cols; i++ {
			binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(goldenValue(r, 8)))
		}
	case F16:
		for i := 0; i < rows*cols; i++ {
			binary.LittleEndian.PutUint16(data[2*i:], goldenF16(r, 8, 16, true))
		}
	case BF16:
		for i := 0; i < rows*cols; i++ {
			// Exponents 118..133 (2^-9 .. 2^6) with a random sign and
			// mantissa: normal numbers whose products stay normal.
			e := uint16(118 + r.IntN(16))
			binary.LittleEndian.PutUint16(data[2*i:], uint16(r.IntN(2))<<15|e<<7|uint16(r.IntN(128)))
		}
	default:
		for i := range data {
			data[i] = byte(r.Uint32())
		}
		bb := typ.BlockBytes()
		for b := 0; b < len(data)/bb; b++ {
			for _, off := range f16Fields[typ] {
				// 2^-12 .. 2^-6. The 32-element types' scales and
				// minimums take either sign (llama.cpp's Q4_0 scale is
				// negative when the block's largest magnitude is); the
				// K-quants' super-block scales are positive.
				h := goldenF16(r, 3, 10, typ.BlockSize() == 32)
				binary.LittleEndian.PutUint16(data[b*bb+off:], h)
			}
		}
	}
	x := make([]float32, npos*cols)
	for i := range x {
		x[i] = goldenValue(r, 10)
		if r.IntN(50) == 0 {
			x[i] *= 32 // outliers, as real activations have
		}
	}
	return Matrix{Type: typ, Rows: rows, Cols: cols, Data: data}, x
}

// goldenValue is a random multiple of 2^-shift in (-4, 4), exact in float32.
func goldenValue(r *rand.Rand, shift int) float32 {
	k := r.IntN(8<<shift) - 4<<shift
	return float32(k) / float32(int(1)<<shift)
}

// goldenF16 is a random normal f16 with a biased exponent in [lo, hi), a
// random mantissa and, if signed, a random sign.
func goldenF16(r *rand.Rand, lo, hi int, signed bool) uint16 {
	h := uint16(lo+r.IntN(hi-lo))<<10 | uint16(r.IntN(1024))
	if signed && r.IntN(2) == 0 {
		h |= 0x8000
	}
	return h
}
