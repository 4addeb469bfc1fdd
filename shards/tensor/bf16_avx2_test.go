//go:build amd64 && !purego

package tensor

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
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
// and sums matters (the AVX2 kernels then recompute in Go) and the data
// where it cannot (they keep their own sums).
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
		t.Skipf("skipped: no SIMD kernel set: %s", kernelGap("avx2"))
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

// TestBF16AVX2Fallback checks the mechanism that keeps the AVX2 kernels
// exact: on ordinary data they report no subnormal operand (so their own
// sums are used), and each way a subnormal can enter llama.cpp's BF16
// order — an input, a product, an accumulated sum, a lane's final sum —
// is reported, in both orders.
func TestBF16AVX2Fallback(t *testing.T) {
	skipUnless(t, kernelGap("avx2"))
	const n = 128
	bits := func(v float32) uint16 { return FP32ToBF16(v) }
	cases := []struct {
		name    string
		w, x    func(i int) uint16
		flagged bool
	}{
		{"ordinary", func(i int) uint16 { return bits(float32(i%7) - 3) }, func(i int) uint16 { return bits(float32(i%5) * 0.25) }, false},
		{"tiny but normal products", func(int) uint16 { return bits(0x1p-60) }, func(int) uint16 { return bits(0x1p-60) }, false},
		{"subnormal weight", func(i int) uint16 {
			if i == 37 {
				return 0x0001
			}
			return bits(1)
		}, func(int) uint16 { return bits(1) }, true},
		{"subnormal activation", func(int) uint16 { return bits(1) }, func(i int) uint16 {
			if i == 6 {
				return 0x8040
			}
			return bits(1)
		}, true},
		{"subnormal product", func(i int) uint16 { return bits(0x1p-70) }, func(i int) uint16 {
			if i == 50 {
				return bits(0x1p-60)
			}
			return 0
		}, true},
		{"subnormal final sum", func(i int) uint16 {
			switch i {
			case 1:
				return bits(1.5 * 0x1p-63)
			case 0:
				return bits(-0x1p-63)
			}
			return 0
		}, func(int) uint16 { return bits(0x1p-63) }, true},
		{"subnormal partial sum", func(i int) uint16 {
			switch i {
			case 1:
				return bits(1.5 * 0x1p-63)
			case 0:
				return bits(-0x1p-63)
			case 65, 64:
				return bits(1)
			}
			return 0
		}, func(int) uint16 { return bits(0x1p-63) }, true},
	}
	for _, c := range cases {
		// Two rows (both the same) and two positions (both the same).
		w := make([]byte, 2*n)
		x := make([]uint16, 2*n)
		for i := range n {
			binary.LittleEndian.PutUint16(w[2*i:], c.w(i))
			x[i], x[n+i] = c.x(i), c.x(i)
		}
		var steps [16][2]float32
		step := bf16StepRowsAVX2(&w[0], 0, &x[0], n, 2, 0, &steps) != 0
		var many [4]float32
		batch := bf16ManyAVX2(&w[0], 0, 2, &x[0], 2*n, 2, n, 0, &many[0], 2) != 0
		if step != c.flagged || batch != c.flagged {
			t.Errorf("%s: flagged %v (one position), %v (several), want %v", c.name, step, batch, c.flagged)
		}
		if !c.flagged {
			if got, want := finishBF16Sums(steps[0], w, x[:n], n), dotBF16Step(w, x[:n]); !sameBits(got, want) {
				t.Errorf("%s: one position %g, generic %g", c.name, got, want)
			}
			if want := dotBF16Batch(w, x[:n]); !sameBits(many[3], want) {
				t.Errorf("%s: several positions %g, generic %g", c.name, many[3], want)
			}
		}
	}
}

// BenchmarkBF16AVX2Tile runs the several-position kernel on one tile's
// worth of cached data (2 or 16 rows × 2048 columns, 32 positions) and
// reports GFLOP per CPU-second (two per multiply-add), for comparing
// versions of the kernel on a busy machine.
func BenchmarkBF16AVX2Tile(b *testing.B) {
	skipUnless(b, kernelGap("avx2"))
	for _, rows := range []int{2, 16} {
		const cols, k = 2048, 32
		r := rand.New(rand.NewPCG(1, 2))
		w := randomMatrix(r, BF16, rows, cols)
		x := make([]uint16, k*cols)
		for i := range x {
			x[i] = FP32ToBF16(float32(r.NormFloat64()))
		}
		out := make([]float32, rows*k)
		b.Run(fmt.Sprintf("rows=%d", rows), func(b *testing.B) {
			c0 := cpuTime()
			for i := 0; i < b.N; i++ {
				bf16ManyAVX2(&w.Data[0], 2*cols, rows, &x[0], 2*cols, k, cols, 0, &out[0], rows)
			}
			if cpu := cpuTime() - c0; cpu > 0 {
				b.ReportMetric(float64(b.N*2*rows*k*cols)/cpu.Seconds()/1e9, "GFLOP/cpu-s")
			}
		})
	}
}
