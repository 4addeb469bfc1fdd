//go:build amd64 && !purego

package tensor

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"
)

// q4xCase is one Q4_0 matrix and p activation rows to multiply it with.
type q4xCase struct {
	name       string
	rows, nb   int
	w          []byte // row-major ggml Q4_0
	p          int
	ys, ds     int // strides of the activation rows (elements)
	qs         []int8
	d          []float32
	bias       []int32
	packedTile []byte
}

// q4xMakeCase builds random data of the given shape; edge selects extreme
// weights, scales and activations.
func q4xMakeCase(t *testing.T, r *rand.Rand, name string, rows, nb, p, pad int, edge int) *q4xCase {
	t.Helper()
	c := &q4xCase{name: name, rows: rows, nb: nb, p: p, ys: 32*nb + 32*pad, ds: nb + pad}
	c.w = randomMatrix(r, Q4_0, rows, 32*nb).Data
	c.qs = make([]int8, (p-1)*c.ys+32*nb)
	c.d = make([]float32, (p-1)*c.ds+nb)
	for i := range c.qs {
		c.qs[i] = int8(r.IntN(255) - 127)
	}
	for i := range c.d {
		c.d[i] = float32(r.Float64() * 0.1)
	}
	scales := []uint16{0x7bff, 0xfbff, 0x0001, 0x8001, 0x0000, 0x03ff, 0x3c00, 0x7c00, 0x0400}
	for b := 0; b < rows*nb; b++ {
		blk := c.w[18*b : 18*b+18]
		switch edge {
		case 1: // all nibbles 0 or all 15, activations at ±127, big scales
			fill := byte(0)
			if (b/3)%2 == 0 {
				fill = 0xff
			}
			for i := 2; i < 18; i++ {
				blk[i] = fill
			}
			binary.LittleEndian.PutUint16(blk, scales[b%2])
		case 2: // every special scale, mixed nibbles 0/15 per element
			binary.LittleEndian.PutUint16(blk, scales[r.IntN(len(scales))])
			for i := 2; i < 18; i++ {
				blk[i] = []byte{0x00, 0x0f, 0xf0, 0xff}[r.IntN(4)]
			}
		}
	}
	switch edge {
	case 1:
		for i := range c.qs {
			c.qs[i] = 127
			if (i/5)%3 == 0 {
				c.qs[i] = -127
			}
		}
		for i := range c.d {
			c.d[i] = []float32{1e30, -3e-38, 1, 65504}[i%4]
		}
	case 2:
		for i := range c.d {
			c.d[i] = []float32{0, 1e-45, 2.5e38, -1}[r.IntN(4)]
		}
	}
	c.bias = make([]int32, len(c.d))
	for k := 0; k < p; k++ {
		biasQ4_0x(c.bias[k*c.ds:][:nb], c.qs[k*c.ys:][:32*nb])
	}
	c.packedTile = make([]byte, len(c.w))
	if err := packQ4_0x(c.packedTile, c.w, rows, 32*nb); err != nil {
		t.Fatal(err)
	}
	return c
}

// want is the canonical (dotQ4_0, row-major) result for row r, position k.
func (c *q4xCase) want(r, k int) float32 {
	rb := 18 * c.nb
	return dotQ4_0(c.w[r*rb:(r+1)*rb], c.qs[k*c.ys:][:32*c.nb], c.d[k*c.ds:][:c.nb])
}

func TestQ4xPackRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	for _, rows := range []int{16, 48} {
		for _, nb := range []int{1, 2, 3, 64, 176} {
			w := randomMatrix(r, Q4_0, rows, 32*nb).Data
			packed := make([]byte, len(w))
			if err := packQ4_0x(packed, w, rows, 32*nb); err != nil {
				t.Fatal(err)
			}
			if nb > 1 && bytes.Equal(packed, w) {
				t.Fatalf("rows=%d nb=%d: packing left the bytes unchanged", rows, nb)
			}
			back := make([]byte, len(w))
			if err := unpackQ4_0x(back, packed, rows, 32*nb); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(back, w) {
				t.Fatalf("rows=%d nb=%d: unpack(pack(w)) != w", rows, nb)
			}
		}
	}
	// A hand-checked spot: row 5, block 1 of a 3-block tile (a complete
	// pair), quant byte 9 and its scale.
	w := make([]byte, 16*3*18)
	w[5*3*18+18+2+9] = 0xab
	w[5*3*18+18] = 0x34
	w[5*3*18+18+1] = 0x12
	packed := make([]byte, len(w))
	if err := packQ4_0x(packed, w, 16, 96); err != nil {
		t.Fatal(err)
	}
	if packed[256+64*2+4*5+1] != 0xab || packed[544+10] != 0x34 || packed[544+11] != 0x12 {
		t.Fatal("packed byte not where the documented layout puts it")
	}
}

