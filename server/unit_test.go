package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"svc/internal/testenv"
	"svc/router"
	"svc/shards/chattmpl"
	"svc/shards/gguf"
	"svc/shards/tokenizer"
)

func storiesTokenizer(t *testing.T) (*tokenizer.Tokenizer, map[string]int32) {
	t.Helper()
	f, err := gguf.Open(testenv.Path(t, "models", "stories260K.gguf"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	tok, err := tokenizer.FromGGUF(f)
	if err != nil {
		t.Fatal(err)
	}
	toks, _ := f.Strings("tokenizer.ggml.tokens")
	ids := map[string]int32{}
	for i, s := range toks {
		ids[s] = int32(i)
	}
	return tok, ids
}

// byteIDs spells text with the vocabulary's byte-fallback tokens, so that
// every multi-byte character is split across tokens.
func byteIDs(t *testing.T, ids map[string]int32, text string) []int32 {
	t.Helper()
	var out []int32
	for i := 0; i < len(text); i++ {
		id, ok := ids[fmt.Sprintf("<0x%02X>", text[i])]
		if !ok {
			t.Fatalf("no byte token for 0x%02X", text[i])
		}
		out = append(out, id)
	}
	return out
}

func TestTextAssemblerUTF8(t *testing.T) {
	tok, ids := storiesTokenizer(t)
	text := "héllo — 日本語 🙂!"
	a := newTextAssembler(tok, nil)
	var got strings.Builder
	var pieces []string
	for _, id := range byteIDs(t, ids, text) {
		p, stop := a.push(id)
		if stop {
			t.Fatal("stopped without stop strings")
		}
		if !utf8.ValidString(p) {
			t.Errorf("piece %q is not valid UTF-8", p)
		}
		if p != "" {
			pieces = append(pieces, p)
		}
		got.WriteString(p)
	}
	tail, _ := a.flush()
	got.WriteString(tail)
	if got.String() != text {
		t.Errorf("assembled %q, want %q", got.String(), text)
	}
	if len(pieces) < 10 {
		t.Errorf("only %d pieces: the decoder should release each character as it completes", len(pieces))
	}

	// A character cut off by the end of generation is not sent as broken
	// bytes.
	a = newTextAssembler(tok, nil)
	var all string
	for _, id := range byteIDs(t, ids, "ok 日")[:4] {
		p, _ := a.push(id)
		all += p
	}
	tail, _ = a.flush()
	all += tail
	if !utf8.ValidString(all) || !strings.HasPrefix(all, "ok") {
		t.Errorf("truncated character gave %q", all)
	}
}

func TestTextAssemblerStop(t *testing.T) {
	tok, ids := storiesTokenizer(t)
	run := func(text string, stops []string) (string, bool, []string) {
		a := newTextAssembler(tok, stops)
		var out strings.Builder
		var pieces []string
		for _, id := range byteIDs(t, ids, text) {
			p, stop := a.push(id)
			out.WriteString(p)
			pieces = append(pieces, p)
			if stop {
				return out.String(), true, pieces
			}
		}
		p, stop := a.flush()
		out.WriteString(p)
		return out.String(), stop, pieces
	}
	for _, c := range []struct {
		text  string
		stops []string
		want  string
		stop  bool
	}{
		{"hello world", []string{"wor"}, "hello ", true},
		{"hello world", []string{"xyz"}, "hello world", false},
		{"hello world", []string{"world!"}, "hello world", false},
		{"aaab", []string{"aab"}, "a", true},
		{"日本語です", []string{"語"}, "日本", true},
		{"abc", []string{"c", "b"}, "a", true},
	} {
		got, stop, pieces := run(c.text, c.stops)
		if got != c.want || stop != c.stop {
			t.Errorf("%q stop %q: got %q (%v), want %q (%v)", c.text, c.stops, got, stop, c.want, c.stop)
		}
		for _, p := range pieces {
			if !utf8.ValidString(p) {
				t.Errorf("piece %q is not valid UTF-8", p)
			}
		}
	}
}

func TestFitMaxTokens(t *testing.T) {
	for _, c := range []struct {
		asked, prompt, ctx, want int
		fails                    bool
	}{
		{0, 10, 2048, 512, false},
		{0, 1800, 2048, 248, false},
		{100, 10, 2048, 100, false},
		{2038, 10, 2048, 2038, false},
		{2039, 10, 2048, 0, true},
		{0, 2048, 2048, 0, true},
		{5, 10, 0, 5, false},
		{0, 10, 0, 512, false},
	} {
		got, aerr := fitMaxTokens(c.asked, c.prompt, c.ctx)
		if (aerr != nil) != c.fails || got != c.want {
			t.Errorf("fit(%d, %d, %d) = %d, %v", c.asked, c.prompt, c.ctx, got, aerr)
		}
	}
}

// TestChatPromptMatchesLlamaServer checks the prompt of a chat request
// against llama-server's own token usage for the same conversations
// (reference/mini-qwen2-chat-q8_0.json, rendered with the model's Qwen2.5
// template), and the BOS handling on a model that adds BOS.
func TestChatPromptMatchesLlamaServer(t *testing.T) {
	raw, err := os.ReadFile(testenv.Path(t, "reference", "mini-qwen2-chat-q8_0.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Chat []struct {
			Messages []struct{ Role, Content string } `json:"messages"`
			Usage    struct {
				PromptTokens int `json:"prompt_tokens"`
			} `json:"usage"`
		} `json:"chat"`
	}
	if err := json.Unmarshal(raw, &ref); err != nil {
		t.Fatal(err)
	}
	f, err := gguf.Open(testenv.Path(t, "models", "mini-qwen2-chat-q8_0.gguf"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if len(ref.Chat) == 0 {
		t.Fatal("no chat cases in the reference")
	}
	for i, c := range ref.Chat {
		var msgs []chattmpl.Message
		for _, m := range c.Messages {
			msgs = append(msgs, chattmpl.Message{Role: m.Role, Content: m.Content})
		}
		text, ids, err := ChatPrompt(f, msgs, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(ids) != c.Usage.PromptTokens {
			t.Errorf("chat %d: %d prompt tokens, llama-server counted %d\n%s", i, len(ids), c.Usage.PromptTokens, text)
		}
		if !strings.HasSuffix(text, "<|im_start|>assistant\n") {
			t.Errorf("chat %d: no generation prompt at the end of %q", i, text)
		}
	}

	// stories260K adds BOS and has no template: ChatML fallback, one BOS.
	g, err := gguf.Open(testenv.Path(t, "models", "stories260K.gguf"))
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	text, ids, err := ChatPrompt(g, []chattmpl.Message{{Role: "user", Content: "Hi"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) < 2 || ids[0] != 1 || ids[1] == 1 || strings.HasPrefix(text, "<s>") {
		t.Errorf("stories260K chat prompt %q → %v: want exactly one leading BOS", text, ids)
	}

	// A template that renders bos_token itself must not give two BOS.
	k, err := newModelKit(g)
	if err != nil {
		t.Fatal(err)
	}
	if k.tmpl, err = chattmpl.Parse("{{ bos_token }}{% for m in messages %}{{ m.content }}{% endfor %}"); err != nil {
		t.Fatal(err)
	}
	rendered, err := k.renderChat([]chattmpl.Message{{Role: "user", Content: "Hi"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ids, err = k.encode(rendered)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(rendered, "<s>") || len(ids) < 2 || ids[0] != 1 || ids[1] == 1 {
		t.Errorf("bos_token template: %q → %v: want exactly one leading BOS", rendered, ids)
	}
}

// A chat template the engine cannot compile fails chat requests only, as a
// server-side error; the tokenizer still serves text completions.
func TestBrokenTemplateOnlyFailsChat(t *testing.T) {
	g, err := gguf.Open(testenv.Path(t, "models", "stories260K.gguf"))
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	k, err := newModelKit(g)
	if err != nil {
		t.Fatal(err)
	}
	_, perr := chattmpl.Parse("{% for m in messages %}{{ m.content }")
	if perr == nil {
		t.Fatal("broken template compiled")
	}
	k.tmpl, k.tmplErr = nil, perr
	_, err = k.renderChat([]chattmpl.Message{{Role: "user", Content: "Hi"}}, nil)
	var te errTemplate
	if !errors.As(err, &te) {
		t.Errorf("render with a broken template: %v, want errTemplate", err)
	}
	if ids, err := k.encode("Once upon a time"); err != nil || len(ids) < 2 {
		t.Errorf("encode: %v %v", ids, err)
	}
}

// TestTokenTrack: a token goes out with the piece that carries its text.
// Byte tokens hold back the bytes of a character until it completes, so
// the tokens of a character go out together, at the character's offset;
// the tokens of a matched stop string are left out.
func TestTokenTrack(t *testing.T) {
	tok, ids := storiesTokenizer(t)
	k := &modelKit{tok: tok}
	run := func(text string, stops []string, base int) (string, [][]placed) {
		a := newTextAssembler(tok, stops)
		tr := newTokenTrack(k, base)
		var out strings.Builder
		var groups [][]placed
		for _, id := range byteIDs(t, ids, text) {
			p, stop := a.push(id)
			out.WriteString(p)
			tr.push(router.Token{ID: id})
			if p != "" || stop {
				groups = append(groups, tr.out(p, stop, stop))
			}
			if stop {
				return out.String(), groups
			}
		}
		p, stop := a.flush()
		out.WriteString(p)
		groups = append(groups, tr.out(p, true, stop))
		return out.String(), groups
	}
	text, groups := run("hé 日!", nil, 3)
	var got []string
	var offsets []int
	n := 0
	for _, g := range groups {
		var b []byte
		for _, p := range g {
			b = append(b, tok.Piece(p.ID)...)
			offsets = append(offsets, p.offset)
			n++
		}
		got = append(got, string(b))
	}
	if text != "hé 日!" || n != len(text) || !slices.Equal(got, []string{"h", "é", " ", "日", "!", ""}) {
		t.Errorf("text %q, %d tokens in groups %q", text, n, got)
	}
	// h é é ␠ 日 日 日 ! at characters 0 1 1 2 3 3 3 4, after 3 of echo.
	if want := []int{3, 4, 4, 5, 6, 6, 6, 7}; !slices.Equal(offsets, want) {
		t.Errorf("offsets %v, want %v", offsets, want)
	}
	if k.tokenText(ids["<0xC3>"]) != "\uFFFD" || !slices.Equal(k.tokenBytes(ids["<0xC3>"]), []int{0xc3}) {
		t.Errorf("byte token named %q %v", k.tokenText(ids["<0xC3>"]), k.tokenBytes(ids["<0xC3>"]))
	}

	text, groups = run("hello world", []string{"wor"}, 0)
	var kept []byte
	for _, g := range groups {
		for _, p := range g {
			kept = append(kept, tok.Piece(p.ID)...)
		}
	}
	if text != "hello " || string(kept) != "hello " {
		t.Errorf("stop: text %q, tokens %q", text, kept)
	}
}

// A batch's echoed prompts with logprobs may hold together what one
// prompt may: up to the bound they pass, one token more is refused;
// without echo, or alone, the per-prompt checks decide.
func TestScoredWithin(t *testing.T) {
	for _, top := range []int{0, 1, 5, 20} {
		limit := router.MaxPromptLogprobs(top)
		batch := func(scored bool, lens ...int) []*job {
			var js []*job
			for _, n := range lens {
				js = append(js, &job{prompt: make([]int32, n), top: top, promptLogprobs: scored})
			}
			return js
		}
		half := limit / 2
		if aerr := scoredWithin(batch(true, half, limit-half)); aerr != nil {
			t.Errorf("top %d: %d tokens refused: %v", top, limit, aerr)
		}
		aerr := scoredWithin(batch(true, half, limit-half+1))
		if aerr == nil || aerr.Status != 400 || !strings.Contains(aerr.Message, fmt.Sprintf("the 2 prompts hold %d tokens together", limit+1)) {
			t.Errorf("top %d: %d tokens: %v", top, limit+1, aerr)
		}
		if aerr := scoredWithin(batch(false, limit, limit)); aerr != nil {
			t.Errorf("top %d: without echo: %v", top, aerr)
		}
		if aerr := scoredWithin(batch(true, limit+1)); aerr != nil {
			t.Errorf("top %d: one prompt is the per-prompt check's: %v", top, aerr)
		}
	}
}
