package tensor

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// bf16Case fills a BF16 matrix and activations for one kind of data.
type bf16Case struct {
	name string
	fill func(r *rand.Rand, w Matrix, x []float32)
}

// bf16Scale multiplies every weight of w by s (rounded back to bf16).
func bf16Scale(w Matrix, s float64) {
	for i := 0; i+2 <= len(w.Data); i += 2 {
		v := float64(BF16ToFP32(le16(w.Data[i:]))) * s
		binary.LittleEndian.PutUint16(w.Data[i:], FP32ToBF16(float32(v)))
	}
}

// bf16Cases covers the data where VDPBF16PS's flushing of subnormal inputs
// and sums matters (the AVX2 and NEON kernels then recompute in Go) and
// the data where it cannot (they keep their own sums).
var bf16Cases = []bf16Case{
	{"random", func(*rand.Rand, Matrix, []float32) {}},
	{"tiny products", func(_ *rand.Rand, w Matrix, x []float32) {
		// Normal inputs whose products are subnormal or round to zero.
		bf16Scale(w, 1e-20)
		for i := range x {
			x[i] *= 1e-19
		}
	}},
	{"products near 2^-126", func(_ *rand.Rand, w Matrix, x []float32) {
		bf16Scale(w, 0x1p-63)
		for i := range x {
			x[i] *= 0x1p-63
		}
	}},
	{"subnormal weights", func(r *rand.Rand, w Matrix, _ []float32) {
		for i := 0; i+2 <= len(w.Data); i += 2 {
			if r.IntN(7) == 0 {
				binary.LittleEndian.PutUint16(w.Data[i:], uint16(r.IntN(0x80))|uint16(r.IntN(2))<<15)
			}
		}
	}},
	{"one subnormal weight", func(r *rand.Rand, w Matrix, _ []float32) {
		// The AVX2 prompt kernel recomputes only the flagged row pair.
		i := 2 * r.IntN(w.Rows*w.Cols)
		binary.LittleEndian.PutUint16(w.Data[i:], 0x0005)
	}},
	{"subnormal activations", func(r *rand.Rand, _ Matrix, x []float32) {
		for i := range x {
			if r.IntN(5) == 0 {
				x[i] = float32(math.Ldexp(r.NormFloat64(), -130))
			}
		}
	}},
	{"sums cancelling to subnormals", func(r *rand.Rand, w Matrix, x []float32) {
		// Products of ±1.5·2^-126 and ±2^-126 (normal) whose sums are
		// 2^-127 or 0 in some lanes.
		for i := 0; i+2 <= len(w.Data); i += 2 {
			v := float32(0x1p-63)
			if r.IntN(2) == 0 {
				v *= 1.5
			}
			if r.IntN(2) == 0 {
				v = -v
			}
			binary.LittleEndian.PutUint16(w.Data[i:], FP32ToBF16(v))
		}
		for i := range x {
			x[i] = 0x1p-63
		}
	}},
	{"tiny products rounded twice", func(_ *rand.Rand, w Matrix, x []float32) {
		// Lane 0 takes 2^-126, then 2^-149, then 2^-150, all products of
		// normal values: the Go code rounds the last product to 0 first,
		// a fused multiply-add rounds the odd sum up to even (and no
		// operand is subnormal, so only the kernel's exponent-range check
		// keeps it off that path).
		clear(w.Data)
		rb := 2 * w.Cols
		for r := 0; r < w.Rows; r++ {
			binary.LittleEndian.PutUint16(w.Data[r*rb+2:], FP32ToBF16(0x1p-63))
			binary.LittleEndian.PutUint16(w.Data[r*rb:], FP32ToBF16(0x1p-75))
			if w.Cols > 33 {
				binary.LittleEndian.PutUint16(w.Data[r*rb+66:], FP32ToBF16(0x1p-75))
			}
		}
		for p := 0; p+w.Cols <= len(x); p += w.Cols {
			x[p+1], x[p] = 0x1p-63, 0x1p-74
			if w.Cols > 33 {
				x[p+33] = 0x1p-75
			}
		}
	}},
	{"signed zeros", func(r *rand.Rand, w Matrix, x []float32) {
		for i := 0; i+2 <= len(w.Data); i += 2 {
			binary.LittleEndian.PutUint16(w.Data[i:], uint16(r.IntN(2))<<15)
		}
		for i := range x {
			x[i] = float32(math.Copysign(0, r.NormFloat64()))
		}
	}},
	{"overflow", func(_ *rand.Rand, w Matrix, x []float32) {
		bf16Scale(w, 1e25)
		for i := range x {
			x[i] *= 1e15
		}
	}},
}

