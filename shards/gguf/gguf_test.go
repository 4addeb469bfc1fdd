package gguf

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"svc/internal/testenv"
)

func allFixtures(t testing.TB) []string {
	dir := testenv.SharedDir(t)
	var files []string
	for _, pat := range []string{"models/*.gguf", "tokenizer/*.gguf"} {
		m, _ := filepath.Glob(filepath.Join(dir, pat))
		files = append(files, m...)
	}
	if len(files) < 20 {
		t.Fatalf("expected the shared GGUF fixtures, found %d files", len(files))
	}
	return files
}

func TestOpenFixtures(t *testing.T) {
	for _, path := range allFixtures(t) {
		f, err := Open(path)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if _, err := f.Architecture(); err != nil {
			t.Errorf("%s: %v", path, err)
		}
		if _, ok := f.Strings("tokenizer.ggml.tokens"); !ok {
			t.Errorf("%s: no token list", path)
		}
		for i := range f.Tensors {
			ti := &f.Tensors[i]
			if got := uint64(len(f.Data(ti))); got != ti.Size {
				t.Errorf("%s: %s: data %d bytes, want %d", path, ti.Name, got, ti.Size)
			}
		}
		if err := f.Close(); err != nil {
			t.Error(err)
		}
	}
}

func TestModelMetadata(t *testing.T) {
	f, err := Open(testenv.Path(t, "models", "stories260K.gguf"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if a, _ := f.Architecture(); a != "llama" {
		t.Errorf("architecture %q", a)
	}
	if n, ok := f.Int("llama.block_count"); !ok || n != 5 {
		t.Errorf("block_count %d %v", n, ok)
	}
	if n, ok := f.Int("llama.embedding_length"); !ok || n != 64 {
		t.Errorf("embedding_length %d %v", n, ok)
	}
	toks, _ := f.Strings("tokenizer.ggml.tokens")
	if len(toks) != 512 {
		t.Errorf("vocab %d", len(toks))
	}
	ti, ok := f.Tensor("token_embd.weight")
	if !ok || ti.Dims[0] != 64 || ti.Dims[1] != 512 {
		t.Fatalf("token_embd %+v", ti)
	}
}

// build writes a small well-formed GGUF file with one F32 tensor.
func build(t testing.TB) []byte {
	var b bytes.Buffer
	le := binary.LittleEndian
	w := func(v any) { _ = binary.Write(&b, le, v) }
	str := func(s string) { w(uint64(len(s))); b.WriteString(s) }
	b.WriteString("GGUF")
	w(uint32(3))
	w(uint64(1)) // tensors
	w(uint64(2)) // kvs
	str("general.architecture")
	w(uint32(ValString))
	str("llama")
	str("tokenizer.ggml.tokens")
	w(uint32(ValArray))
	w(uint32(ValString))
	w(uint64(2))
	str("a")
	str("b")
	str("t")
	w(uint32(2))
	w(uint64(4))
	w(uint64(2))
	w(uint32(TypeF32))
	w(uint64(0))
	for b.Len()%32 != 0 {
		b.WriteByte(0)
	}
	for i := 0; i < 8; i++ {
		w(float32(i))
	}
	return b.Bytes()
}

func TestParseSynthetic(t *testing.T) {
	f, err := Parse(build(t))
	if err != nil {
		t.Fatal(err)
	}
	ti, ok := f.Tensor("t")
	if !ok || ti.Size != 32 || ti.Elements() != 8 {
		t.Fatalf("tensor %+v", ti)
	}
}

func TestDamagedFiles(t *testing.T) {
	good := build(t)
	cases := map[string]func([]byte) []byte{
		"bad magic":    func(b []byte) []byte { b[0] = 'X'; return b },
		"bad version":  func(b []byte) []byte { b[4] = 9; return b },
		"huge tensors": func(b []byte) []byte { binary.LittleEndian.PutUint64(b[8:], 1<<62); return b },
		"huge kvs":     func(b []byte) []byte { binary.LittleEndian.PutUint64(b[16:], 1<<62); return b },
		"truncated":    func(b []byte) []byte { return b[:len(b)-5] },
		"header only":  func(b []byte) []byte { return b[:30] },
		"empty":        func(b []byte) []byte { return nil },
	}
	for name, damage := range cases {
		c := append([]byte(nil), good...)
		if _, err := Parse(damage(c)); err == nil {
			t.Errorf("%s: parsed without error", name)
		} else if !errors.Is(err, ErrFormat) {
			t.Errorf("%s: error %v does not wrap ErrFormat", name, err)
		}
	}
	// Every truncation of a real header must fail cleanly.
	data, err := os.ReadFile(testenv.Path(t, "models", "stories260K.gguf"))
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < len(data); n += 1 + n/3 {
		if _, err := Parse(data[:n]); err == nil {
			t.Errorf("truncated to %d bytes: no error", n)
		}
	}
	// Flipping bytes in the header gives a file or an error, never a panic.
	f, _ := Parse(data)
	hdr := int(f.DataOffset())
	for i := 0; i < hdr; i += 7 {
		c := append([]byte(nil), data[:hdr+4096]...)
		c[i] ^= 0xff
		_, _ = Parse(c)
	}
}

func TestUnknownTensorTypeNamed(t *testing.T) {
	b := build(t)
	i := bytes.Index(b, []byte{1, 't'}) // name length low byte then name
	_ = i
	// The tensor type field follows name(8+1) + ndims(4) + dims(16).
	off := bytes.LastIndex(b[:200], []byte("t")) + 1 + 4 + 16
	binary.LittleEndian.PutUint32(b[off:], 99)
	_, err := Parse(b)
	if err == nil || !bytes.Contains([]byte(err.Error()), []byte(`"t"`)) || !bytes.Contains([]byte(err.Error()), []byte("unknown tensor type 99")) {
		t.Fatalf("error %v should name the tensor and the type", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add(build(f))
	for _, path := range allFixtures(f) {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		// Seeds keep the header and a little data: the parser's work is there.
		if pf, err := Parse(data); err == nil {
			n := int(pf.DataOffset()) + 256
			if n > len(data) {
				n = len(data)
			}
			if n <= 64<<10 { // small seeds keep the fuzzer fast
				f.Add(data[:n])
			}
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		pf, err := Parse(b)
		if err != nil {
			return
		}
		for i := range pf.Tensors {
			ti := &pf.Tensors[i]
			if uint64(len(pf.Data(ti))) != ti.Size {
				t.Fatalf("tensor %s: data size mismatch", ti.Name)
			}
		}
	})
}

func TestParseHeaderRoundTrip(t *testing.T) {
	f, err := Open(testenv.Path(t, "models", "mini-qwen2-chat-q8_0.gguf"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h, err := ParseHeader(append([]byte(nil), f.HeaderBytes()...))
	if err != nil {
		t.Fatal(err)
	}
	if len(h.KVs) != len(f.KVs) || len(h.Tensors) != len(f.Tensors) || !h.HeaderOnly() {
		t.Fatalf("header parse lost entries")
	}
	tmpl, ok := h.String("tokenizer.chat_template")
	if !ok || tmpl == "" {
		t.Fatal("chat template missing from header-only parse")
	}
	if h.Data(&h.Tensors[0]) != nil {
		t.Fatal("header-only file returned tensor data")
	}
}
