package coordinator

import (
	"encoding/json"
	"strings"
	"testing"

	"svc/coordinator/placement"
	"svc/coordinator/trust"
	"svc/p2p"
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
// its prompt cache plus its KV cache, as the agent reported them; a report
// or a stored record from before the KV cache (no kv_cache field) reads as
// none, and a refusal to place says which caches were counted and where
// to lower them.
func TestSliceCaches(t *testing.T) {
	var old p2p.Report
	if err := json.Unmarshal([]byte(`{"slices":[],"memory":1000,"prompt_cache":64}`), &old); err != nil || old.KVCache != 0 || old.PromptCache != 64 {
		t.Fatalf("an older agent's report: %+v, %v", old, err)
	}
	var rec MemberRecord
	if err := json.Unmarshal([]byte(`{"label":"m1","memory":1000,"prompt_cache":64}`), &rec); err != nil || rec.SliceCaches() != 64 {
		t.Fatalf("an older record: %+v, %v", rec, err)
	}
	rec.KVCache = 2 << 30
	if got := rec.SliceCaches(); got != 2<<30+64 {
		t.Fatalf("caches a slice: %d", got)
	}
	b, _ := json.Marshal(p2p.Report{KVCache: 1 << 20})
	if !strings.Contains(string(b), `"kv_cache":1048576`) {
		t.Fatalf("a report: %s", b)
	}

	members := map[string]MemberRecord{"p1": {Label: "m1", PromptCache: 64 << 20, KVCache: 2 << 30}, "p2": {Label: "m2"}}
	machines := []placement.Machine{{ID: "p1", Memory: 1 << 30, PerRange: members["p1"].SliceCaches()}, {ID: "p2", Memory: 1 << 30}}
	if got := fitAdvice(machines, members); !strings.Contains(got, "m1 2112 MiB (prompt_cache 64MiB, kv_cache 2GiB)") || !strings.Contains(got, "lower prompt_cache or kv_cache") || strings.Contains(got, "m2") {
		t.Fatalf("advice: %s", got)
	}
	members["p3"] = MemberRecord{Label: "m3", KVCache: 3000000}
	if got := fitAdvice([]placement.Machine{{ID: "p3", Memory: 1, PerRange: 3000000}}, members); !strings.Contains(got, "m3 3 MiB (prompt_cache off, kv_cache 3000000 bytes)") {
		t.Fatalf("advice with the prompt cache off: %s", got)
	}
	if got := fitAdvice(machines[1:], members); got != "add a machine or free memory (model stop)" {
		t.Fatalf("advice without caches: %s", got)
	}
}
