package x86sim

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"
	"unsafe"
)

// Program is a parsed assembler listing: its functions and read-only data.
// It is immutable after Parse and safe for concurrent Calls.
type Program struct {
	funcs map[string]*function
	// data holds the bytes of the listing's data symbols (sym<>(SB)); the
	// instructions address them through their real addresses, so the
	// slices must stay reachable from here.
	data map[string][]byte
	ops  map[string]VecOp
	pool statePool
}

// function is one TEXT symbol of the listing.
type function struct {
	name   string // without the package path
	args   int    // argument and result bytes (the header's args=)
	locals int    // frame bytes (locals=)
	insts  []inst
}

// inst is one instruction, its operands in the Go assembler's order.
type inst struct {
	op         string // mnemonic without suffixes
	bcst, zero bool   // .BCST, .Z
	args       []operand
	pc         int
	file       string
	line       int
	text       string // the listing's text, for errors
	run        handler
	bad        error    // why the interpreter cannot run it, if so
	vec        *vecForm // for instructions run through a VecOp
}

type handler func(s *state, in *inst) error

type opKind uint8

const (
	kGP opKind = iota + 1
	kVec
	kMask
	kImm
	kMem
	kTarget
	kTLS
	kSym
)

// operand is one decoded operand.
type operand struct {
	kind opKind
	reg  int   // kGP, kVec, kMask: register number
	bits int   // kVec: 128, 256, 512
	imm  int64 // kImm: value; kTarget: instruction index
	// kMem: disp + base + index*scale; base and index -1 when absent.
	// vindex says index is a vector register (VSIB, gathers).
	base, index, scale int
	vindex             bool
	disp               int64
	name               string // kSym
}

// gpNames are the general-purpose registers in encoding order.
var gpNames = map[string]int{
	"AX": 0, "CX": 1, "DX": 2, "BX": 3, "SP": 4, "BP": 5, "SI": 6, "DI": 7,
	"R8": 8, "R9": 9, "R10": 10, "R11": 11, "R12": 12, "R13": 13, "R14": 14, "R15": 15,
	// The listing names the low bytes of byte operations (MOVBQZX AL, R12).
	"AL": 0, "CL": 1, "DL": 2, "BL": 3, "SPB": 4, "BPB": 5, "SIB": 6, "DIB": 7,
	"R8B": 8, "R9B": 9, "R10B": 10, "R11B": 11, "R12B": 12, "R13B": 13, "R14B": 14, "R15B": 15,
}

const regSP = 4

// Parse reads the listing printed by go tool asm -S.
func Parse(listing string) (*Program, error) {
	p := &Program{funcs: map[string]*function{}, data: map[string][]byte{}, ops: vectorOps()}
	type rawFunc struct {
		f     *function
		lines []string
	}
	var funcs []*rawFunc
	var cur *rawFunc
	var dataName string
	var dataBuf []byte
	sc := bufio.NewScanner(strings.NewReader(listing))
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			continue
		}
		if line[0] != '\t' {
			cur, dataName = nil, ""
			fields := strings.Fields(line)
			if len(fields) < 2 {
				continue
			}
			switch {
			case fields[1] == "STEXT":
				f := &function{name: shortName(fields[0])}
				for _, kv := range fields[2:] {
					if v, ok := strings.CutPrefix(kv, "args="); ok {
						n, err := strconv.ParseInt(v, 0, 64)
						if err != nil {
							return nil, fmt.Errorf("x86sim: %s: bad args %q", f.name, v)
						}
						f.args = int(n)
					}
					if v, ok := strings.CutPrefix(kv, "locals="); ok {
						n, err := strconv.ParseInt(v, 0, 64)
						if err != nil {
							return nil, fmt.Errorf("x86sim: %s: bad locals %q", f.name, v)
						}
						f.locals = int(n)
					}
				}
				cur = &rawFunc{f: f}
				funcs = append(funcs, cur)
			case strings.HasSuffix(fields[1], "DATA"):
				size := -1
				for _, kv := range fields[2:] {
					if v, ok := strings.CutPrefix(kv, "size="); ok {
						n, err := strconv.Atoi(v)
						if err == nil {
							size = n
						}
					}
				}
				if size < 0 {
					return nil, fmt.Errorf("x86sim: data symbol %s without a size", fields[0])
				}
				dataName = shortName(fields[0])
				dataBuf = make([]byte, 0, size+1) // +1: a zero-size symbol still gets an address
				p.data[dataName] = dataBuf[:size]
			}
			continue
		}
		if cur != nil {
			cur.lines = append(cur.lines, line)
			continue
		}
		if dataName != "" {
			buf := p.data[dataName]
			// "\t0x0010 04 05 ...  ascii": the bytes at fixed columns.
			fields := strings.SplitN(strings.TrimPrefix(line, "\t"), " ", 2)
			if len(fields) != 2 || !strings.HasPrefix(fields[0], "0x") {
				continue
			}
			off, err := strconv.ParseInt(fields[0][2:], 16, 64)
			if err != nil {
				return nil, fmt.Errorf("x86sim: data %s: bad line %q", dataName, line)
			}
			rest := fields[1]
			for i := 0; i < 16 && int(off)+i < len(buf); i++ {
				if len(rest) < 3*i+2 {
					return nil, fmt.Errorf("x86sim: data %s: short line %q", dataName, line)
				}
				b, err := strconv.ParseUint(rest[3*i:3*i+2], 16, 8)
				if err != nil {
					return nil, fmt.Errorf("x86sim: data %s: bad byte in %q", dataName, line)
				}
				buf[int(off)+i] = byte(b)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("x86sim: reading listing: %w", err)
	}
	for _, rf := range funcs {
		if err := p.parseFunc(rf.f, rf.lines); err != nil {
			return nil, err
		}
		p.funcs[rf.f.name] = rf.f
	}
	return p, nil
}

