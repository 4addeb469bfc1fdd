package x86sim

import (
	"encoding/binary"
	"fmt"
	"math/bits"
)

// read returns a general-purpose operand's value, size bytes wide and
// zero-extended: a register, an immediate (sign-extended, as encoded), a
// memory operand, or (TLS), the address of the fake g.
func (s *state) read(o *operand, size int) (uint64, error) {
	switch o.kind {
	case kGP:
		return s.gp[o.reg] & gpMask(size), nil
	case kImm:
		return uint64(o.imm) & gpMask(size), nil
	case kMem:
		b, err := s.accessOp(o, size)
		if err != nil {
			return 0, err
		}
		return leLoad(b, size), nil
	case kTLS:
		return s.gAddr(), nil
	case kMask:
		return s.k[o.reg] & gpMask(size), nil
	}
	return 0, fmt.Errorf("unsupported operand for a %d-byte read", size)
}

// write stores a general-purpose result: 4-byte writes to a register
// zero-extend it (as on x86-64), 1- and 2-byte writes keep its other bits.
func (s *state) write(o *operand, size int, v uint64) error {
	switch o.kind {
	case kGP:
		switch size {
		case 8, 4:
			s.gp[o.reg] = v & gpMask(size)
		default:
			m := gpMask(size)
			s.gp[o.reg] = s.gp[o.reg]&^m | v&m
		}
		return nil
	case kMem:
		b, err := s.accessOp(o, size)
		if err != nil {
			return err
		}
		leStore(b, size, v)
		return nil
	case kMask:
		s.k[o.reg] = v & gpMask(size)
		return nil
	}
	return fmt.Errorf("unsupported destination operand for a %d-byte write", size)
}

func (s *state) gAddr() uint64 { return uint64(uintptrOf(&s.g[0])) }

func gpMask(size int) uint64 {
	if size >= 8 {
		return ^uint64(0)
	}
	return 1<<(8*size) - 1
}

func leLoad(b []byte, size int) uint64 {
	switch size {
	case 1:
		return uint64(b[0])
	case 2:
		return uint64(binary.LittleEndian.Uint16(b))
	case 4:
		return uint64(binary.LittleEndian.Uint32(b))
	}
	return binary.LittleEndian.Uint64(b)
}

func leStore(b []byte, size int, v uint64) {
	switch size {
	case 1:
		b[0] = byte(v)
	case 2:
		binary.LittleEndian.PutUint16(b, uint16(v))
	case 4:
		binary.LittleEndian.PutUint32(b, uint32(v))
	default:
		binary.LittleEndian.PutUint64(b, v)
	}
}

func gpSign(v uint64, size int) bool { return v>>(8*size-1)&1 != 0 }

// setLogic sets the flags of AND, OR, XOR, TEST: CF and OF clear.
func (s *state) setLogic(r uint64, size int) {
	s.zf, s.sf, s.cf, s.of = r&gpMask(size) == 0, gpSign(r, size), false, false
}

func (s *state) setAdd(a, b, r uint64, size int) {
	m := gpMask(size)
	a, b, r = a&m, b&m, r&m
	s.zf, s.sf = r == 0, gpSign(r, size)
	s.cf = r < a
	s.of = gpSign((a^r)&(b^r), size)
}

// setSub sets the flags of a-b.
func (s *state) setSub(a, b, r uint64, size int) {
	m := gpMask(size)
	a, b, r = a&m, b&m, r&m
	s.zf, s.sf = r == 0, gpSign(r, size)
	s.cf = a < b
	s.of = gpSign((a^b)&(a^r), size)
}

// gpOps are the general-purpose instructions, by mnemonic.
var gpOps = map[string]handler{}