// TestQ4xBias checks the word-at-a-time block sums against a plain loop,
// at the extremes and on random rows.
func TestQ4xBias(t *testing.T) {
	r := rand.New(rand.NewPCG(47, 48))
	for _, fill := range []int{-128, -127, 0, 127, 1000} {
		qs := make([]int8, 32*9)
		for i := range qs {
			if fill == 1000 {
				qs[i] = int8(r.Uint32())
			} else {
				qs[i] = int8(fill)
			}
		}
		bias := make([]int32, 9)
		biasQ4_0x(bias, qs)
		for b := range bias {
			var s int32
			for _, v := range qs[32*b : 32*b+32] {
				s += int32(v)
			}
			if bias[b] != -8*s {
				t.Fatalf("fill %d block %d: %d, want %d", fill, b, bias[b], -8*s)
			}
		}
	}
	biasQ4_0x(nil, nil) // no blocks: nothing to do, no panic
}

func TestQ4xPackErrors(t *testing.T) {
	ok := make([]byte, 16*18)
	for _, c := range []struct {
		name       string
		dst, src   []byte
		rows, cols int
	}{
		{"rows not a multiple of 16", ok, ok, 15, 32},
		{"zero rows", nil, nil, 0, 32},
		{"cols not a multiple of 32", ok, ok, 16, 33},
		{"negative cols", ok, ok, 16, -32},
		{"short src", ok, ok[:100], 16, 32},
		{"long dst", append(ok, 0), ok, 16, 32},
	} {
		if err := packQ4_0x(c.dst, c.src, c.rows, c.cols); err == nil {
			t.Errorf("pack %s: no error", c.name)
		}
		if err := unpackQ4_0x(c.dst, c.src, c.rows, c.cols); err == nil {
			t.Errorf("unpack %s: no error", c.name)
		}
	}
}

// TestQ4xKernels compares the reference and the SIMD kernels on the packed
// layout with dotQ4_0 on the row-major rows, bit for bit.
func TestQ4xKernels(t *testing.T) {
	simd := hasQ40xTiles()
	if !simd {
		t.Log("no AVX-512 VNNI: only the pure-Go reference is checked")
	}
	r := rand.New(rand.NewPCG(43, 44))
	for _, nb := range []int{1, 2, 3, 4, 5, 64, 176} {
		for edge := 0; edge < 3; edge++ {
			for p := 1; p <= q40xMaxPos; p++ {
				pad := (p + nb) % 3 // strides wider than a row, sometimes
				c := q4xMakeCase(t, r, "", 32, nb, p, pad, edge)
				out := make([]float32, 16*p)
				ref := make([]float32, 16)
				for tile := 0; tile < c.rows/16; tile++ {
					tw := c.packedTile[tile*nb*q40xTileBytes : (tile+1)*nb*q40xTileBytes]
					if simd {
						if err := q40xTile(tw, nb, c.qs, c.ys, c.d, c.bias, c.ds, p, out, []int{0, 1024, q40xPrefetch(p)}[(nb+edge)%3]); err != nil {
							t.Fatal(err)
						}
					}
					for k := 0; k < p; k++ {
						dotQ4_0xRef(tw, nb, c.qs[k*c.ys:], c.d[k*c.ds:], ref)
						for row := 0; row < 16; row++ {
							want := c.want(16*tile+row, k)
							if !sameBits(ref[row], want) {
								t.Fatalf("reference nb=%d edge=%d row %d position %d: %g (%#08x), dotQ4_0 %g (%#08x)",
									nb, edge, 16*tile+row, k, ref[row], math.Float32bits(ref[row]), want, math.Float32bits(want))
							}
							if got := out[16*k+row]; simd && !sameBits(got, want) {
								t.Fatalf("kernel nb=%d edge=%d p=%d row %d position %d: %g (%#08x), dotQ4_0 %g (%#08x)",
									nb, edge, p, 16*tile+row, k, got, math.Float32bits(got), want, math.Float32bits(want))
							}
						}
					}
				}
			}
		}
	}
}