// shortName drops the package path: "svc/shards/tensor.q80xVec16" is
// "q80xVec16", "k4shufa<>" is "k4shufa".
func shortName(s string) string {
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		s = s[i+1:]
	}
	if i := strings.IndexByte(s, '.'); i >= 0 {
		s = s[i+1:]
	}
	return strings.TrimSuffix(s, "<>")
}

// parseFunc parses a function's instruction lines.
func (p *Program) parseFunc(f *function, lines []string) error {
	pcIndex := map[int]int{}
	type pending struct {
		idx    int
		target int
	}
	var jumps []pending
	var bytes []byte // a run of BYTE directives from one source line
	var byteStart inst
	flushBytes := func() error {
		if len(bytes) == 0 {
			return nil
		}
		in := byteStart
		if err := decodeBytes(&in, bytes); err != nil {
			return fmt.Errorf("x86sim: %s (%s:%d): %w", f.name, in.file, in.line, err)
		}
		p.bind(&in)
		if _, ok := pcIndex[in.pc]; !ok {
			pcIndex[in.pc] = len(f.insts)
		}
		f.insts = append(f.insts, in)
		bytes = bytes[:0]
		return nil
	}
	for _, line := range lines {
		// "\t0x00eb 00235 (tiles_q8x_amd64.s:95)\tVPDPBUSD.BCST\t(DI), Z10, Z18"
		parts := strings.Split(strings.TrimPrefix(line, "\t"), "\t")
		head := strings.Fields(parts[0])
		if len(head) != 3 || len(parts) < 2 || len(head[1]) != 5 {
			continue // the hex dump and relocations
		}
		pc, err := strconv.Atoi(head[1])
		if err != nil {
			continue
		}
		loc := strings.TrimSuffix(strings.TrimPrefix(head[2], "("), ")")
		file, lineNo := loc, 0
		if i := strings.LastIndexByte(loc, ':'); i >= 0 {
			file = loc[:i]
			lineNo, _ = strconv.Atoi(loc[i+1:])
		}
		mnem := parts[1]
		ops := ""
		if len(parts) > 2 {
			ops = parts[2]
		}
		in := inst{pc: pc, file: file, line: lineNo, text: strings.TrimSpace(mnem + " " + ops)}
		switch mnem {
		case "TEXT", "FUNCDATA", "PCDATA":
			continue
		case "BYTE":
			v, err := parseImm(ops)
			if err != nil {
				return fmt.Errorf("x86sim: %s (%s:%d): %s: %w", f.name, file, lineNo, in.text, err)
			}
			if len(bytes) > 0 && byteStart.line != lineNo {
				if err := flushBytes(); err != nil {
					return err
				}
			}
			if len(bytes) == 0 {
				byteStart = in
			}
			bytes = append(bytes, byte(v))
			continue
		}
		if err := flushBytes(); err != nil {
			return err
		}
		name, suffixes, _ := strings.Cut(mnem, ".")
		in.op = name
		for _, sfx := range strings.Split(suffixes, ".") {
			switch sfx {
			case "":
			case "BCST":
				in.bcst = true
			case "Z":
				in.zero = true
			default:
				in.op = mnem // an unknown suffix: the mnemonic is unknown
			}
		}
		var bad error
		if ops != "" {
			for _, o := range strings.Split(ops, ", ") {
				op, err := p.parseOperand(o)
				if err != nil {
					// Reported when reached, like an unknown mnemonic.
					bad = err
					continue
				}
				if op.kind == kImm && isJump(in.op) {
					op.kind = kTarget
					jumps = append(jumps, pending{idx: len(f.insts), target: int(op.imm)})
				}
				in.args = append(in.args, op)
			}
		}
		if bad != nil {
			in.bad, in.run = bad, failOp(bad)
		} else {
			p.bind(&in)
		}
		if _, ok := pcIndex[pc]; !ok {
			pcIndex[pc] = len(f.insts)
		}
		f.insts = append(f.insts, in)
	}
	if err := flushBytes(); err != nil {
		return err
	}
	for _, j := range jumps {
		idx, ok := pcIndex[j.target]
		if !ok {
			in := &f.insts[j.idx]
			return fmt.Errorf("x86sim: %s (%s:%d): %s: no instruction at pc %d", f.name, in.file, in.line, in.text, j.target)
		}
		f.insts[j.idx].args[0].imm = int64(idx)
	}
	return nil
}

