package slice

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"svc/internal/testenv"
	"svc/shards/lora"
	"svc/shards/tensor"
)

// TestAdapterManifest: an adapter's manifest carries the whole file's
// sha256 as its digest, survives its encoding, is refused for a model (and
// a model's for an adapter); NeedBlocks splits the pairs by block, and a
// sparse copy of some blocks checks.
func TestAdapterManifest(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ad.gguf")
	var pairs []lora.PairData
	for _, target := range []string{"token_embd.weight", "blk.0.attn_q.weight", "blk.1.attn_q.weight", "blk.2.ffn_up.weight", "output.weight"} {
		p := lora.PairData{Target: target, In: 32, Out: 32, Rank: 4, A: make([]float32, 4*32), B: make([]float32, 32*4)}
		for i := range p.A {
			p.A[i], p.B[i] = float32(i%7)/10, float32(i%5)/10
		}
		pairs = append(pairs, p)
	}
	if err := lora.WriteFile(path, lora.WriteOptions{Arch: "llama", Alpha: 8, Type: tensor.F32, Pairs: pairs}); err != nil {
		t.Fatal(err)
	}
	m, err := BuildAdapter(path)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(raw)
	if d := hex.EncodeToString(sum[:]); m.Kind != KindAdapter || m.Digest != d {
		t.Fatalf("kind %q digest %s, the file's sha256 is %s", m.Kind, m.Digest, d)
	}
	enc, _ := m.Marshal()
	back, err := Parse(enc, m.Hash())
	if err != nil || back.Digest != m.Digest || len(back.Tensors) != 10 {
		t.Fatalf("parse: %v", err)
	}
	if _, err := Build(path); err == nil {
		t.Fatal("Build took an adapter for a model")
	}
	if _, err := BuildAdapter(testenv.Path(t, "models", "stories260K.gguf")); err == nil || !strings.Contains(err.Error(), "general.type") {
		t.Fatalf("BuildAdapter of a model: %v", err)
	}
	_, model := build(t, "stories260K.gguf")
	if _, err := model.NeedBlocks(0, 1, 5); err == nil {
		t.Fatal("NeedBlocks of a model's manifest")
	}
	names := func(first, last int) []string {
		ts, err := m.NeedBlocks(first, last, 5)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, tn := range ts {
			out = append(out, strings.TrimSuffix(strings.TrimSuffix(tn.Name, ".lora_a"), ".lora_b"))
		}
		return slices.Compact(out)
	}
	if got := names(0, 2); !slices.Equal(got, []string{"token_embd.weight", "blk.0.attn_q.weight", "blk.1.attn_q.weight"}) {
		t.Errorf("blocks 0:2 need %v", got)
	}
	if got := names(2, 5); !slices.Equal(got, []string{"blk.2.ffn_up.weight", "output.weight"}) {
		t.Errorf("blocks 2:5 need %v", got)
	}
	if got := names(1, 2); !slices.Equal(got, []string{"blk.1.attn_q.weight"}) {
		t.Errorf("blocks 1:2 need %v", got)
	}
	if _, err := m.NeedBlocks(3, 6, 5); err == nil {
		t.Error("NeedBlocks past the model's blocks")
	}
	need, _ := m.NeedBlocks(1, 2, 5)
	sparse := filepath.Join(dir, "sparse.gguf")
	st, err := Write(context.Background(), sparse, back, need, 2, fromFile(t, path, back))
	if err != nil || st.Fetched != 2 {
		t.Fatalf("write: %+v %v", st, err)
	}
	if err := Check(sparse, back, need); err != nil {
		t.Fatal(err)
	}
	if err := Check(sparse, back, back.Tensors); err == nil {
		t.Fatal("the sparse copy checks for tensors it does not hold")
	}
}
