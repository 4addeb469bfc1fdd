package x86sim

import (
	"encoding/binary"
	"fmt"
	"unsafe"
)

func uintptrOf(p *byte) uintptr { return uintptr(unsafe.Pointer(p)) }

// specialOps are the instructions outside the general-purpose set and
// outside the VecOp table: control, stack, prefetches, opmask moves,
// gathers and legacy SSE moves.
var specialOps = map[string]handler{
	"NOP":         func(*state, *inst) error { return nil },
	"PREFETCHT0":  func(*state, *inst) error { return nil },
	"PREFETCHT1":  func(*state, *inst) error { return nil },
	"PREFETCHT2":  func(*state, *inst) error { return nil },
	"PREFETCHNTA": func(*state, *inst) error { return nil },
	"RET":         retOp,
	"CALL": func(_ *state, in *inst) error {
		// Only the split-stack prologue's morestack call: the fake g's
		// stack guard keeps it from being reached.
		return fmt.Errorf("CALL is not supported")
	},
	"PUSHQ": func(s *state, in *inst) error {
		if err := needArgs(in, 1); err != nil {
			return err
		}
		v, err := s.read(&in.args[0], 8)
		if err != nil {
			return err
		}
		s.gp[regSP] -= 8
		b, err := s.stackAt(s.gp[regSP])
		if err != nil {
			return err
		}
		binary.LittleEndian.PutUint64(b, v)
		return nil
	},
	"POPQ": func(s *state, in *inst) error {
		if err := needArgs(in, 1); err != nil {
			return err
		}
		b, err := s.stackAt(s.gp[regSP])
		if err != nil {
			return err
		}
		s.gp[regSP] += 8
		return s.write(&in.args[0], 8, binary.LittleEndian.Uint64(b))
	},
	"VZEROUPPER": func(s *state, in *inst) error {
		for i := 0; i < 16; i++ {
			clear(s.v[i][16:])
		}
		return nil
	},
	"KMOVB":      kmovOp(1),
	"KMOVW":      kmovOp(2),
	"KMOVD":      kmovOp(4),
	"KMOVQ":      kmovOp(8),
	"KXNORW":     klogicOp(2, func(a, b uint64) uint64 { return ^(a ^ b) }),
	"KXNORD":     klogicOp(4, func(a, b uint64) uint64 { return ^(a ^ b) }),
	"KANDW":      klogicOp(2, func(a, b uint64) uint64 { return a & b }),
	"KORW":       klogicOp(2, func(a, b uint64) uint64 { return a | b }),
	"KXORW":      klogicOp(2, func(a, b uint64) uint64 { return a ^ b }),
	"KORTESTW":   kortest(2),
	"KORTESTD":   kortest(4),
	"VPGATHERDD": gatherOp(4),
	"MOVSS":      movssOp,
}

// ret returns from the entry frame; the kernels call nothing, so any other
// return address is an error.
func retOp(s *state, in *inst) error {
	b, err := s.stackAt(s.gp[regSP])
	if err != nil {
		return err
	}
	if a := binary.LittleEndian.Uint64(b); a != retSentinel {
		return fmt.Errorf("return to %#x, not to the caller (stack imbalance)", a)
	}
	s.gp[regSP] += 8
	s.done = true
	return nil
}

// kmov moves opmask values: to a K register from a general-purpose
// register, memory or K register (zero-extended from size bytes), and from
// a K register (a 32-bit register write zero-extends; the 64-bit one too).
func kmovOp(size int) handler {
	return func(s *state, in *inst) error {
		if err := needArgs(in, 2); err != nil {
			return err
		}
		src, dst := &in.args[0], &in.args[1]
		if src.kind != kMask && dst.kind != kMask {
			return fmt.Errorf("KMOV without an opmask register")
		}
		v, err := s.read(src, size)
		if err != nil {
			return err
		}
		if dst.kind == kGP {
			s.gp[dst.reg] = v
			return nil
		}
		return s.write(dst, size, v)
	}
}