func init() {
	for _, sz := range []struct {
		suffix string
		size   int
	}{{"Q", 8}, {"L", 4}, {"W", 2}, {"B", 1}} {
		size := sz.size
		sfx := sz.suffix
		gpOps["ADD"+sfx] = gpBinop(size, func(s *state, a, b uint64) uint64 { r := b + a; s.setAdd(b, a, r, size); return r }, true)
		gpOps["SUB"+sfx] = gpBinop(size, func(s *state, a, b uint64) uint64 { r := b - a; s.setSub(b, a, r, size); return r }, true)
		gpOps["AND"+sfx] = gpBinop(size, func(s *state, a, b uint64) uint64 { r := b & a; s.setLogic(r, size); return r }, true)
		gpOps["OR"+sfx] = gpBinop(size, func(s *state, a, b uint64) uint64 { r := b | a; s.setLogic(r, size); return r }, true)
		gpOps["XOR"+sfx] = gpBinop(size, func(s *state, a, b uint64) uint64 { r := b ^ a; s.setLogic(r, size); return r }, true)
		// CMP and TEST keep Go's operand order: CMPQ a, b sets the flags of a-b.
		gpOps["CMP"+sfx] = gpBinop(size, func(s *state, a, b uint64) uint64 { s.setSub(a, b, a-b, size); return 0 }, false)
		gpOps["TEST"+sfx] = gpBinop(size, func(s *state, a, b uint64) uint64 { s.setLogic(a&b, size); return 0 }, false)
		gpOps["MOV"+sfx] = gpMov(size)
		gpOps["INC"+sfx] = gpUnop(size, func(s *state, a uint64) uint64 {
			r := a + 1
			cf := s.cf
			s.setAdd(a, 1, r, size)
			s.cf = cf
			return r
		})
		gpOps["DEC"+sfx] = gpUnop(size, func(s *state, a uint64) uint64 {
			r := a - 1
			cf := s.cf
			s.setSub(a, 1, r, size)
			s.cf = cf
			return r
		})
		gpOps["NEG"+sfx] = gpUnop(size, func(s *state, a uint64) uint64 { r := -a; s.setSub(0, a, r, size); return r })
		gpOps["NOT"+sfx] = gpUnop(size, func(s *state, a uint64) uint64 { return ^a })
		gpOps["SHL"+sfx] = gpShift(size, func(v uint64, n uint) (uint64, bool) {
			return v << n, v>>(uint(8*size)-n)&1 != 0
		})
		gpOps["SHR"+sfx] = gpShift(size, func(v uint64, n uint) (uint64, bool) {
			return v >> n, v>>(n-1)&1 != 0
		})
		gpOps["SAR"+sfx] = gpShift(size, func(v uint64, n uint) (uint64, bool) {
			x := int64(v<<(64-8*uint(size))) >> (64 - 8*uint(size)) // sign-extend
			return uint64(x >> n), uint64(x>>(n-1))&1 != 0
		})
		for cond, c := range conds {
			gpOps["CMOV"+sfx+cond] = gpCmov(size, c)
		}
	}
	gpOps["LEAQ"] = gpLea(8)
	gpOps["LEAL"] = gpLea(4)
	gpOps["IMUL3Q"] = gpImul3(8)
	gpOps["IMUL3L"] = gpImul3(4)
	gpOps["IMULQ"] = gpImul2(8)
	gpOps["IMULL"] = gpImul2(4)
	for _, z := range []struct {
		name     string
		from, to int
		signed   bool
	}{
		{"MOVBLZX", 1, 4, false}, {"MOVBQZX", 1, 8, false}, {"MOVWLZX", 2, 4, false}, {"MOVWQZX", 2, 8, false},
		{"MOVBLSX", 1, 4, true}, {"MOVBQSX", 1, 8, true}, {"MOVWLSX", 2, 4, true}, {"MOVWQSX", 2, 8, true},
		{"MOVLQZX", 4, 8, false}, {"MOVLQSX", 4, 8, true},
	} {
		gpOps[z.name] = gpExtend(z.from, z.to, z.signed)
	}
	gpOps["BSFL"] = gpBsf(4)
	gpOps["BSFQ"] = gpBsf(8)
}

func needArgs(in *inst, n int) error {
	if len(in.args) != n {
		return fmt.Errorf("want %d operands, have %d", n, len(in.args))
	}
	return nil
}

