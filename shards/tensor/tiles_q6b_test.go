//go:build amd64 && !purego

package tensor

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// q6bTypes are the types addK8Tiles registers tiles for.
var q6bTypes = []Type{Q6_K, Q4_K}

// q6bSet is the AVX-512 kernel set with addK8Tiles applied, as the lead
// will build it.
func q6bSet(t testing.TB) *kernelSet {
	t.Helper()
	skipUnless(t, kTilesGap())
	ks := avx512Kernels()
	ks.name = "avx512+q6b"
	addK8Tiles(ks)
	for _, typ := range q6bTypes {
		if ks.batch[typ].rows != q6bRows || !ks.batch[typ].strided {
			t.Fatalf("addK8Tiles did not register the 8-row %v tile: %+v", typ, ks.batch[typ])
		}
	}
	return ks
}

// q6bVariant makes a Q6_K or Q4_K matrix and activations of one test
// variant: 0 random; 1 extreme quant bytes (all 0xff / 0x80 in alternate
// rows: for Q6_K scales -1 and -128 and quants 63 and 0/8, for Q4_K the
// largest 6-bit scales and mins and quants 15) with random huge/tiny f16
// scales; 2 zero and tiny activations; 3 random scale bytes and large
// activations; 4 activations that quantize to +-127 and +-1 (the largest
// activation sums) with the extreme products: Q6_K every quant 0
// (q-32 = -32) and scale bytes -128, Q4_K every quant 15 and scale byte
// 0xff (scales and mins 63).
func q6bVariant(r *rand.Rand, typ Type, variant, rows, cols, n int) (Matrix, []float32) {
	w := randomMatrix(r, typ, rows, cols)
	x := randomVec(r, n*cols)
	rb := mustRowBytes(typ, cols)
	switch variant {
	case 1:
		for row := 0; row < rows; row++ {
			fill := byte(0xff)
			if row%2 == 1 {
				fill = 0x80
			}
			for j := 0; j < rb; j++ {
				w.Data[row*rb+j] = fill
			}
		}
		fixScales(r, w)
	case 2:
		for j := range x {
			switch (j / 32) % 3 {
			case 0:
				x[j] = 0
			case 1:
				x[j] *= 1e-30
			}
		}
	case 3:
		fixScales(r, w)
		for j := range x {
			x[j] *= 1e4
		}
	case 4:
		bb := typ.BlockBytes()
		for b := 0; b < len(w.Data)/bb; b++ {
			blk := w.Data[bb*b : bb*b+bb]
			if typ == Q6_K {
				clear(blk[:192])
				for j := 192; j < 208; j++ {
					blk[j] = 0x80
				}
				continue
			}
			for j := 4; j < bb; j++ {
				blk[j] = 0xff
			}
		}
		for j := range x {
			x[j] = 1
			if (j/4)%2 == 1 {
				x[j] = -1
			}
			if j%7 == 0 {
				x[j] = 1.0 / 127
			}
		}
	}
	return w, x
}

// TestQ6bTileDirect calls the tile kernel itself for every 8-row tile and
// every start position with 1..8 positions (the count taken from the
// length of out), on row-major and packed matrices, with and without a
// prefetch offset, and compares each output bit for bit with dotQ6_K (the
// generic MatMul).
func TestQ6bTileDirect(t *testing.T) {
	ks := q6bSet(t)
	for _, typ := range q6bTypes {
		testQ6bTileDirect(t, ks, typ)
	}
}

