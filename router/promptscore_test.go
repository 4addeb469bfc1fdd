package router_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"

	"svc/internal/swarmtest"
	"svc/internal/testenv"
	"svc/p2p"
	"svc/p2p/wire"
	"svc/router"
)

// TestLongPromptLogprobs scores a prompt longer than one reply of logits
// rows could carry (the bound before the last hop scored the prompt
// itself) through a chain of two nodes, with one process's bits.
func TestLongPromptLogprobs(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	path := swarmtest.BigVocabModel(t)
	a := startNode(t, path, 0, 1, nil)
	b := startNode(t, path, 1, 2, a.Addrs())
	r := startRouter(t, a.Addrs())
	waitState(t, r, "bigvocab", router.StateServed, swarmtest.DefaultWaitTime)
	const vocab, n, k = 128256, 700, 5
	if old := wire.DefaultMaxPayload / (4 * vocab); n <= old {
		t.Fatalf("a prompt of %d tokens is within the old bound of %d", n, old)
	}
	if n > router.MaxPromptLogprobs(k) {
		t.Fatalf("a prompt of %d tokens is beyond MaxPromptLogprobs(%d) = %d", n, k, router.MaxPromptLogprobs(k))
	}
	prompt := make([]int32, n)
	for i := range prompt {
		prompt[i] = int32((i*7919 + 13) % vocab) // ids over the whole vocabulary
	}
	want := swarmtest.LocalLogprobs(t, path, prompt, 2, k)
	var gotPrompt []router.Token
	var got []router.Token
	req := router.GenerateRequest{Model: "bigvocab", Prompt: prompt, MaxTokens: 2, Logprobs: true, TopLogprobs: k,
		PromptLogprobs: func(p []router.Token) error { gotPrompt = p; return nil }}
	if _, err := r.Generate(ctx, req, func(tk router.Token) error { got = append(got, tk); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(gotPrompt) != n-1 {
		t.Fatalf("%d prompt positions for a prompt of %d", len(gotPrompt), n)
	}
	for i, tk := range gotPrompt {
		if tk.ID != prompt[i+1] || tk.Logprob != want.Prompt[i] || !slices.Equal(tk.Top, want.PromptTops[i][:k]) {
			t.Fatalf("prompt position %d: chain %+v, one process %v %v", i+1, tk, want.Prompt[i], want.PromptTops[i])
		}
	}
	if len(got) != len(want.Steps) {
		t.Fatalf("%d tokens, one process %d", len(got), len(want.Steps))
	}
	for i, tk := range got {
		if w := want.Steps[i]; tk.ID != w.ID || tk.Logprob != w.Top[0].Logprob || !slices.Equal(tk.Top, w.Top[:k]) {
			t.Fatalf("token %d: chain %+v, one process %+v", i, tk, w)
		}
	}
	t.Logf("%d prompt positions scored on the last node; the last %v", len(gotPrompt), gotPrompt[n-2])
	swarmtest.WaitSessions(t, 0, a, b)
}

// TestPromptLogprobsOldNode: a last hop that predates prompt scoring
// ignores wire.Step.score and answers with the top rows alone; the router
// notices the missing scores and fails, saying so, instead of returning
// a prompt without its log-probabilities. The same step through a current
// node gives them.
func TestPromptLogprobsOldNode(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	path := testenv.Path(t, "models", "stories260K.gguf")
	n := startNode(t, path, 0, 5, nil)
	r := startRouter(t, n.Addrs())
	c := swarmtest.Client(t, n.Addrs())
	// An older node's answer to a step: its argmax and top rows (scores
	// are a field it does not know).
	old := swarmtest.Client(t, nil)
	old.Host.SetStreamHandler(p2p.ForwardProtocol, func(s network.Stream) {
		defer s.Close()
		for {
			var req wire.Request
			if _, err := wire.ReadFrame(s, &req, 1<<20); err != nil {
				return
			}
			resp := &wire.Response{Code: wire.Code_OK}
			if st := req.GetStep(); st != nil {
				for range st.N {
					resp.Argmax = append(resp.Argmax, 7)
					resp.Top = append(resp.Top, &wire.TopRow{Items: []*wire.TokenLogprob{{Id: 7, Logprob: -0.5}}})
				}
			}
			if err := wire.WriteFrame(s, resp, nil); err != nil {
				return
			}
		}
	})
	c.Host.Peerstore().AddAddrs(old.Host.ID(), old.Host.Addrs(), time.Hour)
	const dim = 64 // stories260K's width
	want := swarmtest.LocalLogprobs(t, path, prompt, 1, 3)
	for _, tc := range []struct {
		what string
		peer peer.ID
		err  string
	}{
		{"current node", n.ID(), ""},
		{"older node", old.Host.ID(), "predates prompt scoring"},
	} {
		s, err := p2p.OpenSession(ctx, c.Host, tc.peer, p2p.SessionOptions{ID: "old-" + tc.what, Digest: n.Digest(), First: 0, Last: 5, MaxLength: 16, Dim: dim})
		if err != nil {
			t.Fatal(err)
		}
		toks, err := router.ScorePrompt(ctx, r, s, prompt, 3)
		_ = s.Close()
		if tc.err == "" {
			if err != nil || len(toks) != len(prompt)-1 {
				t.Fatalf("%s: %d prompt positions, %v", tc.what, len(toks), err)
			}
			for i, tk := range toks {
				if tk.Logprob != want.Prompt[i] || !slices.Equal(tk.Top, want.PromptTops[i][:3]) {
					t.Fatalf("%s: prompt position %d: %+v, one process %v %v", tc.what, i+1, tk, want.Prompt[i], want.PromptTops[i])
				}
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Fatalf("%s: %d prompt positions, error %v; want one saying %q", tc.what, len(toks), err, tc.err)
		}
		t.Logf("%s: %v", tc.what, err)
	}
}
