//go:build arm64 && !purego

package tensor

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// TestBF16NEONFallback checks the mechanism that keeps the NEON kernels
// exact: on ordinary data and on subnormal inputs (flushed, as the Go
// kernels flush them) they report nothing (so their own sums are used),
// and each way a subnormal product or sum can enter llama.cpp's BF16
// order is reported, in both orders; that the fused prompt kernel runs
// exactly where the exponent ranges allow it; and that they leave
// flush-to-zero off.
func TestBF16NEONFallback(t *testing.T) {
	const n = 128
	for _, c := range bf16FlagCases {
		w, x := c.data(n)
		var steps [16][2]float32
		step := bf16StepNEON(&w[0], 0, &x[0], n, 2, &steps) != 0
		var many [4]float32
		batch := bf16ManyNEON(&w[0], 0, 2, &x[0], 2*n, 2, n, &many[0], 2) != 0
		flagged := c.flagged && !c.input
		if step != flagged || batch != flagged {
			t.Errorf("%s: flagged %v (one position), %v (several), want %v", c.name, step, batch, flagged)
		}
		if !flagged {
			if got, want := finishBF16Sums(steps[1], w, x[:n], n), dotBF16Step(w, x[:n]); !sameBits(got, want) {
				t.Errorf("%s: one position %g, generic %g", c.name, got, want)
			}
			if want := dotBF16Batch(w, x[:n]); !sameBits(many[3], want) {
				t.Errorf("%s: several positions %g, generic %g", c.name, many[3], want)
			}
		}
		// The fused prompt kernel: it runs where the exponent ranges make
		// every product exact (and then flags what the unfused one
		// flags), and declines (2) elsewhere.
		hf := make([]float32, 2*n)
		xr := splitBF16(x, hf)
		wr := splitBF16(bf16Words(w), make([]float32, n))
		exact := wr>>16+xr>>16 >= 126 && wr&0xffff+xr&0xffff <= 380
		var fused [4]float32
		switch fr := bf16ManyFNEON(&w[0], 0, 2, &hf[0], 4*n, 2, n, int(xr), &fused[0], 2); {
		case (fr == 2) == exact:
			t.Errorf("%s: fused kernel returned %d, exponent ranges %#x, %#x", c.name, fr, wr, xr)
		case fr != 2 && (fr != 0) != flagged:
			t.Errorf("%s: fused kernel flagged %v, want %v", c.name, fr != 0, flagged)
		case fr == 0:
			if want := dotBF16Batch(w, x[:n]); !sameBits(fused[3], want) {
				t.Errorf("%s: fused %g, generic %g", c.name, fused[3], want)
			}
		}
		// FPCR restored: a subnormal product of Go code is not flushed.
		if tiny := float32(0x1p-130); tiny*float32(len(c.name)) == 0 {
			t.Fatalf("%s: flush-to-zero left on", c.name)
		}
	}
}

// TestBF16NEONShapes calls the kernels directly on every shape MatMul
// does not: 1-5 and 16 rows spaced wider than their data, 1-7 and 32
// positions spaced likewise, and several lengths, each result against the
// Go kernels (the fused prompt kernel's against the unfused one's).
func TestBF16NEONShapes(t *testing.T) {
	r := rand.New(rand.NewPCG(63, 64))
	bf := func() uint16 { return FP32ToBF16(float32(r.NormFloat64())) }
	for _, cols := range []int{64, 192, 1024} {
		rs, xs := 2*cols+6, 2*cols+10
		w := make([]byte, 16*rs)
		for i := 0; i+2 <= len(w); i += 2 {
			binary.LittleEndian.PutUint16(w[i:], bf())
		}
		x := make([]uint16, 32*xs/2)
		for i := range x {
			x[i] = bf()
		}
		// The activations widened for the fused kernel, and their range.
		hf := make([]float32, 32*cols)
		xr := uint32(511 << 16)
		for p := range 32 {
			r := splitBF16(x[p*xs/2:p*xs/2+cols], hf[p*cols:(p+1)*cols])
			xr = min(xr&^0xffff, r&^0xffff) | max(xr&0xffff, r&0xffff)
		}
		for _, rows := range []int{1, 2, 3, 4, 5, 16} {
			var steps [16][2]float32
			if bf16StepNEON(&w[0], rs, &x[0], cols, rows, &steps) != 0 {
				t.Fatalf("cols=%d rows=%d: one position flagged", cols, rows)
			}
			for k := range rows {
				if got, want := finishBF16Sums(steps[k], w[k*rs:], x[:cols], cols), dotBF16Step(w[k*rs:], x[:cols]); !sameBits(got, want) {
					t.Fatalf("cols=%d rows=%d: row %d: %g, generic %g", cols, rows, k, got, want)
				}
			}
			for _, pos := range []int{1, 2, 3, 4, 5, 6, 7, 32} {
				const os = 19
				out := make([]float32, pos*os)
				if bf16ManyNEON(&w[0], rs, rows, &x[0], xs, pos, cols, &out[0], os) != 0 {
					t.Fatalf("cols=%d rows=%d pos=%d: flagged", cols, rows, pos)
				}
				fused := make([]float32, pos*os)
				if r := bf16ManyFNEON(&w[0], rs, rows, &hf[0], 4*cols, pos, cols, int(xr), &fused[0], os); r != 0 {
					t.Fatalf("cols=%d rows=%d pos=%d: fused kernel returned %d", cols, rows, pos, r)
				}
				for j := range out {
					if !sameBits(fused[j], out[j]) {
						t.Fatalf("cols=%d rows=%d pos=%d: fused out[%d] %g, unfused %g", cols, rows, pos, j, fused[j], out[j])
					}
				}
				for p := range pos {
					for k := range os {
						got := out[p*os+k]
						if k >= rows {
							if got != 0 {
								t.Fatalf("cols=%d rows=%d pos=%d: wrote out[%d] past the rows", cols, rows, pos, p*os+k)
							}
							continue
						}
						xp := x[p*xs/2 : p*xs/2+cols]
						if want := dotBF16Batch(w[k*rs:], xp); !sameBits(got, want) {
							t.Fatalf("cols=%d rows=%d pos=%d: row %d position %d: %g, generic %g", cols, rows, pos, k, p, got, want)
						}
					}
				}
			}
		}
	}
}

// bf16Words reads little-endian bf16 values.
func bf16Words(b []byte) []uint16 {
	h := make([]uint16, len(b)/2)
	for i := range h {
		h[i] = le16(b[2*i:])
	}
	return h
}
