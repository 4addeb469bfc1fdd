package swarm_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"svc/internal/proctest"
)

// The soak is bounded so that CI can afford it: about 75 s of churn, plus
// about 20 s of setup and checks, so 90–120 s in all on 2 cores.
const (
	soakChurn     = 75 * time.Second
	soakClients   = 4
	chaosEvery    = 3 * time.Second
	downFor       = 2 * time.Second // a stopped node stays down at least this long
	settleFor     = 8 * time.Second // a partner must have been up this long before its twin is stopped
	requestLimit  = 30 * time.Second
	rssSlackBytes = 50 << 20
)

// slot is one place of the soak swarm: a block range and the node that
// currently holds it there (nil while it is down).
type slot struct {
	blocks string
	label  string
	p      *proc
	since  time.Time // up or down since
}

// tally counts what the clients saw; problems fail the test.
type tally struct {
	mu       sync.Mutex
	ok       int
	errs     map[string]int // "status code" → count
	examples map[string]string
	problems []string
	slowest  time.Duration
}

func (ty *tally) problem(format string, args ...any) {
	ty.mu.Lock()
	defer ty.mu.Unlock()
	if len(ty.problems) < 50 {
		ty.problems = append(ty.problems, fmt.Sprintf(format, args...))
	}
}

// record judges one request: exactly the expected answer, or an error of
// SPEC's table (and then whatever text came before it must be a prefix of
// the answer); anything else is a problem.
func (ty *tally) record(want answer, got answer, err error, hung bool, took time.Duration) {
	ty.mu.Lock()
	ty.slowest = max(ty.slowest, took)
	ty.mu.Unlock()
	switch {
	case hung:
		ty.problem("request hung for %s (%v), text so far %q", took.Round(time.Millisecond), err, got.text)
	case err == nil && got != want:
		ty.problem("wrong answer %s, want %s", got, want)
	case err == nil:
		ty.mu.Lock()
		ty.ok++
		ty.mu.Unlock()
	default:
		e, cerr := classify(err)
		if cerr != nil {
			ty.problem("error outside SPEC's table or shape: %v", cerr)
			return
		}
		if !strings.HasPrefix(want.text, got.text) {
			ty.problem("text before the error %s is not a prefix of the answer: %q", e, got.text)
		}
		key := fmt.Sprintf("%d %s", e.status, e.code)
		ty.mu.Lock()
		ty.errs[key]++
		if _, ok := ty.examples[key]; !ok {
			ty.examples[key] = e.message
		}
		ty.mu.Unlock()
	}
}