// TestQ4xVecMatchesBatch checks that the one-position kernel and the batch
// kernel at p = 1 agree (q40xTile sends p = 1 to the former only).
func TestQ4xVecMatchesBatch(t *testing.T) {
	skipUnless(t, q40xTilesGap())
	r := rand.New(rand.NewPCG(45, 46))
	for _, nb := range []int{1, 2, 3, 64, 176} {
		c := q4xMakeCase(t, r, "", 16, nb, 1, 0, 0)
		a := make([]float32, 16)
		b := make([]float32, 16)
		q40xVec16(&c.packedTile[0], nb, &c.qs[0], &c.d[0], &c.bias[0], &a[0], 0)
		q40xBatch16(&c.packedTile[0], nb, &c.qs[0], c.ys, &c.d[0], &c.bias[0], c.ds, 1, &b[0], 0)
		for i := range a {
			if !sameBits(a[i], b[i]) || !sameBits(a[i], c.want(i, 0)) {
				t.Fatalf("nb=%d row %d: vec %g, batch %g, dotQ4_0 %g", nb, i, a[i], b[i], c.want(i, 0))
			}
		}
	}
}

func TestQ4xTileErrors(t *testing.T) {
	skipUnless(t, q40xTilesGap())
	tile := make([]byte, 2*q40xTileBytes)
	qs := make([]int8, 4*64)
	d := make([]float32, 8)
	bias := make([]int32, 8)
	out := make([]float32, 64)
	for _, c := range []struct {
		name string
		err  error
	}{
		{"no positions", q40xTile(tile, 2, qs, 64, d, bias, 2, 0, out, 576)},
		{"nine positions", q40xTile(tile, 2, qs, 64, d, bias, 2, 9, out, 576)},
		{"short tile", q40xTile(tile[:100], 2, qs, 64, d, bias, 2, 1, out, 576)},
		{"short out", q40xTile(tile, 2, qs, 64, d, bias, 2, 4, out[:63], 576)},
		{"short activations", q40xTile(tile, 2, qs[:200], 64, d, bias, 2, 4, out, 576)},
		{"short bias", q40xTile(tile, 2, qs, 64, d, bias[:7], 2, 4, out, 576)},
		{"overlapping stride", q40xTile(tile, 2, qs, 32, d, bias, 2, 2, out, 576)},
	} {
		if c.err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
	if err := q40xTile(tile, 2, qs, 64, d, bias, 2, 4, out, 576); err != nil {
		t.Errorf("valid call: %v", err)
	}
}

// TestQ4xKernelsAVX2 compares the AVX2 x kernels on the packed layout with
// dotQ4_0 on the row-major rows, bit for bit.
func TestQ4xKernelsAVX2(t *testing.T) {
	skipUnless(t, kernelGap("avx2"))
	r := rand.New(rand.NewPCG(47, 48))
	for _, nb := range []int{1, 2, 3, 4, 5, 64, 176} {
		for edge := 0; edge < 3; edge++ {
			for p := 1; p <= q40xAVX2Pos; p++ {
				pad := (p + nb) % 3
				c := q4xMakeCase(t, r, "", 32, nb, p, pad, edge)
				out := make([]float32, 16*p)
				for tile := 0; tile < c.rows/16; tile++ {
					tw := c.packedTile[tile*nb*q40xTileBytes : (tile+1)*nb*q40xTileBytes]
					if err := q40xTileAVX2(tw, nb, c.qs, c.ys, c.d, c.bias, c.ds, p, out); err != nil {
						t.Fatal(err)
					}
					for k := 0; k < p; k++ {
						for row := 0; row < 16; row++ {
							want := c.want(16*tile+row, k)
							if got := out[16*k+row]; !sameBits(got, want) {
								t.Fatalf("nb=%d edge=%d p=%d row %d position %d: %g (%#08x), dotQ4_0 %g (%#08x)",
									nb, edge, p, 16*tile+row, k, got, math.Float32bits(got), want, math.Float32bits(want))
							}
						}
					}
				}
			}
		}
	}
	tile := make([]byte, 2*q40xTileBytes)
	qs := make([]int8, 4*64)
	d := make([]float32, 8)
	bias := make([]int32, 8)
	out := make([]float32, 64)
	if err := q40xTileAVX2(tile, 2, qs, 64, d, bias, 2, q40xAVX2Pos+1, out); err == nil {
		t.Errorf("%d positions: no error", q40xAVX2Pos+1)
	}
	if err := q40xTileAVX2(tile, 2, qs[:200], 64, d, bias, 2, 4, out); err == nil {
		t.Error("short activations: no error")
	}
}
