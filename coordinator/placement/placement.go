package placement

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// ErrInsufficient says the machines' memory cannot hold one copy of the
// model.
var ErrInsufficient = errors.New("not enough memory on the machines")

// Machine is an online machine and the memory it offers for weights.
type Machine struct {
	ID     string
	Memory uint64
	// RangeCost, when set, is what a range of blocks [first, last) takes
	// on the machine besides its blocks' bytes: the caches of the node
	// serving it (its prompt cache, and a KV cache of a fixed size or one
	// sized to hold a whole context on the range's blocks). It must not
	// shrink as a range grows.
	RangeCost func(first, last int) uint64
}

// need is what the range [first, last) of c bytes takes on mc.
func (mc Machine) need(first, last int, c uint64) uint64 {
	n := c
	if mc.RangeCost != nil {
		n += mc.RangeCost(first, last)
	}
	return n
}

// extra is what the range [first, last) takes on mc besides its bytes.
func (mc Machine) extra(first, last int) uint64 { return mc.need(first, last, 0) }

// Model is what is placed: its number of blocks and what a range of them
// costs in memory (bytes of its slice).
type Model struct {
	Blocks int
	Cost   func(first, last int) uint64
}

// Range is one machine's part of a placement.
type Range struct {
	Machine     string
	First, Last int
	// Copy is 1 for the ranges that together cover the model once, 2 for
	// the second copy, and so on.
	Copy int
	// Bytes is the range's cost.
	Bytes uint64
}

// Place computes the placement of m over machines with up to copies copies
// of each block (at least 1; at most the number of machines). Ranges come
// ordered by copy, then block.
func Place(m Model, machines []Machine, copies int) ([]Range, error) {
	if m.Blocks <= 0 {
		return nil, fmt.Errorf("placement: model of %d blocks", m.Blocks)
	}
	if m.Cost == nil {
		return nil, errors.New("placement: no cost function")
	}
	if copies < 1 {
		return nil, fmt.Errorf("placement: %d copies (at least 1)", copies)
	}
	var ms []Machine
	seen := map[string]bool{}
	for _, mc := range machines {
		if seen[mc.ID] {
			return nil, fmt.Errorf("placement: machine %q listed twice", mc.ID)
		}
		seen[mc.ID] = true
		if mc.Memory > 0 {
			ms = append(ms, mc)
		}
	}
	if len(ms) == 0 {
		return nil, fmt.Errorf("placement: %w: no online machine offers memory", ErrInsufficient)
	}
	slices.SortFunc(ms, func(a, b Machine) int { return cmp.Compare(a.ID, b.ID) })
	first, err := firstCopy(m, ms)
	if err != nil {
		return nil, err
	}
	free := map[string]uint64{}
	index := map[string]int{}
	for i, mc := range ms {
		free[mc.ID], index[mc.ID] = mc.Memory, i
	}
	for _, r := range first {
		free[r.Machine] -= ms[index[r.Machine]].need(r.First, r.Last, r.Bytes)
	}
	out := first
	for k := 2; k <= min(copies, len(ms)); k++ {
		for _, r := range first {
			mc := ms[(index[r.Machine]+k-1)%len(ms)]
			need := mc.need(r.First, r.Last, r.Bytes)
			if free[mc.ID] < need {
				continue
			}
			free[mc.ID] -= need
			out = append(out, Range{Machine: mc.ID, First: r.First, Last: r.Last, Copy: k, Bytes: r.Bytes})
		}
	}
	return out, nil
}

// firstCopy covers every block once: proportional split, else greedy.
func firstCopy(m Model, ms []Machine) ([]Range, error) {
	if rs, ok := proportional(m, ms); ok {
		return rs, nil
	}
	return greedy(m, ms)
}

