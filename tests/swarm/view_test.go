package swarm_test

import (
	"context"
	"regexp"
	"sync"
	"testing"
	"time"
)

// modelStateLine is the gateway's log line when a model changes state.
var modelStateLine = regexp.MustCompile(`msg="model state"`)

// publishFailedLine is a node's warning when its announcement could not be
// pushed to the DHT.
var publishFailedLine = regexp.MustCompile(`msg="publish announcement"`)

// testSteadyView watches a healthy swarm: two nodes that never stop, and a
// gateway. Short record lifetimes make dead nodes vanish fast (the e2e
// tests use 6 s, svc node accepts 3 s), but a live node must never drop out
// of the gateway's view because of them: the model must stay listed and
// servable the whole time. The watch runs with 3 s and 6 s records side by
// side.
//
// It guards against a view rebuilt less often than records expire: a node
// republishes every TTL/3, so a record fetched when already TTL/3 old
// expires 2·TTL/3 later; a gateway that rebuilt its view only every 5 s
// dropped live nodes with TTL below ~7.5 s until its next rebuild (seen
// with 6 s records before router commit a99baaa).
func testSteadyView(t *testing.T, bin, model string) {
	const watch = 20 * time.Second
	for _, ttl := range []time.Duration{3 * time.Second, 6 * time.Second} {
		t.Run("record TTL "+ttl.String(), func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			c := newCluster(t, bin, model, ttl)
			a, err := c.node(ctx, "A", "0:2", nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.node(ctx, "B", "2:5", []string{a.addr}); err != nil {
				t.Fatal(err)
			}
			gw, err := c.gateway(ctx, []string{a.addr})
			if err != nil {
				t.Fatal(err)
			}
			if err := waitListed(ctx, gw.api, true, 60*time.Second); err != nil {
				t.Fatal(err)
			}
			// Two watchers: the model list every 100 ms, and a one-token
			// request every 250 ms.
			var mu sync.Mutex
			var samples, unlisted, requests int
			failed := map[int]int{}
			var firstGap, lastGap time.Time
			deadline := time.Now().Add(watch)
			var wg sync.WaitGroup
			wg.Go(func() {
				for time.Now().Before(deadline) {
					listed, err := isListed(ctx, gw.api)
					mu.Lock()
					samples++
					if err != nil || !listed {
						unlisted++
						if firstGap.IsZero() {
							firstGap = time.Now()
						}
						lastGap = time.Now()
					}
					mu.Unlock()
					time.Sleep(100 * time.Millisecond)
				}
			})
			wg.Go(func() {
				one := prompt{system: "You are a storyteller.", user: "Hello.", maxTokens: 1}
				for time.Now().Before(deadline) {
					status, _, err := rawChat(ctx, gw.api, one)
					mu.Lock()
					requests++
					if err != nil || status != 200 {
						failed[status]++
					}
					mu.Unlock()
					time.Sleep(250 * time.Millisecond)
				}
			})
			wg.Wait()
			t.Logf("TTL %s: model unlisted in %d of %d samples over %s; requests failed %v of %d",
				ttl, unlisted, samples, watch, failed, requests)
			if unlisted > 0 || len(failed) > 0 {
				t.Errorf("with both nodes running and records of %s, the model left /v1/models in %d of %d samples (between %s and %s after the watch began) and %v of %d requests failed (status → count)",
					ttl, unlisted, samples, firstGap.Sub(deadline.Add(-watch)).Round(time.Millisecond),
					lastGap.Sub(deadline.Add(-watch)).Round(time.Millisecond), failed, requests)
				for _, l := range gw.Grep(modelStateLine) {
					t.Log(l)
				}
			}
		})
	}
}
