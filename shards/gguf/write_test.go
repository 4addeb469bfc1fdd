package gguf

import (
	"bytes"
	"io"
	"reflect"
	"testing"

	"svc/internal/testenv"
)

// TestRewriteIdentical writes a fixture back out from its parsed form and
// checks the bytes are unchanged: the writer and reader agree on every
// value type the fixtures use.
func TestRewriteIdentical(t *testing.T) {
	for _, name := range []string{"stories260K.gguf", "mini-qwen2-q4_k_m.gguf", "mini-llama-q3_k_m.gguf"} {
		f, err := Open(testenv.Path(t, "models", name))
		if err != nil {
			t.Fatal(err)
		}
		specs := make([]TensorSpec, len(f.Tensors))
		for i, ti := range f.Tensors {
			specs[i] = TensorSpec{Name: ti.Name, Dims: ti.Dims, Type: ti.Type}
		}
		var buf bytes.Buffer
		err = Write(&buf, f.KVs, specs, f.Alignment, func(i int, w io.Writer) error {
			_, err := w.Write(f.Data(&f.Tensors[i]))
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		g, err := Parse(buf.Bytes())
		if err != nil {
			t.Fatalf("%s: reparse: %v", name, err)
		}
		if !reflect.DeepEqual(g.KVs, f.KVs) {
			t.Errorf("%s: metadata differs after rewrite", name)
		}
		for i := range f.Tensors {
			a, b := f.Tensors[i], g.Tensors[i]
			if a.Name != b.Name || a.Type != b.Type || !reflect.DeepEqual(a.Dims, b.Dims) || !bytes.Equal(f.Data(&a), g.Data(&b)) {
				t.Errorf("%s: tensor %s differs after rewrite", name, a.Name)
			}
		}
		f.Close()
	}
}
