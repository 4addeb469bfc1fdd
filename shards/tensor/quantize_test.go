package tensor

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"svc/internal/testenv"
)

// quantizable lists the types Quantize supports.
var quantizable = []Type{F32, F16, BF16, Q8_0, Q4_0, Q4_1, Q5_0, Q5_1, Q2_K, Q3_K, Q4_K, Q5_K, Q6_K}

// TestQuantizeMatchesModelFiles re-quantizes the f32 weights of mini-llama
// and compares with the bytes llama-quantize wrote into the other files.
func TestQuantizeMatchesModelFiles(t *testing.T) {
	ref := readTestGGUF(t, testenv.Path(t, "models", "mini-llama-f32.gguf"))
	supported := map[Type]bool{}
	for _, typ := range quantizable {
		supported[typ] = true
	}
	compared := map[Type]int{}
	for _, m := range testenv.Models(t) {
		base := filepath.Base(m)
		if !strings.HasPrefix(base, "mini-llama-") || base == "mini-llama-f32.gguf" {
			continue
		}
		perType := map[Type]int{}
		for name, tt := range readTestGGUF(t, m) {
			if !supported[tt.typ] || tt.typ == F32 || perType[tt.typ] >= 4 {
				continue // a few tensors per type and file keep the test fast
			}
			perType[tt.typ]++
			n := len(ref[name].data) / 4
			src := make([]float32, n)
			if err := Dequantize(F32, ref[name].data, src); err != nil {
				t.Fatal(err)
			}
			got := make([]byte, len(tt.data))
			if err := Quantize(tt.typ, src, got); err != nil {
				t.Fatalf("%s %s: %v", base, name, err)
			}
			bb := tt.typ.BlockBytes()
			bad := 0
			for b := 0; b < len(got)/bb; b++ {
				if string(got[b*bb:(b+1)*bb]) != string(tt.data[b*bb:(b+1)*bb]) {
					bad++
				}
			}
			if bad > 0 {
				t.Errorf("%s %s (%v): %d of %d blocks differ from llama-quantize", base, name, tt.typ, bad, len(got)/bb)
			}
			compared[tt.typ]++
		}
	}
	for _, typ := range quantizable {
		if typ != F32 && compared[typ] == 0 {
			t.Errorf("no %v tensor to compare with", typ)
		}
	}
}

func TestQuantizeRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	// Expected relative RMS error of quantize→dequantize on Gaussian data.
	limit := map[Type]float64{F32: 0, F16: 1e-3, BF16: 5e-3, Q8_0: 0.01, Q6_K: 0.03, Q5_0: 0.06, Q5_1: 0.06,
		Q5_K: 0.06, Q4_0: 0.12, Q4_1: 0.12, Q4_K: 0.12, Q3_K: 0.22, Q2_K: 0.4}
	x := make([]float32, 1024)
	for i := range x {
		x[i] = float32(r.NormFloat64())
	}
	// Edge cases: an all-zero block, a constant block, a block with one outlier.
	for i := 256; i < 512; i++ {
		x[i] = 0
	}
	for i := 512; i < 544; i++ {
		x[i] = 0.25
	}
	x[600] = 1000
	for _, typ := range quantizable {
		rb := mustRowBytes(typ, len(x))
		q := make([]byte, rb)
		if err := Quantize(typ, x, q); err != nil {
			t.Fatalf("%v: %v", typ, err)
		}
		y := make([]float32, len(x))
		if err := Dequantize(typ, q, y); err != nil {
			t.Fatal(err)
		}
		var se, sx float64
		for i := range x {
			if i >= 512 && i < 768 {
				continue // the outlier block is measured separately below
			}
			e := float64(y[i] - x[i])
			se += e * e
			sx += float64(x[i]) * float64(x[i])
		}
		if rel := math.Sqrt(se / sx); rel > limit[typ] {
			t.Errorf("%v: relative RMS error %.4f > %.4f", typ, rel, limit[typ])
		}
		for i := 256; i < 512; i++ {
			if y[i] != 0 {
				t.Errorf("%v: zero block dequantizes to %g at %d", typ, y[i], i)
				break
			}
		}
		if e := math.Abs(float64(y[600]-1000)) / 1000; e > 0.05 {
			t.Errorf("%v: outlier 1000 comes back as %g", typ, y[600])
		}
	}
	if err := Quantize(Q8_K, make([]float32, 256), make([]byte, 292)); err == nil {
		t.Error("Q8_K accepted as a weight type")
	}
	if err := Quantize(Q4_0, make([]float32, 48), make([]byte, 100)); err == nil {
		t.Error("48 elements accepted for Q4_0")
	}
	if err := Quantize(Q4_0, make([]float32, 64), make([]byte, 35)); err == nil {
		t.Error("short destination accepted")
	}
}
