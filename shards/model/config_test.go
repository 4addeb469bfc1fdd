package model

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"svc/internal/testenv"
	"svc/shards/gguf"
)

func TestConfigOfSharedModels(t *testing.T) {
	m, err := Open(testenv.Path(t, "models", "stories260K.gguf"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := m.Config()
	if c.Arch != "llama" || c.Blocks != 5 || c.Dim != 64 || c.Heads != 8 || c.KVHeads != 4 || c.HeadDim != 8 ||
		c.FFN != 172 || c.Vocab != 512 || c.RopeBase != 10000 || c.RopeNeox || c.TiedHead || c.EOS != 2 || c.BOS != 1 {
		t.Fatalf("stories260K config: %+v", c)
	}
	d := m.Digest()
	m.Close()
	if len(d) != 64 {
		t.Fatalf("digest %q", d)
	}
	m2, err := Open(testenv.Path(t, "models", "stories260K.gguf"), Options{ContextLength: 100})
	if err != nil {
		t.Fatal(err)
	}
	if m2.Digest() != d || m2.Config().Context != 100 {
		t.Fatalf("reopened: digest %s vs %s, context %d", m2.Digest(), d, m2.Config().Context)
	}
	m2.Close()

	q, err := Open(testenv.Path(t, "models", "mini-qwen2-q8_0.gguf"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	qc := q.Config()
	if qc.Arch != "qwen2" || !qc.RopeNeox || !qc.TiedHead || qc.RopeBase != 1e6 || qc.Vocab != 50257 || qc.RopeDims != 64 {
		t.Fatalf("qwen2 config: %+v", qc)
	}
	if q.Digest() == d {
		t.Fatal("different models share a digest")
	}
	// The chat variant differs only in metadata: its digest must differ too.
	chat, err := Open(testenv.Path(t, "models", "mini-qwen2-chat-q8_0.gguf"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer chat.Close()
	if chat.Digest() == q.Digest() {
		t.Fatal("files with different metadata share a digest")
	}
}

// rewrite copies a GGUF file with its metadata and tensor table edited.
func rewrite(t *testing.T, src string, editKV func([]gguf.KV) []gguf.KV, editT func([]gguf.TensorSpec) []gguf.TensorSpec) string {
	t.Helper()
	f, err := gguf.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	kvs := append([]gguf.KV(nil), f.KVs...)
	var specs []gguf.TensorSpec
	for _, ti := range f.Tensors {
		specs = append(specs, gguf.TensorSpec{Name: ti.Name, Dims: append([]uint64(nil), ti.Dims...), Type: ti.Type})
	}
	if editKV != nil {
		kvs = editKV(kvs)
	}
	if editT != nil {
		specs = editT(specs)
	}
	path := filepath.Join(t.TempDir(), "edited.gguf")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	err = gguf.Write(out, kvs, specs, f.Alignment, func(i int, w io.Writer) error {
		n, _ := specs[i].Size()
		if ti, ok := f.Tensor(specs[i].Name); ok && ti.Size == n {
			_, err := w.Write(f.Data(ti))
			return err
		}
		_, err := w.Write(make([]byte, n))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return path
}

func setKV(key string, v any) func([]gguf.KV) []gguf.KV {
	return func(kvs []gguf.KV) []gguf.KV {
		for i := range kvs {
			if kvs[i].Key == key {
				kvs[i].Value = v
			}
		}
		return kvs
	}
}

func dropKV(key string) func([]gguf.KV) []gguf.KV {
	return func(kvs []gguf.KV) []gguf.KV {
		var out []gguf.KV
		for _, kv := range kvs {
			if kv.Key != key {
				out = append(out, kv)
			}
		}
		return out
	}
}

func TestBadModels(t *testing.T) {
	src := testenv.Path(t, "models", "stories260K.gguf")
	cases := []struct {
		name  string
		kv    func([]gguf.KV) []gguf.KV
		ts    func([]gguf.TensorSpec) []gguf.TensorSpec
		is    error
		names string
	}{
		{"unsupported architecture", setKV("general.architecture", "mamba"), nil, ErrUnsupported, "mamba"},
		{"missing block count", dropKV("llama.block_count"), nil, ErrBadModel, "llama.block_count"},
		{"heads not dividing", setKV("llama.attention.head_count_kv", uint32(3)), nil, ErrBadModel, "KV heads"},
		{"yarn scaling", func(kvs []gguf.KV) []gguf.KV {
			return append(kvs, gguf.KV{Key: "llama.rope.scaling.type", Type: gguf.ValString, Value: "yarn"})
		}, nil, ErrUnsupported, "llama.rope.scaling.type"},
		{"missing tensor", nil, func(ts []gguf.TensorSpec) []gguf.TensorSpec {
			var out []gguf.TensorSpec
			for _, s := range ts {
				if s.Name != "blk.3.ffn_up.weight" {
					out = append(out, s)
				}
			}
			return out
		}, ErrBadModel, "blk.3.ffn_up.weight"},
		{"wrong shape", nil, func(ts []gguf.TensorSpec) []gguf.TensorSpec {
			for i := range ts {
				if ts[i].Name == "blk.2.attn_k.weight" {
					ts[i].Dims = []uint64{64, 64}
				}
			}
			return ts
		}, ErrBadModel, "blk.2.attn_k.weight"},
		{"more blocks than tensors", setKV("llama.block_count", uint32(6)), nil, ErrBadModel, "blk.5."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := rewrite(t, src, c.kv, c.ts)
			m, err := Open(path, Options{})
			if err == nil {
				m.Close()
				t.Fatal("opened")
			}
			if !errors.Is(err, c.is) || !strings.Contains(err.Error(), c.names) {
				t.Fatalf("error %q: want %v naming %q", err, c.is, c.names)
			}
		})
	}
	if _, err := Open(filepath.Join(t.TempDir(), "absent.gguf"), Options{}); err == nil {
		t.Fatal("opened a missing file")
	}
}
