package tensor

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"
)

// q80xBlockCounts are the block counts the q80x tests cover: the smallest,
// odd counts (a lone last block), real row lengths (2048 and 5632
// columns), and an odd count over several chunks of q80xBatch.
var q80xBlockCounts = []int{1, 2, 3, 5, 64, 67, 176}

// q80xCase is one test matrix (row-major Q8_0 and packed) with activations
// for npos positions (ystride 32*nb+32: padded rows check the strides).
type q80xCase struct {
	rows, nb  int
	w, packed []byte
	npos      int
	ys        int
	qs        []int8
	d         []float32
	s         []int32
	sstride   int
	dstride   int
}

// q80xMakeCase builds a case; mode selects the data: "random" (random
// quants, moderate scales, random activations), "extreme" (quants only
// -128/127, scales the largest/smallest/negative f16 values, activations
// ±127 or -128 with large scales), "zero" (zero scales and activations
// in places), "nonfinite" (random, but one activation block per position
// scaled by Inf, -Inf or NaN).
func q80xMakeCase(t testing.TB, r *rand.Rand, mode string, rows, nb, npos int) q80xCase {
	t.Helper()
	c := q80xCase{rows: rows, nb: nb, npos: npos}
	rb := 34 * nb
	c.w = make([]byte, rows*rb)
	for i := range c.w {
		c.w[i] = byte(r.Uint32())
	}
	scales := []float32{65504, -65504, 6.1035156e-05, 5.9604645e-08, -5.9604645e-08, 1, -0.5}
	for b := 0; b < rows*nb; b++ {
		blk := c.w[34*b : 34*b+34]
		v := float32(0.001 + 0.02*r.Float64())
		switch mode {
		case "extreme":
			v = scales[r.IntN(len(scales))]
			for e := 2; e < 34; e++ {
				blk[e] = 0x80 // -128
				if r.IntN(2) == 0 {
					blk[e] = 0x7f
				}
			}
		case "zero":
			if r.IntN(3) == 0 {
				v = 0
			}
		}
		binary.LittleEndian.PutUint16(blk, FP32ToFP16(v))
	}
	c.packed = make([]byte, len(c.w))
	if err := packQ80x(c.packed, c.w, rows, 32*nb); err != nil {
		t.Fatal(err)
	}
	c.ys = 32*nb + 32
	c.dstride = nb + 3
	c.sstride = c.ys / 4
	c.qs = make([]int8, npos*c.ys)
	c.d = make([]float32, npos*c.dstride)
	c.s = make([]int32, npos*c.sstride)
	for p := 0; p < npos; p++ {
		q := c.qs[p*c.ys : p*c.ys+32*nb]
		for i := range q {
			switch mode {
			case "extreme":
				q[i] = []int8{127, -127, -128}[r.IntN(3)]
			case "zero":
				if r.IntN(4) != 0 {
					q[i] = int8(r.IntN(255) - 127)
				}
			default:
				q[i] = int8(r.IntN(255) - 127)
			}
		}
		d := c.d[p*c.dstride : p*c.dstride+nb]
		for i := range d {
			v := float32(r.ExpFloat64() * 0.01)
			switch {
			case mode == "extreme":
				v = []float32{65504, 1, 5.9604645e-08}[r.IntN(3)]
			case mode == "zero" && r.IntN(3) == 0:
				v = 0
			case mode == "nonfinite" && i == p%nb:
				// One block per position: Inf, -Inf or NaN scales (what
				// non-finite activations quantize to).
				v = []float32{float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN())}[p%3]
			}
			d[i] = FP16ToFP32(FP32ToFP16(v))
		}
		q80xActSums(c.qs[p*c.ys:p*c.ys+c.ys], c.s[p*c.sstride:p*c.sstride+c.sstride])
	}
	return c
}

// want returns dotQ8_0 of original row k against position p.
func (c *q80xCase) want(k, p int) float32 {
	rb := 34 * c.nb
	return dotQ8_0(c.w[k*rb:(k+1)*rb], c.qs[p*c.ys:p*c.ys+32*c.nb], c.d[p*c.dstride:p*c.dstride+c.nb])
}

// tile returns packed tile t.
func (c *q80xCase) tile(t int) []byte {
	n := q80xTile * 34 * c.nb
	return c.packed[t*n : (t+1)*n]
}

// q80xSame reports whether got has the bits of want; NaN results only need
// to be NaN (the x86 default NaN is what both paths produce, but the test
// should not depend on NaN payloads).
func q80xSame(got, want float32) bool {
	if want != want {
		return got != got
	}
	return math.Float32bits(got) == math.Float32bits(want)
}

