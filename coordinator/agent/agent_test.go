package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"svc/p2p"
	"svc/shards/model"
)

func TestConfig(t *testing.T) {
	if _, err := LoadConfig(filepath.Join("..", "..", "deploy", "systemd", "agent.toml"), true); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "agent.toml")
	if err := os.WriteFile(p, []byte("label = \"m1\"\nlisten = \"/ip4/127.0.0.1/tcp/0\"\nlable = \"typo\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadConfig(p, true); err == nil || !strings.Contains(err.Error(), "unknown key lable") {
		t.Fatalf("unknown key: %v", err)
	}
	for text, want := range map[string]int64{"": 0, "prompt_cache = \"256MiB\"\n": 256 << 20, "prompt_cache = \"off\"\n": -1} {
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		cfg, err := LoadConfig(p, true)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		got, err := cfg.PromptCacheBytes()
		if err != nil || got != want {
			t.Fatalf("%q: prompt cache %d, %v; want %d", text, got, err, want)
		}
		// What the agent reports for the placement to count per slice.
		if budget, want := promptCacheBudget(got), map[int64]int64{0: 64 << 20, 256 << 20: 256 << 20, -1: 0}[want]; budget != want {
			t.Fatalf("%q: reports %d bytes a slice, want %d", text, budget, want)
		}
	}
	if err := os.WriteFile(p, []byte("prompt_cache = \"lots\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadConfig(p, true); err == nil || !strings.Contains(err.Error(), "prompt_cache") {
		t.Fatalf("bad prompt_cache: %v", err)
	}
	// Each slice's KV cache: auto unless a size is set (0 in the report).
	// A slice's node gets p2p.SliceCacheBytes: with auto, 2GiB or one
	// session of the model's context on the slice's blocks where that is
	// more (Llama-3.2-1B's shape: 256MiB a block for 131072 positions);
	// with a size, that size.
	llama32 := model.Config{Blocks: 16, KVHeads: 8, HeadDim: 64, Context: 131072}
	for text, want := range map[string]struct{ kv, all, four int64 }{
		"":                         {0, 4 << 30, 2 << 30},
		"kv_cache = \"auto\"\n":    {0, 4 << 30, 2 << 30},
		"kv_cache = \" Auto \"\n":  {0, 4 << 30, 2 << 30},
		"kv_cache = \"0\"\n":       {0, 4 << 30, 2 << 30},
		"kv_cache = \"512MiB\"\n":  {512 << 20, 512 << 20, 512 << 20},
		"kv_cache = \"3000000\"\n": {3000000, 3000000, 3000000},
		"kv_cache = \"8GiB\"\n":    {8 << 30, 8 << 30, 8 << 30},
	} {
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		cfg, err := LoadConfig(p, true)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		got, err := cfg.KVCacheBytes()
		if err != nil || got != want.kv {
			t.Fatalf("%q: kv cache %d, %v; want %d", text, got, err, want.kv)
		}
		if all, four := p2p.SliceCacheBytes(llama32, 16, got), p2p.SliceCacheBytes(llama32, 4, got); all != want.all || four != want.four {
			t.Fatalf("%q: a slice of 16 blocks gets %d, of 4 blocks %d; want %d and %d", text, all, four, want.all, want.four)
		}
	}
	for _, bad := range []string{"off", "lots", "-1GiB", "1.5GiB", "99999999999TiB"} {
		if err := os.WriteFile(p, []byte("kv_cache = \""+bad+"\"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadConfig(p, true); err == nil || !strings.Contains(err.Error(), "kv_cache") || !strings.Contains(err.Error(), "or auto") {
			t.Fatalf("kv_cache = %q: %v", bad, err)
		}
	}
}