func isJump(op string) bool {
	return op == "JMP" || (len(op) >= 2 && op[0] == 'J' && jumpCond(op) != nil)
}

// parseOperand decodes one operand in the listing's syntax.
func (p *Program) parseOperand(s string) (operand, error) {
	if s == "" {
		return operand{}, fmt.Errorf("empty operand")
	}
	if r, ok := gpNames[s]; ok {
		return operand{kind: kGP, reg: r}, nil
	}
	if r, bits, ok := vecReg(s); ok {
		return operand{kind: kVec, reg: r, bits: bits}, nil
	}
	if len(s) == 2 && s[0] == 'K' && s[1] >= '0' && s[1] <= '7' {
		return operand{kind: kMask, reg: int(s[1] - '0')}, nil
	}
	if s[0] == '$' {
		v, err := parseImm(s)
		if err != nil {
			return operand{}, err
		}
		return operand{kind: kImm, imm: v}, nil
	}
	if s == "(TLS)" {
		return operand{kind: kTLS}, nil
	}
	if s[0] >= '0' && s[0] <= '9' && !strings.Contains(s, "(") {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return operand{}, fmt.Errorf("bad operand %q", s)
		}
		return operand{kind: kImm, imm: v}, nil // a branch target pc
	}
	return p.parseMem(s)
}

// vecReg decodes X0-X31, Y0-Y31, Z0-Z31.
func vecReg(s string) (reg, bits int, ok bool) {
	if len(s) < 2 || len(s) > 3 {
		return 0, 0, false
	}
	switch s[0] {
	case 'X':
		bits = 128
	case 'Y':
		bits = 256
	case 'Z':
		bits = 512
	default:
		return 0, 0, false
	}
	n, err := strconv.Atoi(s[1:])
	if err != nil || n < 0 || n > 31 || (len(s) == 3 && s[1] == '0') {
		return 0, 0, false
	}
	return n, bits, true
}

// parseImm reads "$12", "$-3", "$0x1f".
func parseImm(s string) (int64, error) {
	t := strings.TrimPrefix(s, "$")
	if t == s {
		return 0, fmt.Errorf("bad immediate %q", s)
	}
	v, err := strconv.ParseInt(t, 0, 64)
	if err != nil {
		u, uerr := strconv.ParseUint(t, 0, 64)
		if uerr != nil {
			return 0, fmt.Errorf("bad immediate %q", s)
		}
		v = int64(u)
	}
	return v, nil
}