// binop runs "OP a, b": b = f(a, b) when store.
func gpBinop(size int, f func(s *state, a, b uint64) uint64, store bool) handler {
	return func(s *state, in *inst) error {
		if err := needArgs(in, 2); err != nil {
			return err
		}
		a, err := s.read(&in.args[0], size)
		if err != nil {
			return err
		}
		b, err := s.read(&in.args[1], size)
		if err != nil {
			return err
		}
		r := f(s, a, b)
		if !store {
			return nil
		}
		return s.write(&in.args[1], size, r)
	}
}

func gpUnop(size int, f func(s *state, a uint64) uint64) handler {
	return func(s *state, in *inst) error {
		if err := needArgs(in, 1); err != nil {
			return err
		}
		a, err := s.read(&in.args[0], size)
		if err != nil {
			return err
		}
		return s.write(&in.args[0], size, f(s, a))
	}
}

// mov copies a value; MOVQ and MOVL also move between general-purpose and
// X registers (legacy SSE: bits 128 and up keep their values).
func gpMov(size int) handler {
	return func(s *state, in *inst) error {
		if err := needArgs(in, 2); err != nil {
			return err
		}
		src, dst := &in.args[0], &in.args[1]
		if (size == 8 || size == 4) && (src.kind == kVec || dst.kind == kVec) {
			if (src.kind == kVec && src.bits != 128) || (dst.kind == kVec && dst.bits != 128) {
				return fmt.Errorf("unsupported operand form")
			}
			var v uint64
			if src.kind == kVec {
				v = leLoad(s.v[src.reg][:], size)
			} else {
				var err error
				if v, err = s.read(src, size); err != nil {
					return err
				}
			}
			if dst.kind == kVec {
				r := &s.v[dst.reg]
				clear(r[:16])
				leStore(r[:], size, v)
				return nil
			}
			return s.write(dst, size, v)
		}
		v, err := s.read(src, size)
		if err != nil {
			return err
		}
		return s.write(dst, size, v)
	}
}

func gpShift(size int, f func(v uint64, n uint) (uint64, bool)) handler {
	return func(s *state, in *inst) error {
		if err := needArgs(in, 2); err != nil {
			return err
		}
		cnt, err := s.read(&in.args[0], 1)
		if err != nil {
			return err
		}
		mask := uint64(31)
		if size == 8 {
			mask = 63
		}
		n := uint(cnt & mask)
		v, err := s.read(&in.args[1], size)
		if err != nil {
			return err
		}
		if n == 0 {
			return nil // flags unchanged
		}
		r, cf := f(v, n)
		r &= gpMask(size)
		s.zf, s.sf, s.cf = r == 0, gpSign(r, size), cf
		s.of = false // defined for 1-bit shifts only; no kernel reads it
		return s.write(&in.args[1], size, r)
	}
}

func gpLea(size int) handler {
	return func(s *state, in *inst) error {
		if err := needArgs(in, 2); err != nil {
			return err
		}
		if in.args[0].kind != kMem || in.args[0].vindex {
			return fmt.Errorf("LEA of a non-memory operand")
		}
		return s.write(&in.args[1], size, s.addr(&in.args[0]))
	}
}

// imul3 runs "IMUL3Q $imm, src, dst": dst = src*imm.
func gpImul3(size int) handler {
	return func(s *state, in *inst) error {
		if err := needArgs(in, 3); err != nil {
			return err
		}
		a, err := s.read(&in.args[1], size)
		if err != nil {
			return err
		}
		return s.imulStore(&in.args[2], size, a, uint64(in.args[0].imm))
	}
}

// imul2 runs "IMULQ src, dst": dst *= src.
func gpImul2(size int) handler {
	return func(s *state, in *inst) error {
		if err := needArgs(in, 2); err != nil {
			return err
		}
		a, err := s.read(&in.args[0], size)
		if err != nil {
			return err
		}
		b, err := s.read(&in.args[1], size)
		if err != nil {
			return err
		}
		return s.imulStore(&in.args[1], size, a, b)
	}
}