// proportional cuts the blocks where their cumulative cost crosses each
// machine's cumulative share of the memory; ok is false when a range does
// not fit its machine.
func proportional(m Model, ms []Machine) ([]Range, bool) {
	var total float64
	for _, mc := range ms {
		total += float64(mc.Memory)
	}
	cum := make([]float64, m.Blocks+1) // cum[b]: cost of blocks [0,b)
	for b := 0; b < m.Blocks; b++ {
		cum[b+1] = cum[b] + float64(m.Cost(b, b+1))
	}
	var out []Range
	var mem float64
	start := 0
	for i, mc := range ms {
		mem += float64(mc.Memory)
		end := m.Blocks
		if i < len(ms)-1 {
			target := cum[m.Blocks] * mem / total
			// The cut nearest the target, never before start.
			end = start
			for end < m.Blocks && cum[end+1] <= target {
				end++
			}
			if end < m.Blocks && target-cum[end] > cum[end+1]-target {
				end++
			}
		}
		if end == start {
			continue
		}
		c := m.Cost(start, end)
		if mc.need(start, end, c) > mc.Memory {
			return nil, false
		}
		out = append(out, Range{Machine: mc.ID, First: start, Last: end, Copy: 1, Bytes: c})
		start = end
	}
	return out, start == m.Blocks
}

// greedy gives the machines, largest first, the longest run of blocks that
// fits each.
func greedy(m Model, ms []Machine) ([]Range, error) {
	order := slices.Clone(ms)
	slices.SortStableFunc(order, func(a, b Machine) int { return cmp.Compare(b.Memory, a.Memory) })
	var out []Range
	start := 0
	for _, mc := range order {
		if start == m.Blocks {
			break
		}
		end := start
		for end < m.Blocks && mc.need(start, end+1, m.Cost(start, end+1)) <= mc.Memory {
			end++
		}
		if end == start {
			continue
		}
		out = append(out, Range{Machine: mc.ID, First: start, Last: end, Copy: 1, Bytes: m.Cost(start, end)})
		start = end
	}
	if start < m.Blocks {
		var have, per uint64
		for _, mc := range ms {
			have += mc.Memory
			// The most a slice's caches take: those of the whole model
			// on one machine (a cost that grows with the range).
			per = max(per, mc.extra(0, m.Blocks))
		}
		caches := ""
		if per > 0 {
			// Say that caches were counted: they are what an operator
			// may lower.
			caches = fmt.Sprintf(" and every slice its node's caches (up to %d MiB a slice)", (per+1<<20-1)>>20)
		}
		return nil, fmt.Errorf("placement: %w: one copy needs about %d MiB%s, %d machines offer %d MiB (blocks %d to %d do not fit)",
			ErrInsufficient, m.Cost(0, m.Blocks)>>20, caches, len(ms), have>>20, start, m.Blocks)
	}
	slices.SortFunc(out, func(a, b Range) int { return cmp.Compare(a.First, b.First) })
	return out, nil
}

// Coverage counts, for each block, the ranges that hold it.
func Coverage(blocks int, rs []Range) []int {
	cov := make([]int, blocks)
	for _, r := range rs {
		for b := max(r.First, 0); b < min(r.Last, blocks); b++ {
			cov[b]++
		}
	}
	return cov
}

// ParseLimit reads a memory limit that can also be switched off: "off"
// (any case) is -1, anything else a size as ParseBytes reads it ("" and
// "0" are 0, which callers take as their default).
func ParseLimit(s string) (int64, error) {
	if strings.EqualFold(strings.TrimSpace(s), "off") {
		return -1, nil
	}
	n, err := ParseBytes(s)
	if err != nil {
		return 0, fmt.Errorf("%w (or off)", err)
	}
	if n > math.MaxInt64 {
		return 0, fmt.Errorf("%q is too large", s)
	}
	return int64(n), nil
}

// ParseBytes reads "512MiB", "8GiB", "1GB" or a byte count ("" is 0).
func ParseBytes(s string) (uint64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	units := []struct {
		suffix string
		mult   uint64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"TB", 1e12}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}, {"B", 1}}
	mult := uint64(1)
	for _, u := range units {
		if v, ok := strings.CutSuffix(s, u.suffix); ok {
			s, mult = strings.TrimSpace(v), u.mult
			break
		}
	}
	var n uint64
	if _, err := fmt.Sscanf(s, "%d", &n); err != nil || fmt.Sprint(n) != s {
		return 0, fmt.Errorf("%q is not a size such as 512MiB or 8GiB", s)
	}
	if n > math.MaxUint64/mult {
		return 0, fmt.Errorf("%q is too large", s)
	}
	return n * mult, nil
}
