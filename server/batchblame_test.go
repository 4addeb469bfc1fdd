package server

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"svc/internal/swarmtest"
	"svc/internal/testenv"
	"svc/p2p"
	"svc/router"
)

// When several prompts of a batch are too long for the nodes, the 400
// names the lowest index, whichever the router refused first. Here the
// later one is refused first on purpose (the earlier one's generation
// starts only once the later one's has returned); before, the answer
// named the first to fail, prompt[3].
func TestBatchTooLongNamesLowest(t *testing.T) {
	path := testenv.Path(t, "models", "stories260K.gguf")
	const cache, maxTokens = 90, 30
	sw := swarmtest.Start(t, swarmtest.Config{Model: path, Shared: true, Ranges: [][2]int{{0, 5}},
		Node: p2p.NodeConfig{CacheTokens: cache}})
	sw.WaitServed(t, storiesName)
	// About 150 and 300 tokens: each too long for a cache of 90 positions.
	long1, long3 := strings.Repeat("the dog ran ", 30), strings.Repeat("the dog ran ", 60)
	for _, stream := range []bool{false, true} {
		lf := &laterFirst{Backend: sw.Router, held: 200, least: cache, after: make(chan struct{})}
		ts := startServer(t, Config{Backend: lf, DefaultModel: storiesName})
		body := withPrompt(t, fmt.Sprintf(`{"max_tokens":%d,"stream":%v}`, maxTokens, stream), []string{batchPrompts[0], long1, batchPrompts[1], long3})
		d := checkError(t, "two too long", postJSON(t, ts.URL+"/v1/completions", body), 400, codeInvalidRequest)
		if !strings.HasPrefix(d.Message, "prompt[1]: ") {
			t.Errorf("stream %v: %q, want it to name prompt[1]", stream, d.Message)
		}
		if !lf.ordered() {
			t.Errorf("stream %v: the test's order did not hold: the later prompt was not refused first", stream)
		}
		sw.WaitNoSessions(t)
	}
}

// laterFirst is the real router, where a generation whose prompt has more
// than held tokens runs first: one of fewer tokens than that but more
// than the cache holds starts only once it has returned.
type laterFirst struct {
	router.Backend
	held  int
	least int // the cache: fewer tokens than this pass at once
	after chan struct{}
	once  sync.Once
	mu    sync.Mutex
	order []int // prompt lengths of the generations that returned
}

func (l *laterFirst) Generate(ctx context.Context, req router.GenerateRequest, emit func(router.Token) error) (router.GenerateResult, error) {
	n := len(req.Prompt)
	switch {
	case n > l.held:
		defer l.once.Do(func() { close(l.after) })
	case n > l.least:
		select {
		case <-l.after:
		case <-ctx.Done():
			return router.GenerateResult{}, context.Cause(ctx)
		}
	}
	res, err := l.Backend.Generate(ctx, req, emit)
	l.mu.Lock()
	l.order = append(l.order, n)
	l.mu.Unlock()
	return res, err
}

// ordered reports whether the longest prompt's generation returned before
// the other long one's.
func (l *laterFirst) ordered() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, n := range l.order {
		if n > l.least {
			return n > l.held
		}
	}
	return false
}
