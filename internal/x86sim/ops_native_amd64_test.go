//go:build amd64

package x86sim

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"golang.org/x/sys/cpu"
)

// nativeCase is one VEX instruction form run natively by a function of
// ops_native_amd64.s.
type nativeCase struct {
	name   string
	bits   int
	imm    uint8
	twoOp  bool   // Src1 is absent
	kind   string // the inputs it is fed: int, float, fma, half, count
	dw     int    // destination width in bytes: the bytes compared
	native func(d, s1, s2 *Vec)
}

// nativeInputs draws the three operands of case c: random bytes with
// integer edge values, float32 lanes of every kind (NaNs for the
// comparisons and conversions), float64 lanes (randF64), FMA lanes whose exact
// result is a float32 tie or a hair off it (placed by the operand roles of
// 231, 213 and 132), half-precision values, or shift counts around the
// element widths.
func nativeInputs(r *rand.Rand, c *nativeCase) (d, s1, s2 Vec) {
	for _, v := range []*Vec{&d, &s1, &s2} {
		if r.IntN(4) == 0 {
			*v = edgeVec(r)
		} else {
			*v = randVec(r)
		}
	}
	switch c.kind {
	case "float", "fma", "nan":
		for i := 0; i < 16; i++ {
			d.SetF32(i, randF32(r))
			s1.SetF32(i, randF32(r))
			s2.SetF32(i, randF32(r))
		}
		if c.kind == "nan" {
			// Comparisons, max and min: NaNs (quiet, signalling) too.
			nans := []uint32{0x7fc00000, 0xffc00001, 0x7f800001, 0xff812345}
			for i := 0; i < 16; i++ {
				if r.IntN(4) == 0 {
					s1.SetU32(i, nans[r.IntN(len(nans))])
				}
				if r.IntN(4) == 0 {
					s2.SetU32(i, nans[r.IntN(len(nans))])
				}
			}
		}
		if c.kind != "fma" {
			break
		}
		for i := 0; i < 16; i++ {
			if r.IntN(2) == 0 {
				continue
			}
			a, b, cc := tieFMA(r)
			switch {
			case strings.HasSuffix(c.name[:len(c.name)-2], "231"):
				s1.SetF32(i, a)
				s2.SetF32(i, b)
				d.SetF32(i, cc)
			case strings.HasSuffix(c.name[:len(c.name)-2], "213"):
				s1.SetF32(i, a)
				d.SetF32(i, b)
				s2.SetF32(i, cc)
			default: // 132
				d.SetF32(i, a)
				s2.SetF32(i, b)
				s1.SetF32(i, cc)
			}
		}
	case "double":
		for i := 0; i < 8; i++ {
			d.SetF64(i, randF64(r))
			s1.SetF64(i, randF64(r))
			s2.SetF64(i, randF64(r))
		}
		if r.IntN(4) == 0 {
			// Equal magnitudes: exact sums and differences, x/x.
			for i := 0; i < 8; i++ {
				if r.IntN(2) == 0 {
					s2.SetU64(i, s1.U64(i)^uint64(r.IntN(2))<<63)
				}
			}
		}
	case "half":
		specials := []uint16{0, 0x8000, 1, 0x8001, 0x3ff, 0x400, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x3c00, 0x7e00, 0x7c01}
		for i := 0; i < 32; i++ {
			if r.IntN(3) == 0 {
				s2.SetU16(i, specials[r.IntN(len(specials))])
			}
		}
	case "count":
		counts := []uint64{0, 1, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 1 << 32, 1 << 63, math.MaxUint64}
		if r.IntN(2) == 0 {
			s2.SetU64(0, counts[r.IntN(len(counts))])
		} else {
			s2.SetU64(0, uint64(r.IntN(70)))
		}
	}
	if c.kind == "float" || c.kind == "fma" || c.kind == "nan" {
		// Lanes that are all halves of each other or equal test ties of
		// max/min/compare and exact sums.
		if r.IntN(4) == 0 {
			for i := 0; i < 16; i++ {
				if r.IntN(2) == 0 {
					s2.SetU32(i, s1.U32(i)^uint32(r.IntN(2))<<31)
				}
			}
		}
	}
	return d, s1, s2
}

// TestNativeVEX runs every form of ops_native_amd64.s natively and through
// the table on the same operands and compares the destination's bytes.
func TestNativeVEX(t *testing.T) {
	if !cpu.X86.HasAVX2 || !cpu.X86.HasFMA || !cpu.X86.HasF16C {
		t.Skip("the CPU lacks AVX2, FMA or F16C: the VEX forms cannot run natively")
	}
	ops := vectorOps()
	r := rand.New(rand.NewPCG(11, 12))
	for ci := range nativeCases {
		c := &nativeCases[ci]
		op, ok := ops[c.name]
		if !ok {
			t.Errorf("%s is not in the table", c.name)
			continue
		}
		iters := 60
		if c.kind != "int" && c.kind != "count" {
			iters = 300
		}
		for it := 0; it < iters; it++ {
			d, s1, s2 := nativeInputs(r, c)
			want := d
			in1, in2 := s1, s2
			c.native(&want, &in1, &in2)

			got := d
			a := OpArgs{Dst: &got, Src1: &in1, Src2: &in2, Imm: c.imm, Bits: c.bits, Mask: ^uint64(0)}
			in1, in2 = s1, s2
			if c.twoOp {
				a.Src1 = nil
			}
			op.Exec(&a)
			if got != want && string(got[:c.dw]) != string(want[:c.dw]) {
				t.Errorf("%s/%d imm %#x:\n dst  %x\n src1 %x\n src2 %x\n got  %x\n want %x",
					c.name, c.bits, c.imm, d[:32], s1[:32], s2[:32], got[:c.dw], want[:c.dw])
				break
			}
		}
	}
}

// randF64 draws a float64 of every kind: zeros and subnormals, infinities
// and the extremes, NaNs (quiet and signalling, either sign, random
// payloads), numbers in float32's subnormal range and around its overflow
// threshold, exact float32 ties (VCVTSD2SS's rounding), ordinary numbers
// and random bits.
func randF64(r *rand.Rand) float64 {
	b := r.Uint64()
	switch r.IntN(10) {
	case 0:
		b &= 0x800fffffffffffff // subnormal or zero
	case 1:
		return []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.MaxFloat64, -math.MaxFloat64,
			math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32, 1}[r.IntN(10)]
	case 2:
		b |= 0x7ff0000000000000 // NaN (a zero fraction, infinity, is rare)
	case 3:
		b = b&^(0x7ff<<52) | uint64(1023-150+r.IntN(30))<<52 // float32's subnormals
	case 4:
		b = b&^(0x7ff<<52) | uint64(1023+125+r.IntN(5))<<52 // float32's overflow
	case 5:
		b = b&^(1<<29-1) | 1<<28 // halfway between two float32s
		b = b&^(0x7ff<<52) | uint64(1023-160+r.IntN(300))<<52
	case 6, 7:
		b = b&^(0x7ff<<52) | uint64(1023-8+r.IntN(16))<<52
	}
	return math.Float64frombits(b)
}
