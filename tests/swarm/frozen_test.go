package swarm_test

import (
	"context"
	"sync"
	"testing"
	"time"
)

// testFrozenNodeView freezes (SIGSTOP) one of two nodes holding [2,5) while
// nothing runs, for longer than a record lives, and keeps asking. A frozen
// node keeps its connections open but answers nothing: neither a session
// nor a DHT query. The swarm must keep serving through the other holder:
// the model stays listed, and requests succeed (the first one that tries
// the frozen node may wait for its deadline; later ones avoid it).
//
//	A [0,2)   B [2,5) (frozen)   B' [2,5)      records of 6 s
func testFrozenNodeView(t *testing.T, bin, model string) {
	const frozenFor = 20 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	c := newCluster(t, bin, model, 6*time.Second)
	a, err := c.node(ctx, "A", "0:2", nil)
	if err != nil {
		t.Fatal(err)
	}
	boot := []string{a.addr}
	b, err := c.node(ctx, "B", "2:5", boot)
	if err != nil {
		t.Fatal(err)
	}
	b2, err := c.node(ctx, "B'", "2:5", boot)
	if err != nil {
		t.Fatal(err)
	}
	gw, err := c.gateway(ctx, boot)
	if err != nil {
		t.Fatal(err)
	}
	if err := waitListed(ctx, gw.api, true, 60*time.Second); err != nil {
		t.Fatal(err)
	}
	ask := prompt{system: "You are a storyteller.", user: "Tell me about a little dog.", maxTokens: 8}
	if status, body, err := rawChat(ctx, gw.api, ask); err != nil || status != 200 {
		t.Fatalf("before the freeze: %d %s %v", status, body, err)
	}

	if err := b.Pause(ctx); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = b.Resume() }()
	start := time.Now()
	deadline := start.Add(frozenFor)
	var mu sync.Mutex
	var samples, unlisted, requests int
	failed := map[string]int{}
	var firstUnlisted time.Duration
	var slowest time.Duration
	var wg sync.WaitGroup
	wg.Go(func() {
		for time.Now().Before(deadline) {
			listed, err := isListed(ctx, gw.api)
			mu.Lock()
			samples++
			if err != nil || !listed {
				if unlisted == 0 {
					firstUnlisted = time.Since(start)
				}
				unlisted++
			}
			mu.Unlock()
			time.Sleep(200 * time.Millisecond)
		}
	})
	wg.Go(func() {
		for time.Now().Before(deadline) {
			t0 := time.Now()
			rctx, rcancel := context.WithTimeout(ctx, 45*time.Second)
			status, body, err := rawChat(rctx, gw.api, ask)
			rcancel()
			took := time.Since(t0)
			mu.Lock()
			requests++
			slowest = max(slowest, took)
			if err != nil || status != 200 {
				key := "transport"
				if err == nil {
					if e, perr := parseErrorBody(body); perr == nil {
						key = e.code
					} else {
						key = perr.Error()
					}
				}
				failed[key]++
			}
			mu.Unlock()
			time.Sleep(250 * time.Millisecond)
		}
	})
	wg.Wait()
	t.Logf("while %s was frozen for %s: model unlisted in %d of %d samples (first after %.1fs); %d requests, failed %v, slowest %.1fs",
		b.name, frozenFor, unlisted, samples, firstUnlisted.Seconds(), requests, failed, slowest.Seconds())
	if unlisted > 0 {
		t.Errorf("the model left /v1/models %.1fs after %s froze, although A and %s ran throughout", firstUnlisted.Seconds(), b.name, b2.name)
	}
	if len(failed) > 0 {
		t.Errorf("%v of %d requests failed while %s was frozen and %s could serve", failed, requests, b.name, b2.name)
	}
	for _, l := range gw.Grep(modelStateLine) {
		t.Log("gateway: ", l)
	}
	for _, p := range []*proc{a, b2} {
		if w := p.Grep(publishFailedLine); len(w) > 0 {
			t.Logf("%s failed to publish its record %d times while %s was frozen, e.g. %s", p.name, len(w), b.name, w[0])
		}
	}
	if err := b.Resume(); err != nil {
		t.Fatal(err)
	}
	if err := waitNoSessions(ctx, []*proc{a, b, b2}, 30*time.Second); err != nil {
		t.Error(err)
	}
}