// q80xModes are the data kinds of q80xMakeCase the dot tests cover.
var q80xModes = []string{"random", "extreme", "zero", "nonfinite"}

// TestQ80xPackRoundTrip packs and unpacks random matrices and checks the
// documented positions of scales and quants.
func TestQ80xPackRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(81, 82))
	for _, nb := range q80xBlockCounts {
		for _, rows := range []int{16, 48} {
			c := q80xMakeCase(t, r, "random", rows, nb, 1)
			back := make([]byte, len(c.w))
			if err := unpackQ80x(back, c.packed, rows, 32*nb); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(back, c.w) {
				t.Fatalf("nb=%d rows=%d: unpack(pack(w)) != w", nb, rows)
			}
			// Spot checks of the layout against the documentation.
			rb := 34 * nb
			for k := 0; k < 200; k++ {
				row, j, e := r.IntN(rows), r.IntN(nb), r.IntN(32)
				tile := c.tile(row / 16)
				rr := row % 16
				var so, qo int
				switch {
				case nb%2 == 1 && j == nb-1:
					so, qo = 1088*(j/2), 1088*(j/2)+32
				case j%2 == 0:
					so, qo = 1088*(j/2), 1088*(j/2)+64
				default:
					so, qo = 1088*(j/2)+32, 1088*(j/2)+576
				}
				src := c.w[row*rb+34*j:]
				if tile[so+2*rr] != src[0] || tile[so+2*rr+1] != src[1] {
					t.Fatalf("nb=%d row %d block %d: scale not at offset %d", nb, row, j, so)
				}
				if tile[qo+64*(e/4)+4*rr+e%4] != src[2+e]^0x80 {
					t.Fatalf("nb=%d row %d block %d element %d: quant not at offset %d", nb, row, j, e, qo+64*(e/4)+4*rr+e%4)
				}
			}
		}
	}
}

// TestQ80xPackErrors checks that bad shapes and lengths give errors.
func TestQ80xPackErrors(t *testing.T) {
	buf := make([]byte, 16*34)
	for _, tc := range []struct {
		dst, src   []byte
		rows, cols int
	}{
		{buf, buf, 8, 32},
		{buf, buf, 16, 33},
		{buf, buf, 0, 32},
		{buf, buf, 16, -32},
		{buf[:10], buf, 16, 32},
		{buf, buf[:10], 16, 32},
		{buf, buf, 32, 32},
	} {
		if err := packQ80x(tc.dst, tc.src, tc.rows, tc.cols); err == nil {
			t.Errorf("pack %d×%d (dst %d, src %d bytes): no error", tc.rows, tc.cols, len(tc.dst), len(tc.src))
		}
		if err := unpackQ80x(tc.dst, tc.src, tc.rows, tc.cols); err == nil {
			t.Errorf("unpack %d×%d (dst %d, src %d bytes): no error", tc.rows, tc.cols, len(tc.dst), len(tc.src))
		}
	}
}

// TestQ80xActSums checks the correction terms against a direct sum.
func TestQ80xActSums(t *testing.T) {
	qs := []int8{127, 127, 127, 127, -128, -128, -128, -128, 1, -2, 3, -4, 0, 0, 0, 0}
	s := make([]int32, 4)
	q80xActSums(qs, s)
	want := []int32{-128 * 508, -128 * -512, -128 * -2, 0}
	for i := range s {
		if s[i] != want[i] {
			t.Fatalf("group %d: %d, want %d", i, s[i], want[i])
		}
	}
}

// TestQ80xRef compares the pure-Go packed reference with dotQ8_0 on the
// original rows, bit for bit.
func TestQ80xRef(t *testing.T) {
	r := rand.New(rand.NewPCG(83, 84))
	for _, mode := range q80xModes {
		for _, nb := range q80xBlockCounts {
			c := q80xMakeCase(t, r, mode, 32, nb, 2)
			for tt := 0; tt < 2; tt++ {
				for p := 0; p < 2; p++ {
					var out [16]float32
					dotQ80xRef(c.tile(tt), nb, c.qs[p*c.ys:], c.d[p*c.dstride:], &out)
					for k := range out {
						if w := c.want(16*tt+k, p); !q80xSame(out[k], w) {
							t.Fatalf("%s nb=%d row %d pos %d: %g (%#08x), dotQ8_0 %g (%#08x)",
								mode, nb, 16*tt+k, p, out[k], math.Float32bits(out[k]), w, math.Float32bits(w))
						}
					}
				}
			}
		}
	}
}
