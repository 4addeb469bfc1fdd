package router

import (
	"slices"
	"testing"
)

func TestBestChain(t *testing.T) {
	cs := []candidate{
		{peer: "a", first: 0, last: 5, cost: 10},
		{peer: "b", first: 0, last: 2, cost: 2},
		{peer: "c", first: 2, last: 5, cost: 3},
		{peer: "d", first: 2, last: 4, cost: 1},
		{peer: "e", first: 4, last: 5, cost: 1},
	}
	got := bestChain(5, slices.Clone(cs))
	var ids []string
	for _, c := range got {
		ids = append(ids, string(c.peer))
	}
	if !slices.Equal(ids, []string{"b", "d", "e"}) {
		t.Fatalf("chain %v", ids)
	}
	// Equal cost: fewer hops.
	cs[0].cost = 4
	got = bestChain(5, slices.Clone(cs))
	if len(got) != 1 || got[0].peer != "a" {
		t.Fatalf("chain %v", got)
	}
	if bestChain(5, []candidate{{first: 0, last: 3}, {first: 2, last: 5}}) != nil {
		t.Fatal("overlapping ranges that do not chain made a route")
	}
	if !covers(5, [][2]int{{2, 5}, {0, 2}}) || covers(5, [][2]int{{0, 3}, {2, 5}}) {
		t.Fatal("covers")
	}
}
