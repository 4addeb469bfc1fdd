package coordinator

import (
	"encoding/json"
	"strings"
	"testing"

	"svc/coordinator/placement"
	"svc/coordinator/trust"
	"svc/p2p"
	"svc/shards/model"
)

func TestFoldState(t *testing.T) {
	sl := func(label string, f, l int, state, reason string) trust.Slice {
		return trust.Slice{Label: label, Peer: label, First: f, Last: l, State: state, Reason: reason}
	}
	cases := []struct {
		name   string
		slices []trust.Slice
		want   string
		reason string
	}{
		{"loading", []trust.Slice{sl("a", 0, 2, "served", ""), sl("b", 2, 4, "loading", "")}, trust.StateLoading, ""},
		{"served", []trust.Slice{sl("a", 0, 2, "served", ""), sl("b", 2, 4, "served", "")}, trust.StateServed, ""},
		{"failed", []trust.Slice{sl("a", 0, 2, "served", ""), sl("b", 2, 4, "unavailable", "out of memory")}, trust.StateUnavailable, "machine b could not serve blocks 2:4: out of memory"},
		// Another copy still covers the failed one's blocks.
		{"replica covers", []trust.Slice{sl("a", 0, 2, "served", ""), sl("b", 2, 4, "unavailable", "disk"), sl("c", 2, 4, "served", ""), sl("b", 0, 2, "loading", "")}, trust.StateServed, ""},
	}
	for _, c := range cases {
		p := Placement{Name: "m", Blocks: 4, State: trust.StateLoading, Slices: c.slices}
		foldState(&p)
		if p.State != c.want || p.Reason != c.reason {
			t.Errorf("%s: %s %q, want %s %q", c.name, p.State, p.Reason, c.want, c.reason)
		}
	}
	// Unavailable is sticky: a machine coming back does not clear it.
	p := Placement{Name: "m", Blocks: 2, State: trust.StateUnavailable, Reason: "machine b was removed",
		Slices: []trust.Slice{sl("a", 0, 2, "served", "")}}
	foldState(&p)
	if p.State != trust.StateUnavailable {
		t.Fatalf("unavailable cleared to %s", p.State)
	}
}

