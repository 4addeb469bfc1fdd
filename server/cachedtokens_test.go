package server

import (
	"context"
	"testing"
	"time"

	"github.com/openai/openai-go"
	"github.com/openai/openai-go/option"

	"svc/bench"
	"svc/internal/swarmtest"
	"svc/internal/testenv"
	"svc/p2p"
)

// promptCacheHits reads a node's svc_node_prompt_cache_hits_total.
func promptCacheHits(t *testing.T, n *p2p.Node) float64 {
	t.Helper()
	mfs, err := n.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == "svc_node_prompt_cache_hits_total" {
			return mf.GetMetric()[0].GetCounter().GetValue()
		}
	}
	t.Fatal("no svc_node_prompt_cache_hits_total")
	return 0
}

const cacheChatText = "Tell me about a little dog."

// cacheChat is a chat completion request for up to maxTokens tokens.
func cacheChat(maxTokens int) openai.ChatCompletionNewParams {
	return openai.ChatCompletionNewParams{Model: storiesName, MaxTokens: openai.Int(int64(maxTokens)),
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(cacheChatText)}}
}

// checkCached checks usage as the official SDK parsed it: prompt tokens
// as the API counts them, prompt_tokens_details present, and cached_tokens
// equal to want (-1: all of the prompt).
func checkCached(t *testing.T, what string, u openai.CompletionUsage, promptTokens int, want int) {
	t.Helper()
	if want < 0 {
		want = promptTokens
	}
	if int(u.PromptTokens) != promptTokens || !u.JSON.PromptTokensDetails.Valid() || int(u.PromptTokensDetails.CachedTokens) != want {
		t.Errorf("%s: usage %s: want %d prompt tokens, %d of them cached", what, u.RawJSON(), promptTokens, want)
	}
}

