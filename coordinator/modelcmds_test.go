package coordinator

import (
	"testing"

	"svc/coordinator/trust"
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