// parseMem decodes "off(BASE)(INDEX*scale)", "name+off(FP)", "name-off(SP)",
// "name(SP)" and "sym<>+off(SB)". The listing prints FP and named SP
// offsets already relative to the hardware SP (w+8(FP) in a NOFRAME
// function is 8(SP), above the return address), so both are SP-based.
func (p *Program) parseMem(s string) (operand, error) {
	op := operand{kind: kMem, base: -1, index: -1, scale: 1}
	open := strings.IndexByte(s, '(')
	if open < 0 {
		return op, fmt.Errorf("unknown operand form %q", s)
	}
	prefix, rest := s[:open], s[open:]
	closeIdx := strings.IndexByte(rest, ')')
	if closeIdx < 0 {
		return op, fmt.Errorf("unknown operand form %q", s)
	}
	baseName := rest[1:closeIdx]
	rest = rest[closeIdx+1:]
	// The displacement: a trailing signed number, after an optional name.
	name, off := prefix, ""
	if i := strings.LastIndexAny(prefix, "+-"); i >= 0 {
		if _, err := strconv.ParseInt(prefix[i:], 10, 64); err == nil {
			name, off = prefix[:i], prefix[i:]
		}
	} else if _, err := strconv.ParseInt(prefix, 10, 64); err == nil {
		name, off = "", prefix
	}
	if off != "" {
		v, err := strconv.ParseInt(off, 10, 64)
		if err != nil {
			return op, fmt.Errorf("bad displacement in %q", s)
		}
		op.disp = v
	}
	switch baseName {
	case "FP", "SP":
		if baseName == "FP" && name == "" {
			return op, fmt.Errorf("unnamed FP operand %q", s)
		}
		op.base = regSP
	case "SB":
		if strings.HasSuffix(name, "(SB)") || name == "" {
			return op, fmt.Errorf("bad symbol operand %q", s)
		}
		if !strings.HasSuffix(name, "<>") {
			return operand{kind: kSym, name: name}, nil // a CALL target
		}
		d, ok := p.data[shortName(name)]
		if !ok {
			return op, fmt.Errorf("unknown data symbol in %q", s)
		}
		op.disp += int64(uintptr(unsafe.Pointer(unsafe.SliceData(d))))
	default:
		if name != "" {
			return op, fmt.Errorf("unknown operand form %q", s)
		}
		r, ok := gpNames[baseName]
		if !ok {
			return op, fmt.Errorf("unknown base register in %q", s)
		}
		op.base = r
	}
	if rest != "" {
		// "(INDEX*scale)"
		if !strings.HasPrefix(rest, "(") || !strings.HasSuffix(rest, ")") {
			return op, fmt.Errorf("unknown operand form %q", s)
		}
		idx, sc, ok := strings.Cut(rest[1:len(rest)-1], "*")
		if !ok {
			return op, fmt.Errorf("unknown index form %q", s)
		}
		n, err := strconv.Atoi(sc)
		if err != nil || (n != 1 && n != 2 && n != 4 && n != 8) {
			return op, fmt.Errorf("bad scale in %q", s)
		}
		op.scale = n
		if r, ok := gpNames[idx]; ok {
			op.index = r
		} else if r, _, ok := vecReg(idx); ok {
			op.index, op.vindex = r, true
		} else {
			return op, fmt.Errorf("unknown index register in %q", s)
		}
	}
	return op, nil
}

// decodeBytes decodes an instruction given as BYTE directives. Only what
// the kernels need: EVEX VDPBF16PS (map 0F38, opcode 0x52, prefix F3) with
// register operands.
func decodeBytes(in *inst, b []byte) error {
	hex := fmt.Sprintf("% x", b)
	in.text = "BYTE " + hex
	if len(b) != 6 || b[0] != 0x62 {
		return fmt.Errorf("unknown instruction bytes %s", hex)
	}
	p0, p1, p2, opc, modrm := b[1], b[2], b[3], b[4], b[5]
	mm, pp := p0&3, p1&3
	if mm != 2 || pp != 2 || opc != 0x52 || p0&0x0c != 0 || p1&0x04 == 0 || modrm>>6 != 3 || p2&0x10 != 0 {
		return fmt.Errorf("unknown instruction bytes %s (only register-form VDPBF16PS is decoded)", hex)
	}
	bitsByLL := [4]int{128, 256, 512, 0}
	bits := bitsByLL[(p2>>5)&3]
	if bits == 0 {
		return fmt.Errorf("bad vector length in %s", hex)
	}
	inv := func(x byte, bit uint) int { return int((^x >> bit) & 1) }
	dst := int(modrm>>3&7) | inv(p0, 7)<<3 | inv(p0, 4)<<4
	src1 := int(^p1>>3&15) | inv(p2, 3)<<4
	src2 := int(modrm&7) | inv(p0, 5)<<3 | inv(p0, 6)<<4
	in.op = "VDPBF16PS"
	in.zero = p2&0x80 != 0
	vr := func(r int) operand { return operand{kind: kVec, reg: r, bits: bits} }
	in.args = []operand{vr(src2), vr(src1)}
	if k := int(p2 & 7); k != 0 {
		in.args = append(in.args, operand{kind: kMask, reg: k})
	}
	in.args = append(in.args, vr(dst))
	return nil
}
