package tensor

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"svc/internal/testenv"
)

func putF16Test(b []byte, f float32) {
	h := FP32ToFP16(f)
	b[0], b[1] = byte(h), byte(h>>8)
}

// TestDequantizeHandBlocks checks single blocks whose values were worked out
// by hand from ggml's layout definitions.
func TestDequantizeHandBlocks(t *testing.T) {
	type check struct {
		i    int
		want float32
	}
	cases := []struct {
		typ    Type
		build  func(b []byte)
		checks []check
	}{
		{Q4_0, func(b []byte) {
			putF16Test(b, 0.5)
			for j := 2; j < 18; j++ {
				b[j] = 0x88
			}
			b[2], b[3] = 0x9f, 0x00
		}, []check{{0, 3.5}, {16, 0.5}, {1, -4}, {17, -4}, {2, 0}, {31, 0}}},
		{Q4_1, func(b []byte) {
			putF16Test(b, 0.5)
			putF16Test(b[2:], -1)
			b[4] = 0x3a
		}, []check{{0, 4}, {16, 0.5}, {1, -1}}},
		{Q5_0, func(b []byte) {
			putF16Test(b, 1)
			b[2], b[3], b[4], b[5] = 0x01, 0x00, 0x02, 0x00
			b[6], b[7] = 0x21, 0x43
		}, []check{{0, 1}, {16, -14}, {1, -13}, {17, 4}, {2, -16}}},
		{Q5_1, func(b []byte) {
			putF16Test(b, 0.25)
			putF16Test(b[2:], 2)
			b[7] = 0x80
			b[8+15] = 0xf0
		}, []check{{15, 2}, {31, 9.75}, {0, 2}}},
		{Q8_0, func(b []byte) {
			putF16Test(b, 0.25)
			b[2] = 0x80
			b[33] = 127
		}, []check{{0, -32}, {31, 31.75}, {5, 0}}},
		{Q2_K, func(b []byte) {
			b[0], b[1], b[2], b[4], b[6] = 0x21, 0x02, 0x13, 0x05, 0xf1
			b[16] = 0xe4
			b[16+16] = 0x03
			putF16Test(b[80:], 1)
			putF16Test(b[82:], 0.5)
		}, []check{{0, -1}, {32, 2.5}, {64, 10}, {96, -4.5}, {16, 6}}},
		{Q3_K, func(b []byte) {
			b[0] = 0x11 // hmask
			b[32] = 0x02
			b[33] = 0x01
			b[64] = 0x03
			b[96] = 0x05
			b[96+8] = 0x02
			putF16Test(b[108:], 1)
		}, []check{{0, 10}, {1, -15}, {128, -96}, {2, -20}}},
		{Q4_K, func(b []byte) {
			putF16Test(b, 1)
			putF16Test(b[2:], 0.5)
			b[4+0], b[4+4], b[4+8] = 0x43, 0x82, 0x57
			b[16] = 0x9a
			b[16+64] = 0x0c
		}, []check{{0, 29}, {32, 0}, {128, 257.5}, {1, -1}}},
		{Q5_K, func(b []byte) {
			putF16Test(b, 1)
			putF16Test(b[2:], 1)
			b[4], b[8] = 0x02, 0x01
			b[16] = 0x01 // qh[0]
			b[48], b[49] = 0x0f, 0x03
		}, []check{{0, 61}, {1, 5}, {2, -1}}},
		{Q6_K, func(b []byte) {
			b[0], b[32] = 0x5a, 0x3c
			b[128] = 0xe4
			b[192], b[194], b[196], b[198] = 0xfe, 3, 1, 0xff
			putF16Test(b[208:], 0.5)
		}, []check{{0, 22}, {32, -6}, {64, 2.5}, {96, -9.5}}},
	}
	for _, c := range cases {
		b := make([]byte, c.typ.BlockBytes())
		c.build(b)
		y := make([]float32, c.typ.BlockSize())
		if err := Dequantize(c.typ, b, y); err != nil {
			t.Fatalf("%v: %v", c.typ, err)
		}
		for _, ch := range c.checks {
			if y[ch.i] != ch.want {
				t.Errorf("%v element %d = %g, want %g", c.typ, ch.i, y[ch.i], ch.want)
			}
		}
	}
}

func TestDequantizeFloatTypes(t *testing.T) {
	b := []byte{0x00, 0x3c, 0x00, 0xc0, 0x00, 0x00}
	y := make([]float32, 3)
	if err := Dequantize(F16, b, y); err != nil || y[0] != 1 || y[1] != -2 || y[2] != 0 {
		t.Errorf("F16: %v %v", y, err)
	}
	if err := Dequantize(BF16, []byte{0x80, 0x3f, 0x40, 0xc0}, y[:2]); err != nil || y[0] != 1 || y[1] != -3 {
		t.Errorf("BF16: %v %v", y, err)
	}
	if err := Dequantize(F32, []byte{0, 0, 0x80, 0x3f}, y[:1]); err != nil || y[0] != 1 {
		t.Errorf("F32: %v %v", y, err)
	}
}