// TestBF16KernelsMatchGeneric checks every SIMD set's BF16 kernels against
// the Go ones bit for bit (NaNs as NaNs), for one position (decode: the
// 16-row tile and the row kernel) and several (the 16-row tile, an odd
// position and rows left over), on random data and on data with
// subnormal inputs, subnormal or tiny products and sums, signed zeros and
// overflow.
func TestBF16KernelsMatchGeneric(t *testing.T) {
	sets := kernelSets()[1:]
	if len(sets) == 0 {
		lowest := "avx2"
		if runtime.GOARCH == "arm64" {
			lowest = "neon"
		}
		t.Skipf("skipped: no SIMD kernel set: %s", kernelGap(lowest))
	}
	r := rand.New(rand.NewPCG(61, 62))
	p := NewPool(2)
	defer p.Close()
	for _, ks := range sets {
		for _, c := range bf16Cases {
			for _, cols := range []int{32, 64, 96, 100, 2048 + 32} {
				for _, n := range []int{1, 2, 3, 13, 33} {
					w := randomMatrix(r, BF16, 37, cols)
					x := randomVec(r, n*cols)
					c.fill(r, w, x)
					want := make([]float32, n*w.Rows)
					got := make([]float32, n*w.Rows)
					matMul(genericKernels, p, NewWorkspace(), w, x, n, want)
					matMul(ks, p, NewWorkspace(), w, x, n, got)
					for j := range want {
						if !sameBits(got[j], want[j]) {
							t.Fatalf("%s %s cols=%d n=%d: row %d position %d: %g (%#08x), generic %g (%#08x)",
								ks.name, c.name, cols, n, j%w.Rows, j/w.Rows,
								got[j], math.Float32bits(got[j]), want[j], math.Float32bits(want[j]))
						}
					}
				}
			}
		}
	}
}

// bf16FlagCase is data on which a SIMD set's BF16 kernels must report
// (flagged) or must not report that a subnormal took part, the report
// that sends a call back to the Go kernels: w(i) and x(i) are weight and
// activation i as bf16 bits. input: a subnormal input is all there is,
// which the NEON kernels flush as the Go kernels do and do not report.
type bf16FlagCase struct {
	name    string
	w, x    func(i int) uint16
	flagged bool
	input   bool
}

// data returns the case's first n weights as one row and its activations
// twice (two positions, the same).
func (c bf16FlagCase) data(n int) ([]byte, []uint16) {
	w := make([]byte, 2*n)
	x := make([]uint16, 2*n)
	for i := range n {
		binary.LittleEndian.PutUint16(w[2*i:], c.w(i))
		x[i], x[n+i] = c.x(i), c.x(i)
	}
	return w, x
}

// bf16FlagCases has ordinary data, tiny but normal products and
// overflowing ones, none flagged, and each way a subnormal can enter
// llama.cpp's BF16 order — an input, a product, an accumulated sum, a
// lane's final sum —, all flagged.
var bf16FlagCases = []bf16FlagCase{
	{"ordinary", func(i int) uint16 { return FP32ToBF16(float32(i%7) - 3) }, func(i int) uint16 { return FP32ToBF16(float32(i%5) * 0.25) }, false, false},
	{"tiny but normal products", func(int) uint16 { return FP32ToBF16(0x1p-60) }, func(int) uint16 { return FP32ToBF16(0x1p-60) }, false, false},
	{"overflowing products", func(i int) uint16 { return FP32ToBF16(float32(i%3-1) * 0x1p100) }, func(int) uint16 { return FP32ToBF16(0x1p100) }, false, false},
	{"subnormal weight", func(i int) uint16 {
		if i == 37 {
			return 0x0001
		}
		return FP32ToBF16(1)
	}, func(int) uint16 { return FP32ToBF16(1) }, true, true},
	{"subnormal activation", func(int) uint16 { return FP32ToBF16(1) }, func(i int) uint16 {
		if i == 6 {
			return 0x8040
		}
		return FP32ToBF16(1)
	}, true, true},
	{"subnormal product", func(i int) uint16 { return FP32ToBF16(0x1p-70) }, func(i int) uint16 {
		if i == 50 {
			return FP32ToBF16(0x1p-60)
		}
		return 0
	}, true, false},
	{"subnormal final sum", func(i int) uint16 {
		switch i {
		case 1:
			return FP32ToBF16(1.5 * 0x1p-63)
		case 0:
			return FP32ToBF16(-0x1p-63)
		}
		return 0
	}, func(int) uint16 { return FP32ToBF16(0x1p-63) }, true, false},
	{"subnormal partial sum", func(i int) uint16 {
		switch i {
		case 1:
			return FP32ToBF16(1.5 * 0x1p-63)
		case 0:
			return FP32ToBF16(-0x1p-63)
		case 65, 64:
			return FP32ToBF16(1)
		}
		return 0
	}, func(int) uint16 { return FP32ToBF16(0x1p-63) }, true, false},
}

