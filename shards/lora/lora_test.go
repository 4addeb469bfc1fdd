package lora

import (
	"bytes"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"svc/internal/testenv"
	"svc/shards/gguf"
	"svc/shards/tensor"
)

// fileBytes writes a GGUF with the given metadata and F32 (or typed)
// tensors filled with small values.
func fileBytes(t testing.TB, kvs []gguf.KV, specs []gguf.TensorSpec) []byte {
	t.Helper()
	var buf bytes.Buffer
	err := gguf.Write(&buf, kvs, specs, 0, func(i int, w io.Writer) error {
		n, _ := specs[i].Size()
		_, err := w.Write(make([]byte, n))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func goodKVs() []gguf.KV {
	return []gguf.KV{
		{Key: KeyArch, Value: "llama"},
		{Key: KeyGeneralType, Value: "adapter"},
		{Key: KeyAdapterType, Value: "lora"},
		{Key: KeyAlpha, Value: float32(16)},
	}
}

func pairSpecs(target string, in, r, out int, t gguf.TensorType) []gguf.TensorSpec {
	return []gguf.TensorSpec{
		{Name: target + SuffixA, Dims: []uint64{uint64(in), uint64(r)}, Type: t},
		{Name: target + SuffixB, Dims: []uint64{uint64(r), uint64(out)}, Type: t},
	}
}

func TestWriteParseRoundTrip(t *testing.T) {
	targets := []Target{{"blk.0.attn_q.weight", 64, 64}, {"blk.0.ffn_down.weight", 96, 64}, {"blk.1.attn_k.weight", 64, 32}}
	for _, typ := range Types {
		rank := 8
		if typ == tensor.Q8_0 {
			rank = 32
		}
		pairs, err := Synth(SynthOptions{Targets: targets, Rank: rank, Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := Write(&buf, WriteOptions{Arch: "llama", Name: "test", Alpha: 16, Type: typ, Pairs: pairs}); err != nil {
			t.Fatal(err)
		}
		a, err := Parse(buf.Bytes())
		if err != nil {
			t.Fatalf("%v: %v", typ, err)
		}
		if a.Arch != "llama" || a.Name != "test" || a.Alpha != 16 || len(a.Targets()) != 3 {
			t.Fatalf("%v: parsed %+v", typ, a)
		}
		p, ok := a.Pair("blk.0.ffn_down.weight")
		if !ok || p.In != 96 || p.Out != 64 || p.Rank != rank || p.ATyp != typ || p.BTyp != typ {
			t.Fatalf("%v: pair %+v", typ, p)
		}
		// The values come back as written, to the type's precision.
		row := make([]float32, p.In)
		if err := tensor.Row(p.A, 1, row); err != nil {
			t.Fatal(err)
		}
		tol := map[tensor.Type]float64{tensor.F32: 0, tensor.F16: 1e-4, tensor.BF16: 1e-3, tensor.Q8_0: 1e-3}[typ]
		for i, v := range row {
			if d := math.Abs(float64(v - pairs[1].A[p.In+i])); d > tol {
				t.Fatalf("%v: A[1][%d] = %v, wrote %v", typ, i, v, pairs[1].A[p.In+i])
			}
		}
		if s := p.Scale(a.Alpha, 1); s != 16/float32(rank) {
			t.Fatalf("scale %v", s)
		}
		if s := p.Scale(0, 0.5); s != 0.5 {
			t.Fatalf("scale without alpha %v", s)
		}
	}
}

// TestReferenceAdapter reads the adapter of ../shared/reference/lora,
// written by gguf-py (llama.cpp's own writer), and checks it against its
// base model.
func TestReferenceAdapter(t *testing.T) {
	a, err := Open(testenv.Path(t, "reference", "lora", "mini-llama-f32-lora-init.gguf"))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if a.Arch != "llama" || a.Alpha != 8 || len(a.Targets()) != 28 || len(a.Ranks()) != 1 || a.Ranks()[0] != 4 {
		t.Fatalf("parsed arch %q alpha %v, %d pairs, ranks %v", a.Arch, a.Alpha, len(a.Targets()), a.Ranks())
	}
	base, err := gguf.Open(testenv.Path(t, "models", "mini-llama-f32.gguf"))
	if err != nil {
		t.Fatal(err)
	}
	defer base.Close()
	if err := a.CheckBase("llama", base); err != nil {
		t.Fatal(err)
	}
	other, err := gguf.Open(testenv.Path(t, "models", "stories260K.gguf"))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := a.CheckBase("llama", other); err == nil || !strings.Contains(err.Error(), "lora_a") {
		t.Fatalf("adapter on a model of another shape: %v", err)
	}
}

// TestHostileFiles: every damaged or hostile file is refused with an error
// naming the key or tensor at fault.
func TestHostileFiles(t *testing.T) {
	q, e := "blk.0.attn_q.weight", "token_embd.weight"
	good := pairSpecs(q, 64, 4, 64, gguf.TypeF32)
	without := func(key string) []gguf.KV {
		var kvs []gguf.KV
		for _, kv := range goodKVs() {
			if kv.Key != key {
				kvs = append(kvs, kv)
			}
		}
		return kvs
	}
	with := func(key string, v any) []gguf.KV {
		return append(without(key), gguf.KV{Key: key, Value: v})
	}
	cases := []struct {
		name  string
		kvs   []gguf.KV
		specs []gguf.TensorSpec
		want  string
	}{
		{"no general.type", without(KeyGeneralType), good, KeyGeneralType},
		{"a model", with(KeyGeneralType, "model"), good, KeyGeneralType},
		{"general.type not a string", with(KeyGeneralType, uint32(1)), good, KeyGeneralType},
		{"no adapter.type", without(KeyAdapterType), good, KeyAdapterType},
		{"not lora", with(KeyAdapterType, "control_vector"), good, KeyAdapterType},
		{"no architecture", without(KeyArch), good, KeyArch},
		{"empty architecture", with(KeyArch, ""), good, KeyArch},
		{"alpha as a string", with(KeyAlpha, "16"), good, KeyAlpha},
		{"alpha as float64", with(KeyAlpha, float64(16)), good, KeyAlpha},
		{"alpha NaN", with(KeyAlpha, float32(math.NaN())), good, KeyAlpha},
		{"alpha infinite", with(KeyAlpha, float32(math.Inf(1))), good, KeyAlpha},
		{"name not a string", with(KeyName, int32(3)), good, KeyName},
		{"no pairs", goodKVs(), nil, "no .lora_a"},
		{"only norms", goodKVs(), []gguf.TensorSpec{{Name: "blk.0.attn_norm.weight", Dims: []uint64{64}, Type: gguf.TypeF32}}, "no .lora_a"},
		{"unexpected tensor", goodKVs(), append(pairSpecs(q, 64, 4, 64, gguf.TypeF32), gguf.TensorSpec{Name: "blk.0.attn_q.weight", Dims: []uint64{64, 64}, Type: gguf.TypeF32}), `"blk.0.attn_q.weight"`},
		{"bare suffix", goodKVs(), []gguf.TensorSpec{{Name: ".lora_a", Dims: []uint64{64, 4}, Type: gguf.TypeF32}}, `".lora_a"`},
		{"a without b", goodKVs(), good[:1], q + SuffixA},
		{"b without a", goodKVs(), good[1:], q + SuffixB},
		{"rank mismatch", goodKVs(), []gguf.TensorSpec{good[0], {Name: q + SuffixB, Dims: []uint64{5, 64}, Type: gguf.TypeF32}}, q + SuffixA},
		{"a is a vector", goodKVs(), []gguf.TensorSpec{{Name: q + SuffixA, Dims: []uint64{64}, Type: gguf.TypeF32}, good[1]}, q + SuffixA},
		{"b is 3-D", goodKVs(), []gguf.TensorSpec{good[0], {Name: q + SuffixB, Dims: []uint64{4, 64, 2}, Type: gguf.TypeF32}}, q + SuffixB},
		{"a of type Q4_0", goodKVs(), []gguf.TensorSpec{{Name: q + SuffixA, Dims: []uint64{64, 4}, Type: gguf.TypeQ4_0}, good[1]}, q + SuffixA},
		{"b of type Q4_K", goodKVs(), []gguf.TensorSpec{good[0], {Name: q + SuffixB, Dims: []uint64{256, 64}, Type: gguf.TypeQ4_K}}, q + SuffixB},
		{"rank too large", goodKVs(), pairSpecs(q, 1, MaxRank+1, 1, gguf.TypeF32), q + SuffixA},
		// A token embedding's pair in the other pairs' layout (lora_a
		// [n_embd, r]): llama.cpp's flipped one is [r, n_vocab].
		{"embedding a not flipped", goodKVs(), pairSpecs(e, 64, 4, 64, gguf.TypeF32), e + SuffixA},
		{"embedding rank too large", goodKVs(), []gguf.TensorSpec{{Name: e + SuffixA, Dims: []uint64{MaxRank + 1, 10}, Type: gguf.TypeF32}, {Name: e + SuffixB, Dims: []uint64{MaxRank + 1, 8}, Type: gguf.TypeF32}}, e + SuffixA},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := fileBytes(t, c.kvs, c.specs)
			a, err := Parse(b)
			if err == nil {
				t.Fatalf("accepted: %+v", a)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q does not name %q", err, c.want)
			}
		})
	}
	t.Run("truncated", func(t *testing.T) {
		b := fileBytes(t, goodKVs(), good)
		for _, n := range []int{0, 10, len(b) / 2, len(b) - 1} {
			if _, err := Parse(b[:n]); err == nil {
				t.Fatalf("accepted %d of %d bytes", n, len(b))
			}
		}
	})
	t.Run("missing file", func(t *testing.T) {
		_, err := Open(filepath.Join(t.TempDir(), "none.gguf"))
		if err == nil || !strings.Contains(err.Error(), "none.gguf") {
			t.Fatalf("error %v does not name the file", err)
		}
	})
}

func TestCheckBase(t *testing.T) {
	b := fileBytes(t, goodKVs(), pairSpecs("blk.0.attn_q.weight", 64, 4, 32, gguf.TypeF32))
	a, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	base := func(dims ...uint64) Shaper {
		return shapes{"blk.0.attn_q.weight": dims}
	}
	if err := a.CheckBase("llama", base(64, 32)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		arch string
		base Shaper
		want string
	}{
		{"qwen2", base(64, 32), KeyArch},
		{"llama", shapes{}, "blk.0.attn_q.weight"},
		{"llama", base(32, 64), "blk.0.attn_q.weight"},
		{"llama", base(64, 33), "blk.0.attn_q.weight"},
	} {
		if err := a.CheckBase(c.arch, c.base); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("CheckBase(%s, %v): %v, want an error naming %s", c.arch, c.base, err, c.want)
		}
	}
}

// TestEmbeddingPair: a token embedding's pair is written, read and checked
// in llama.cpp's flipped layout (lora_a [r, n_vocab], lora_b [r, n_embd]),
// the output head's like any matrix's.
func TestEmbeddingPair(t *testing.T) {
	const vocab, dim = 100, 64
	targets := []Target{{"token_embd.weight", vocab, dim}, {"output.weight", dim, vocab}}
	for _, typ := range Types {
		rank := 4
		if typ == tensor.Q8_0 {
			rank = 32
		}
		pairs, err := Synth(SynthOptions{Targets: targets, Rank: rank, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := Write(&buf, WriteOptions{Arch: "llama", Alpha: 8, Type: typ, Pairs: pairs}); err != nil {
			t.Fatal(err)
		}
		gf, err := gguf.Parse(buf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		for name, want := range map[string][]uint64{
			"token_embd.weight.lora_a": {uint64(rank), vocab}, "token_embd.weight.lora_b": {uint64(rank), dim},
			"output.weight.lora_a": {dim, uint64(rank)}, "output.weight.lora_b": {uint64(rank), vocab},
		} {
			if ti, ok := gf.Tensor(name); !ok || !slices.Equal(ti.Dims, want) {
				t.Fatalf("%v: tensor %s: %v, want shape %v", typ, name, ti, want)
			}
		}
		a, err := Parse(buf.Bytes())
		if err != nil {
			t.Fatalf("%v: %v", typ, err)
		}
		p, _ := a.Pair("token_embd.weight")
		if !p.Embedding || p.In != vocab || p.Out != dim || p.Rank != rank || p.A.Rows != vocab || p.A.Cols != rank || p.B.Rows != dim || p.B.Cols != rank {
			t.Fatalf("%v: embedding pair %+v", typ, p)
		}
		// Token 7's row of A is what was written for it.
		row := make([]float32, rank)
		if err := tensor.Row(p.A, 7, row); err != nil {
			t.Fatal(err)
		}
		tol := map[tensor.Type]float64{tensor.F32: 0, tensor.F16: 1e-4, tensor.BF16: 1e-3, tensor.Q8_0: 1e-3}[typ]
		for i, v := range row {
			if d := math.Abs(float64(v - pairs[0].A[7*rank+i])); d > tol {
				t.Fatalf("%v: A[7][%d] = %v, wrote %v", typ, i, v, pairs[0].A[7*rank+i])
			}
		}
		if s := p.Scale(a.Alpha, 1); s != 8/float32(rank) {
			t.Fatalf("scale %v", s)
		}
		if h, _ := a.Pair("output.weight"); h.Embedding || h.In != dim || h.Out != vocab || h.A.Rows != rank || h.A.Cols != dim {
			t.Fatalf("%v: head pair %+v", typ, h)
		}
		if err := a.CheckBase("llama", shapes{"token_embd.weight": {dim, vocab}, "output.weight": {dim, vocab}}); err != nil {
			t.Fatalf("%v: %v", typ, err)
		}
		for _, base := range []shapes{
			{"token_embd.weight": {vocab, dim}, "output.weight": {dim, vocab}},
			{"token_embd.weight": {dim, vocab + 1}, "output.weight": {dim, vocab}},
			{"output.weight": {dim, vocab}},
		} {
			err := a.CheckBase("llama", base)
			if err == nil || !strings.Contains(err.Error(), "token_embd.weight") {
				t.Errorf("%v: embedding pair on base %v: %v, want an error naming token_embd.weight", typ, base, err)
			}
		}
		if err := a.CheckBase("llama", shapes{"token_embd.weight": {dim, vocab}}); err == nil || !strings.Contains(err.Error(), "output.weight") {
			t.Errorf("%v: head pair on a base without output.weight: %v", typ, err)
		}
	}
}

type shapes map[string][]uint64

func (s shapes) Tensor(name string) (*gguf.TensorInfo, bool) {
	d, ok := s[name]
	if !ok {
		return nil, false
	}
	return &gguf.TensorInfo{Name: name, Dims: d}, true
}

func TestWriteRefuses(t *testing.T) {
	pairs, _ := Synth(SynthOptions{Targets: []Target{{"blk.0.attn_q.weight", 64, 64}}, Rank: 8, Seed: 1})
	var buf bytes.Buffer
	if err := Write(&buf, WriteOptions{Arch: "llama", Type: tensor.Q8_0, Pairs: pairs}); err == nil || !strings.Contains(err.Error(), "lora_b") {
		t.Fatalf("Q8_0 with rank 8: %v", err)
	}
	if err := Write(&buf, WriteOptions{Arch: "llama", Type: tensor.Q4_0, Pairs: pairs}); err == nil {
		t.Fatal("Q4_0 adapter written")
	}
	if _, err := Synth(SynthOptions{Targets: []Target{{"x", 1, 1}}, Rank: 0}); err == nil {
		t.Fatal("rank 0 synthesized")
	}
}

// FuzzParse: no input makes Parse panic, and whatever it accepts can be
// multiplied with.
func FuzzParse(f *testing.F) {
	pairs, _ := Synth(SynthOptions{Targets: []Target{{"blk.0.attn_q.weight", 32, 32}, {"token_embd.weight", 3, 32}}, Rank: 32, Seed: 1})
	for _, typ := range Types {
		var buf bytes.Buffer
		if err := Write(&buf, WriteOptions{Arch: "llama", Alpha: 8, Type: typ, Pairs: pairs}); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.Bytes())
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := Parse(b)
		if err != nil {
			return
		}
		a.Ranks()
		a.TensorTypes()
		for _, name := range a.Targets() {
			p, _ := a.Pair(name)
			if p.In > 4096 || p.Out > 4096 {
				continue
			}
			x := make([]float32, p.In)
			mid := make([]float32, p.Rank)
			out := make([]float32, p.Out)
			if p.Embedding {
				// A's rows are looked up (the last token's), not multiplied.
				if err := tensor.Row(p.A, p.In-1, mid); err != nil {
					t.Fatalf("row of an accepted embedding pair: %v", err)
				}
			} else {
				tensor.MatMul(nil, tensor.NewWorkspace(), p.A, x, 1, mid)
			}
			tensor.MatMul(nil, tensor.NewWorkspace(), p.B, mid, 1, out)
			_ = p.Scale(a.Alpha, 1)
		}
	})
}
