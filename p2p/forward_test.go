package p2p

import (
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"svc/p2p/wire"
	"svc/shards/model"
)

// TestOutputWireCached: a reply's cached positions travel as
// Response.cached; a reply without the field (a node that predates it)
// reads as none, and one that claims more than the step's positions is
// refused.
func TestOutputWireCached(t *testing.T) {
	out := &model.Output{Argmax: []int32{7}, Cached: 5}
	resp, data := outputToWire(out, 5, 4, 10)
	b, err := proto.Marshal(resp)
	if err != nil {
		t.Fatal(err)
	}
	var back wire.Response
	if err := proto.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	got, err := outputFromWire(&back, data, 5, 4)
	if err != nil || got.Cached != 5 {
		t.Fatalf("round trip: %+v, %v; want 5 cached", got, err)
	}

	// An older node's reply: the same message without field 9.
	old := &wire.Response{Code: wire.Code_OK, Argmax: []int32{7}}
	if b, err = proto.Marshal(old); err != nil {
		t.Fatal(err)
	}
	back.Reset()
	if err := proto.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if got, err := outputFromWire(&back, nil, 5, 4); err != nil || got.Cached != 0 {
		t.Fatalf("reply without the field: %+v, %v; want 0 cached", got, err)
	}

	if _, err := outputFromWire(&wire.Response{Code: wire.Code_OK, Argmax: []int32{7}, Cached: 6}, nil, 5, 4); err == nil || !strings.Contains(err.Error(), "6 positions") {
		t.Fatalf("6 cached positions of a 5-position step: %v", err)
	}
}

// TestOutputWireBatch: the batch a node computed a step in travels as
// Response.batch; an older node's reply reads as unknown (0), and a
// hostile figure is capped at the largest round a step may announce.
func TestOutputWireBatch(t *testing.T) {
	resp, data := outputToWire(&model.Output{Argmax: []int32{7}, Batch: 3}, 1, 4, 10)
	b, err := proto.Marshal(resp)
	if err != nil {
		t.Fatal(err)
	}
	var back wire.Response
	if err := proto.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if got, err := outputFromWire(&back, data, 1, 4); err != nil || got.Batch != 3 {
		t.Fatalf("round trip: %+v, %v; want batch 3", got, err)
	}
	if got, err := outputFromWire(&wire.Response{Code: wire.Code_OK, Argmax: []int32{7}}, nil, 1, 4); err != nil || got.Batch != 0 {
		t.Fatalf("reply without the field: %+v, %v; want batch 0", got, err)
	}
	if got, err := outputFromWire(&wire.Response{Code: wire.Code_OK, Argmax: []int32{7}, Batch: 1 << 30}, nil, 1, 4); err != nil || got.Batch != maxRound {
		t.Fatalf("batch 1<<30: %+v, %v; want %d", got, err, maxRound)
	}
}

// TestWireScore: the ids to score travel as Step.score and their
// log-probabilities as Response.scores; a reply without them (a node that
// predates scoring) reads as none, which the router refuses, and one with
// more scores than the step's positions is refused here.
func TestWireScore(t *testing.T) {
	in := model.Input{Tokens: []int32{1, 2, 3}, Logits: model.LogitsAll, OmitLogits: true, Score: []int32{2, 3}}
	st, payload, err := inputToWire(in, true, 4)
	if err != nil {
		t.Fatal(err)
	}
	b, err := proto.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	var back wire.Step
	if err := proto.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	got, err := inputFromWire(&back, payload, true, 4, 10)
	if err != nil || len(got.Score) != 2 || got.Score[0] != 2 || got.Score[1] != 3 {
		t.Fatalf("step round trip: %+v, %v", got, err)
	}
	resp, data := outputToWire(&model.Output{Argmax: []int32{4, 5, 6}, Scores: []float32{-1.5, -0.25}}, 3, 4, 10)
	if b, err = proto.Marshal(resp); err != nil {
		t.Fatal(err)
	}
	var rb wire.Response
	if err := proto.Unmarshal(b, &rb); err != nil {
		t.Fatal(err)
	}
	if out, err := outputFromWire(&rb, data, 3, 4); err != nil || len(out.Scores) != 2 || out.Scores[0] != -1.5 || out.Scores[1] != -0.25 {
		t.Fatalf("reply round trip: %+v, %v", out, err)
	}
	if out, err := outputFromWire(&wire.Response{Code: wire.Code_OK, Argmax: []int32{4, 5, 6}}, nil, 3, 4); err != nil || out.Scores != nil {
		t.Fatalf("reply without scores: %+v, %v", out, err)
	}
	if _, err := outputFromWire(&wire.Response{Code: wire.Code_OK, Scores: make([]float32, 4)}, nil, 3, 4); err == nil || !strings.Contains(err.Error(), "4 scores") {
		t.Fatalf("4 scores for 3 positions: %v", err)
	}
}
