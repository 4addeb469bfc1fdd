package x86sim

import (
	"encoding/binary"
	"fmt"
	"strings"
)

// vecForm is a vector instruction's operands mapped to OpArgs, decided
// once at parse time. Indexes are into inst.args (Go order), -1 if absent.
type vecForm struct {
	op                         VecOp
	dst, src1, src2, mask, imm int
	bits                       int
	mem                        int  // bytes a memory operand covers
	legacy                     bool // SSE form: the bits above the destination are kept
}

// newVecForm maps the Go operands "[$imm,] [src2, [src1,]] [K,] dst" to
// Intel's "dst {k}, src1, src2, imm".
func newVecForm(in *inst, op VecOp) (*vecForm, error) {
	f := &vecForm{op: op, dst: -1, src1: -1, src2: -1, mask: -1, imm: -1}
	n := len(in.args)
	if n == 0 {
		return nil, fmt.Errorf("%s without operands", in.op)
	}
	f.dst = n - 1
	rest := n - 1
	if rest > 0 && in.args[rest-1].kind == kMask {
		f.mask = rest - 1
		rest--
	}
	i := 0
	if rest > 0 && in.args[0].kind == kImm {
		f.imm = 0
		i = 1
	}
	switch rest - i {
	case 0:
	case 1:
		f.src2 = i
	case 2:
		f.src2, f.src1 = i, i+1
	default:
		return nil, fmt.Errorf("unsupported operand form (%d sources)", rest-i)
	}
	for j := range in.args {
		o := &in.args[j]
		if o.kind == kVec && o.bits > f.bits {
			f.bits = o.bits
		}
		if o.kind == kImm && j != f.imm {
			return nil, fmt.Errorf("unsupported operand form (immediate)")
		}
		if o.kind == kMask && j != f.mask && j != f.dst {
			return nil, fmt.Errorf("unsupported operand form (opmask)")
		}
		if o.kind == kMem && o.vindex {
			return nil, fmt.Errorf("unsupported operand form (vector index)")
		}
		if o.kind == kTLS || o.kind == kSym || o.kind == kTarget {
			return nil, fmt.Errorf("unsupported operand form")
		}
	}
	if f.bits == 0 {
		f.bits = 128
	}
	switch in.args[f.dst].kind {
	case kVec, kMem, kGP, kMask:
	default:
		return nil, fmt.Errorf("unsupported destination")
	}
	if in.args[f.dst].kind == kMask && (op.Elem == 0 || in.zero) {
		return nil, fmt.Errorf("opmask destination without an element size")
	}
	if f.src1 >= 0 && in.args[f.src1].kind != kVec {
		return nil, fmt.Errorf("unsupported first source")
	}
	if in.args[f.dst].kind == kMem && f.src2 >= 0 && in.args[f.src2].kind == kMem {
		return nil, fmt.Errorf("two memory operands")
	}
	f.mem = f.bits / 8
	if op.Mem != nil {
		f.mem = op.Mem(f.bits)
	}
	if f.mem < 0 || f.mem > 64 {
		return nil, fmt.Errorf("memory operand of %d bytes", f.mem)
	}
	if f.mask >= 0 && in.args[f.mask].reg == 0 {
		return nil, fmt.Errorf("K0 as a write mask")
	}
	if f.mask >= 0 && op.Elem == 0 && !op.Blend {
		return nil, fmt.Errorf("write mask on an instruction without an element size")
	}
	if in.bcst && (op.Elem == 0 || f.src2 < 0 || in.args[f.src2].kind != kMem) {
		return nil, fmt.Errorf(".BCST without a memory source or element size")
	}
	if in.zero && f.mask < 0 {
		return nil, fmt.Errorf(".Z without a write mask")
	}
	f.legacy = !strings.HasPrefix(in.op, "V")
	return f, nil
}

