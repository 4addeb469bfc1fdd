package router

import (
	"math"
	"sort"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
)

// candidate is one node range a chain may use.
type candidate struct {
	peer        peer.ID
	first, last int
	cost        float64 // estimated ms per token through this hop
	ms          float64 // announced ms per token
	probe       bool    // the peer is excluded after failures: used only when needed
	// keep is how long the hop's session may go without a frame before a
	// keepalive (p2p.KeepAliveEvery; 0: the node takes none).
	keep time.Duration
}

// bestChain returns the cheapest sequence of candidates leading from block
// 0 to block total, each starting where the previous ended; nil if none.
// Edges only go forward, so one pass over boundaries in increasing order
// is a shortest-path search. Among equal costs, fewer hops win.
func bestChain(total int, cands []candidate) []candidate {
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].first < cands[j].first })
	type state struct {
		cost float64
		hops int
		via  int // index of the candidate that reached this boundary
	}
	dist := make([]state, total+1)
	for i := range dist {
		dist[i] = state{cost: math.Inf(1), via: -1}
	}
	dist[0] = state{}
	for i, c := range cands {
		if c.first < 0 || c.last > total || c.first >= c.last {
			continue
		}
		from := dist[c.first]
		if math.IsInf(from.cost, 1) {
			continue
		}
		to := state{cost: from.cost + c.cost, hops: from.hops + 1, via: i}
		cur := dist[c.last]
		if to.cost < cur.cost || (to.cost == cur.cost && to.hops < cur.hops) {
			dist[c.last] = to
		}
	}
	if dist[total].via < 0 {
		return nil
	}
	var rev []candidate
	for b := total; b > 0; {
		c := cands[dist[b].via]
		rev = append(rev, c)
		b = c.first
	}
	out := make([]candidate, len(rev))
	for i, c := range rev {
		out[len(rev)-1-i] = c
	}
	return out
}

// covers reports whether ranges chain from block 0 to block total.
func covers(total int, ranges [][2]int) bool {
	reach := make([]bool, total+1)
	reach[0] = true
	sort.Slice(ranges, func(i, j int) bool { return ranges[i][0] < ranges[j][0] })
	for _, r := range ranges {
		if r[0] >= 0 && r[1] <= total && r[0] < r[1] && reach[r[0]] {
			reach[r[1]] = true
		}
	}
	return reach[total]
}
