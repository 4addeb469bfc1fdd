package localswarm

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"svc/internal/testenv"
	"svc/router"
	"svc/shards/model"
	"svc/shards/textgen"
)

// TestSwarmEqualsOneProcess starts stories260K on three nodes and checks
// that a generation through the swarm's router gives the tokens one
// process gives.
func TestSwarmEqualsOneProcess(t *testing.T) {
	path := testenv.Path(t, "models", "stories260K.gguf")
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	sw, err := Start(ctx, Config{
		Models:  []Model{{Path: path, Nodes: 3}},
		Threads: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := sw.Close(); err != nil {
			t.Error(err)
		}
	}()
	if len(sw.nodes) != 3 || !slices.Equal(sw.Names(), []string{"stories260K"}) {
		t.Fatalf("%d nodes, names %v; want 3 nodes of stories260K", len(sw.nodes), sw.Names())
	}
	if err := sw.WaitServed(ctx); err != nil {
		t.Fatal(err)
	}

	m, err := model.Open(path, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	want, err := textgen.Run(ctx, m, textgen.Request{Tokens: []int32{1, 403, 407, 261, 378}, MaxTokens: 24, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	var got []int32
	_, err = sw.Router().Generate(ctx, router.GenerateRequest{
		Model: "stories260K", Prompt: want.PromptTokens, MaxTokens: 24, Stop: m.StopTokens(),
	}, func(tk router.Token) error { got = append(got, tk.ID); return nil })
	if err != nil {
		t.Fatal(err)
	}
	wantIDs := want.CompletionTokens
	if want.FinishReason == model.FinishStop {
		wantIDs = wantIDs[:len(wantIDs)-1] // the router leaves out the stop token
	}
	if !slices.Equal(got, wantIDs) {
		t.Errorf("swarm gave %v, one process %v", got, wantIDs)
	}
}

func TestStartRefuses(t *testing.T) {
	if _, err := Start(t.Context(), Config{}); err == nil {
		t.Error("a swarm with no model and no bootstrap started")
	}
	missing := t.TempDir() + "/missing.gguf"
	if _, err := Start(t.Context(), Config{Models: []Model{{Path: missing}}}); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing model file: error %v, want one naming it", err)
	}
}