// execVec runs a vector instruction through its VecOp.
func execVec(s *state, in *inst) error {
	f := in.vec
	// The operands live in the state: OpArgs reaches Exec through a
	// function value, so locals would escape and allocate per instruction.
	dst, src1, src2 := &s.dst, &s.src1, &s.src2
	a := &s.args
	*a = OpArgs{Dst: dst, Bits: f.bits, Mask: ^uint64(0)}
	if f.imm >= 0 {
		a.Imm = uint8(in.args[f.imm].imm)
	}
	masked := f.mask >= 0
	var mask uint64
	if masked {
		mask = s.k[in.args[f.mask].reg]
		a.Mask = mask
	}
	elem := f.op.Elem
	if f.src1 >= 0 {
		*src1 = s.v[in.args[f.src1].reg]
		a.Src1 = src1
	}
	if f.src2 >= 0 {
		o := &in.args[f.src2]
		switch o.kind {
		case kVec:
			*src2 = s.v[o.reg]
		case kGP:
			*src2 = Vec{}
			binary.LittleEndian.PutUint64(src2[:], s.gp[o.reg])
		case kMem:
			*src2 = Vec{} // the bytes past the operand read as zero
			addr := s.addr(o)
			switch {
			case in.bcst:
				b, err := s.accessAt(o, addr, elem)
				if err != nil {
					return err
				}
				for j := 0; j+elem <= f.bits/8; j += elem {
					copy(src2[j:], b)
				}
			case masked && !f.op.Blend && f.mem > 0 && elem*f.mem%(f.bits/8) == 0:
				// Fault suppression: a masked load reads only the
				// selected elements (memory elements are Elem scaled by
				// Mem/(Bits/8): 2 bytes for VCVTPH2PS's 4-byte lanes).
				me := elem * f.mem / (f.bits / 8)
				for e := 0; e < f.mem/me; e++ {
					if mask>>e&1 == 0 {
						continue
					}
					b, err := s.accessAt(o, addr+uint64(e*me), me)
					if err != nil {
						return err
					}
					copy(src2[e*me:], b)
				}
			default:
				b, err := s.accessAt(o, addr, f.mem)
				if err != nil {
					return err
				}
				copy(src2[:], b)
			}
		default:
			return fmt.Errorf("unsupported source operand")
		}
		a.Src2 = src2
	}
	d := &in.args[f.dst]
	var dstMem []byte
	switch d.kind {
	case kVec:
		*dst = s.v[d.reg]
	case kMem:
		*dst = Vec{}
		if !masked {
			var err error
			if dstMem, err = s.accessOp(d, f.mem); err != nil {
				return err
			}
			copy(dst[:], dstMem)
		}
	default:
		*dst = Vec{}
	}
	merge := masked && !f.op.Blend
	old := &s.old
	if merge {
		*old = *dst
	}
	f.op.Exec(a)
	switch d.kind {
	case kVec:
		w := d.bits / 8
		if merge {
			for e := 0; e < w/elem; e++ {
				if mask>>e&1 != 0 {
					continue
				}
				if in.zero {
					clear(dst[e*elem : (e+1)*elem])
				} else {
					copy(dst[e*elem:(e+1)*elem], old[e*elem:])
				}
			}
		}
		r := &s.v[d.reg]
		copy(r[:w], dst[:w])
		if !f.legacy {
			clear(r[w:])
		}
	case kMem:
		if merge {
			// A masked store writes only the selected elements.
			addr := s.addr(d)
			for e := 0; e < f.mem/elem; e++ {
				if mask>>e&1 == 0 {
					continue
				}
				b, err := s.accessAt(d, addr+uint64(e*elem), elem)
				if err != nil {
					return err
				}
				copy(b, dst[e*elem:(e+1)*elem])
			}
			return nil
		}
		copy(dstMem, dst[:f.mem])
	case kGP:
		s.gp[d.reg] = binary.LittleEndian.Uint64(dst[:8])
	case kMask:
		// A compare into an opmask (VCMPPS $p, Z1, Z2, K1): Exec gives
		// its lanes as the VEX form does, all ones where true; lane i
		// becomes bit i, cleared where the write mask is (zeroing), and
		// the bits above the vector's lanes are zero.
		var k uint64
		for e := 0; e < f.bits/8/elem; e++ {
			lane := dst[e*elem : (e+1)*elem]
			if lane[elem-1]&0x80 != 0 && (!masked || mask>>e&1 != 0) {
				k |= 1 << e
			}
		}
		s.k[d.reg] = k
	}
	return nil
}