// TestCachedTokens asks a real two-node swarm through the local API, with
// the official SDK, for the same chat and the same completion twice each:
// the first time the nodes compute the prompt (cached_tokens 0), the second
// they answer it from their prompt caches (cached_tokens = prompt_tokens),
// in a whole answer and in a stream's include_usage chunk; the API's
// svc_api_cached_prompt_tokens_total adds up what usage reported.
func TestCachedTokens(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	path := testenv.Path(t, "models", "stories260K.gguf")
	sw := startSwarm(t, path, [][2]int{{0, 2}, {2, 5}})
	sw.WaitServed(t, storiesName)
	ts := startServer(t, Config{Backend: sw.Router, DefaultModel: storiesName})
	client := openai.NewClient(option.WithBaseURL(ts.URL+"/v1/"), option.WithAPIKey("x"), option.WithMaxRetries(0))
	_, prompt := swarmChatPrompt(t, sw, []map[string]string{{"role": "user", "content": cacheChatText}})

	first, err := client.Chat.Completions.New(ctx, cacheChat(8))
	if err != nil {
		t.Fatal(err)
	}
	checkCached(t, "first chat", first.Usage, len(prompt), 0)
	again, err := client.Chat.Completions.New(ctx, cacheChat(8))
	if err != nil {
		t.Fatal(err)
	}
	checkCached(t, "repeated chat", again.Usage, len(prompt), -1)
	if again.Choices[0].Message.Content != first.Choices[0].Message.Content {
		t.Errorf("repeated chat says %q, the first %q", again.Choices[0].Message.Content, first.Choices[0].Message.Content)
	}

	p := cacheChat(8)
	p.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
	st := client.Chat.Completions.NewStreaming(ctx, p)
	usageChunks := 0
	for st.Next() {
		if ch := st.Current(); ch.JSON.Usage.Valid() {
			usageChunks++
			checkCached(t, "streamed chat", ch.Usage, len(prompt), -1)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if err := st.Err(); err != nil || usageChunks != 1 {
		t.Fatalf("stream: %d usage chunks, error %v", usageChunks, err)
	}

	cp := openai.CompletionNewParams{Model: storiesName, MaxTokens: openai.Int(6),
		Prompt: openai.CompletionNewParamsPromptUnion{OfString: openai.String("Once upon a time")}}
	completionPrompt := 0
	for i, want := range []int{0, -1} {
		c, err := client.Completions.New(ctx, cp)
		if err != nil {
			t.Fatal(err)
		}
		checkCached(t, []string{"first completion", "repeated completion"}[i], c.Usage, int(c.Usage.PromptTokens), want)
		if completionPrompt = int(c.Usage.PromptTokens); completionPrompt == 0 {
			t.Error("completion: 0 prompt tokens")
		}
	}
	// The repeated chat, the stream and the repeated completion.
	mfs, err := ts.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var counted float64
	for _, mf := range mfs {
		if mf.GetName() == "svc_api_cached_prompt_tokens_total" {
			for _, m := range mf.GetMetric() {
				counted += m.GetCounter().GetValue()
			}
		}
	}
	if want := 2*len(prompt) + completionPrompt; counted != float64(want) {
		t.Errorf("svc_api_cached_prompt_tokens_total = %v, want %d", counted, want)
	}
}

// TestCachedTokensPartialChain runs a chain whose first node has a prompt
// cache and whose second has none: the repeated prompt is answered from
// the first node's cache, but the second computes it, so no token of it
// was served from a cache and cached_tokens stays 0.
func TestCachedTokensPartialChain(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	path := testenv.Path(t, "models", "stories260K.gguf")
	sw := startSwarm(t, path, [][2]int{{0, 2}})
	sw.Nodes = append(sw.Nodes, swarmtest.Node(t, p2p.NodeConfig{Model: sw.Model, First: 2, Last: 5, Bootstrap: sw.Boot, PromptCacheBytes: -1}))
	sw.WaitServed(t, storiesName)
	ts := startServer(t, Config{Backend: sw.Router, DefaultModel: storiesName})
	client := openai.NewClient(option.WithBaseURL(ts.URL+"/v1/"), option.WithAPIKey("x"), option.WithMaxRetries(0))

	before := promptCacheHits(t, sw.Nodes[0])
	for i := range 2 {
		c, err := client.Chat.Completions.New(ctx, cacheChat(4))
		if err != nil {
			t.Fatal(err)
		}
		checkCached(t, []string{"first chat", "repeated chat"}[i], c.Usage, int(c.Usage.PromptTokens), 0)
	}
	if got := promptCacheHits(t, sw.Nodes[0]) - before; got != 1 {
		t.Errorf("the first node answered %v prompts from its cache, want 1 (the repeated one)", got)
	}
}

// TestBenchLoadCachedShare runs `svc bench load`'s driver against the API
// on a real swarm: with one prompt for every request, the warm-up computes
// it and every counted request is answered from the nodes' caches (100%);
// with distinct prompts none is (0%).
func TestBenchLoadCachedShare(t *testing.T) {
	path := testenv.Path(t, "models", "stories260K.gguf")
	sw := startSwarm(t, path, [][2]int{{0, 2}, {2, 5}})
	sw.WaitServed(t, storiesName)
	ts := startServer(t, Config{Backend: sw.Router, DefaultModel: storiesName})
	for _, distinct := range []bool{false, true} {
		rep, err := bench.RunLoad(t.Context(), bench.LoadOptions{URL: ts.URL, Model: storiesName, Concurrency: []int{2}, Requests: 4,
			MaxTokens: 4, Warmup: 1, Prompt: "Tell me about a little cat.", DistinctPrompts: distinct, Timeout: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		lv := rep.Levels[0]
		share, ok := lv.CachedShare()
		want := map[bool]float64{false: 1, true: 0}[distinct]
		if lv.Succeeded != 4 || lv.CacheReported != 4 || !ok || share != want {
			t.Errorf("distinct prompts %v: level %+v: cached share %v (reported %v), want %v", distinct, lv, share, ok, want)
		}
	}
}