func testQ6bTileDirect(t *testing.T, ks *kernelSet, typ Type) {
	spec := ks.batch[typ]
	r := rand.New(rand.NewPCG(81, 82))
	const rows, n = 16, 10
	for _, nb := range []int{1, 2, 3, 8} {
		cols := nb * qkK
		for variant := 0; variant < 5; variant++ {
			w, x := q6bVariant(r, typ, variant, rows, cols, n)
			want := make([]float32, n*rows)
			matMul(genericKernels, nil, NewWorkspace(), w, x, n, want)
			ws := NewWorkspace()
			ws.bind()
			a := &ws.act
			a.prepare(ks, nil, typ, x, n, cols, ws.convFn)
			for _, m := range []Matrix{w, packGroups(w, 8), packGroups(w, 16)} {
				tk := mmTask{w: m, rb: mustRowBytes(typ, cols), bb: typ.BlockBytes()}
				buf := make([]float32, maxTile)
				for r0 := 0; r0+spec.rows <= rows; r0 += spec.rows {
					off, l := tk.layout(r0, spec.rows)
					for np := 1; np <= q6bMaxPos; np++ {
						for i := 0; i+np <= n; i++ {
							for _, pf := range []bool{false, true} {
								lp := l
								if !pf {
									lp.next = 0
								}
								for k := range buf {
									buf[k] = float32(math.NaN())
								}
								spec.fn(m.Data[off:], lp, a, i, buf[:np*spec.rows])
								for p := 0; p < np; p++ {
									for k := 0; k < spec.rows; k++ {
										g, e := buf[p*spec.rows+k], want[(i+p)*rows+r0+k]
										if math.Float32bits(g) != math.Float32bits(e) {
											t.Fatalf("%v nb=%d variant %d group %d rows %d.. np=%d i=%d prefetch %v: row %d position %d: %g (%#08x), generic %g (%#08x)",
												typ, nb, variant, m.group, r0, np, i, pf, r0+k, i+p, g, math.Float32bits(g), e, math.Float32bits(e))
										}
									}
								}
								for k := np * spec.rows; k < len(buf); k++ {
									if !math.IsNaN(float64(buf[k])) {
										t.Fatalf("np=%d: the kernel wrote out[%d], past its %d positions", np, k, np)
									}
								}
							}
						}
					}
				}
			}
		}
	}
}

// TestQ6bMatMul runs whole products through matMul with a kernel set on
// which addK8Tiles was called: batches that use the tile once, several
// times and with remainders, row counts with partial tiles, packed and
// row-major, against the generic kernels bit for bit.
func TestQ6bMatMul(t *testing.T) {
	ks := q6bSet(t)
	r := rand.New(rand.NewPCG(83, 84))
	p := NewPool(2)
	defer p.Close()
	for _, typ := range q6bTypes {
		for _, shape := range [][2]int{{8, 256}, {37, 512}, {48, 2048}, {16, 768}} {
			rows, cols := shape[0], shape[1]
			for _, n := range []int{1, 2, 3, 4, 5, 7, 8, 9, 13, 16, 17, 33} {
				for variant := 0; variant < 5; variant++ {
					w, x := q6bVariant(r, typ, variant, rows, cols, n)
					want := make([]float32, n*rows)
					got := make([]float32, n*rows)
					matMul(genericKernels, p, NewWorkspace(), w, x, n, want)
					ms := []Matrix{w}
					if rows%8 == 0 {
						ms = append(ms, packGroups(w, 8))
					}
					for _, m := range ms {
						for k := range got {
							got[k] = float32(math.NaN())
						}
						matMul(ks, p, NewWorkspace(), m, x, n, got)
						if d := firstDiff(want, got); d >= 0 {
							t.Fatalf("%v %dx%d group %d n=%d variant %d: element %d (position %d, row %d): %g (%#08x), generic %g (%#08x)",
								typ, rows, cols, m.group, n, variant, d, d/rows, d%rows,
								got[d], math.Float32bits(got[d]), want[d], math.Float32bits(want[d]))
						}
					}
				}
			}
		}
	}
}

// TestQ6bNonFinite: NaN and Inf activations give no panic and the same
// outputs as the generic kernels where those are finite, non-finite where
// they are not.
func TestQ6bNonFinite(t *testing.T) {
	ks := q6bSet(t)
	r := rand.New(rand.NewPCG(85, 86))
	const rows, cols, n = 16, 512, 8
	for _, typ := range q6bTypes {
		w := randomMatrix(r, typ, rows, cols)
		x := randomVec(r, n*cols)
		x[3] = float32(math.NaN())
		x[(n-1)*cols+7] = float32(math.Inf(1))
		x[(n-1)*cols+300] = float32(math.Inf(-1))
		sameFinite(t, ks, w, x, n, fmt.Sprintf("%v", typ))
	}
}
