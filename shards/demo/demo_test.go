package demo

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"svc/internal/testenv"
	"svc/shards/gguf"
	"svc/shards/model"
	"svc/shards/modeltools"
	"svc/shards/textgen"
)

// TestDemoIsQuantizedFixture checks that the embedded model is exactly
// what "svc model quantize stories260K.gguf OUT Q8_0" writes today.
func TestDemoIsQuantizedFixture(t *testing.T) {
	in, err := gguf.Open(testenv.Path(t, "models", "stories260K.gguf"))
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	q80, err := modeltools.ParseFileType("Q8_0")
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := modeltools.Quantize(t.Context(), in, &want, modeltools.QuantizeOptions{Type: q80, Threads: 1}); err != nil {
		t.Fatal(err)
	}
	got, err := GGUF()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("embedded demo (%d bytes) differs from the Q8_0 quantization of the fixture (%d bytes); regenerate it as doc.go says", len(got), want.Len())
	}
	if len(compressed) >= 512<<10 {
		t.Errorf("embedded demo is %d bytes compressed, want well under 1 MB", len(compressed))
	}
}

// TestDemoTellsAStory installs the demo model twice into one directory
// (the second time changes nothing) and runs it: Q8_0 keeps stories260K's
// greedy opening.
func TestDemoTellsAStory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "models")
	path, err := Install(dir)
	if err != nil {
		t.Fatal(err)
	}
	st1, _ := os.Stat(path)
	if again, err := Install(dir); err != nil || again != path {
		t.Fatalf("second install: %q, %v", again, err)
	}
	st2, _ := os.Stat(path)
	if !st1.ModTime().Equal(st2.ModTime()) {
		t.Error("the second install rewrote the file")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("%d entries in the directory, want the model alone", len(ents))
	}
	m, err := model.Open(path, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	res, err := textgen.Run(t.Context(), m, textgen.Request{Prompt: "Once upon a time", MaxTokens: 8, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	if want := ", there was a little girl"; res.Text != want {
		t.Errorf("demo continues %q, want %q", res.Text, want)
	}
}
