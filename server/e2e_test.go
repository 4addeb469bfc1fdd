package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openai/openai-go"
	"github.com/openai/openai-go/option"

	"svc/internal/proctest"
	"svc/internal/testenv"
	"svc/server"
	"svc/shards/chattmpl"
	"svc/shards/gguf"
	"svc/shards/tokenizer"
)

// TestEndToEnd is the local variant as a user runs it: the svc binary,
// three `svc node` processes holding different blocks of a model, a
// `svc serve --bootstrap` gateway, and the OpenAI Go SDK as the client.
// Every answer must equal `svc generate` (one process) on the same prompt,
// token for token.
func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test: builds svc and runs processes (not in -short)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	bin := proctest.Build(t, "./cmd/svc")
	t0 := time.Now()
	defer func() { t.Logf("total %.1fs", time.Since(t0).Seconds()) }()
	stories := testenv.Path(t, "models", "stories260K.gguf")

	// Three nodes of stories260K, each with a short record TTL so that a
	// killed node vanishes fast; the first is everybody's bootstrap peer.
	ttl := []string{"--record-ttl", "6s"}
	n0 := startNode(t, ctx, bin, stories, "0:2", nil, ttl...)
	boot := n0.addrs
	n1 := startNode(t, ctx, bin, stories, "2:4", boot, ttl...)
	n2 := startNode(t, ctx, bin, stories, "4:5", boot, ttl...)
	gw := startGateway(t, ctx, bin, boot)
	client := openai.NewClient(option.WithBaseURL(gw.url+"/v1/"), option.WithAPIKey("any-key-works"), option.WithMaxRetries(0))
	waitListed(t, gw.url, "stories260K", true, 60*time.Second)
	t.Logf("gateway serves at %.1fs", time.Since(t0).Seconds())

	t.Run("stories260K equals svc generate", func(t *testing.T) {
		checkModel(t, ctx, bin, client, stories, 48)

		// Text completion through the SDK, and the gateway's default model.
		out := proctest.MustRun(t, proctest.Cmd{Path: bin, Args: []string{"generate", "--model", stories, "--prompt", "Once upon a time", "-n", "30", "--json"}})
		var g struct {
			CompletionTokens []int32 `json:"completion_tokens"`
		}
		if err := json.Unmarshal([]byte(out.Stdout), &g); err != nil {
			t.Fatal(err)
		}
		f, err := gguf.Open(stories)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		tok, err := tokenizer.FromGGUF(f)
		if err != nil {
			t.Fatal(err)
		}
		cr, err := client.Completions.New(ctx, openai.CompletionNewParams{
			Model:     "stories260K",
			Prompt:    openai.CompletionNewParamsPromptUnion{OfString: openai.String("Once upon a time")},
			MaxTokens: openai.Int(30),
		})
		if err != nil {
			t.Fatal(err)
		}
		if want := pieces(tok, g.CompletionTokens); cr.Choices[0].Text != want || int(cr.Usage.CompletionTokens) != len(g.CompletionTokens) {
			t.Errorf("completion %q (%d tokens), svc generate %q (%d)", cr.Choices[0].Text, cr.Usage.CompletionTokens, want, len(g.CompletionTokens))
		}
		// A batch of prompts: one choice per prompt, each what svc
		// generate gives for it.
		batch := []string{"Once upon a time", "The dog", "A little girl"}
		br, err := client.Completions.New(ctx, openai.CompletionNewParams{
			Model:     "stories260K",
			Prompt:    openai.CompletionNewParamsPromptUnion{OfArrayOfStrings: batch},
			MaxTokens: openai.Int(30),
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(br.Choices) != len(batch) {
			t.Fatalf("batch of %d prompts: %d choices", len(batch), len(br.Choices))
		}
		total := 0
		for i, p := range batch {
			out := proctest.MustRun(t, proctest.Cmd{Path: bin, Args: []string{"generate", "--model", stories, "--prompt", p, "-n", "30", "--json"}})
			var g struct {
				CompletionTokens []int32 `json:"completion_tokens"`
			}
			if err := json.Unmarshal([]byte(out.Stdout), &g); err != nil {
				t.Fatal(err)
			}
			if c := br.Choices[i]; int(c.Index) != i || c.Text != pieces(tok, g.CompletionTokens) {
				t.Errorf("batch choice %d (index %d): %q, svc generate %q", i, c.Index, c.Text, pieces(tok, g.CompletionTokens))
			}
			total += len(g.CompletionTokens)
		}
		if int(br.Usage.CompletionTokens) != total {
			t.Errorf("batch usage %+v, svc generate made %d tokens", br.Usage, total)
		}
		resp, err := client.Chat.Completions.New(ctx, chatParams("", 4))
		if err != nil || resp.Model != "stories260K" {
			t.Errorf("request without a model: %v", err)
		}
	})

	t.Run("20 concurrent streams", func(t *testing.T) {
		want := expected(t, ctx, bin, stories, chatMessages, 24)
		var wg sync.WaitGroup
		errs := make(chan error, 20)
		for i := 0; i < 20; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got, err := streamChat(ctx, client, "stories260K", 24)
				if err != nil {
					errs <- err
					return
				}
				if got.text != want.text || got.finish != "stop" || got.usage != want.usage() {
					errs <- fmt.Errorf("stream gave %q (%s, %+v), want %q (stop, %+v)", got.text, got.finish, got.usage, want.text, want.usage())
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		// Every session is closed on every node afterwards (a generous
		// bound: nodes notice closed streams late on a loaded machine).
		deadline := time.Now().Add(30 * time.Second)
		for {
			open := 0
			for _, n := range []*proc{n0, n1, n2} {
				open += n.sessionsOpen(t)
			}
			if open == 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d sessions still open on the nodes", open)
			}
			time.Sleep(100 * time.Millisecond)
		}
	})

	t.Run("a missing block range makes the model incomplete, and back", func(t *testing.T) {
		start := time.Now()
		if err := n2.Kill(); err != nil {
			t.Fatal(err)
		}
		waitListed(t, gw.url, "stories260K", false, 70*time.Second)
		t.Logf("model left /v1/models %.1fs after its only [4,5) node was killed", time.Since(start).Seconds())
		_, err := client.Chat.Completions.New(ctx, chatParams("stories260K", 4))
		var apiErr *openai.Error
		if !errors.As(err, &apiErr) || apiErr.StatusCode != 503 || apiErr.Code != "model_incomplete" {
			t.Fatalf("request for the incomplete model: %v, want 503 model_incomplete", err)
		}
		start = time.Now()
		startNode(t, ctx, bin, stories, "4:5", boot, ttl...)
		waitListed(t, gw.url, "stories260K", true, 70*time.Second)
		t.Logf("model back %.1fs after a new [4,5) node started", time.Since(start).Seconds())
		checkModel(t, ctx, bin, client, stories, 8)
	})

	t.Run("svc serve --model runs its own swarm", func(t *testing.T) {
		if res, err := proctest.Run(ctx, proctest.Cmd{Path: bin, Args: []string{"serve", "--nodes", "0"}}); err != nil || res.Code != 2 {
			t.Errorf("svc serve --nodes 0: %v, exit code %d, want 2", err, res.Code)
		}
		own := &proc{Proc: proctest.Start(t, proctest.Cmd{Path: bin, Name: "serve --model", Grace: 10 * time.Second,
			Args: []string{"serve", "--model", stories, "--listen", "127.0.0.1:0", "--threads", "1"}})}
		own.url = own.waitAPI(t, ctx)
		waitListed(t, own.url, "stories260K", true, 10*time.Second)
		c := openai.NewClient(option.WithBaseURL(own.url+"/v1/"), option.WithAPIKey("x"), option.WithMaxRetries(0))
		p := chatParams("", 8) // no model: the first --model is the default
		resp, err := c.Chat.Completions.New(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		w := expected(t, ctx, bin, stories, chatMessages, 8)
		if resp.Model != "stories260K" || resp.Choices[0].Message.Content != w.text {
			t.Errorf("default model answered %q as %s, want %q", resp.Choices[0].Message.Content, resp.Model, w.text)
		}
		own.stop(t)
		if code := own.ExitCode(); code != 0 {
			t.Errorf("svc serve exited with %d after SIGTERM:\n%s", code, own.Output())
		}
	})

	// Every other model: three nodes each, a few models at a time, through
	// the same gateway.
	var others []string
	for _, p := range testenv.Models(t) {
		if p != stories {
			others = append(others, p)
		}
	}
	const batch = 8
	for i := 0; i < len(others); i += batch {
		group := others[i:min(i+batch, len(others))]
		var nodes []*proc
		for _, path := range group {
			for _, r := range threeRanges(t, path) {
				nodes = append(nodes, launchNode(t, bin, path, r, boot))
			}
		}
		for _, n := range nodes {
			n.ready(t, ctx)
		}
		t.Logf("batch nodes ready at %.1fs", time.Since(t0).Seconds())
		for _, path := range group {
			name := strings.TrimSuffix(filepath.Base(path), ".gguf")
			t.Run(name+" equals svc generate", func(t *testing.T) {
				waitListed(t, gw.url, name, true, 60*time.Second)
				checkModel(t, ctx, bin, client, path, 8)
			})
		}
		t.Logf("batch checked at %.1fs", time.Since(t0).Seconds())
		for _, n := range nodes {
			n.stop(t)
		}
		t.Logf("batch stopped at %.1fs", time.Since(t0).Seconds())
	}
}

var chatMessages = []chattmpl.Message{
	{Role: "system", Content: "You are a storyteller."},
	{Role: "user", Content: "Tell me about a little dog."},
}

func chatParams(model string, maxTokens int) openai.ChatCompletionNewParams {
	return openai.ChatCompletionNewParams{
		Model: model,
		Messages: []openai.ChatCompletionMessageParamUnion{
			openai.SystemMessage(chatMessages[0].Content),
			openai.UserMessage(chatMessages[1].Content),
		},
		MaxTokens:   openai.Int(int64(maxTokens)),
		Temperature: openai.Float(0.7), // accepted and ignored: decoding is greedy
	}
}

// want is what `svc generate` computed for a prompt.
type want struct {
	prompt     []int32
	completion []int32 // without the stop token
	text       string
	finish     string
}

func (w want) usage() usage {
	return usage{len(w.prompt), len(w.completion), len(w.prompt) + len(w.completion)}
}

type usage struct{ prompt, completion, total int }

// expected renders the chat as the API does and runs `svc generate --json`
// on the rendered prompt in one process.
func expected(t *testing.T, ctx context.Context, bin, path string, msgs []chattmpl.Message, maxTokens int) want {
	t.Helper()
	f, err := gguf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	text, ids, err := server.ChatPrompt(f, msgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := proctest.MustRun(t, proctest.Cmd{Path: bin, Args: []string{"generate", "--model", path, "--prompt", text,
		"-n", strconv.Itoa(maxTokens), "--json"}})
	var g struct {
		PromptTokens     []int32 `json:"prompt_tokens"`
		CompletionTokens []int32 `json:"completion_tokens"`
		FinishReason     string  `json:"finish_reason"`
	}
	if err := json.Unmarshal([]byte(out.Stdout), &g); err != nil {
		t.Fatalf("svc generate --json: %v\n%s", err, out.Stdout)
	}
	if fmt.Sprint(g.PromptTokens) != fmt.Sprint(ids) {
		t.Fatalf("svc generate tokenized the rendered prompt as %v, the API as %v", g.PromptTokens, ids)
	}
	tok, err := tokenizer.FromGGUF(f)
	if err != nil {
		t.Fatal(err)
	}
	w := want{prompt: ids, completion: g.CompletionTokens, finish: g.FinishReason}
	if w.finish == "stop" && len(w.completion) > 0 && tok.IsEOG(w.completion[len(w.completion)-1]) {
		w.completion = w.completion[:len(w.completion)-1] // the stop token is not part of the answer
	}
	w.text = pieces(tok, w.completion)
	return w
}

// pieces is the API's text for generated ids: the tokens' pieces, control
// tokens as nothing.
func pieces(tok *tokenizer.Tokenizer, ids []int32) string {
	dec := tok.NewStreamDecoderWith(tokenizer.StreamOptions{Raw: true, DecodeOptions: tokenizer.DecodeOptions{SkipSpecial: true}})
	var b strings.Builder
	for _, id := range ids {
		b.WriteString(dec.Add(id))
	}
	b.WriteString(dec.Flush())
	return b.String()
}

// checkModel asks for the same chat completion non-streamed and streamed
// and compares both with `svc generate`.
func checkModel(t *testing.T, ctx context.Context, bin string, client openai.Client, path string, maxTokens int) {
	t.Helper()
	name := strings.TrimSuffix(filepath.Base(path), ".gguf")
	w := expected(t, ctx, bin, path, chatMessages, maxTokens)

	resp, err := client.Chat.Completions.New(ctx, chatParams(name, maxTokens))
	if err != nil {
		t.Fatalf("chat completion: %v", err)
	}
	if !strings.HasPrefix(resp.ID, "chatcmpl-") || resp.Model != name || len(resp.Choices) != 1 {
		t.Fatalf("response %s", resp.RawJSON())
	}
	c := resp.Choices[0]
	got := usage{int(resp.Usage.PromptTokens), int(resp.Usage.CompletionTokens), int(resp.Usage.TotalTokens)}
	if c.Message.Content != w.text || c.FinishReason != w.finish || got != w.usage() || c.Message.Role != "assistant" {
		t.Errorf("%s: API gave %q (%s, %+v)\nsvc generate: %q (%s, %+v)", name, c.Message.Content, c.FinishReason, got, w.text, w.finish, w.usage())
	}

	s, err := streamChat(ctx, client, name, maxTokens)
	if err != nil {
		t.Fatalf("streamed chat completion: %v", err)
	}
	// SPEC §4: a stream's final chunk says stop whatever ended it.
	if s.text != w.text || s.finish != "stop" || s.usage != w.usage() {
		t.Errorf("%s: stream gave %q (%s, %+v)\nsvc generate: %q (stop, %+v)", name, s.text, s.finish, s.usage, w.text, w.usage())
	}
}

type streamed struct {
	text   string
	finish string
	usage  usage
}

// streamChat streams a chat completion with the SDK, checking the chunk
// sequence: role first, then content, then a finish reason, then usage.
func streamChat(ctx context.Context, client openai.Client, model string, maxTokens int) (streamed, error) {
	p := chatParams(model, maxTokens)
	p.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
	st := client.Chat.Completions.NewStreaming(ctx, p)
	defer st.Close()
	var out streamed
	var b strings.Builder
	i := 0
	for st.Next() {
		ch := st.Current()
		if !strings.HasPrefix(ch.ID, "chatcmpl-") || ch.Object != "chat.completion.chunk" {
			return out, fmt.Errorf("chunk %d: %s", i, ch.RawJSON())
		}
		if len(ch.Choices) == 0 {
			// The include_usage chunk comes last, after the finish reason.
			if out.finish == "" {
				return out, fmt.Errorf("usage chunk before the finish reason")
			}
			out.usage = usage{int(ch.Usage.PromptTokens), int(ch.Usage.CompletionTokens), int(ch.Usage.TotalTokens)}
		} else {
			d := ch.Choices[0]
			if i == 0 && d.Delta.Role != "assistant" {
				return out, fmt.Errorf("first chunk has no assistant role: %s", ch.RawJSON())
			}
			if out.finish != "" {
				return out, fmt.Errorf("chunk after the finish reason: %s", ch.RawJSON())
			}
			b.WriteString(d.Delta.Content)
			out.finish = d.FinishReason
		}
		i++
	}
	if err := st.Err(); err != nil {
		return out, err
	}
	out.text = b.String()
	return out, nil
}

// threeRanges splits a model's blocks over three nodes.
func threeRanges(t *testing.T, path string) []string {
	t.Helper()
	f, err := gguf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	arch, err := f.Architecture()
	if err != nil {
		t.Fatal(err)
	}
	blocks, ok := f.Int(arch + ".block_count")
	if !ok || blocks < 3 {
		t.Fatalf("%s: %d blocks, want at least 3", path, blocks)
	}
	b := int(blocks)
	return []string{fmt.Sprintf("0:%d", b/3), fmt.Sprintf("%d:%d", b/3, 2*b/3), fmt.Sprintf("%d:%d", 2*b/3, b)}
}

func TestMain(m *testing.M) { proctest.Main(m) }

// proc is a running svc process and what it printed once ready.
type proc struct {
	*proctest.Proc
	addrs []string // a node's multiaddrs (its stdout)
	url   string   // a gateway's API base, or a node's metrics URL
}

var (
	metricsLine = regexp.MustCompile(`metrics listening`)
	apiLine     = regexp.MustCompile(`API listening.*url=(http://\S+)/v1`)
)

func startNode(t *testing.T, ctx context.Context, bin, path, blocks string, boot []string, extra ...string) *proc {
	t.Helper()
	p := launchNode(t, bin, path, blocks, boot, extra...)
	p.ready(t, ctx)
	return p
}

// launchNode starts a node process without waiting for it to be online.
func launchNode(t *testing.T, bin, path, blocks string, boot []string, extra ...string) *proc {
	t.Helper()
	args := []string{"node", "--model", path, "--blocks", blocks, "--listen", "/ip4/127.0.0.1/tcp/0",
		"--metrics", "127.0.0.1:0", "--threads", "1"}
	for _, b := range boot {
		args = append(args, "--bootstrap", b)
	}
	args = append(args, extra...)
	name := fmt.Sprintf("node %s [%s]", filepath.Base(path), blocks)
	return &proc{Proc: proctest.Start(t, proctest.Cmd{Path: bin, Name: name, Args: args, Grace: 10 * time.Second})}
}

// ready waits until a node is online: it prints its metrics URL and then
// its multiaddr.
func (p *proc) ready(t *testing.T, ctx context.Context) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	var err error
	if p.url, err = p.WaitURL(ctx, metricsLine); err != nil {
		t.Fatal(err)
	}
	addr, err := p.WaitMultiaddr(ctx)
	if err != nil {
		t.Fatal(err)
	}
	p.addrs = []string{addr}
}

func startGateway(t *testing.T, ctx context.Context, bin string, boot []string) *proc {
	t.Helper()
	args := []string{"serve", "--listen", "127.0.0.1:0", "--default-model", "stories260K"}
	for _, b := range boot {
		args = append(args, "--bootstrap", b)
	}
	p := &proc{Proc: proctest.Start(t, proctest.Cmd{Path: bin, Name: "gateway", Args: args, Grace: 10 * time.Second})}
	p.url = p.waitAPI(t, ctx)
	return p
}

func (p *proc) waitAPI(t *testing.T, ctx context.Context) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	u, err := p.WaitMatch(ctx, apiLine)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// stop ends the process with SIGTERM and fails the test if it needed
// SIGKILL.
func (p *proc) stop(t *testing.T) {
	t.Helper()
	if err := p.Terminate(10 * time.Second); err != nil {
		t.Error(err)
	}
}

// sessionsOpen scrapes a node's open-session gauge.
func (p *proc) sessionsOpen(t *testing.T) int {
	t.Helper()
	v, err := proctest.Metric(t.Context(), p.url, "svc_node_sessions_open")
	if err != nil {
		t.Fatal(err)
	}
	return int(v)
}

// waitListed waits until GET /v1/models lists (or stops listing) a model.
func waitListed(t *testing.T, base, name string, listed bool, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		resp, err := http.Get(base + "/v1/models")
		if err == nil {
			var list struct {
				Data []struct {
					ID string `json:"id"`
				} `json:"data"`
			}
			err = json.NewDecoder(resp.Body).Decode(&list)
			resp.Body.Close()
			found := false
			for _, m := range list.Data {
				found = found || m.ID == name
			}
			if err == nil && found == listed {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("model %s listed=%v not reached within %s (last error %v)", name, listed, limit, err)
		}
		time.Sleep(250 * time.Millisecond)
	}
}
