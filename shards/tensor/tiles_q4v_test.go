//go:build amd64 && !purego && unix

package tensor

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"syscall"
	"testing"
)

// q4vTile calls q40Vec16x2 on slices (nb = len(d)), checking the lengths
// the assembly relies on: a mismatch is a caller bug and panics like an
// index error.
func q4vTile(w []byte, rowStride, blockStride int, y []int8, d []float32, out []float32) {
	nb := len(d)
	if nb < 1 || rowStride < 18 || blockStride < 18 {
		panic("tensor: q4vTile: bad tile shape")
	}
	_ = w[15*rowStride+(nb-1)*blockStride+17]
	_ = y[32*nb-1]
	q40Vec16x2(&w[0], rowStride, blockStride, &y[0], &d[0], nb, &out[:16][0])
}

// q4vWeights returns tiles row-major tiles of sixteen Q4_0 rows of nb
// blocks: random quants and moderate random scales.
func q4vWeights(r *rand.Rand, tiles, nb int) []byte {
	w := make([]byte, tiles*16*nb*18)
	for i := range w {
		w[i] = byte(r.Uint32())
	}
	for b := 0; b < len(w)/18; b++ {
		binary.LittleEndian.PutUint16(w[18*b:], FP32ToFP16(float32(0.001+0.02*r.Float64())))
	}
	return w
}

// q4vActs returns random Q8_0 activations of nb blocks.
func q4vActs(r *rand.Rand, nb int) ([]int8, []float32) {
	y := make([]int8, 32*nb)
	d := make([]float32, nb)
	for i := range y {
		y[i] = int8(r.IntN(255) - 127)
	}
	for i := range d {
		d[i] = float32(r.ExpFloat64() * 0.01)
	}
	return y, d
}

// q4vInterleave copies a row-major tile of sixteen rows of nb blocks into
// dst block-interleaved: block j of rows 0..15 at 288*j.
func q4vInterleave(dst, w []byte, nb int) {
	for k := 0; k < 16; k++ {
		for j := 0; j < nb; j++ {
			copy(dst[288*j+18*k:288*j+18*k+18], w[18*(k*nb+j):])
		}
	}
}

// q4vWant is the canonical result of each row of a row-major tile.
func q4vWant(w []byte, y []int8, d []float32) [16]float32 {
	var want [16]float32
	rb := 18 * len(d)
	for k := range want {
		want[k] = dotQ4_0(w[k*rb:(k+1)*rb], y, d)
	}
	return want
}

// q4vSame reports whether got and want are the same float32, or both NaN.
func q4vSame(got, want float32) bool {
	return math.Float32bits(got) == math.Float32bits(want) || (got != got && want != want)
}

// q4vCheck runs q40Vec16x2 on the tile w (row-major) and on copies of it
// in other layouts, and compares every result with dotQ4_0 bit for bit:
// block-interleaved (the kernel's own path), and two that take its
// general strided path, rows padded to a longer stride and blocks spread
// 320 bytes apart.
func q4vCheck(t *testing.T, what string, w []byte, y []int8, d []float32) {
	t.Helper()
	nb := len(d)
	want := q4vWant(w, y, d)
	il := make([]byte, len(w))
	q4vInterleave(il, w, nb)
	rs := 18*nb + 46
	padded := make([]byte, 15*rs+18*nb)
	for k := 0; k < 16; k++ {
		copy(padded[k*rs:], w[18*nb*k:18*nb*(k+1)])
	}
	spread := make([]byte, 15*18+(nb-1)*320+18)
	for k := 0; k < 16; k++ {
		for j := 0; j < nb; j++ {
			copy(spread[18*k+320*j:], w[18*(k*nb+j):18*(k*nb+j+1)])
		}
	}
	for _, l := range []struct {
		name   string
		w      []byte
		rs, bs int
	}{{"row-major", w, 18 * nb, 18}, {"interleaved", il, 18, 288}, {"padded rows", padded, rs, 18}, {"spread blocks", spread, 18, 320}} {
		var got [16]float32
		q4vTile(l.w, l.rs, l.bs, y, d, got[:])
		for k := range got {
			if !q4vSame(got[k], want[k]) {
				t.Fatalf("%s nb=%d %s: row %d: %g (%#08x), dotQ4_0 %g (%#08x)",
					what, nb, l.name, k, got[k], math.Float32bits(got[k]), want[k], math.Float32bits(want[k]))
			}
		}
	}
}

var q4vBlockCounts = []int{1, 2, 3, 4, 5, 7, 8, 9, 63, 64, 65, 176}

// TestQ40Vec16x2Random compares the kernel with dotQ4_0 on random tiles,
// both layouts, block counts around its two-block unrolling and TinyLlama's
// (64, 176).
func TestQ40Vec16x2Random(t *testing.T) {
	skipUnless(t, q40xTilesGap())
	r := rand.New(rand.NewPCG(81, 82))
	for _, nb := range q4vBlockCounts {
		for rep := 0; rep < 3; rep++ {
			w := q4vWeights(r, 1, nb)
			y, d := q4vActs(r, nb)
			q4vCheck(t, "random", w, y, d)
		}
	}
}

