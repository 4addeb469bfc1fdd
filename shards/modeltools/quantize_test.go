package modeltools

import (
	"bytes"
	"context"
	"math"
	"testing"

	"svc/shards/gguf"
	"svc/shards/tensor"
)

func quantizeBytes(t *testing.T, in *gguf.File, typ string, threads int) *gguf.File {
	t.Helper()
	ft, err := ParseFileType(typ)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Quantize(context.Background(), in, &buf, QuantizeOptions{Type: ft, Threads: threads}); err != nil {
		t.Fatal(err)
	}
	f, err := gguf.Parse(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func dequant(t *testing.T, f *gguf.File, ti *gguf.TensorInfo) []float32 {
	t.Helper()
	v := make([]float32, ti.Elements())
	if err := tensor.Dequantize(tensor.Type(ti.Type), f.Data(ti), v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestQuantizeLikeLlamaCpp converts the f32 fixture model and compares with
// the fixture llama-quantize made from the same weights: every tensor must
// get llama.cpp's type and byte-identical data.
func TestQuantizeLikeLlamaCpp(t *testing.T) {
	src := openFixture(t, "models", "mini-llama-f32.gguf")
	for _, c := range []struct {
		typ, fixture string
	}{
		{"Q8_0", "mini-llama-q8_0.gguf"},
		{"Q4_0", "mini-llama-q4_0.gguf"},
		{"Q6_K", "mini-llama-q6_k.gguf"},
		{"Q4_K_M", "mini-llama-q4_k_m.gguf"},
		{"F16", "mini-llama-f16.gguf"},
		{"BF16", "mini-llama-bf16.gguf"},
	} {
		t.Run(c.typ, func(t *testing.T) {
			got := quantizeBytes(t, src, c.typ, 2)
			ref := openFixture(t, "models", c.fixture)
			if len(got.Tensors) != len(ref.Tensors) {
				t.Fatalf("%d tensors, llama.cpp has %d", len(got.Tensors), len(ref.Tensors))
			}
			ft, _ := got.Uint32("general.file_type")
			if want, _ := ref.Uint32("general.file_type"); ft != want {
				t.Errorf("general.file_type %d, llama.cpp wrote %d", ft, want)
			}
			for i := range ref.Tensors {
				r := &ref.Tensors[i]
				g, ok := got.Tensor(r.Name)
				if !ok {
					t.Errorf("missing %s", r.Name)
					continue
				}
				if g.Type != r.Type {
					t.Errorf("%s: type %v, llama.cpp chose %v", r.Name, g.Type, r.Type)
					continue
				}
				if !bytes.Equal(got.Data(g), ref.Data(r)) {
					t.Errorf("%s (%v): data differs from llama-quantize's (relative RMS %.2g)",
						r.Name, g.Type, relRMS(dequant(t, got, g), dequant(t, ref, r)))
				}
			}
		})
	}
}

func relRMS(a, b []float32) float64 {
	var num, den float64
	for i := range a {
		d := float64(a[i]) - float64(b[i])
		num += d * d
		den += float64(b[i]) * float64(b[i])
	}
	if den == 0 {
		return math.Sqrt(num)
	}
	return math.Sqrt(num / den)
}

// TestQuantizeRoundTrip checks that each type reproduces the source weights
// within its expected quantization error, that norms stay F32 and exact,
// and that the result does not depend on the thread count.
func TestQuantizeRoundTrip(t *testing.T) {
	src := openFixture(t, "models", "mini-llama-f32.gguf")
	maxErr := map[string]float64{"Q8_0": 0.01, "Q6_K": 0.03, "Q4_K": 0.12, "Q4_K_M": 0.12, "Q5_K_M": 0.06, "Q4_0": 0.15, "F16": 1e-3, "BF16": 1e-2}
	for typ, tol := range maxErr {
		got := quantizeBytes(t, src, typ, 1)
		for i := range src.Tensors {
			s := &src.Tensors[i]
			g, _ := got.Tensor(s.Name)
			if len(s.Dims) == 1 {
				if g.Type != gguf.TypeF32 || !bytes.Equal(got.Data(g), src.Data(s)) {
					t.Errorf("%s: 1-D tensor %s changed (type %v)", typ, s.Name, g.Type)
				}
				continue
			}
			if d := relRMS(dequant(t, got, g), dequant(t, src, s)); d > tol {
				t.Errorf("%s: %s (%v) relative RMS error %.3g > %g", typ, s.Name, g.Type, d, tol)
			}
		}
		if typ == "Q4_K_M" {
			two := quantizeBytes(t, src, typ, 2)
			for i := range got.Tensors {
				if !bytes.Equal(got.Data(&got.Tensors[i]), two.Data(&two.Tensors[i])) {
					t.Errorf("%s differs between 1 and 2 threads", got.Tensors[i].Name)
				}
			}
		}
	}
}

// TestQuantizeRequantizes converts an already quantized model: tensors
// whose type does not change are copied byte for byte.
func TestQuantizeRequantizes(t *testing.T) {
	src := openFixture(t, "models", "mini-llama-q4_k_m.gguf")
	got := quantizeBytes(t, src, "Q8_0", 2)
	f32 := openFixture(t, "models", "mini-llama-f32.gguf")
	for i := range got.Tensors {
		g := &got.Tensors[i]
		s, _ := src.Tensor(g.Name)
		if len(g.Dims) == 1 {
			continue
		}
		if g.Type != gguf.TypeQ8_0 {
			t.Errorf("%s: %v, want Q8_0", g.Name, g.Type)
		}
		// Q8_0 of the Q4_K_M values is close to them, and both are close
		// to the original f32 weights.
		o, _ := f32.Tensor(g.Name)
		if d := relRMS(dequant(t, got, g), dequant(t, src, s)); d > 0.01 {
			t.Errorf("%s: requantized differs by %.3g", g.Name, d)
		}
		if d := relRMS(dequant(t, got, g), dequant(t, f32, o)); d > 0.12 {
			t.Errorf("%s: differs from the f32 original by %.3g", g.Name, d)
		}
	}
	// Converting to the type a tensor already has copies it.
	same := quantizeBytes(t, src, "Q4_K_M", 2)
	for i := range same.Tensors {
		g := &same.Tensors[i]
		s, _ := src.Tensor(g.Name)
		if g.Type != s.Type || !bytes.Equal(same.Data(g), src.Data(s)) {
			t.Errorf("%s changed on a same-type conversion", g.Name)
		}
	}
}

func TestQuantizeRejects(t *testing.T) {
	src := openFixture(t, "models", "mini-llama-f32.gguf")
	ctx := context.Background()
	var buf bytes.Buffer
	if err := Quantize(ctx, src, &buf, QuantizeOptions{}); err == nil {
		t.Error("missing type accepted")
	}
	hdr, err := gguf.ParseHeader(src.HeaderBytes())
	if err != nil {
		t.Fatal(err)
	}
	ft, _ := ParseFileType("Q8_0")
	if err := Quantize(ctx, hdr, &buf, QuantizeOptions{Type: ft}); err == nil {
		t.Error("header-only input accepted")
	}
	if err := Quantize(ctx, nil, &buf, QuantizeOptions{Type: ft}); err == nil {
		t.Error("nil input accepted")
	}
}

func TestTypeRules(t *testing.T) {
	// llama.cpp's use_more_bits for 22 layers (TinyLlama).
	var more []int
	for i := 0; i < 22; i++ {
		if useMoreBits(i, 22) {
			more = append(more, i)
		}
	}
	want := []int{0, 1, 4, 7, 10, 13, 16, 19, 20, 21}
	if len(more) != len(want) {
		t.Fatalf("use_more_bits(·, 22) = %v, want %v", more, want)
	}
	for i := range want {
		if more[i] != want[i] {
			t.Fatalf("use_more_bits(·, 22) = %v, want %v", more, want)
		}
	}
	ft, _ := ParseFileType("Q4_K_M")
	// A row length that is not a multiple of 256 falls back to Q5_0 for
	// Q4_K, and to Q8_0 for Q6_K; not a multiple of 32 gives F16.
	if got := ft.typeFor(tensorInfo{name: "blk.3.attn_q.weight", dims: []uint64{96, 64}, layer: 3, blocks: 22}); got != tensor.Q5_0 {
		t.Errorf("Q4_K fallback %v", got)
	}
	if got := ft.typeFor(tensorInfo{name: "blk.0.ffn_down.weight", dims: []uint64{96, 64}, layer: 0, blocks: 22}); got != tensor.Q8_0 {
		t.Errorf("Q6_K fallback %v", got)
	}
	if got := ft.typeFor(tensorInfo{name: "blk.3.attn_q.weight", dims: []uint64{40, 64}, layer: 3, blocks: 22}); got != tensor.F16 {
		t.Errorf("odd row fallback %v", got)
	}
	if got := ft.typeFor(tensorInfo{name: "output.weight", dims: []uint64{96, 64}, blocks: 22}); got != tensor.Q8_0 {
		t.Errorf("odd output %v", got)
	}
	if layerOf("blk.12.attn_v.weight") != 12 || layerOf("output.weight") != -1 || layerOf("blk.x.y") != -1 {
		t.Error("layerOf")
	}
	if quantizable("blk.0.attn_norm.weight", []uint64{256, 1}) || !quantizable("blk.0.attn_q.weight", []uint64{256, 256}) || quantizable("rope_freqs.weight", []uint64{32}) {
		t.Error("quantizable")
	}
}

// TestQuantizeOfSynthF32MatchesDirectSynth: synthesizing in F32 and then
// quantizing gives exactly the tensors that synthesizing in the target type
// gives, so both tools apply the same values and the same type rules.
func TestQuantizeOfSynthF32MatchesDirectSynth(t *testing.T) {
	vocab := openFixture(t, "models", "stories260K.gguf")
	shape, _ := LookupShape("tiny")
	f32, _ := ParseFileType("F32")
	src, err := gguf.Parse(synthBytes(t, SynthOptions{Shape: shape, Vocab: vocab, Type: f32, Seed: 3}))
	if err != nil {
		t.Fatal(err)
	}
	for _, typ := range []string{"Q8_0", "Q4_K_M"} {
		ft, _ := ParseFileType(typ)
		direct, err := gguf.Parse(synthBytes(t, SynthOptions{Shape: shape, Vocab: vocab, Type: ft, Seed: 3}))
		if err != nil {
			t.Fatal(err)
		}
		conv := quantizeBytes(t, src, typ, 2)
		if len(conv.Tensors) != len(direct.Tensors) {
			t.Fatalf("%s: %d tensors vs %d", typ, len(conv.Tensors), len(direct.Tensors))
		}
		for i := range direct.Tensors {
			d := &direct.Tensors[i]
			c, ok := conv.Tensor(d.Name)
			if !ok || c.Type != d.Type || !bytes.Equal(conv.Data(c), direct.Data(d)) {
				t.Errorf("%s: tensor %s differs between synth+quantize and direct synth", typ, d.Name)
			}
		}
		for _, k := range []string{"general.file_type", "llama.block_count", "tokenizer.ggml.model"} {
			a, _ := conv.Get(k)
			b, _ := direct.Get(k)
			if a != b {
				t.Errorf("%s: %s = %v vs %v", typ, k, a, b)
			}
		}
	}
}

// TestQuantizeTiedQwen2Types: a tied-embedding model (no output.weight)
// gets llama.cpp's types: token_embd as the head (Q6_K in Q4_K_M), biases
// kept in F32. The fixture pair was made by llama-quantize from one source,
// so only the types are comparable here.
func TestQuantizeTiedQwen2Types(t *testing.T) {
	src := openFixture(t, "models", "mini-qwen2-q8_0.gguf")
	ref := openFixture(t, "models", "mini-qwen2-q4_k_m.gguf")
	got := quantizeBytes(t, src, "Q4_K_M", 2)
	for i := range ref.Tensors {
		r := &ref.Tensors[i]
		g, ok := got.Tensor(r.Name)
		if !ok || g.Type != r.Type {
			t.Errorf("%s: got %v, llama.cpp chose %v", r.Name, g.Type, r.Type)
		}
	}
}
