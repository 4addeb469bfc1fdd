package server

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"svc/router"
	"svc/shards/model"
	"svc/shards/tokenizer"
)

// Log-probabilities in OpenAI's two shapes. The router gives each
// generated token its log-probability and the most likely tokens at its
// position; here they are attached to the text that carries the token (a
// token whose text is held back — part of a character, or what may be the
// start of a stop string — goes out with the piece that releases it), and
// written as chat's logprobs.content or legacy completions' four arrays.

// placed is a token with its place in the choice's text: the offset, in
// characters (code points) of the whole text (echoed prompt included), at
// which its text begins.
type placed struct {
	router.Token
	offset int
	// first marks the first token of an echoed prompt, which has no
	// log-probability (nothing precedes it).
	first bool
}

// tokenTrack follows the generated tokens through a textAssembler: push
// each token, then tell it each piece of text that goes out; it returns
// the tokens whose text begins in what went out so far.
type tokenTrack struct {
	kit     *modelKit
	pending []pendingToken
	raw     int             // bytes of the pushed tokens' rendered pieces
	text    strings.Builder // the completion's text given out so far
	base    int             // characters before the completion (the echo)
}

type pendingToken struct {
	router.Token
	start int  // byte offset of its rendered piece among the pushed tokens'
	empty bool // it renders as nothing (a control token)
}

func newTokenTrack(kit *modelKit, base int) *tokenTrack {
	return &tokenTrack{kit: kit, base: base}
}

func (t *tokenTrack) push(tk router.Token) {
	r := t.kit.rendered(tk.ID)
	t.pending = append(t.pending, pendingToken{Token: tk, start: t.raw, empty: r == ""})
	t.raw += len(r)
}

// token pushes a generated token and records the text the assembler gave
// out for it (out, and whether a stop string matched), returning the
// tokens that released.
func (t *tokenTrack) token(tk router.Token, out string, matched bool) []placed {
	t.push(tk)
	if out == "" && !matched {
		return nil
	}
	return t.out(out, matched, matched)
}

// out records a piece of text that went out and returns the tokens it
// releases: those whose text begins in the text out so far (a token that
// renders as nothing: once the text before it is out). At the end (final)
// every remaining token is released, unless a stop string cut the text
// (stopped): the tokens that begin in the stop string are dropped.
func (t *tokenTrack) out(piece string, final, stopped bool) []placed {
	t.text.WriteString(piece)
	sent := t.text.Len()
	var rel []placed
	n := 0
	for _, p := range t.pending {
		if p.start < sent || (p.empty && p.start <= sent) || (final && !stopped) {
			rel = append(rel, placed{Token: p.Token, offset: t.base + runesBefore(t.text.String(), p.start)})
			n++
			continue
		}
		break
	}
	t.pending = t.pending[n:]
	if final {
		t.pending = nil
	}
	return rel
}

// runesBefore counts the characters of text before byte offset b (clamped
// to the text, and back to the start of a character it falls inside).
func runesBefore(text string, b int) int {
	b = min(max(b, 0), len(text))
	for b > 0 && b < len(text) && !utf8.RuneStart(text[b]) {
		b--
	}
	return utf8.RuneCountInString(text[:b])
}

// promptPlaced places an echoed prompt's tokens (log-probabilities of
// positions 1..n-1, lp; the first token has none) in the echo's text.
// The echo is the prompt as the client sent it, which may differ from its
// tokens' pieces by the leading space a SentencePiece tokenizer adds: the
// offsets are taken in the pieces and shifted by that difference.
func promptPlaced(kit *modelKit, prompt []int32, lp []router.Token, echo string) []placed {
	var concat strings.Builder
	starts := make([]int, len(prompt))
	for i, id := range prompt {
		starts[i] = concat.Len()
		concat.WriteString(kit.rendered(id))
	}
	shift := 0
	if c := concat.String(); len(c) > len(echo) && strings.HasSuffix(c, echo) {
		shift = len(c) - len(echo)
	}
	out := make([]placed, len(prompt))
	for i, id := range prompt {
		out[i] = placed{Token: router.Token{ID: id}, offset: runesBefore(echo, starts[i]-shift), first: i == 0}
		if i > 0 && i-1 < len(lp) {
			out[i].Token = lp[i-1]
		}
	}
	return out
}