func TestDequantizeErrors(t *testing.T) {
	if err := Dequantize(Q4_0, make([]byte, 18), make([]float32, 33)); err == nil {
		t.Error("33 elements of Q4_0 accepted")
	}
	if err := Dequantize(Q4_K, make([]byte, 100), make([]float32, 256)); err == nil {
		t.Error("short source accepted")
	}
	if err := Dequantize(Type(99), nil, nil); err == nil {
		t.Error("unknown type accepted")
	}
	if err := Dequantize(Q8_K, make([]byte, 292), make([]float32, 256)); err == nil {
		t.Error("Q8_K accepted as a weight type")
	}
	if _, err := RowBytes(Q6_K, 100); err == nil {
		t.Error("RowBytes accepted 100 Q6_K elements")
	}
	if n, err := RowBytes(Q6_K, 512); err != nil || n != 420 {
		t.Errorf("RowBytes(Q6_K, 512) = %d, %v", n, err)
	}
	w := Matrix{Type: Q8_0, Rows: 2, Cols: 32, Data: make([]byte, 68)}
	if err := Row(w, 2, make([]float32, 32)); err == nil {
		t.Error("Row accepted an out-of-range row")
	}
	if err := Row(w, 1, make([]float32, 31)); err == nil {
		t.Error("Row accepted a short destination")
	}
	w.Data = w.Data[:67]
	if err := Row(w, 0, make([]float32, 32)); err == nil {
		t.Error("Row accepted a truncated matrix")
	}
}

func TestTypeInfo(t *testing.T) {
	want := map[Type][3]int{ // block size, block bytes, valid
		F32: {1, 4, 1}, F16: {1, 2, 1}, BF16: {1, 2, 1},
		Q4_0: {32, 18, 1}, Q4_1: {32, 20, 1}, Q5_0: {32, 22, 1}, Q5_1: {32, 24, 1},
		Q8_0: {32, 34, 1}, Q8_1: {32, 36, 0},
		Q2_K: {256, 84, 1}, Q3_K: {256, 110, 1}, Q4_K: {256, 144, 1},
		Q5_K: {256, 176, 1}, Q6_K: {256, 210, 1}, Q8_K: {256, 292, 0},
	}
	for typ, w := range want {
		valid := 0
		if typ.Valid() {
			valid = 1
		}
		if typ.BlockSize() != w[0] || typ.BlockBytes() != w[1] || valid != w[2] {
			t.Errorf("%v: size %d bytes %d valid %v", typ, typ.BlockSize(), typ.BlockBytes(), typ.Valid())
		}
	}
	if Q4_K.String() != "Q4_K" || BF16.String() != "BF16" || Type(4).String() != "Type(4)" || Type(4).Valid() {
		t.Error("bad names or validity of unknown types")
	}
}

// TestDequantizeModelFiles compares every tensor of every mini-llama file
// with the f32 file the others were quantized from: a wrong layout gives an
// error as large as the weights themselves, a right one the type's typical
// quantization error.
func TestDequantizeModelFiles(t *testing.T) {
	ref := readTestGGUF(t, testenv.Path(t, "models", "mini-llama-f32.gguf"))
	limit := map[Type]float64{
		F32: 0, F16: 5e-4, BF16: 4e-3, Q8_0: 0.01, Q6_K: 0.03,
		Q5_0: 0.06, Q5_1: 0.06, Q5_K: 0.06, Q4_0: 0.12, Q4_1: 0.12, Q4_K: 0.12,
		Q3_K: 0.22, Q2_K: 0.4,
	}
	seen := map[Type]bool{}
	for _, m := range testenv.Models(t) {
		if !strings.HasPrefix(filepath.Base(m), "mini-llama-") {
			continue
		}
		for name, tt := range readTestGGUF(t, m) {
			n := 1
			for _, d := range tt.dims {
				n *= int(d)
			}
			got := make([]float32, n)
			if err := Dequantize(tt.typ, tt.data, got); err != nil {
				t.Fatalf("%s %s: %v", filepath.Base(m), name, err)
			}
			want := make([]float32, n)
			if err := Dequantize(F32, ref[name].data, want); err != nil {
				t.Fatal(err)
			}
			var se, sw float64
			for i := range got {
				e := float64(got[i] - want[i])
				se += e * e
				sw += float64(want[i]) * float64(want[i])
			}
			rel := math.Sqrt(se / sw)
			if rel > limit[tt.typ] {
				t.Errorf("%s %s (%v): relative RMS error %.4f > %.4f", filepath.Base(m), name, tt.typ, rel, limit[tt.typ])
			}
			seen[tt.typ] = true
			// Row must agree with Dequantize of the whole tensor.
			if len(tt.dims) == 2 {
				cols := int(tt.dims[0])
				row := make([]float32, cols)
				w := Matrix{Type: tt.typ, Rows: int(tt.dims[1]), Cols: cols, Data: tt.data}
				r := w.Rows - 1
				if err := Row(w, r, row); err != nil {
					t.Fatal(err)
				}
				for i := range row {
					if row[i] != got[r*cols+i] {
						t.Fatalf("%s %s: Row(%d)[%d] = %g, Dequantize gives %g", filepath.Base(m), name, r, i, row[i], got[r*cols+i])
					}
				}
			}
		}
	}
	for typ := range limit {
		if !seen[typ] {
			t.Errorf("no tensor of type %v found in the model files", typ)
		}
	}
}

func TestParseType(t *testing.T) {
	for _, typ := range allTypes {
		got, err := ParseType(typ.String())
		if err != nil || got != typ {
			t.Errorf("ParseType(%q) = %v, %v", typ.String(), got, err)
		}
	}
	if got, err := ParseType("q4_k"); err != nil || got != Q4_K {
		t.Errorf("ParseType(q4_k) = %v, %v", got, err)
	}
	if _, err := ParseType("Q4_K_M"); err == nil {
		t.Error("a file type mix parsed as a tensor type")
	}
}
