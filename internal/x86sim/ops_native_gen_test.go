//go:build amd64

package x86sim

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

var updateNative = flag.Bool("update-native", false, "rewrite ops_native_amd64.{s,go} and ops_native_cases_amd64_test.go from nativeForms")

// nativeForm is one instruction form of the native cross-check: the
// mnemonic, its widths, its immediates, the operand registers by width
// and the kind of input it is fed (see nativeInputs).
type nativeForm struct {
	name   string
	widths []int
	form   string // "3", "2" (no Src1), "i3", "i2" (with an immediate)
	kind   string
	imms   []int
	regs   func(w int) (d, s1, s2 string) // nil: the three X or Y registers 0, 1, 2
}

func vreg(w, n int) string {
	if w == 128 {
		return fmt.Sprintf("X%d", n)
	}
	return fmt.Sprintf("Y%d", n)
}

func rangeN(n int) []int {
	var out []int
	for i := 0; i < n; i++ {
		out = append(out, i)
	}
	return out
}

// nativeForms lists the VEX forms (AVX2, FMA, F16C) checked natively.
func nativeForms() []nativeForm {
	xy := []int{128, 256}
	var fs []nativeForm
	addAll := func(names string, widths []int, form, kind string, imms []int, regs func(int) (string, string, string)) {
		for _, n := range strings.Fields(names) {
			fs = append(fs, nativeForm{n, widths, form, kind, imms, regs})
		}
	}
	x2 := func(w int) (string, string, string) { return vreg(w, 0), "", "X2" }
	gp := func(int) (string, string, string) { return "X0", "X1", "DX" }
	addAll(`VPADDB VPADDW VPADDD VPADDQ VPSUBB VPSUBW VPSUBD VPSUBQ VPMULLD
		VPMADDUBSW VPMADDWD VPHADDW VPHADDD VPSIGNB VPMAXSD VPMINSD VPMAXUW
		VPMINUW VPCMPEQB VPCMPEQD VPCMPGTD VPAND VPOR VPXOR VPANDN VANDPS
		VORPS VXORPS VANDNPS VPSHUFB VPUNPCKLBW VPUNPCKHBW VPUNPCKLWD VPUNPCKHWD
		VPUNPCKLDQ VPUNPCKHDQ VPUNPCKLQDQ VPUNPCKHQDQ VPSLLVD VPSRLVD VPSRAVD
		VPSLLVQ VPSRLVQ VPACKSSWB VPACKUSWB VPACKSSDW VPACKUSDW`, xy, "3", "int", nil, nil)
	addAll("VADDPS VSUBPS VMULPS VDIVPS", xy, "3", "float", nil, nil)
	addAll("VMAXPS VMINPS", xy, "3", "nan", nil, nil)
	addAll("VFMADD231PS VFMADD213PS VFMADD132PS VFNMADD231PS VFNMADD213PS VFNMADD132PS", xy, "3", "fma", nil, nil)
	addAll("VPERMPS VPERMD", []int{256}, "3", "int", nil, nil)
	addAll("VCMPPS", xy, "i3", "nan", rangeN(32), nil)
	addAll("VMOVHLPS VMOVLHPS VMOVSS", []int{128}, "3", "int", nil, nil)
	addAll("VADDSS VSUBSS VMULSS VDIVSS", []int{128}, "3", "float", nil, nil)
	addAll("VMAXSS VMINSS", []int{128}, "3", "nan", nil, nil)
	addAll("VFMADD231SS VFMADD213SS VFMADD132SS VFNMADD231SS VFNMADD213SS VFNMADD132SS", []int{128}, "3", "fma", nil, nil)
	addAll("VMOVDQU VMOVDQA VMOVUPS VMOVAPS", xy, "2", "int", nil, nil)
	addAll("VCVTDQ2PS VMOVSHDUP VMOVSLDUP VPABSB", xy, "2", "int", nil, nil)
	addAll("VCVTPS2DQ", xy, "2", "float", nil, nil)
	addAll("VCVTPH2PS", xy, "2", "half", nil, x2)
	addAll("VPMOVSXBW VPMOVZXBW VPBROADCASTB VPBROADCASTW VPBROADCASTD VPBROADCASTQ VBROADCASTSS", xy, "2", "int", nil, x2)
	addAll("VPHMINPOSUW", []int{128}, "2", "int", nil, nil)
	addAll("VCVTPS2PH", xy, "i2", "float", []int{0, 1, 2, 3, 4}, func(w int) (string, string, string) { return "X0", "", vreg(w, 2) })
	shifts := []int{0, 1, 3, 4, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 255}
	for _, n := range strings.Fields("VPSLLW VPSRLW VPSRAW VPSLLD VPSRLD VPSRAD VPSLLQ VPSRLQ") {
		addAll(n, xy, "i2", "int", shifts, nil)
		addAll(n, xy, "3", "count", nil, func(w int) (string, string, string) { return vreg(w, 0), vreg(w, 1), "X2" })
	}
	addAll("VPSHUFD", xy, "i2", "int", []int{0x00, 0x1b, 0x4e, 0xb1, 0xe4, 0x03, 0x39, 0xff}, nil)
	addAll("VPERMQ", []int{256}, "i2", "int", []int{0xd8, 0x1b, 0x4e, 0x00, 0x93}, nil)
	addAll("VPERM2I128 VPERM2F128", []int{256}, "i3", "int", []int{0x01, 0x20, 0x31, 0x08, 0x80, 0x13, 0x02, 0x88, 0x21}, nil)
	addAll("VINSERTI128 VINSERTF128", []int{256}, "i3", "int", []int{0, 1}, func(int) (string, string, string) { return "Y0", "Y1", "X2" })
	addAll("VEXTRACTI128 VEXTRACTF128", []int{256}, "i2", "int", []int{0, 1}, func(int) (string, string, string) { return "X0", "", "Y2" })
	addAll("VINSERTPS", []int{128}, "i3", "int", []int{0x10, 0x20, 0x30, 0x00, 0x5a, 0xc3, 0xe1, 0x0f}, nil)
	addAll("VPINSRW", []int{128}, "i3", "int", rangeN(8), gp)
	addAll("VPINSRD", []int{128}, "i3", "int", rangeN(4), gp)
	addAll("VPINSRQ", []int{128}, "i3", "int", rangeN(2), gp)
	addAll("VCVTSI2SSL", []int{128}, "3", "int", nil, gp)
	addAll("VMOVD VMOVQ", []int{128}, "2", "int", nil, func(int) (string, string, string) { return "X0", "", "DX" })
	// General-purpose destinations (the low qword of Dst).
	addAll("VMOVD VMOVQ", []int{128}, "2", "int", nil, func(int) (string, string, string) { return "DX", "", "X2" })
	addAll("VMOVMSKPS", xy, "2", "float", nil, func(w int) (string, string, string) { return "DX", "", vreg(w, 2) })
	// Double precision and the conversions between float32 and float64
	// (the attention kernels' sums). VCVTPD2PS's VEX forms are spelled
	// with their source's width.
	addAll("VXORPD VANDPD VORPD VANDNPD", xy, "3", "int", nil, nil)
	addAll("VADDPD VSUBPD VMULPD VDIVPD", xy, "3", "double", nil, nil)
	addAll("VADDSD VSUBSD VMULSD VDIVSD VCVTSD2SS", []int{128}, "3", "double", nil, nil)
	addAll("VCVTSS2SD", []int{128}, "3", "nan", nil, nil)
	addAll("VCVTPS2PD", xy, "2", "nan", nil, x2)
	addAll("VCVTPD2PSX", []int{128}, "2", "double", nil, nil)
	addAll("VCVTPD2PSY", []int{256}, "2", "double", nil, func(int) (string, string, string) { return "X0", "", "Y2" })
	return fs
}

