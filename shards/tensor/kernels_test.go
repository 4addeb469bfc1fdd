package tensor

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestKernelsMatchGeneric checks that the SIMD kernels chosen for this CPU
// give exactly the bits of the pure-Go canonical kernels, on random data and
// on edge cases (zero blocks, extreme quants, huge and tiny scales, every
// block count parity, column tails).
func TestKernelsMatchGeneric(t *testing.T) {
	t.Logf("best kernel set: %s", bestKernels.name)
	for _, ks := range kernelSets()[1:] {
		t.Run(ks.name, func(t *testing.T) { testKernelSet(t, ks) })
	}
}

func testKernelSet(t *testing.T, ks *kernelSet) {
	// Thirteen positions and 37 rows: whole batch tiles (4 or 8
	// positions, up to 16 rows) starting past row 0 of the activations,
	// left-over positions and rows through the one-position kernels.
	const npos = 13
	r := rand.New(rand.NewPCG(21, 22))
	p := NewPool(2)
	defer p.Close()
	for _, typ := range allTypes {
		bs := typ.BlockSize()
		var colsList []int
		switch bs {
		case 1:
			colsList = []int{1, 31, 32, 33, 64, 100, 256 + 17}
		case 32:
			colsList = []int{32, 64, 96, 32 * 9, 32 * 64}
		default:
			colsList = []int{256, 512, 256 * 3, 256 * 8}
		}
		for _, cols := range colsList {
			for variant := 0; variant < 4; variant++ {
				w := randomMatrix(r, typ, 37, cols)
				x := randomVec(r, npos*cols)
				switch variant {
				case 1: // extreme weights: all bits set / cleared in alternate rows
					rb := mustRowBytes(typ, cols)
					for row := 0; row < w.Rows; row++ {
						fill := byte(0xff)
						if row%2 == 1 {
							fill = 0x80
						}
						for j := 0; j < rb; j++ {
							w.Data[row*rb+j] = fill
						}
					}
					fixScales(r, w)
				case 2: // zero activations in some blocks, tiny values in others
					for j := range x {
						switch (j / 32) % 3 {
						case 0:
							x[j] = 0
						case 1:
							x[j] *= 1e-30
						}
					}
				case 3: // large scales and activations
					for j := range x {
						x[j] *= 1e4
					}
				}
				want := make([]float32, npos*w.Rows)
				got := make([]float32, npos*w.Rows)
				matMul(genericKernels, p, NewWorkspace(), w, x, npos, want)
				matMul(ks, p, NewWorkspace(), w, x, npos, got)
				if d := firstDiff(want, got); d >= 0 {
					t.Fatalf("%v cols=%d variant %d: element %d: SIMD %g (%#08x), generic %g (%#08x)", typ, cols, variant, d,
						got[d], math.Float32bits(got[d]), want[d], math.Float32bits(want[d]))
				}
			}
		}
	}
}

// fixScales rewrites the f16 scale fields of w with finite values (the
// extreme-bits variant would otherwise make them NaN).
func fixScales(r *rand.Rand, w Matrix) {
	switch w.Type {
	case F32:
		for i := 0; i+4 <= len(w.Data); i += 4 {
			binary.LittleEndian.PutUint32(w.Data[i:], math.Float32bits(float32(r.NormFloat64()*1e3)))
		}
		return
	case F16:
		for i := 0; i+2 <= len(w.Data); i += 2 {
			binary.LittleEndian.PutUint16(w.Data[i:], FP32ToFP16(float32(r.NormFloat64()*100)))
		}
		return
	case BF16:
		for i := 0; i+2 <= len(w.Data); i += 2 {
			binary.LittleEndian.PutUint16(w.Data[i:], FP32ToBF16(float32(r.NormFloat64()*1e10)))
		}
		return
	}
	bb := w.Type.BlockBytes()
	for b := 0; b < len(w.Data)/bb; b++ {
		for _, off := range f16Fields[w.Type] {
			v := float32(math.Ldexp(r.Float64()+0.5, r.IntN(30)-20))
			if r.IntN(2) == 0 {
				v = -v
			}
			binary.LittleEndian.PutUint16(w.Data[b*bb+off:], FP32ToFP16(v))
		}
	}
}

// BenchmarkKernels measures each kernel set on one thread with the weights
// in cache (512x2048, about 1 MB for Q8_0): the compute ceiling of a kernel,
// free of memory effects. n=1 uses the one-position kernels, n=4 and n=8
// the multi-position ones; a type the set has x kernels for (xlayout.go) is
// measured packed too ("Q4_0x"). GB/cpu-s divides by the process's CPU
// time, which a shared machine disturbs less than the wall clock.
//
//	go test -run x -bench Kernels ./shards/tensor/
func BenchmarkKernels(b *testing.B) {
	p := NewPool(1)
	defer p.Close()
	r := rand.New(rand.NewPCG(1, 3))
	for _, n := range []int{1, 4, 8} {
		for _, typ := range allTypes {
			w := randomMatrix(r, typ, 512, 2048)
			x := randomVec(r, n*2048)
			out := make([]float32, n*512)
			for _, ks := range kernelSets() {
				if ks == genericKernels && n > 1 {
					continue
				}
				layouts := []Matrix{w}
				if xPackable(ks, w) {
					xw, err := packX(w)
					if err != nil {
						b.Fatal(err)
					}
					layouts = append(layouts, xw)
				}
				for _, m := range layouts {
					name := typ.String()
					if m.x {
						name += "x"
					}
					ws := NewWorkspace()
					b.Run(fmt.Sprintf("n=%d/%s/%s", n, name, ks.name), func(b *testing.B) {
						matMul(ks, p, ws, m, x, n, out)
						b.ResetTimer()
						c0 := cpuTime()
						for i := 0; i < b.N; i++ {
							matMul(ks, p, ws, m, x, n, out)
						}
						cpu := cpuTime() - c0
						b.StopTimer()
						bytes := float64(b.N) * float64(len(m.Data))
						b.ReportMetric(bytes/b.Elapsed().Seconds()/1e9, "GB/s")
						if cpu > 0 {
							b.ReportMetric(bytes/cpu.Seconds()/1e9, "GB/cpu-s")
						}
					})
				}
			}
		}
	}
}