// testSoak runs concurrent streamed requests while nodes are stopped
// (SIGTERM and SIGKILL in turn) and restarted, never all holders of a
// range at once. Swarm: stories260K in two ranges, two nodes each:
//
//	[0,3) ×2   [3,5) ×2
func testSoak(t *testing.T, bin, model string) {
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	c := newCluster(t, bin, model, 6*time.Second)
	slots := []*slot{
		{blocks: "0:3", label: "L1"}, {blocks: "0:3", label: "L2"},
		{blocks: "3:5", label: "R1"}, {blocks: "3:5", label: "R2"},
	}
	partner := func(i int) *slot { return slots[i^1] }
	var boot []string
	for _, s := range slots {
		p, err := c.node(ctx, s.label, s.blocks, boot)
		if err != nil {
			t.Fatal(err)
		}
		s.p, s.since = p, time.Now()
		boot = append(boot, p.addr)
	}
	gw, err := c.gateway(ctx, boot)
	if err != nil {
		t.Fatal(err)
	}
	if err := waitListed(ctx, gw.api, true, 60*time.Second); err != nil {
		t.Fatal(err)
	}
	client := newClient(gw.api)

	prompts := []prompt{
		{system: "You are a storyteller.", user: "Tell me about a little dog.", maxTokens: 96},
		{system: "You write for children.", user: "Once upon a time there was a big red ball.", maxTokens: 64},
		{system: "You are helpful.", user: "What did Lily find in the garden?", maxTokens: 80},
	}
	wants := make([]answer, len(prompts))
	for i, p := range prompts {
		if wants[i], err = reference(ctx, bin, model, p); err != nil {
			t.Fatal(err)
		}
	}

	// Warm-up without churn: every answer must be exact.
	var wg sync.WaitGroup
	for round := 0; round < 2; round++ {
		for i := range soakClients {
			wg.Go(func() {
				k := (i + round) % len(prompts)
				got, err := streamChat(ctx, client, prompts[k].params(true), nil)
				if err != nil || got != wants[k] {
					t.Errorf("warm-up: %v, got %s, want %s", err, got, wants[k])
				}
			})
		}
		wg.Wait()
	}
	if t.Failed() {
		t.FailNow()
	}
	warmRSS, err := gw.RSS()
	if err != nil {
		t.Fatal(err)
	}
	warmGo := goroutines(ctx, t, gw)

	ty := &tally{errs: map[string]int{}, examples: map[string]string{}}
	start := time.Now()
	deadline := start.Add(soakChurn)
	var requests sync.WaitGroup
	for w := range soakClients {
		requests.Go(func() {
			for k := 0; time.Now().Before(deadline); k++ {
				i := (w + k) % len(prompts)
				rctx, rcancel := context.WithTimeout(ctx, requestLimit)
				t0 := time.Now()
				got, err := streamChat(rctx, client, prompts[i].params(true), nil)
				hung := rctx.Err() != nil
				rcancel()
				ty.record(wants[i], got, err, hung, time.Since(t0))
			}
		})
	}

	// Memory: the gateway's and the nodes' RSS every 2 s.
	var (
		memMu            sync.Mutex
		gwMax, nodeMax   int64
		gwSamples        []int64
		stopSampling     = make(chan struct{})
		sampler          sync.WaitGroup
		stops, kills, up int
		slotsMu          sync.Mutex // guards the slots' p and since
	)
	liveNodes := func() []*proc {
		slotsMu.Lock()
		defer slotsMu.Unlock()
		var out []*proc
		for _, s := range slots {
			if s.p != nil {
				out = append(out, s.p)
			}
		}
		return out
	}
	sampler.Go(func() {
		tick := time.NewTicker(2 * time.Second)
		defer tick.Stop()
		for {
			select {
			case <-stopSampling:
				return
			case <-tick.C:
			}
			g, err := gw.RSS()
			if err != nil {
				ty.problem("gateway RSS: %v", err)
				continue
			}
			memMu.Lock()
			gwMax = max(gwMax, g)
			gwSamples = append(gwSamples, g)
			memMu.Unlock()
			for _, n := range liveNodes() {
				if r, err := n.RSS(); err == nil {
					memMu.Lock()
					nodeMax = max(nodeMax, r)
					memMu.Unlock()
				}
			}
		}
	})

	// Chaos: every few seconds, bring back a node that has been down a
	// while, and stop the next node whose twin has been up long enough for
	// the gateway to know it (its view is rebuilt every 5 s at most).
	var chaos sync.WaitGroup
	chaos.Go(func() {
		turn, sig := 0, 0
		tick := time.NewTicker(chaosEvery)
		defer tick.Stop()
		for time.Now().Before(deadline) {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			if restartOne(ctx, c, slots, &slotsMu, ty, false) {
				up++
			}
			for k := range slots {
				i := (turn + k) % len(slots)
				s := slots[i]
				if s.p == nil || partner(i).p == nil || time.Since(partner(i).since) < settleFor {
					continue
				}
				turn = i + 1
				victim := s.p
				slotsMu.Lock()
				s.p, s.since = nil, time.Now()
				slotsMu.Unlock()
				if sig%2 == 0 {
					stops++
					if err := victim.Terminate(15 * time.Second); err != nil {
						ty.problem("stop %s: %v", victim.name, err)
					} else if code := victim.ExitCode(); code != 0 {
						ty.problem("%s exited with %d after SIGTERM:\n%s", victim.name, code, victim.Tail(10))
					}
				} else {
					kills++
					if err := victim.Kill(); err != nil {
						ty.problem("kill %s: %v", victim.name, err)
					}
				}
				sig++
				break
			}
		}
		// Leave the swarm whole again.
		for restartOne(ctx, c, slots, &slotsMu, ty, true) {
			up++
		}
	})
	chaos.Wait()
	requests.Wait()
	close(stopSampling)
	sampler.Wait()
	churn := time.Since(start)

	ty.mu.Lock()
	total := ty.ok
	for _, n := range ty.errs {
		total += n
	}
	t.Logf("soak: %.0fs, %d clients, %d requests: %d exact answers, errors %v, slowest %.2fs; %d SIGTERM, %d SIGKILL, %d restarts",
		churn.Seconds(), soakClients, total, ty.ok, ty.errs, ty.slowest.Seconds(), stops, kills, up)
	for k, m := range ty.examples {
		t.Logf("  e.g. %s: %s", k, m)
	}
	for _, p := range ty.problems {
		t.Error(p)
	}
	if ty.ok*2 < total {
		t.Errorf("only %d of %d requests were answered although every range kept a live holder", ty.ok, total)
	}
	ty.mu.Unlock()
	t.Logf("gateway failovers logged: %d", len(gw.Grep(failoverLine)))

	// After the churn, with every slot up again, answers are exact.
	for i, p := range prompts {
		got, err := streamChat(ctx, client, p.params(true), nil)
		if err != nil || got != wants[i] {
			t.Errorf("after the churn: %v, got %s, want %s", err, got, wants[i])
		}
	}

	// Nothing is left open.
	if err := waitNoSessions(ctx, liveNodes(), 20*time.Second); err != nil {
		t.Error(err)
	}
	if err := waitGatewayIdle(ctx, gw, 10*time.Second); err != nil {
		t.Error(err)
	}
	if page, err := proctest.Scrape(ctx, gw.api+"/metrics"); err == nil {
		f, _ := proctest.MetricSum(page, "svc_router_failovers_total")
		t.Logf("gateway svc_router_failovers_total %v", f)
	}

	// Memory stays flat.
	time.Sleep(2 * time.Second)
	finalRSS, err := gw.RSS()
	if err != nil {
		t.Fatal(err)
	}
	finalGo := goroutines(ctx, t, gw)
	memMu.Lock()
	t.Logf("gateway RSS: %.1f MiB after warm-up, max %.1f MiB during the soak, %.1f MiB at the end; node RSS max %.1f MiB; gateway goroutines %d after warm-up, %d at the end",
		mib(warmRSS), mib(gwMax), mib(finalRSS), mib(nodeMax), warmGo, finalGo)
	t.Logf("gateway RSS samples (MiB): %s", mibList(gwSamples))
	memMu.Unlock()
	if limit := warmRSS*3/2 + rssSlackBytes; finalRSS > limit {
		t.Errorf("gateway RSS grew from %.1f MiB to %.1f MiB (limit 1.5× + 50 MiB = %.1f MiB)", mib(warmRSS), mib(finalRSS), mib(limit))
	}
	if finalGo > 2*warmGo+200 {
		t.Errorf("gateway goroutines grew from %d to %d", warmGo, finalGo)
	}
}