// klogic runs "KXNORW K1, K2, K3" (Go order: src2, src1, dst).
func klogicOp(size int, f func(a, b uint64) uint64) handler {
	return func(s *state, in *inst) error {
		if err := needArgs(in, 3); err != nil {
			return err
		}
		for i := range in.args {
			if in.args[i].kind != kMask {
				return fmt.Errorf("opmask instruction with a non-mask operand")
			}
		}
		s.k[in.args[2].reg] = f(s.k[in.args[1].reg], s.k[in.args[0].reg]) & gpMask(size)
		return nil
	}
}

// gather runs the EVEX "VPGATHERDD off(BASE)(Zidx*scale), K, Zdst": the
// elements whose mask bit is set are loaded from base+disp+idx*scale (idx
// a signed dword), the others keep their value; the mask is cleared, and
// the register above the destination's width is zeroed.
func gatherOp(elem int) handler {
	return func(s *state, in *inst) error {
		if err := needArgs(in, 3); err != nil {
			return err
		}
		m, k, d := &in.args[0], &in.args[1], &in.args[2]
		if m.kind != kMem || !m.vindex || k.kind != kMask || k.reg == 0 || d.kind != kVec {
			return fmt.Errorf("unsupported gather form")
		}
		if m.index == d.reg {
			return fmt.Errorf("gather index and destination are the same register (#UD)")
		}
		n := d.bits / 8 / elem
		base := uint64(m.disp)
		if m.base >= 0 {
			base += s.gp[m.base]
		}
		idx := s.v[m.index]
		dst := &s.v[d.reg]
		for i := 0; i < n; i++ {
			if s.k[k.reg]>>i&1 == 0 {
				continue
			}
			a := base + uint64(int64(idx.I32(i))*int64(m.scale))
			b, err := s.accessAt(m, a, elem)
			if err != nil {
				return err
			}
			copy(dst[i*elem:(i+1)*elem], b)
		}
		clear(dst[d.bits/8:])
		s.k[k.reg] = 0
		return nil
	}
}

// movss runs the legacy SSE MOVSS: a load zeroes bits 32-127 of the
// register, a register move replaces bits 0-31 only, a store writes 4
// bytes; bits 128 and up are kept in every form.
func movssOp(s *state, in *inst) error {
	if err := needArgs(in, 2); err != nil {
		return err
	}
	src, dst := &in.args[0], &in.args[1]
	switch {
	case src.kind == kVec && dst.kind == kVec && src.bits == 128 && dst.bits == 128:
		copy(s.v[dst.reg][:4], s.v[src.reg][:4])
	case src.kind == kMem && dst.kind == kVec && dst.bits == 128:
		b, err := s.accessOp(src, 4)
		if err != nil {
			return err
		}
		r := &s.v[dst.reg]
		clear(r[:16])
		copy(r[:4], b)
	case src.kind == kVec && src.bits == 128 && dst.kind == kMem:
		b, err := s.accessOp(dst, 4)
		if err != nil {
			return err
		}
		copy(b, s.v[src.reg][:4])
	default:
		return fmt.Errorf("unsupported MOVSS form")
	}
	return nil
}

// stackAt returns the 8 bytes at a stack address (PUSHQ, POPQ, RET).
func (s *state) stackAt(a uint64) ([]byte, error) {
	if a < s.lo || a+8 > s.lo+stackSize {
		return nil, fmt.Errorf("stack pointer %#x outside the interpreter's stack", a)
	}
	return s.mem(a, 8), nil
}

// kortest runs "KORTESTW K1, K2": ZF if K1|K2 is all zeros, CF if all ones.
func kortest(size int) handler {
	return func(s *state, in *inst) error {
		if err := needArgs(in, 2); err != nil {
			return err
		}
		if in.args[0].kind != kMask || in.args[1].kind != kMask {
			return fmt.Errorf("KORTEST with a non-mask operand")
		}
		v := (s.k[in.args[0].reg] | s.k[in.args[1].reg]) & gpMask(size)
		s.zf, s.cf, s.sf, s.of = v == 0, v == gpMask(size), false, false
		return nil
	}
}
