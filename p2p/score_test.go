package p2p

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"google.golang.org/protobuf/proto"

	"svc/internal/testenv"
	"svc/p2p/wire"
	"svc/shards/gguf"
	"svc/shards/model"
	"svc/shards/modeltools"
)

// TestNodeScoresPrompt checks wire.Step.score on a real node: the last hop
// returns each scored token's log-probability with one process's bits and
// a reply of a few bytes per position (no logits rows), and refuses
// hostile ids with BAD_REQUEST and a message saying why.
func TestNodeScoresPrompt(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	path := testenv.Path(t, "models", "stories260K.gguf")
	last := startNode(t, ctx, path, 0, 5, nil)
	mid := startNode(t, ctx, path, 0, 2, last.Addrs())
	c := client(t, ctx, last.Addrs())

	m, err := model.Open(path, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	vocab := m.Config().Vocab
	const n, k = 24, 5
	prompt := make([]int32, n)
	for i := range prompt {
		prompt[i] = int32((i*131 + 7) % vocab)
	}
	sh, err := m.NewShard(0, m.Config().Blocks, model.ShardOptions{Threads: 1, PromptCacheBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer sh.Close()
	if err := sh.OpenSession("ref", n); err != nil {
		t.Fatal(err)
	}
	ref, err := sh.Forward(ctx, "ref", model.Input{Tokens: prompt, Logits: model.LogitsAll, TopK: k})
	if err != nil {
		t.Fatal(err)
	}

	// Through the client: one process's bits.
	ss, err := OpenSession(ctx, c.Host, last.ID(), SessionOptions{ID: "s", Digest: last.Digest(), First: 0, Last: 5, MaxLength: n, Dim: m.Config().Dim})
	if err != nil {
		t.Fatal(err)
	}
	out, err := ss.Forward(ctx, model.Input{Tokens: prompt, Logits: model.LogitsAll, TopK: k, OmitLogits: true, Score: prompt[1:]})
	if err != nil {
		t.Fatal(err)
	}
	if out.Logits != nil || len(out.Scores) != n-1 || len(out.Top) != n {
		t.Fatalf("%d logits, %d scores, %d top rows; want none, %d, %d", len(out.Logits), len(out.Scores), len(out.Top), n-1, n)
	}
	for i, s := range out.Scores {
		want := model.Logprob(ref.Logits[i*vocab:(i+1)*vocab], prompt[i+1])
		if math.Float32bits(s) != math.Float32bits(want) {
			t.Fatalf("position %d: score %v, one process %v", i, s, want)
		}
	}
	if err := ss.Close(); err != nil {
		t.Fatal(err)
	}

	// The reply's size: a few numbers per position, where logits rows
	// would be vocab float32 each.
	step := func(st *wire.Step) *wire.Request { return &wire.Request{Kind: &wire.Request_Step{Step: st}} }
	send := func(n *Node, reqs ...*wire.Request) *streamT { return sendFrames(t, ctx, c, n, reqs...) }
	scored := &wire.Step{N: n, Tokens: prompt, Logits: wire.LogitsMode_LOGITS_ALL, TopK: k, OmitLogits: true, Score: prompt[1:]}
	s := send(last, openReq(last, "size", 0, 5), step(scored))
	s.ok()
	resp, payload := s.ok()
	if len(payload) != 0 || len(resp.Scores) != n-1 || len(resp.Top) != n {
		t.Fatalf("scored reply: %d payload bytes, %d scores, %d top rows", len(payload), len(resp.Scores), len(resp.Top))
	}
	// The bound per position the router and the node count on.
	perPos := wire.ReplyPositionBytes(k)
	if size := proto.Size(resp); size > n*perPos+64 {
		t.Fatalf("scored reply of %d bytes for %d positions, top %d: more than %d per position", size, n, k, perPos)
	} else {
		t.Logf("scored reply: %d bytes for %d positions (%.0f per position; logits rows: %d per position)", size, n, float64(size)/n, 4*vocab)
	}
	_ = s.s.Close()
	waitSessions(t, last, 0)

	// Hostile ids: refused, with a message, and the session ends.
	for _, bad := range []struct {
		what string
		n    *Node
		last int // the node's blocks: [0, last)
		st   *wire.Step
		msg  string
	}{
		{"id beyond the vocabulary", last, 5, &wire.Step{N: 3, Tokens: prompt[:3], Logits: wire.LogitsMode_LOGITS_ALL, Score: []int32{1, int32(vocab)}}, "outside the vocabulary"},
		{"negative id", last, 5, &wire.Step{N: 3, Tokens: prompt[:3], Logits: wire.LogitsMode_LOGITS_ALL, Score: []int32{-7}}, "outside the vocabulary"},
		{"more ids than positions", last, 5, &wire.Step{N: 3, Tokens: prompt[:3], Logits: wire.LogitsMode_LOGITS_ALL, Score: prompt[1:5]}, "4 tokens to score for a step of 3 positions"},
		{"not every position's logits", last, 5, &wire.Step{N: 3, Tokens: prompt[:3], Logits: wire.LogitsMode_LOGITS_LAST, Score: prompt[1:3]}, "needs LOGITS_ALL"},
		{"a hop without the last block", mid, 2, &wire.Step{N: 3, Tokens: prompt[:3], Logits: wire.LogitsMode_LOGITS_ALL, Score: prompt[1:3]}, "without the model's last block"},
	} {
		s := send(bad.n, openReq(bad.n, "bad", 0, bad.last), step(bad.st))
		s.ok()
		s.badRequest(bad.what, bad.msg)
		waitSessions(t, bad.n, 0)
	}
}

// streamT reads a raw forward stream's replies.
type streamT struct {
	t *testing.T
	s network.Stream
}

// ok reads a reply and fails unless it is OK.
// sendFrames opens a raw forward stream to n and writes reqs on it, in one
// write, with a deadline long enough for a large step.
func sendFrames(t *testing.T, ctx context.Context, c *Endpoint, n *Node, reqs ...*wire.Request) *streamT {
	t.Helper()
	s := rawStream(t, ctx, c, n)
	_ = s.SetDeadline(time.Now().Add(60 * time.Second))
	var b sliceWriter
	for _, r := range reqs {
		if err := wire.WriteFrame(&b, r, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Write(b); err != nil {
		t.Fatal(err)
	}
	return &streamT{t: t, s: s}
}

// badRequest reads a BAD_REQUEST reply whose message says msg.
func (s *streamT) badRequest(what, msg string) {
	s.t.Helper()
	var resp wire.Response
	if _, err := wire.ReadFrame(s.s, &resp, 1<<20); err != nil {
		s.t.Fatalf("%s: no reply: %v", what, err)
	}
	if resp.Code != wire.Code_BAD_REQUEST || !strings.Contains(resp.Message, msg) {
		s.t.Fatalf("%s: %v %q, want BAD_REQUEST saying %q", what, resp.Code, resp.Message, msg)
	}
}

func (s *streamT) ok() (*wire.Response, []byte) {
	s.t.Helper()
	var resp wire.Response
	payload, err := wire.ReadFrame(s.s, &resp, wire.DefaultMaxPayload)
	if err != nil || resp.Code != wire.Code_OK {
		s.t.Fatalf("reply: %v %v %s", err, resp.Code, resp.Message)
	}
	return &resp, payload
}

// TestSessionBoundsReplies: a step that omits the logits accepts no more
// payload than the hidden states a hop before the last returns, so a
// hostile node cannot make the caller read logits rows it did not ask for
// (a router's memory per request stays what it asked for).
func TestSessionBoundsReplies(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	hostile := client(t, ctx, nil)
	const dim, vocab = 64, 32000
	hostile.Host.SetStreamHandler(ForwardProtocol, func(s network.Stream) {
		defer s.Close()
		for {
			var req wire.Request
			if _, err := wire.ReadFrame(s, &req, 1<<20); err != nil {
				return
			}
			resp, payload := &wire.Response{Code: wire.Code_OK}, []byte(nil)
			if st := req.GetStep(); st != nil {
				// Every position's logits row, whatever was asked.
				resp.N, resp.Dim, resp.Payload = st.N, vocab, wire.Payload_PAYLOAD_LOGITS_F32
				resp.Argmax = make([]int32, st.N)
				payload = make([]byte, int(st.N)*vocab*4)
			}
			if err := wire.WriteFrame(s, resp, payload); err != nil {
				return
			}
		}
	})
	c := client(t, ctx, nil)
	c.Host.Peerstore().AddAddrs(hostile.Host.ID(), hostile.Host.Addrs(), time.Hour)
	open := func(id string) *Session {
		t.Helper()
		ss, err := OpenSession(ctx, c.Host, hostile.Host.ID(), SessionOptions{ID: id, Digest: "d", First: 0, Last: 1, MaxLength: 8, Dim: dim})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(ss.Reset)
		return ss
	}
	in := model.Input{Tokens: []int32{1, 2, 3}, Logits: model.LogitsAll, OmitLogits: true, Score: []int32{2, 3}}
	if _, err := open("omit").Forward(ctx, in); err == nil || !strings.Contains(err.Error(), "payload length") {
		t.Fatalf("logits rows sent to a step that omits them: %v, want refused by length", err)
	}
	// Asked for, the same rows are read.
	in.OmitLogits, in.Score = false, nil
	if out, err := open("rows").Forward(ctx, in); err != nil || len(out.Logits) != 3*vocab {
		t.Fatalf("logits rows asked for: %v (%d logits)", err, len(out.Logits))
	}
}

// TestNodeRefusesUnframeableReply checks that a step whose reply could not
// be sent or read — every position's top rows beyond the control limit,
// every position's logits rows beyond the payload limit — is refused with
// BAD_REQUEST and the bound, before any work, where the node used to
// compute it and then reset the stream; and that a step at the bound is
// answered.
func TestNodeRefusesUnframeableReply(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	vf, err := gguf.Open(testenv.Path(t, "tokenizer", "ggml-vocab-llama-bpe.gguf"))
	if err != nil {
		t.Fatal(err)
	}
	defer vf.Close()
	ft, err := modeltools.ParseFileType("q8_0")
	if err != nil {
		t.Fatal(err)
	}
	// Llama 3's vocabulary and a context past both bounds, on a model
	// small enough to run 1,300 positions in a moment.
	path := filepath.Join(t.TempDir(), "long.gguf")
	shape := modeltools.Shape{Name: "long", Dim: 32, Blocks: 1, Heads: 2, KVHeads: 1, FFN: 64, Context: 2048, RopeBase: 10000, Eps: 1e-5, Tied: true}
	if err := modeltools.SynthFile(ctx, path, modeltools.SynthOptions{Shape: shape, Vocab: vf, Type: ft, Seed: 3, Threads: 2}); err != nil {
		t.Fatal(err)
	}
	n := startNode(t, ctx, path, 0, 1, nil)
	c := client(t, ctx, n.Addrs())
	vocab := 128256
	const k = 256
	limit := wire.MaxReplyPositions(k)
	rows := wire.DefaultMaxPayload / (4 * vocab)
	if limit >= shape.Context || rows >= shape.Context {
		t.Fatalf("bounds %d and %d do not fall inside the context %d", limit, rows, shape.Context)
	}
	tokens := func(np int) []int32 {
		ts := make([]int32, np)
		for i := range ts {
			ts[i] = int32((i*7919 + 11) % vocab)
		}
		return ts
	}
	step := func(np int, topk uint32, omit bool) *wire.Request {
		return &wire.Request{Kind: &wire.Request_Step{Step: &wire.Step{N: uint32(np), Tokens: tokens(np), Logits: wire.LogitsMode_LOGITS_ALL, TopK: topk, OmitLogits: omit}}}
	}
	open := &wire.Request{Kind: &wire.Request_Open{Open: &wire.Open{SessionId: "long", ModelDigest: n.Digest(), First: 0, Last: 1, MaxLength: uint32(shape.Context)}}}
	for _, tc := range []struct {
		what string
		req  *wire.Request
		msg  string
	}{
		{"top rows past the control limit", step(limit+1, k, true), fmt.Sprintf("send at most %d positions per step", limit)},
		{"logits rows past the payload limit", step(rows+1, 0, false), fmt.Sprintf("send at most %d positions per step", rows)},
	} {
		st := sendFrames(t, ctx, c, n, open, tc.req)
		st.ok()
		st.badRequest(tc.what, tc.msg)
		waitSessions(t, n, 0)
	}

	// At the bound the reply is framed and read.
	st := sendFrames(t, ctx, c, n, open, step(limit, k, true))
	st.ok()
	resp, _ := st.ok()
	if len(resp.Top) != limit || len(resp.Top[0].Items) != k {
		t.Fatalf("reply at the bound: %d top rows of %d, want %d of %d", len(resp.Top), len(resp.Top[0].Items), limit, k)
	}
	t.Logf("reply at the bound: %d control bytes for %d positions, top %d (limit %d)", proto.Size(resp), limit, k, wire.MaxControl)
	_ = st.s.Close()
	waitSessions(t, n, 0)
}