// TestKernelsNonFinite feeds NaN and Inf activations: no kernel may panic or
// read out of bounds, and all sets must agree on which outputs are finite.
func TestKernelsNonFinite(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	p := NewPool(2)
	defer p.Close()
	for _, typ := range allTypes {
		cols := colsFor(typ)
		w := randomMatrix(r, typ, 5, cols)
		x := randomVec(r, 5*cols)
		x[3] = float32(math.NaN())
		x[cols+7] = float32(math.Inf(1))
		x[2*cols+1] = float32(math.Inf(-1))
		want := make([]float32, 5*w.Rows)
		matMul(genericKernels, p, NewWorkspace(), w, x, 5, want)
		for _, ks := range kernelSets()[1:] {
			got := make([]float32, 5*w.Rows)
			matMul(ks, p, NewWorkspace(), w, x, 5, got)
			for i := range got {
				gf := !math.IsNaN(float64(got[i])) && !math.IsInf(float64(got[i]), 0)
				wf := !math.IsNaN(float64(want[i])) && !math.IsInf(float64(want[i]), 0)
				if gf != wf || (gf && got[i] != want[i]) {
					t.Fatalf("%v %s element %d: %g, generic %g", typ, ks.name, i, got[i], want[i])
				}
			}
		}
	}
}

// TestActivationConvertersMatch compares each set's activation quantizers
// with the Go ones on awkward inputs: zeros, ties, huge and subnormal
// values, NaN and Inf, and a block whose largest magnitude appears twice
// with opposite signs.
func TestActivationConvertersMatch(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	const n = 256 * 6
	inputs := map[string][]float32{}
	base := randomVec(r, n)
	inputs["random"] = base
	x := append([]float32(nil), base...)
	for i := 0; i < 256; i++ {
		x[i] = 0
	}
	for i := 256; i < 512; i++ {
		x[i] = float32(i%7) * 0.5 // many exact ties after scaling
	}
	x[600], x[601] = -3, 3 // equal magnitudes, negative first
	x[800] = float32(math.NaN())
	x[1000] = float32(math.Inf(1))
	for i := 1024; i < 1280; i++ {
		x[i] = float32(math.Ldexp(r.Float64(), -140)) // subnormal
	}
	x[1300] = 3e38
	x[1301] = float32(math.Inf(-1))
	x[1302] = math.Float32frombits(0x7f800001) // signalling NaN
	x[1303] = math.Float32frombits(0xffc12345) // negative NaN with payload
	x[1304] = math.Float32frombits(0x3f808000) // bf16 tie, rounds to even
	x[1305] = math.Float32frombits(0x3f818000)
	x[1306] = math.Float32frombits(0x7f7fffff) // rounds up to Inf in bf16
	inputs["edge"] = x
	for _, ks := range kernelSets()[1:] {
		for name, x := range inputs {
			qa, qb := make([]int8, n), make([]int8, n)
			da, db := make([]float32, n/32), make([]float32, n/32)
			sa, sb := make([]float32, n/32), make([]float32, n/32)
			ba, bb := make([]int16, n/16), make([]int16, n/16)
			same := func(what string, a, b []float32) {
				for i := range a {
					if math.Float32bits(a[i]) != math.Float32bits(b[i]) && !(a[i] != a[i] && b[i] != b[i]) {
						t.Fatalf("%s %s %s[%d]: %g vs generic %g", ks.name, name, what, i, b[i], a[i])
					}
				}
			}
			sameQ := func(what string) {
				for i := range qa {
					if qa[i] != qb[i] {
						t.Fatalf("%s %s %s quant %d: %d vs generic %d", ks.name, name, what, i, qb[i], qa[i])
					}
				}
			}
			quantQ8_0(x, qa, da)
			ks.q8_0(x, qb, db)
			sameQ("q8_0")
			same("q8_0 d", da, db)
			quantQ8_1(x, qa, da, sa)
			ks.q8_1(x, qb, db, sb)
			sameQ("q8_1")
			same("q8_1 d", da, db)
			same("q8_1 s", sa, sb)
			quantQ8_K(x, qa, da[:n/256], ba)
			ks.q8_K(x, qb, db[:n/256], bb)
			sameQ("q8_K")
			same("q8_K d", da[:n/256], db[:n/256])
			for i := range ba {
				if ba[i] != bb[i] {
					t.Fatalf("%s %s bsums[%d]: %d vs %d", ks.name, name, i, bb[i], ba[i])
				}
			}
			ha, hb := make([]uint16, n-3), make([]uint16, n-3)
			toF16(x[:n-3], ha)
			ks.f16(x[:n-3], hb)
			for i := range ha {
				if ha[i] != hb[i] {
					t.Fatalf("%s %s f16[%d]: %#04x vs %#04x", ks.name, name, i, hb[i], ha[i])
				}
			}
			toBF16(x[:n-3], ha)
			ks.bf16(x[:n-3], hb)
			for i := range ha {
				if ha[i] != hb[i] {
					t.Fatalf("%s %s bf16[%d]: %#04x vs %#04x", ks.name, name, i, hb[i], ha[i])
				}
			}
		}
	}
}
