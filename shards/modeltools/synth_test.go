package modeltools

import (
	"bytes"
	"context"
	"crypto/sha256"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"svc/internal/testenv"
	"svc/shards/gguf"
	"svc/shards/model"
	"svc/shards/tensor"
)

func openFixture(t *testing.T, elem ...string) *gguf.File {
	t.Helper()
	f, err := gguf.Open(testenv.Path(t, elem...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func synthBytes(t *testing.T, o SynthOptions) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Synth(context.Background(), &buf, o); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestSynthDeterministicAndWellFormed(t *testing.T) {
	vocab := openFixture(t, "models", "stories260K.gguf")
	shape, err := LookupShape("tiny")
	if err != nil {
		t.Fatal(err)
	}
	ft, err := ParseFileType("q4_k_m")
	if err != nil {
		t.Fatal(err)
	}
	var progressed int64
	a := synthBytes(t, SynthOptions{Shape: shape, Vocab: vocab, Type: ft, Seed: 7, Threads: 1,
		Progress: func(done, total int64) {
			if done > total || done <= progressed {
				t.Errorf("progress %d/%d after %d", done, total, progressed)
			}
			progressed = done
		}})
	b := synthBytes(t, SynthOptions{Shape: shape, Vocab: vocab, Type: ft, Seed: 7, Threads: 2})
	if sha256.Sum256(a) != sha256.Sum256(b) {
		t.Fatal("same seed, different thread count: different bytes")
	}
	c := synthBytes(t, SynthOptions{Shape: shape, Vocab: vocab, Type: ft, Seed: 8, Threads: 2})
	if bytes.Equal(a, c) {
		t.Fatal("different seeds gave the same model")
	}

	f, err := gguf.Parse(a)
	if err != nil {
		t.Fatal(err)
	}
	if f.Version != 3 {
		t.Errorf("GGUF version %d", f.Version)
	}
	var dataBytes int64
	for _, ti := range f.Tensors {
		dataBytes += int64(ti.Size)
	}
	if progressed != dataBytes {
		t.Errorf("progress ended at %d bytes, tensors hold %d", progressed, dataBytes)
	}
	wantU32 := map[string]uint32{
		"llama.embedding_length": 256, "llama.block_count": 2, "llama.feed_forward_length": 512,
		"llama.attention.head_count": 4, "llama.attention.head_count_kv": 2, "llama.rope.dimension_count": 64,
		"llama.context_length": 512, "general.file_type": 15, "llama.vocab_size": 512,
	}
	for k, v := range wantU32 {
		if got, ok := f.Uint32(k); !ok || got != v {
			t.Errorf("%s = %d (%v), want %d", k, got, ok, v)
		}
	}
	if a, _ := f.Architecture(); a != "llama" {
		t.Errorf("architecture %q", a)
	}
	if eps, _ := f.Float("llama.attention.layer_norm_rms_epsilon"); math.Abs(eps-1e-5) > 1e-9 {
		t.Errorf("eps %v", eps)
	}
	toks, _ := f.Strings("tokenizer.ggml.tokens")
	src, _ := vocab.Strings("tokenizer.ggml.tokens")
	if len(toks) != 512 || strings.Join(toks, "\x00") != strings.Join(src, "\x00") {
		t.Errorf("tokenizer not copied (%d tokens)", len(toks))
	}
	if m, _ := f.String("tokenizer.ggml.model"); m != "llama" {
		t.Errorf("tokenizer model %q", m)
	}

	// Shapes and llama.cpp's Q4_K_M types: with 2 blocks, use_more_bits
	// picks block 1 for attn_v and ffn_down.
	want := map[string]struct {
		dims []uint64
		typ  tensor.Type
	}{
		"token_embd.weight":        {[]uint64{256, 512}, tensor.Q4_K},
		"output.weight":            {[]uint64{256, 512}, tensor.Q6_K},
		"output_norm.weight":       {[]uint64{256}, tensor.F32},
		"blk.0.attn_norm.weight":   {[]uint64{256}, tensor.F32},
		"blk.0.attn_q.weight":      {[]uint64{256, 256}, tensor.Q4_K},
		"blk.0.attn_k.weight":      {[]uint64{256, 128}, tensor.Q4_K},
		"blk.0.attn_v.weight":      {[]uint64{256, 128}, tensor.Q4_K},
		"blk.1.attn_v.weight":      {[]uint64{256, 128}, tensor.Q6_K},
		"blk.0.attn_output.weight": {[]uint64{256, 256}, tensor.Q4_K},
		"blk.0.ffn_gate.weight":    {[]uint64{256, 512}, tensor.Q4_K},
		"blk.1.ffn_up.weight":      {[]uint64{256, 512}, tensor.Q4_K},
		"blk.0.ffn_down.weight":    {[]uint64{512, 256}, tensor.Q4_K},
		"blk.1.ffn_down.weight":    {[]uint64{512, 256}, tensor.Q6_K},
		"blk.1.ffn_norm.weight":    {[]uint64{256}, tensor.F32},
		"blk.1.attn_output.weight": {[]uint64{256, 256}, tensor.Q4_K},
	}
	if len(f.Tensors) != 3+2*9 {
		t.Errorf("%d tensors, want 21", len(f.Tensors))
	}
	for name, w := range want {
		ti, ok := f.Tensor(name)
		if !ok {
			t.Errorf("missing %s", name)
			continue
		}
		if tensor.Type(ti.Type) != w.typ || len(ti.Dims) != len(w.dims) || ti.Dims[0] != w.dims[0] || ti.Dims[len(ti.Dims)-1] != w.dims[len(w.dims)-1] {
			t.Errorf("%s: %v %v, want %v %v", name, ti.Dims, tensor.Type(ti.Type), w.dims, w.typ)
		}
	}

	// Weights are N(0, 0.02²) and norms are ones.
	q, _ := f.Tensor("blk.0.attn_q.weight")
	vals := make([]float32, q.Elements())
	if err := tensor.Dequantize(tensor.Type(q.Type), f.Data(q), vals); err != nil {
		t.Fatal(err)
	}
	var sum, sq float64
	for _, v := range vals {
		sum += float64(v)
		sq += float64(v) * float64(v)
	}
	n := float64(len(vals))
	mean, std := sum/n, math.Sqrt(sq/n-(sum/n)*(sum/n))
	if math.Abs(mean) > 1e-3 || math.Abs(std-WeightStd) > 0.002 {
		t.Errorf("attn_q mean %.5f std %.5f, want 0 and %v", mean, std, WeightStd)
	}
	nw, _ := f.Tensor("blk.1.ffn_norm.weight")
	norm := make([]float32, 256)
	if err := tensor.Dequantize(tensor.F32, f.Data(nw), norm); err != nil {
		t.Fatal(err)
	}
	for i, v := range norm {
		if v != 1 {
			t.Fatalf("ffn_norm[%d] = %v", i, v)
		}
	}

	// The engine accepts the file and its activations stay finite.
	path := filepath.Join(t.TempDir(), "tiny.gguf")
	if err := os.WriteFile(path, a, 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := model.Open(path, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	sh, err := m.NewShard(0, 2, model.ShardOptions{Threads: 2, IdleTimeout: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer sh.Close()
	if err := sh.OpenSession("s", 8); err != nil {
		t.Fatal(err)
	}
	out, err := sh.Forward(context.Background(), "s", model.Input{Tokens: []int32{1, 50, 300, 7}, Logits: model.LogitsAll})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range out.Logits {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) || math.Abs(float64(v)) > 100 {
			t.Fatalf("logit %d = %v", i, v)
		}
	}
}

func TestSynthAllTypes(t *testing.T) {
	vocab := openFixture(t, "models", "stories260K.gguf")
	shape, _ := LookupShape("tiny")
	for _, name := range FileTypeNames() {
		ft, _ := ParseFileType(name)
		f, err := gguf.Parse(synthBytes(t, SynthOptions{Shape: shape, Vocab: vocab, Type: ft, Seed: 1}))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		q, _ := f.Tensor("blk.0.ffn_up.weight")
		o, _ := f.Tensor("output.weight")
		wantOut := ft.Base
		if isQuantized(ft.Base) && !ft.Pure && ft.Base != tensor.Q8_0 {
			wantOut = tensor.Q6_K
		}
		if tensor.Type(q.Type) != ft.Base || tensor.Type(o.Type) != wantOut {
			t.Errorf("%s: ffn_up %v, output %v", name, tensor.Type(q.Type), tensor.Type(o.Type))
		}
	}
}

func TestShapes(t *testing.T) {
	tl, err := LookupShape("TinyLlama-1.1B")
	if err != nil {
		t.Fatal(err)
	}
	if tl.Dim != 2048 || tl.Blocks != 22 || tl.Heads != 32 || tl.KVHeads != 4 || tl.FFN != 5632 || tl.RopeBase != 10000 || tl.Tied {
		t.Errorf("tinyllama shape %+v", tl)
	}
	l3, err := LookupShape("llama-3.2-1b")
	if err != nil {
		t.Fatal(err)
	}
	if l3.Dim != 2048 || l3.Blocks != 16 || l3.Heads != 32 || l3.KVHeads != 8 || l3.FFN != 8192 || l3.RopeBase != 500000 || !l3.Tied {
		t.Errorf("llama-3.2 shape %+v", l3)
	}
	for _, n := range ShapeNames() {
		s, _ := LookupShape(n)
		if err := s.Validate(); err != nil {
			t.Error(err)
		}
	}
	if _, err := LookupShape("gpt-5"); err == nil {
		t.Error("unknown shape accepted")
	}

	// Llama 3.2 1B: tied head in Q6_K for Q4_K_M, RoPE factors from 1
	// (high frequencies) to 32 (low), tensor count and byte size.
	ft, _ := ParseFileType("Q4_K_M")
	ts, err := synthTensors(l3, ft, 128256)
	if err != nil {
		t.Fatal(err)
	}
	var total uint64
	names := map[string]gguf.TensorSpec{}
	for _, x := range ts {
		names[x.spec.Name] = x.spec
		sz, _ := x.spec.Size()
		total += sz
	}
	if _, ok := names["output.weight"]; ok {
		t.Error("tied shape has output.weight")
	}
	if e := names["token_embd.weight"]; tensor.Type(e.Type) != tensor.Q6_K || e.Dims[1] != 128256 {
		t.Errorf("token_embd %+v", e)
	}
	if len(ts) != 1+1+16*9+1 {
		t.Errorf("%d tensors", len(ts))
	}
	// Llama-3.2-1B Q4_K_M is about 0.8 GB.
	if total < 700e6 || total > 900e6 {
		t.Errorf("llama-3.2-1b Q4_K_M data %d bytes", total)
	}
	f := llama3RopeFactors(l3)
	if len(f) != 32 || f[0] != 1 || f[31] != 32 {
		t.Errorf("rope factors %v", f)
	}
	for i := 1; i < len(f); i++ {
		if f[i] < f[i-1] {
			t.Errorf("rope factors not monotone at %d: %v", i, f)
		}
	}
}

func TestSynthRejects(t *testing.T) {
	vocab := openFixture(t, "models", "stories260K.gguf")
	shape, _ := LookupShape("tiny")
	ft, _ := ParseFileType("Q8_0")
	ctx := context.Background()
	var buf bytes.Buffer
	if err := Synth(ctx, &buf, SynthOptions{Shape: shape, Type: ft}); err == nil {
		t.Error("missing vocabulary accepted")
	}
	if err := Synth(ctx, &buf, SynthOptions{Shape: shape, Vocab: vocab}); err == nil {
		t.Error("missing type accepted")
	}
	bad := shape
	bad.Heads = 3
	if err := Synth(ctx, &buf, SynthOptions{Shape: bad, Vocab: vocab, Type: ft}); err == nil {
		t.Error("bad shape accepted")
	}
	if _, err := ParseFileType("Q9_9"); err == nil {
		t.Error("unknown type accepted")
	}
	var empty bytes.Buffer
	if err := gguf.Write(&empty, []gguf.KV{{Key: "general.architecture", Type: gguf.ValString, Value: "llama"}}, nil, 0, nil); err != nil {
		t.Fatal(err)
	}
	noTok, err := gguf.Parse(empty.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if err := Synth(ctx, &buf, SynthOptions{Shape: shape, Vocab: noTok, Type: ft}); err == nil || !strings.Contains(err.Error(), "tokenizer") {
		t.Errorf("vocabulary without tokens: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	dir := t.TempDir()
	path := filepath.Join(dir, "x.gguf")
	if err := SynthFile(cctx, path, SynthOptions{Shape: shape, Vocab: vocab, Type: ft}); err == nil {
		t.Error("cancelled synth succeeded")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("cancelled synth left %v", ents)
	}
}
