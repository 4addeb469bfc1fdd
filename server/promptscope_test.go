package server

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/openai/openai-go"
	"github.com/openai/openai-go/option"

	"svc/internal/testenv"
	"svc/router"
)

// scopeBackend is the real router, noting the prompt cache scope of each
// request it is given.
type scopeBackend struct {
	router.Backend
	mu     sync.Mutex
	scopes []string
}

func (b *scopeBackend) Generate(ctx context.Context, req router.GenerateRequest, emit func(router.Token) error) (router.GenerateResult, error) {
	b.mu.Lock()
	b.scopes = append(b.scopes, string(req.PromptCacheScope))
	b.mu.Unlock()
	return b.Backend.Generate(ctx, req, emit)
}

// TestManagedPromptCacheScope sends one chat three times over a real swarm,
// twice with one API key and once with another: each key is its own
// prompt cache scope, so the nodes answer the repeated prompt from their
// cache for the same key only, and the repeated request's usage says so.
func TestManagedPromptCacheScope(t *testing.T) {
	path := testenv.Path(t, "models", "stories260K.gguf")
	sw := startSwarm(t, path, [][2]int{{0, 2}, {2, 5}})
	sw.WaitServed(t, storiesName)
	be := &scopeBackend{Backend: sw.Router}
	k := newManagedKit(t, sw, be, nil)
	a := k.key(t, "tenant-a", []string{"*"}, 1000, time.Hour)
	b := k.key(t, "tenant-b", []string{"*"}, 1000, time.Hour)

	var before []float64
	for _, n := range sw.Nodes {
		before = append(before, promptCacheHits(t, n))
	}
	// The official SDK reads usage.prompt_tokens_details.cached_tokens:
	// the whole prompt for the key's repeated request, none otherwise.
	for i, key := range []string{a, b, a} {
		client := openai.NewClient(option.WithBaseURL(k.ts.URL+"/v1/"), option.WithAPIKey(key), option.WithMaxRetries(0))
		c, err := client.Chat.Completions.New(t.Context(), cacheChat(8))
		if err != nil {
			t.Fatalf("chat %d: %v", i, err)
		}
		want := 0
		if i == 2 {
			want = -1
		}
		checkCached(t, fmt.Sprintf("chat %d", i), c.Usage, int(c.Usage.PromptTokens), want)
	}
	be.mu.Lock()
	scopes := be.scopes
	be.mu.Unlock()
	if len(scopes) != 3 || scopes[0] == "" || scopes[0] != scopes[2] || scopes[0] == scopes[1] {
		t.Fatalf("scopes %q: want one per key, not empty", scopes)
	}
	for i, n := range sw.Nodes {
		if got := promptCacheHits(t, n) - before[i]; got != 1 {
			t.Errorf("node %d: %v prompt cache hits, want 1 (the second request of the first key)", i, got)
		}
	}
}
