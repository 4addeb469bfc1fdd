package router_test

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"svc/internal/swarmtest"
	"svc/internal/testenv"
	"svc/p2p"
	"svc/router"
	"svc/shards/lora"
	"svc/shards/model"
	"svc/shards/tensor"
)

// localAdapter generates greedily in one process with the adapter: what
// any chain through hops holding it must reproduce.
func localAdapter(t *testing.T, modelPath, adapterPath string, prompt []int32, maxTokens int) []int32 {
	t.Helper()
	m, err := model.Open(modelPath, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	sh, err := m.NewShard(0, m.Config().Blocks, model.ShardOptions{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer sh.Close()
	a, err := lora.Open(adapterPath)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if err := sh.AddAdapter("a", a, 1); err != nil {
		t.Fatal(err)
	}
	if err := sh.OpenSessionAdapter("local", len(prompt)+maxTokens, "a"); err != nil {
		t.Fatal(err)
	}
	res, err := model.Generate(t.Context(), []model.Hop{model.SessionHop{Shard: sh, ID: "local"}}, prompt,
		model.GenOptions{MaxTokens: maxTokens, Stop: m.StopTokens()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := res.Completion
	if res.Finish == model.FinishStop {
		out = out[:len(out)-1]
	}
	return out
}

func generate(t *testing.T, r *router.Router, name string, prompt []int32, n int, stop func(int32) bool) []int32 {
	t.Helper()
	var got []int32
	_, err := r.Generate(t.Context(), router.GenerateRequest{Model: name, Prompt: prompt, MaxTokens: n, Stop: stop}, func(tk router.Token) error {
		got = append(got, tk.ID)
		return nil
	})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return got
}

func listed(r *router.Router, t *testing.T, name string) router.State {
	for _, st := range r.Models(t.Context()) {
		if st.Name == name {
			return st.State
		}
	}
	return ""
}

// TestAdapterChains: two nodes hold the model's blocks with an adapter and
// a third holds every block without it. "<model>-ad" is listed once the
// adapter's blocks are covered and generates through the adapter's hops
// only, token for token as one process with the adapter; the base name
// generates as one process without it. Removing a node holding the adapter
// leaves the adapter uncovered (not served) and the base served.
func TestAdapterChains(t *testing.T) {
	path := testenv.Path(t, "models", "stories260K.gguf")
	m, err := model.Open(path, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	adapterPath := filepath.Join(t.TempDir(), "ad.gguf")
	err = m.SynthAdapter(adapterPath, model.SynthAdapterOptions{Rank: 8, Alpha: 16, Type: tensor.F16, Seed: 5, Std: 0.03})
	m.Close()
	if err != nil {
		t.Fatal(err)
	}
	sw := swarmtest.Start(t, swarmtest.Config{
		Model:  path,
		Ranges: [][2]int{{0, 2}, {2, 5}},
		Node:   p2p.NodeConfig{Adapters: []p2p.AdapterSpec{{Name: "ad", Path: adapterPath}}},
	})
	swarmtest.Node(t, p2p.NodeConfig{ModelPath: path, First: 0, Last: 5, Bootstrap: sw.Boot})
	swarmtest.WaitState(t, sw.Router, "stories260K-ad", router.StateServed)
	sw.WaitServed(t, "stories260K")

	prompt := []int32{1, 403, 407, 261, 378} // BOS "Once upon a time"
	const n = 24
	stop := swarmtest.StopTokens(t, path)
	want := localAdapter(t, path, adapterPath, prompt, n)
	base, _ := swarmtest.Local(t, path, prompt, n)
	if slices.Equal(want, base) {
		t.Fatal("the adapter does not change the generation")
	}
	for i := 0; i < 3; i++ {
		if got := generate(t, sw.Router, "stories260K-ad", prompt, n, stop); !slices.Equal(got, want) {
			t.Fatalf("through the swarm with the adapter: %v\none process with it: %v", got, want)
		}
		if got := generate(t, sw.Router, "stories260K", prompt, n, stop); !slices.Equal(got, base) {
			t.Fatalf("through the swarm without the adapter: %v\none process: %v", got, base)
		}
	}

	// The base-only node is in the router's view before the adapter hop
	// leaves (the base was served without it).
	deadline := time.Now().Add(swarmtest.DefaultWaitTime)
	for router.HoldersOf(sw.Router, sw.Nodes[0].Digest()) < 3 {
		if time.Now().After(deadline) {
			t.Fatal("the router never saw the base-only node")
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The last adapter hop leaves: the adapter is no longer servable, the
	// base still is.
	if err := sw.Nodes[1].Close(); err != nil {
		t.Fatal(err)
	}
	swarmtest.WaitState(t, sw.Router, "stories260K-ad", router.StateIncomplete)
	if st := listed(sw.Router, t, "stories260K"); st != router.StateServed {
		t.Fatalf("base model is %q after the adapter's node left", st)
	}
	if got := generate(t, sw.Router, "stories260K", prompt, n, stop); !slices.Equal(got, base) {
		t.Fatalf("base after the adapter's node left: %v, want %v", got, base)
	}
}
