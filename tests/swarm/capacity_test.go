package swarm_test

import (
	"context"
	"testing"
	"time"
)

// testCapacity fills the only node's cache with one long generation and
// asks for another: issue 6 wants a node without room to refuse the
// session cleanly and the API to answer 503 route_unavailable at once
// rather than queue; once the long generation is over, the same request is
// served.
//
//	A [0,5) with --cache-tokens 2100
func testCapacity(t *testing.T, bin, model string) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	c := newCluster(t, bin, model, 6*time.Second)
	a, err := c.node(ctx, "A", "0:5", nil, "--cache-tokens", "2100")
	if err != nil {
		t.Fatal(err)
	}
	gw, err := c.gateway(ctx, []string{a.addr})
	if err != nil {
		t.Fatal(err)
	}
	if err := waitListed(ctx, gw.api, true, 60*time.Second); err != nil {
		t.Fatal(err)
	}
	client := newClient(gw.api)
	// The long one reserves prompt + 1900 positions; the other needs about
	// 400 more than are left.
	long := prompt{system: "You are a storyteller.", user: "Tell me a long story about a dog and a cat.", maxTokens: 1900}
	other := prompt{system: "You are a storyteller.", user: "Tell me a long story about a dog and a cat.", maxTokens: 300}
	want, err := reference(ctx, bin, model, other)
	if err != nil {
		t.Fatal(err)
	}

	type refused struct {
		status int
		body   []byte
		err    error
		took   time.Duration
	}
	var second refused
	asked := false
	longAnswer, err := streamChat(ctx, client, long.params(true), func(n int) {
		if asked {
			return
		}
		asked = true
		t0 := time.Now()
		rctx, rcancel := context.WithTimeout(ctx, 30*time.Second)
		defer rcancel()
		second.status, second.body, second.err = rawChat(rctx, gw.api, other)
		second.took = time.Since(t0)
	})
	if err != nil {
		t.Fatalf("the long generation: %v", err)
	}
	t.Logf("long generation: %d tokens; the request made meanwhile got %d in %.2fs: %s",
		longAnswer.tokens, second.status, second.took.Seconds(), second.body)
	switch e, perr := parseErrorBody(second.body); {
	case second.err != nil:
		t.Errorf("request while the cache was full: %v", second.err)
	case second.status == 200:
		t.Errorf("the request was served although the only node had no room for it (long generation %d tokens)", longAnswer.tokens)
	case perr != nil:
		t.Errorf("status %d: %v", second.status, perr)
	case second.status != 503 || e.code != "route_unavailable":
		t.Errorf("got %d %s, want 503 route_unavailable", second.status, e)
	}
	if second.took > 5*time.Second {
		t.Errorf("the refusal took %.1fs, want it at once", second.took.Seconds())
	}
	if err := waitNoSessions(ctx, []*proc{a}, 15*time.Second); err != nil {
		t.Fatal(err)
	}
	got, err := streamChat(ctx, client, other.params(true), nil)
	if err != nil || got != want {
		t.Errorf("once the cache is free again: %v, got %s, want %s", err, got, want)
	}
	if err := waitGatewayIdle(ctx, gw, 10*time.Second); err != nil {
		t.Error(err)
	}
}