// TestSliceCaches: what placement counts with every slice of a machine is
// its prompt cache plus its KV cache: the kv_cache the agent reported, or
// with kv_cache auto (0; also a report or a stored record from before the
// KV cache, with no kv_cache field) p2p.SliceCacheBytes of the slice's
// blocks, 2GiB or one session of the model's context there where that is
// more. A model with a long trained context (Llama-3.2-1B's shape: 256MiB
// a block) is placed by default, each range counted for its blocks; a
// refusal to place says which caches were counted and where to lower them.
func TestSliceCaches(t *testing.T) {
	llama32 := model.Config{Blocks: 16, KVHeads: 8, HeadDim: 64, Context: 131072}
	small := model.Config{Blocks: 5, KVHeads: 4, HeadDim: 8, Context: 2048}
	var old p2p.Report
	if err := json.Unmarshal([]byte(`{"slices":[],"memory":1000,"prompt_cache":64}`), &old); err != nil || old.KVCache != 0 || old.PromptCache != 64 {
		t.Fatalf("an older agent's report: %+v, %v", old, err)
	}
	var rec MemberRecord
	if err := json.Unmarshal([]byte(`{"label":"m1","memory":1000,"prompt_cache":64}`), &rec); err != nil || rec.KVCacheText() != "auto" {
		t.Fatalf("an older record: %+v, %v", rec, err)
	}
	for _, c := range []struct {
		cfg    model.Config
		blocks int
		want   uint64
	}{{small, 5, 2 << 30}, {llama32, 1, 2 << 30}, {llama32, 8, 2 << 30}, {llama32, 9, 9 << 28}, {llama32, 16, 4 << 30}} {
		if got := rec.SliceCaches(c.cfg, c.blocks); got != c.want+64 {
			t.Errorf("auto, %d of %d blocks: %d, want %d", c.blocks, c.cfg.Blocks, got, c.want+64)
		}
	}
	rec.KVCache = 2 << 30
	if got := rec.SliceCaches(llama32, 16); got != 2<<30+64 || rec.KVCacheText() != "2GiB" {
		t.Fatalf("caches a slice with kv_cache 2GiB: %d, %s", got, rec.KVCacheText())
	}
	// The agent reports auto as no kv_cache, as an older one does.
	if b, _ := json.Marshal(p2p.Report{}); strings.Contains(string(b), "kv_cache") {
		t.Fatalf("a report with kv_cache auto: %s", b)
	}
	if b, _ := json.Marshal(p2p.Report{KVCache: 1 << 20}); !strings.Contains(string(b), `"kv_cache":1048576`) {
		t.Fatalf("a report with kv_cache 1MiB: %s", b)
	}

	// Llama-3.2-1B's shape (weights 150MiB a block) on one machine of
	// 8GiB with kv_cache auto: placed, the whole model counted with 4GiB
	// of KV cache; on two machines of 4GiB, each half with 2GiB.
	cost := func(f, l int) uint64 { return uint64(l-f) * 150 << 20 }
	auto := MemberRecord{Peer: "p1", Label: "m1"}
	rs, err := placement.Place(placement.Model{Blocks: 16, Cost: cost}, []placement.Machine{auto.placementMachine(8<<30, llama32)}, 1)
	if err != nil || len(rs) != 1 || rs[0].Last != 16 {
		t.Fatalf("one machine, auto: %+v, %v", rs, err)
	}
	if _, err := placement.Place(placement.Model{Blocks: 16, Cost: cost}, []placement.Machine{auto.placementMachine(4<<30+16*150<<20-1, llama32)}, 1); err == nil {
		t.Fatal("one machine one byte short of the blocks and 4GiB of KV cache: placed")
	}
	second := MemberRecord{Peer: "p2", Label: "m2"}
	halves := []placement.Machine{auto.placementMachine(2<<30+8*150<<20, llama32), second.placementMachine(2<<30+8*150<<20, llama32)}
	if rs, err := placement.Place(placement.Model{Blocks: 16, Cost: cost}, halves, 1); err != nil || len(rs) != 2 {
		t.Fatalf("two machines, auto: %+v, %v", rs, err)
	}

	members := map[string]MemberRecord{"p1": {Label: "m1", PromptCache: 64 << 20, KVCache: 2 << 30}, "p2": {Label: "m2", KVCache: 1}}
	machines := []placement.Machine{{ID: "p1", Memory: 1 << 30}, {ID: "p2", Memory: 1 << 30}}
	if got := fitAdvice(machines[:1], members, small); !strings.Contains(got, "m1 2112 MiB (prompt_cache 64MiB, kv_cache 2GiB)") || !strings.Contains(got, "lower prompt_cache or kv_cache") || strings.Contains(got, "m2") {
		t.Fatalf("advice: %s", got)
	}
	members["p3"] = MemberRecord{Label: "m3", KVCache: 3000000}
	if got := fitAdvice([]placement.Machine{{ID: "p3", Memory: 1}}, members, small); !strings.Contains(got, "m3 3 MiB (prompt_cache off, kv_cache 3000000 bytes)") {
		t.Fatalf("advice with the prompt cache off: %s", got)
	}
	// kv_cache auto: the bytes counted a slice, from one block to all.
	members["p4"] = MemberRecord{Label: "m4", PromptCache: 64 << 20}
	if got := fitAdvice([]placement.Machine{{ID: "p4", Memory: 1}}, members, small); !strings.Contains(got, "m4 2112 MiB (prompt_cache 64MiB, kv_cache auto: 2GiB, more than one session of the model's context of 2048 positions takes)") {
		t.Fatalf("advice with kv_cache auto, a short context: %s", got)
	}
	if got := fitAdvice([]placement.Machine{{ID: "p4", Memory: 1}}, members, llama32); !strings.Contains(got, "m4 2112 to 4160 MiB by blocks (prompt_cache 64MiB, kv_cache auto: 2GiB, or one session of the model's context of 131072 positions at 256MiB a block where that is more)") {
		t.Fatalf("advice with kv_cache auto, a long context: %s", got)
	}
	if got := fitAdvice(nil, members, small); got != "add a machine or free memory (model stop)" {
		t.Fatalf("advice without machines: %s", got)
	}

	// node list's CACHES A SLICE with kv_cache auto: what was counted.
	m4 := members["p4"]
	for want, counted := range map[string][]uint64{
		"auto: from 2112 MiB":    nil,
		"auto: 2112 MiB":         {m4.SliceCaches(small, 5), m4.SliceCaches(llama32, 4)},
		"auto: 2112 to 4160 MiB": {m4.SliceCaches(llama32, 16), m4.SliceCaches(small, 2)},
	} {
		if got := autoCaches(m4, counted); got != want {
			t.Errorf("caches a slice, counted %v: %q, want %q", counted, got, want)
		}
	}
}
