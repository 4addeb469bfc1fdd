package main

import (
	"encoding/json"
	"testing"

	"svc/internal/testenv"
	"svc/shards/textgen"
)

// TestGenerateJSON checks the --json output of "svc generate": the
// reference continuation of stories260K and the timings split into the
// prompt pass and the decoding that follows.
func TestGenerateJSON(t *testing.T) {
	stories := testenv.Path(t, "models", "stories260K.gguf")
	out, err := runCmd(t, newGenerateCmd(), "--model", stories, "--prompt", "Once upon a time", "-n", "8", "--json", "--threads", "1")
	if err != nil {
		t.Fatal(err)
	}
	var res textgen.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("output %q: %v", out, err)
	}
	if got, want := res.Text, ", there was a little girl"; got != want {
		t.Errorf("text %q, want %q", got, want)
	}
	if len(res.PromptTokens) != 5 || len(res.CompletionTokens) != 8 {
		t.Errorf("%d prompt and %d completion tokens, want 5 and 8", len(res.PromptTokens), len(res.CompletionTokens))
	}
	tm := res.Timings
	if tm.PrefillMS <= 0 || tm.PrefillPerSecond <= 0 || tm.DecodeMS <= 0 || tm.DecodePerSecond <= 0 {
		t.Errorf("timings %+v: every figure must be positive", tm)
	}
}