// nativeSources renders the assembly, its Go declarations and the case
// table for nativeForms.
func nativeSources() (asm, decl, cases []byte) {
	const head = "// Code generated by TestNativeGenerated (go test -run NativeGenerated -update-native); DO NOT EDIT.\n\n//go:build amd64\n\n"
	var s, g, c bytes.Buffer
	s.WriteString(head + "#include \"textflag.h\"\n\n// Each function loads Dst, Src1 and Src2 from its three pointers, runs\n// one VEX instruction and stores Dst.\n")
	g.WriteString(head + "package x86sim\n\n// The native instructions of ops_native_amd64.s, one per form, width and\n// immediate: each loads Dst, Src1 and Src2 from d, s1 and s2, runs the\n// VEX instruction and stores Dst (ops_native_amd64_test.go).\n\n")
	c.WriteString(head + "package x86sim\n\nvar nativeCases = []nativeCase{\n")
	load := func(r, ptr string) {
		switch {
		case r == "":
		case r[0] == 'X' || r[0] == 'Y':
			fmt.Fprintf(&s, "\tVMOVDQU (%s), %s\n", ptr, r)
		default:
			fmt.Fprintf(&s, "\tMOVQ (%s), %s\n", ptr, r)
		}
	}
	width := func(r string) int {
		switch {
		case r == "":
			return 0
		case r[0] == 'X':
			return 128
		case r[0] == 'Y':
			return 256
		}
		return 64 // a general-purpose register
	}
	vwidth := func(r string) int {
		if w := width(r); w != 64 {
			return w
		}
		return 0
	}
	for _, f := range nativeForms() {
		imms := f.imms
		if imms == nil {
			imms = []int{-1}
		}
		for _, w := range f.widths {
			for _, imm := range imms {
				d, s1, s2 := vreg(w, 0), vreg(w, 1), vreg(w, 2)
				if f.regs != nil {
					d, s1, s2 = f.regs(w)
				}
				sym := fmt.Sprintf("nat%s_%d", f.name, w)
				if width(d) == 64 {
					sym += "_gp" // a general-purpose destination
				}
				if imm >= 0 {
					sym += fmt.Sprintf("_%d", imm)
				}
				fmt.Fprintf(&s, "\nTEXT ·%s(SB), NOSPLIT, $0-24\n\tMOVQ d+0(FP), AX\n\tMOVQ s1+8(FP), BX\n\tMOVQ s2+16(FP), CX\n", sym)
				twoOp := f.form == "2" || f.form == "i2"
				if twoOp {
					s1 = ""
				}
				load(d, "AX")
				load(s1, "BX")
				load(s2, "CX")
				ops := []string{s2}
				if !twoOp {
					ops = append(ops, s1)
				}
				ops = append(ops, d)
				if imm >= 0 {
					ops = append([]string{fmt.Sprintf("$%d", imm)}, ops...)
				}
				store := "VMOVDQU"
				if width(d) == 64 {
					store = "MOVQ"
				}
				fmt.Fprintf(&s, "\t%s %s\n\t%s %s, (AX)\n\tVZEROUPPER\n\tRET\n", f.name, strings.Join(ops, ", "), store, d)
				fmt.Fprintf(&g, "func %s(d, s1, s2 *Vec)\n", sym)
				bits := max(vwidth(d), vwidth(s1), vwidth(s2))
				fmt.Fprintf(&c, "\t{%q, %d, %d, %v, %q, %d, %s},\n", f.name, bits, max(imm, 0), twoOp, f.kind, width(d)/8, sym)
			}
		}
	}
	c.WriteString("}\n")
	return s.Bytes(), g.Bytes(), c.Bytes()
}

// TestNativeGenerated checks that the native functions and their table
// are those nativeForms describes (-update-native rewrites them; when a
// stale table no longer compiles, empty nativeCases first).
func TestNativeGenerated(t *testing.T) {
	asm, decl, cases := nativeSources()
	files := map[string][]byte{
		"ops_native_amd64.s":             asm,
		"ops_native_amd64.go":            decl,
		"ops_native_cases_amd64_test.go": cases,
	}
	for name, want := range files {
		if *updateNative {
			if err := os.WriteFile(name, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go test -run NativeGenerated -update-native ./internal/x86sim", name)
		}
	}
}
