package tensor

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"
)

// TestKernelsMatchGeneric checks that the SIMD kernels chosen for this CPU
// give exactly the bits of the pure-Go canonical kernels, on random data and
// on edge cases (zero blocks, extreme quants, huge and tiny scales, every
// block count parity, column tails).
func TestKernelsMatchGeneric(t *testing.T) {
	t.Logf("kernel set: %s", bestKernels.name)
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
				w := randomMatrix(r, typ, 9, cols)
				x := randomVec(r, 3*cols)
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
				want := make([]float32, 3*w.Rows)
				got := make([]float32, 3*w.Rows)
				matMul(genericKernels, p, NewWorkspace(), w, x, 3, want)
				matMul(bestKernels, p, NewWorkspace(), w, x, 3, got)
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
