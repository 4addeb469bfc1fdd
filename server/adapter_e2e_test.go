package server_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/openai/openai-go"
	"github.com/openai/openai-go/option"

	"svc/internal/proctest"
	"svc/internal/testenv"
	"svc/shards/gguf"
	"svc/shards/tokenizer"
)

// TestAdapterEndToEnd: two node processes hold stories260K's blocks with a
// LoRA adapter (svc node --adapter ad=FILE); the gateway lists both
// "stories260K" and "stories260K-ad", a completion for each equals svc
// generate without and with --adapter, token for token; when a node holding
// the adapter leaves, the adapter is no longer listed and the base (held by
// a third node without it) still is.
func TestAdapterEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test: builds svc and runs processes (not in -short)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	bin := proctest.Build(t, "./cmd/svc")
	stories := testenv.Path(t, "models", "stories260K.gguf")
	adapter := filepath.Join(t.TempDir(), "ad.gguf")
	proctest.MustRun(t, proctest.Cmd{Path: bin, Args: []string{"model", "synth-adapter", "--base", stories, "--out", adapter,
		"--rank", "8", "--alpha", "16", "--std", "0.03", "--seed", "9"}})

	ttl := []string{"--record-ttl", "6s", "--adapter", "ad=" + adapter}
	n0 := startNode(t, ctx, bin, stories, "0:3", nil, ttl...)
	n1 := startNode(t, ctx, bin, stories, "3:5", n0.addrs, ttl...)
	startNode(t, ctx, bin, stories, "0:5", n0.addrs, "--record-ttl", "6s") // the base alone
	gw := startGateway(t, ctx, bin, n0.addrs)
	client := openai.NewClient(option.WithBaseURL(gw.url+"/v1/"), option.WithAPIKey("any-key-works"), option.WithMaxRetries(0))
	waitListed(t, gw.url, "stories260K-ad", true, 60*time.Second)
	waitListed(t, gw.url, "stories260K", true, 60*time.Second)

	f, err := gguf.Open(stories)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tok, err := tokenizer.FromGGUF(f)
	if err != nil {
		t.Fatal(err)
	}
	local := func(extra ...string) []int32 {
		args := append([]string{"generate", "--model", stories, "--prompt", "Once upon a time", "-n", "30", "--json"}, extra...)
		out := proctest.MustRun(t, proctest.Cmd{Path: bin, Args: args})
		var g struct {
			CompletionTokens []int32 `json:"completion_tokens"`
		}
		if err := json.Unmarshal([]byte(out.Stdout), &g); err != nil {
			t.Fatal(err)
		}
		return g.CompletionTokens
	}
	withAd, without := local("--adapter", adapter), local()
	if pieces(tok, withAd) == pieces(tok, without) {
		t.Fatal("the adapter does not change svc generate's text")
	}
	for _, c := range []struct {
		model string
		want  []int32
	}{{"stories260K-ad", withAd}, {"stories260K", without}} {
		cr, err := client.Completions.New(ctx, openai.CompletionNewParams{
			Model:     openai.CompletionNewParamsModel(c.model),
			Prompt:    openai.CompletionNewParamsPromptUnion{OfString: openai.String("Once upon a time")},
			MaxTokens: openai.Int(30),
		})
		if err != nil {
			t.Fatalf("%s: %v", c.model, err)
		}
		if want := pieces(tok, c.want); cr.Choices[0].Text != want || int(cr.Usage.CompletionTokens) != len(c.want) || cr.Model != c.model {
			t.Errorf("%s: completion %q (%d tokens, model %q), svc generate %q (%d)", c.model, cr.Choices[0].Text, cr.Usage.CompletionTokens, cr.Model, want, len(c.want))
		}
	}

	// The only node holding blocks 3:5 with the adapter leaves: the adapter
	// is unlisted, the base (held by the third node) stays.
	if err := n1.Kill(); err != nil {
		t.Fatal(err)
	}
	waitListed(t, gw.url, "stories260K-ad", false, 60*time.Second)
	waitListed(t, gw.url, "stories260K", true, time.Second)
}