func (s *state) imulStore(dst *operand, size int, a, b uint64) error {
	sx := func(v uint64) int64 { return int64(v<<(64-8*uint(size))) >> (64 - 8*uint(size)) }
	hi, lo := bits.Mul64(uint64(sx(a)), uint64(sx(b)))
	// Signed overflow: the full product does not fit the size.
	if sx(a) < 0 {
		hi -= uint64(sx(b))
	}
	if sx(b) < 0 {
		hi -= uint64(sx(a))
	}
	r := lo & gpMask(size)
	var ovf bool
	if size == 8 {
		ovf = hi != uint64(int64(lo)>>63)
	} else {
		ovf = sx(r) != int64(lo)
	}
	s.cf, s.of = ovf, ovf
	s.zf, s.sf = r == 0, gpSign(r, size)
	return s.write(dst, size, r)
}

func gpExtend(from, to int, signed bool) handler {
	return func(s *state, in *inst) error {
		if err := needArgs(in, 2); err != nil {
			return err
		}
		v, err := s.read(&in.args[0], from)
		if err != nil {
			return err
		}
		if signed {
			v = uint64(int64(v<<(64-8*uint(from))) >> (64 - 8*uint(from)))
		}
		return s.write(&in.args[1], to, v)
	}
}

func gpBsf(size int) handler {
	return func(s *state, in *inst) error {
		if err := needArgs(in, 2); err != nil {
			return err
		}
		v, err := s.read(&in.args[0], size)
		if err != nil {
			return err
		}
		if v == 0 {
			s.zf = true
			return nil // the destination is left as it was
		}
		s.zf = false
		return s.write(&in.args[1], size, uint64(bits.TrailingZeros64(v)))
	}
}

func gpCmov(size int, c func(s *state) bool) handler {
	return func(s *state, in *inst) error {
		if err := needArgs(in, 2); err != nil {
			return err
		}
		v, err := s.read(&in.args[0], size)
		if err != nil {
			return err
		}
		if !c(s) {
			// A 32-bit CMOV zero-extends its destination even when false.
			if size == 4 && in.args[1].kind == kGP {
				s.gp[in.args[1].reg] &= gpMask(4)
			}
			return nil
		}
		return s.write(&in.args[1], size, v)
	}
}

// conds are the condition codes of the jumps and CMOVs, in Go's names.
var conds = map[string]func(s *state) bool{
	"EQ": func(s *state) bool { return s.zf },
	"NE": func(s *state) bool { return !s.zf },
	"LT": func(s *state) bool { return s.sf != s.of },
	"GE": func(s *state) bool { return s.sf == s.of },
	"LE": func(s *state) bool { return s.zf || s.sf != s.of },
	"GT": func(s *state) bool { return !s.zf && s.sf == s.of },
	"LS": func(s *state) bool { return s.cf || s.zf },
	"HI": func(s *state) bool { return !s.cf && !s.zf },
	"CS": func(s *state) bool { return s.cf },
	"CC": func(s *state) bool { return !s.cf },
	"MI": func(s *state) bool { return s.sf },
	"PL": func(s *state) bool { return !s.sf },
	"OS": func(s *state) bool { return s.of },
	"OC": func(s *state) bool { return !s.of },
}

// jumpAliases are Go's other names of the same conditions.
var jumpAliases = map[string]string{"JZ": "JEQ", "JNZ": "JNE", "JLO": "JCS", "JHS": "JCC", "JC": "JCS", "JNC": "JCC"}

// jumpCond is the condition of a conditional jump, or nil.
func jumpCond(op string) func(s *state) bool {
	if a, ok := jumpAliases[op]; ok {
		op = a
	}
	if len(op) != 3 || op[0] != 'J' {
		return nil
	}
	return conds[op[1:]]
}

// jump runs JMP (c nil) and the conditional jumps; the target operand was
// resolved to an instruction index at parse time.
func jumpOp(c func(s *state) bool) handler {
	return func(s *state, in *inst) error {
		if len(in.args) != 1 || in.args[0].kind != kTarget {
			return fmt.Errorf("unsupported jump form")
		}
		if c == nil || c(s) {
			s.next = int(in.args[0].imm)
		}
		return nil
	}
}
