package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"svc/internal/testenv"
	"svc/shards/gguf"
)

// execBenchCmd runs a command with args and returns stdout and stderr.
func execBenchCmd(t *testing.T, c *cobra.Command, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	c.SetOut(&out)
	c.SetErr(&errOut)
	c.SetArgs(args)
	c.SilenceUsage, c.SilenceErrors = true, true
	err := c.ExecuteContext(context.Background())
	return out.String(), errOut.String(), err
}

// TestSynthQuantizeBenchCommands chains the three commands on a tiny model:
// synth, quantize, then the engine benchmark in JSON.
func TestSynthQuantizeBenchCommands(t *testing.T) {
	dir := t.TempDir()
	vocab := testenv.Path(t, "models", "stories260K.gguf")
	f32 := filepath.Join(dir, "tiny-f32.gguf")
	out, _, err := execBenchCmd(t, newModelSynthCmd(), "--shape", "tiny", "--vocab", vocab, "--type", "F32", "--out", f32, "--seed", "5")
	if err != nil || !strings.Contains(out, "wrote") {
		t.Fatalf("synth: %q %v", out, err)
	}
	q := filepath.Join(dir, "tiny-q4_k_m.gguf")
	if out, _, err = execBenchCmd(t, newModelQuantizeCmd(), f32, q, "q4_k_m"); err != nil {
		t.Fatalf("quantize: %q %v", out, err)
	}
	f, err := gguf.Open(q)
	if err != nil {
		t.Fatal(err)
	}
	ti, _ := f.Tensor("output.weight")
	if ft, _ := f.Uint32("general.file_type"); ft != 15 || ti.Type != gguf.TypeQ6_K {
		t.Errorf("quantized file: file_type %d, output %v", ft, ti.Type)
	}
	f.Close()

	out, _, err = execBenchCmd(t, newBenchCmd(), "engine", "--model", q, "--threads", "2", "--prompt", "8", "--gen", "3", "--context", "20",
		"--bandwidth-mib", "8", "--bandwidth-runs", "1", "--json")
	if err != nil {
		t.Fatalf("bench engine: %v", err)
	}
	var res map[string]any
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("bench engine output %q: %v", out, err)
	}
	if res["model"] != "tiny-q4_k_m.gguf" || res["threads"] != 2.0 || res["context_tokens"] != 20.0 || !(res["decode_tokens_per_s"].(float64) > 0) {
		t.Errorf("bench engine result %v", res)
	}

	for _, args := range [][]string{
		{"--shape", "nope", "--vocab", vocab, "--type", "F32", "--out", f32},
		{"--shape", "tiny", "--vocab", vocab, "--type", "Q7", "--out", f32},
		{"--shape", "tiny", "--type", "F32", "--out", f32},
	} {
		if _, _, err := execBenchCmd(t, newModelSynthCmd(), args...); err == nil {
			t.Errorf("synth %v accepted", args)
		}
	}
	if _, _, err := execBenchCmd(t, newModelQuantizeCmd(), f32, q); err == nil {
		t.Error("quantize with two arguments accepted")
	}
	if _, _, err := execBenchCmd(t, newBenchCmd(), "engine"); err == nil {
		t.Error("bench engine without --model accepted")
	}
	if _, _, err := execBenchCmd(t, newBenchCmd(), "engine", "--model", q, "--prompt", "8", "--context", "4"); err == nil {
		t.Error("bench engine with --context shorter than --prompt accepted")
	}
}

func TestBenchLoadCommand(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for i := 0; i < 3; i++ {
			fmt.Fprintf(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"},\"finish_reason\":null}]}\n\n")
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	defer srv.Close()
	out, _, err := execBenchCmd(t, newBenchCmd(), "load", "--url", srv.URL, "--model", "m", "--concurrency", "1,2", "--requests", "3", "--max-tokens", "3", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Levels []struct {
			Concurrency  int `json:"concurrency"`
			Succeeded    int `json:"succeeded"`
			OutputTokens int `json:"output_tokens"`
		} `json:"levels"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%q: %v", out, err)
	}
	if len(rep.Levels) != 2 {
		t.Fatalf("levels %+v", rep.Levels)
	}
	for i, lv := range rep.Levels {
		if lv.Concurrency != i+1 || lv.Succeeded != 3 || lv.OutputTokens != 9 {
			t.Errorf("level %+v", lv)
		}
	}
	out, _, err = execBenchCmd(t, newBenchCmd(), "load", "--url", srv.URL, "--model", "m", "--concurrency", "2", "--requests", "2")
	if err != nil || !strings.Contains(out, "TTFT p50 ms") {
		t.Errorf("table %q (%v)", out, err)
	}
	for _, c := range []string{"0", "1,x", ""} {
		if _, _, err := execBenchCmd(t, newBenchCmd(), "load", "--url", srv.URL, "--concurrency", c); err == nil {
			t.Errorf("--concurrency %q accepted", c)
		}
	}
	if _, _, err := execBenchCmd(t, newBenchCmd(), "load", "--model", "m"); err == nil {
		t.Error("load without --url accepted")
	}
}