// TestBF16ProductsRounded checks that the Go kernels round each product
// before adding it, as VDPBF16PS does, on every architecture (the Go
// compiler fuses a multiply and an add on arm64 unless told not to): a
// product of 2^-150 rounds to 0 instead of tipping a sum's last bit, and
// one of 2^128 overflows instead of being cancelled by the sum.
func TestBF16ProductsRounded(t *testing.T) {
	w := make([]byte, 2*64)
	x := make([]uint16, 64)
	set := func(i int, wv, xv float32) {
		binary.LittleEndian.PutUint16(w[2*i:], FP32ToBF16(wv))
		x[i] = FP32ToBF16(xv)
	}
	// Lane 0 of the several-position order: 2^-126, then 2^-149, then
	// (the next 32-element step) 2^-150.
	set(1, 0x1p-63, 0x1p-63)
	set(0, 0x1p-75, 0x1p-74)
	set(33, 0x1p-75, 0x1p-75)
	if got, want := dotBF16Batch(w, x), float32(0x1p-126+0x1p-149); got != want {
		t.Errorf("tiny product: %g (%#08x), want %g (%#08x)", got, math.Float32bits(got), want, math.Float32bits(want))
	}
	// Lane 0 of the one-position order: -1.5·2^127, then 2^128 (+Inf).
	clear(w)
	clear(x)
	set(1, -1.5*0x1p64, 0x1p63)
	set(0, 0x1p64, 0x1p64)
	if got := dotBF16Step(w, x); !math.IsInf(float64(got), 1) {
		t.Errorf("overflowing product: %g, want +Inf", got)
	}
}

// TestBF16Exact: the exponent-range test that decides whether a BF16
// product may run on kernels that fuse each product into its sum.
func TestBF16Exact(t *testing.T) {
	w := Matrix{Type: BF16, Rows: 1, Cols: 4, Data: make([]byte, 8)}
	put := func(vals ...float32) {
		for i, v := range vals {
			binary.LittleEndian.PutUint16(w.Data[2*i:], FP32ToBF16(v))
		}
	}
	for _, c := range []struct {
		name string
		w, x []float32
		want bool
	}{
		{"ordinary", []float32{0.02, -0.5, 0, 1e-8}, []float32{3, -1e-4, 0, 7}, true},
		{"all zeros", []float32{0, 0, 0, 0}, []float32{1e-30, 5, 0, 0}, true},
		{"smallest normal product", []float32{0x1p-63, 1, 0, 0}, []float32{0x1p-63, 0, 0, 0}, true},
		{"a product below 2^-126", []float32{0x1p-64, 1, 0, 0}, []float32{0x1p-63, 0, 0, 0}, false},
		{"a subnormal weight only (flushed)", []float32{0x1p-130, 1, 0, 0}, []float32{1, 0, 0, 0}, true},
		{"largest safe product", []float32{0x1.fep63, 0, 0, 0}, []float32{0x1.fep63, 0, 0, 0}, true},
		{"an overflowing product", []float32{0x1p64, 0, 0, 0}, []float32{0x1p64, 0, 0, 0}, false},
		{"an infinite activation", []float32{1, 0, 0, 0}, []float32{float32(math.Inf(1)), 0, 0, 0}, false},
		{"a NaN weight", []float32{float32(math.NaN()), 1, 0, 0}, []float32{1, 0, 0, 0}, false},
	} {
		put(c.w...)
		w.bf16Known = false
		if got := bf16Exact(w.bf16Exponents(), actExponents(c.x)); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
		// Pack's range gives the same answer.
		w.bf16e, w.bf16Known = w.bf16Exponents(), true
		if got := bf16Exact(w.bf16Exponents(), actExponents(c.x)); got != c.want {
			t.Errorf("%s with a known range: %v, want %v", c.name, got, c.want)
		}
	}
}
