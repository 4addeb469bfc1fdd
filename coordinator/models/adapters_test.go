package models

import (
	"path/filepath"
	"strings"
	"testing"

	"svc/internal/testenv"
	"svc/shards/lora"
	"svc/shards/slice"
	"svc/shards/tensor"
)

// TestImportAdapter: an adapter that fits the model is imported beside it
// with an adapter manifest that a library opened again (a coordinator
// restart) finds by hash after a scan, without listing it as a model; one
// that does not fit is refused naming the tensor.
func TestImportAdapter(t *testing.T) {
	l := open(t, Options{})
	ctx := t.Context()
	base, err := l.Import(ctx, testenv.Path(t, "models", "stories260K.gguf"), "")
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, in, out int) string {
		pairs, err := lora.Synth(lora.SynthOptions{Targets: []lora.Target{{Name: "blk.1.attn_q.weight", In: in, Out: out}}, Rank: 4, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(t.TempDir(), name+".gguf")
		if err := lora.WriteFile(p, lora.WriteOptions{Arch: "llama", Alpha: 8, Type: tensor.F32, Pairs: pairs}); err != nil {
			t.Fatal(err)
		}
		return p
	}
	dim := base.Manifest.Config().Dim
	e, err := l.ImportAdapter(ctx, base, "good", write("good", dim, dim))
	if err != nil {
		t.Fatal(err)
	}
	if e.Manifest.Kind != slice.KindAdapter || e.Path != filepath.Join(l.Dir(), "adapters", "stories260K-good.gguf") {
		t.Fatalf("entry %s at %s of kind %q", e.Name, e.Path, e.Manifest.Kind)
	}
	if _, err := l.ImportAdapter(ctx, base, "bad", write("bad", dim+1, dim)); err == nil || !strings.Contains(err.Error(), "blk.1.attn_q.weight") {
		t.Fatalf("an adapter of other shapes: %v", err)
	}

	again, err := Open(l.Dir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	es, errs := again.Scan()
	if len(errs) != 0 || len(es) != 1 || es[0].Name != "stories260K" {
		t.Fatalf("scan after a restart: %v %v", es, errs)
	}
	if got, ok := again.ByHash(e.Hash); !ok || got.Manifest.Kind != slice.KindAdapter {
		t.Fatal("the adapter is not found by its manifest's hash after a restart")
	}
}
