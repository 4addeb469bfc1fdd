package server

import (
	"fmt"
	"strings"
	"testing"

	"svc/internal/swarmtest"
	"svc/p2p/wire"
)

// TestLongEchoLogprobs scores, with echo and max_tokens 0, a prompt longer
// than one reply of logits rows could carry at a vocabulary of 128,256
// (the 400 before the last node scored prompts itself): one process's
// bits; only the context bounds such a prompt now.
func TestLongEchoLogprobs(t *testing.T) {
	path := swarmtest.BigVocabModel(t)
	sw := startSwarm(t, path, [][2]int{{0, 1}, {1, 2}})
	sw.WaitServed(t, "bigvocab")
	ts := startServer(t, Config{Backend: sw.Router, DefaultModel: "bigvocab"})
	tok := swarmTokenizer(t, sw)
	const vocab, n, k = 128256, 700, 5
	if old := wire.DefaultMaxPayload / (4 * vocab); n <= old {
		t.Fatalf("a prompt of %d tokens is within the old bound of %d", n, old)
	}
	ids := make([]int32, n)
	strs := make([]string, n)
	for i := range ids {
		ids[i] = int32((i*7919 + 13) % 128000) // ordinary tokens over the whole vocabulary
		strs[i] = fmt.Sprint(ids[i])
	}
	want := swarmtest.LocalLogprobs(t, path, ids, 1, k)
	want.Steps = nil
	body := fmt.Sprintf(`{"prompt":[%s],"max_tokens":0,"echo":true,"logprobs":%d}`, strings.Join(strs, ","), k)
	b := okBody(t, postJSON(t, ts.URL+"/v1/completions", body))
	c := decodeResp(t, b)
	if c.Usage.PromptTokens != n || c.Usage.CompletionTokens != 0 {
		t.Fatalf("usage %+v", c.Usage)
	}
	var lp lpTextLogprobs
	unmarshalNumbers(t, *decodeLP(t, b).Choices[0].Logprobs, &lp)
	checkTextLogprobs(t, "long echo", tok, lp, ids, want, k, *c.Choices[0].Text)

	// Beyond the context: refused, naming it.
	long := fmt.Sprintf(`{"prompt":[%s],"max_tokens":0,"echo":true,"logprobs":%d}`, strings.Repeat("13,", 1024)+"13", k)
	e := checkError(t, "prompt beyond the context", postJSON(t, ts.URL+"/v1/completions", long), 400, codeInvalidRequest)
	if !strings.Contains(e.Message, "context") {
		t.Fatalf("refusal of a prompt beyond the context: %q", e.Message)
	}
}