// TestQ40Vec16x2Extremes uses the limits of every input: nibbles all 0 or
// all 15 (and alternating), activations ±127 and -128, scales from the
// smallest f16 subnormal to ±65504 and zero, activation scales from 1e-30
// to 1e30 (products that overflow to Inf or underflow), and Inf/NaN
// scales.
func TestQ40Vec16x2Extremes(t *testing.T) {
	skipUnless(t, q40xTilesGap())
	r := rand.New(rand.NewPCG(83, 84))
	scales := []uint16{0x7bff, 0xfbff, 0x0001, 0x8001, 0x0000, 0x8000, 0x3c00, 0x0400, 0x7c00, 0xfc00, 0x7e00}
	quants := []byte{0x00, 0xff, 0x0f, 0xf0, 0x88, 0x77}
	acts := []int8{127, -127, -128, 0}
	dscales := []float32{1e-30, 1e30, 1, -1, 0, 3.4e38, 1e-45}
	for _, nb := range q4vBlockCounts {
		for mode := 0; mode < 4; mode++ {
			w := q4vWeights(r, 1, nb)
			y, d := q4vActs(r, nb)
			for b := 0; b < 16*nb; b++ {
				blk := w[18*b : 18*b+18]
				if mode != 3 {
					q := quants[r.IntN(len(quants))]
					for i := 2; i < 18; i++ {
						blk[i] = q
					}
				}
				s := scales[r.IntN(len(scales))]
				if mode == 0 {
					s = scales[r.IntN(7)] // finite only
				}
				binary.LittleEndian.PutUint16(blk, s)
			}
			for i := range y {
				if mode != 2 {
					y[i] = acts[r.IntN(len(acts))]
				}
			}
			for i := range d {
				d[i] = dscales[r.IntN(len(dscales))]
				if mode == 0 && r.IntN(2) == 0 {
					d[i] = 1
				}
			}
			q4vCheck(t, "extreme mode "+string(rune('0'+mode)), w, y, d)
		}
	}
	// Sums at their limits: every product 15*-128 or 0*127.
	for _, nb := range []int{1, 2, 3} {
		w := make([]byte, 16*nb*18)
		y := make([]int8, 32*nb)
		d := make([]float32, nb)
		for b := 0; b < 16*nb; b++ {
			binary.LittleEndian.PutUint16(w[18*b:], 0x3c00)
			for i := 2; i < 18; i++ {
				w[18*b+i] = 0xff
				if b%2 == 1 {
					w[18*b+i] = 0x00
				}
			}
		}
		for i := range y {
			y[i] = -128
		}
		for i := range d {
			d[i] = 1
		}
		q4vCheck(t, "limits", w, y, d)
	}
}

// TestQ40Vec16x2Bounds puts tiles between inaccessible pages: the kernel's
// shifted and paired loads must not read before the tile's first byte or
// after its last one (15*rowStride + (nb-1)*blockStride + 17), on any of
// its paths (row-major, interleaved, general strides).
func TestQ40Vec16x2Bounds(t *testing.T) {
	skipUnless(t, q40xTilesGap())
	page := syscall.Getpagesize()
	r := rand.New(rand.NewPCG(85, 86))
	for _, nb := range []int{1, 2, 3, 4, 64, 65} {
		w := q4vWeights(r, 1, nb)
		y, d := q4vActs(r, nb)
		want := q4vWant(w, y, d)
		for _, l := range []struct {
			name   string
			rs, bs int
		}{{"row-major", 18 * nb, 18}, {"interleaved", 18, 288}, {"spread blocks", 18, 320}} {
			size := 15*l.rs + (nb-1)*l.bs + 18
			span := (size + page - 1) / page * page
			mem, err := syscall.Mmap(-1, 0, span+2*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
			if err != nil {
				t.Fatalf("mmap: %v", err)
			}
			if err := syscall.Mprotect(mem[:page], syscall.PROT_NONE); err != nil {
				t.Fatalf("mprotect: %v", err)
			}
			if err := syscall.Mprotect(mem[page+span:], syscall.PROT_NONE); err != nil {
				t.Fatalf("mprotect: %v", err)
			}
			// At the start of the accessible pages, then at their end.
			for _, off := range []int{page, page + span - size} {
				tile := mem[off : off+size]
				for k := 0; k < 16; k++ {
					for j := 0; j < nb; j++ {
						copy(tile[k*l.rs+j*l.bs:], w[18*(k*nb+j):18*(k*nb+j+1)])
					}
				}
				var got [16]float32
				q4vTile(tile, l.rs, l.bs, y, d, got[:])
				if got != want {
					t.Fatalf("nb=%d %s at page offset %d: %v, want %v", nb, l.name, off-page, got, want)
				}
			}
			if err := syscall.Munmap(mem); err != nil {
				t.Fatalf("munmap: %v", err)
			}
		}
	}
}