// restartOne starts a node in the first slot that has been down long enough
// (any down slot when all is set), bootstrapping from the live nodes. It
// reports whether it started one.
func restartOne(ctx context.Context, c *cluster, slots []*slot, mu *sync.Mutex, ty *tally, all bool) bool {
	mu.Lock()
	var s *slot
	var boot []string
	for _, x := range slots {
		if x.p == nil && s == nil && (all || time.Since(x.since) >= downFor) {
			s = x
		}
		if x.p != nil {
			boot = append(boot, x.p.addr)
		}
	}
	mu.Unlock()
	if s == nil {
		return false
	}
	p, err := c.node(ctx, s.label, s.blocks, boot)
	if err != nil {
		ty.problem("restart %s [%s]: %v", s.label, s.blocks, err)
		return false
	}
	mu.Lock()
	s.p, s.since = p, time.Now()
	mu.Unlock()
	return true
}

// goroutines reads go_goroutines from the gateway's /metrics.
func goroutines(ctx context.Context, t *testing.T, gw *proc) int {
	t.Helper()
	page, err := proctest.Scrape(ctx, gw.api+"/metrics")
	if err != nil {
		t.Fatal(err)
	}
	v, ok := proctest.MetricSum(page, "go_goroutines")
	if !ok {
		t.Fatal("the gateway's /metrics has no go_goroutines")
	}
	return int(v)
}

func mibList(v []int64) string {
	parts := make([]string, len(v))
	for i, b := range v {
		parts[i] = fmt.Sprintf("%.0f", mib(b))
	}
	return strings.Join(parts, " ")
}