// rendered is a token's text as it appears in a completion: its piece,
// or nothing for control and unknown tokens (the text assembler's
// SkipSpecial).
func (k *modelKit) rendered(id int32) string {
	if k.tok.IsControl(id) {
		return ""
	}
	if k.tok.IsSpecial(id) && k.tok.DecodeWith([]int32{id}, tokenizer.DecodeOptions{SkipSpecial: true}) == "" {
		return ""
	}
	return k.tok.Piece(id)
}

// tokenText is what a logprobs entry shows of a token: its piece (special
// tokens spelled out), with bytes that are not UTF-8 (part of a character)
// replaced by U+FFFD, as OpenAI does; tokenBytes holds the raw bytes.
func (k *modelKit) tokenText(id int32) string {
	return strings.ToValidUTF8(k.tok.Piece(id), "\uFFFD")
}

func (k *modelKit) tokenBytes(id int32) []int {
	p := k.tok.Piece(id)
	b := make([]int, len(p))
	for i := range len(p) {
		b[i] = int(p[i])
	}
	return b
}

// Chat completions: choices[].logprobs.

type chatLogprobs struct {
	Content []chatTokenLogprob `json:"content"`
	Refusal []chatTokenLogprob `json:"refusal"` // always null: no refusals
}

type chatTokenLogprob struct {
	Token       string           `json:"token"`
	Logprob     float32          `json:"logprob"`
	Bytes       []int            `json:"bytes"`
	TopLogprobs []chatTopLogprob `json:"top_logprobs"`
}

type chatTopLogprob struct {
	Token   string  `json:"token"`
	Logprob float32 `json:"logprob"`
	Bytes   []int   `json:"bytes"`
}

// chatContent turns released tokens into chat's logprobs.content entries.
func (k *modelKit) chatContent(dst []chatTokenLogprob, ps []placed) []chatTokenLogprob {
	for _, p := range ps {
		e := chatTokenLogprob{Token: k.tokenText(p.ID), Logprob: p.Logprob, Bytes: k.tokenBytes(p.ID),
			TopLogprobs: make([]chatTopLogprob, len(p.Top))}
		for i, t := range p.Top {
			e.TopLogprobs[i] = chatTopLogprob{Token: k.tokenText(t.ID), Logprob: t.Logprob, Bytes: k.tokenBytes(t.ID)}
		}
		dst = append(dst, e)
	}
	return dst
}

// Legacy completions: choices[].logprobs.

type textLogprobs struct {
	Tokens        []string      `json:"tokens"`
	TokenLogprobs []*float32    `json:"token_logprobs"`
	TopLogprobs   []*topEntries `json:"top_logprobs"`
	TextOffset    []int         `json:"text_offset"`
}

// newTextLogprobs is an empty logprobs object (arrays, not nulls).
func newTextLogprobs() *textLogprobs {
	return &textLogprobs{Tokens: []string{}, TokenLogprobs: []*float32{}, TopLogprobs: []*topEntries{}, TextOffset: []int{}}
}

// textAppend adds released tokens to legacy completions' arrays, with the
// n most likely tokens of each position.
func (k *modelKit) textAppend(dst *textLogprobs, ps []placed, n int) {
	for _, p := range ps {
		dst.Tokens = append(dst.Tokens, k.tokenText(p.ID))
		dst.TextOffset = append(dst.TextOffset, p.offset)
		if p.first {
			dst.TokenLogprobs = append(dst.TokenLogprobs, nil)
			dst.TopLogprobs = append(dst.TopLogprobs, nil)
			continue
		}
		lp := p.Logprob
		dst.TokenLogprobs = append(dst.TokenLogprobs, &lp)
		top := make([]model.TokenLogprob, 0, n+1)
		top = append(top, p.Top[:min(n, len(p.Top))]...)
		in := false
		for _, t := range top {
			in = in || t.ID == p.ID
		}
		if !in {
			top = append(top, model.TokenLogprob{ID: p.ID, Logprob: p.Logprob})
		}
		dst.TopLogprobs = append(dst.TopLogprobs, &topEntries{kit: k, top: top})
	}
}

// topEntries is one position's {token: logprob} object, written most
// likely first: the most likely tokens and the chosen one (so up to
// logprobs+1 entries, as OpenAI says). Of two tokens with the same text
// the first is kept.
type topEntries struct {
	kit *modelKit
	top []model.TokenLogprob
}

func (t *topEntries) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	seen := map[string]bool{}
	for _, e := range t.top {
		name := t.kit.tokenText(e.ID)
		if seen[name] {
			continue
		}
		seen[name] = true
		if len(seen) > 1 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(name)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(e.Logprob)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
