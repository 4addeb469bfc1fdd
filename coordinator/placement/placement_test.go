package placement

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// uniform is a model of n blocks of size bytes each.
func uniform(n int, size uint64) Model {
	return Model{Blocks: n, Cost: func(f, l int) uint64 { return uint64(l-f) * size }}
}

func TestProportional(t *testing.T) {
	rs, err := Place(uniform(12, 10), []Machine{{"c", 300, nil}, {"a", 100, nil}, {"b", 200, nil}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := []Range{
		{Machine: "a", First: 0, Last: 2, Copy: 1, Bytes: 20},
		{Machine: "b", First: 2, Last: 6, Copy: 1, Bytes: 40},
		{Machine: "c", First: 6, Last: 12, Copy: 1, Bytes: 60},
	}
	if !reflect.DeepEqual(rs, want) {
		t.Fatalf("got %+v, want %+v", rs, want)
	}
}

func TestDeterministic(t *testing.T) {
	ms := []Machine{{"m1", 1 << 30, nil}, {"m2", 1 << 30, nil}, {"m3", 3 << 29, nil}, {"m4", 0, nil}}
	a, err := Place(uniform(22, 30<<20), ms, 2)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		sh := append([]Machine(nil), ms...)
		rand.New(rand.NewPCG(uint64(i), 1)).Shuffle(len(sh), func(i, j int) { sh[i], sh[j] = sh[j], sh[i] })
		b, err := Place(uniform(22, 30<<20), sh, 2)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("machine order changed the placement:\n%+v\n%+v", a, b)
		}
	}
	for _, r := range a {
		if r.Machine == "m4" {
			t.Fatalf("a machine without memory got %+v", r)
		}
	}
}

func TestReplicas(t *testing.T) {
	// Room for two copies on three machines, not three.
	rs, err := Place(uniform(9, 10), []Machine{{"a", 60, nil}, {"b", 60, nil}, {"c", 60, nil}}, 3)
	if err != nil {
		t.Fatal(err)
	}
	cov := Coverage(9, rs)
	for b, c := range cov {
		if c != 2 {
			t.Errorf("block %d held %d times, want 2 (%+v)", b, c, rs)
		}
	}
	// One copy when asked for one, even with room for more.
	rs, err = Place(uniform(9, 10), []Machine{{"a", 600, nil}, {"b", 600, nil}, {"c", 600, nil}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 3 {
		t.Fatalf("one copy over three machines gave %+v", rs)
	}
	// More copies than machines: each machine holds everything once.
	rs, err = Place(uniform(4, 10), []Machine{{"a", 600, nil}, {"b", 600, nil}}, 5)
	if err != nil {
		t.Fatal(err)
	}
	for b, c := range Coverage(4, rs) {
		if c != 2 {
			t.Errorf("block %d held %d times, want 2", b, c)
		}
	}
}

func TestInsufficient(t *testing.T) {
	_, err := Place(uniform(10, 10), []Machine{{"a", 45, nil}, {"b", 45, nil}}, 1)
	if !errors.Is(err, ErrInsufficient) {
		t.Fatalf("90 bytes for 100 placed: %v", err)
	}
	if _, err := Place(uniform(10, 10), nil, 1); !errors.Is(err, ErrInsufficient) {
		t.Fatalf("no machines: %v", err)
	}
	if _, err := Place(uniform(10, 10), []Machine{{"a", 1000, nil}, {"a", 1, nil}}, 1); err == nil {
		t.Fatal("a machine listed twice accepted")
	}
	if _, err := Place(uniform(10, 10), []Machine{{"a", 1000, nil}}, 0); err == nil {
		t.Fatal("zero copies accepted")
	}
}

// TestFallback: the proportional cut would overfill the small machine (the
// first block is heavy), so the largest machine takes the longest run.
func TestFallback(t *testing.T) {
	cost := []uint64{50, 10, 10, 10, 10}
	m := Model{Blocks: 5, Cost: func(f, l int) uint64 {
		var n uint64
		for _, c := range cost[f:l] {
			n += c
		}
		return n
	}}
	rs, err := Place(m, []Machine{{"a", 45, nil}, {"b", 60, nil}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := []Range{{Machine: "b", First: 0, Last: 2, Copy: 1, Bytes: 60}, {Machine: "a", First: 2, Last: 5, Copy: 1, Bytes: 30}}
	if !reflect.DeepEqual(rs, want) {
		t.Fatalf("got %+v, want %+v", rs, want)
	}
}

// TestProperties checks random placements of uniform blocks: each succeeds
// exactly when the machines have room for every block (without a per-range
// cost), covers every block, keeps each machine within its memory (per-range
// costs included) and never gives a machine a block twice.
func TestProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for i := 0; i < 2000; i++ {
		blocks := 1 + r.IntN(30)
		n := 1 + r.IntN(6)
		var ms []Machine
		room := 0
		perRange := i%2 == 1
		for j := 0; j < n; j++ {
			mem := uint64(r.IntN(15)) * 10
			ms = append(ms, Machine{ID: fmt.Sprintf("m%d", j), Memory: mem})
			if perRange {
				ms[j].RangeCost = flat(uint64(r.IntN(15)))
			}
			room += int(mem / 10)
		}
		copies := 1 + r.IntN(3)
		rs, err := Place(uniform(blocks, 10), ms, copies)
		if (!perRange && (err == nil) != (room >= blocks)) || (err != nil && !errors.Is(err, ErrInsufficient)) {
			t.Fatalf("%d blocks, machines %+v: err %v", blocks, ms, err)
		}
		if err != nil {
			continue
		}
		used := map[string]uint64{}
		held := map[string][]int{}
		byID := map[string]Machine{}
		for _, mc := range ms {
			byID[mc.ID] = mc
		}
		for _, rg := range rs {
			used[rg.Machine] += rg.Bytes + byID[rg.Machine].extra(rg.First, rg.Last)
			for b := rg.First; b < rg.Last; b++ {
				held[rg.Machine] = append(held[rg.Machine], b)
			}
		}
		for _, mc := range ms {
			if used[mc.ID] > mc.Memory {
				t.Fatalf("%s uses %d of %d: %+v", mc.ID, used[mc.ID], mc.Memory, rs)
			}
			seen := map[int]bool{}
			for _, b := range held[mc.ID] {
				if seen[b] {
					t.Fatalf("%s holds block %d twice: %+v", mc.ID, b, rs)
				}
				seen[b] = true
			}
		}
		for b, c := range Coverage(blocks, rs) {
			if c < 1 || c > copies {
				t.Fatalf("block %d held %d times (copies %d): %+v", b, c, copies, rs)
			}
		}
	}
}

// TestPerRange: what a machine's every range takes besides its blocks (a
// node's prompt cache) is counted where a range must fit: a model that
// fits two machines exactly does not fit them with it, and a further copy
// is left out where it no longer fits.
func TestPerRange(t *testing.T) {
	if _, err := Place(uniform(10, 10), []Machine{{"a", 50, nil}, {"b", 50, nil}}, 1); err != nil {
		t.Fatalf("without a per-range cost: %v", err)
	}
	if rs, err := Place(uniform(10, 10), []Machine{{"a", 50, flat(1)}, {"b", 50, nil}}, 1); !errors.Is(err, ErrInsufficient) || !strings.Contains(err.Error(), "caches (up to 1 MiB a slice)") {
		t.Fatalf("with a per-range cost: %+v, %v; want ErrInsufficient naming the caches", rs, err)
	}
	if _, err := Place(uniform(10, 10), []Machine{{"a", 45, nil}, {"b", 45, nil}}, 1); err == nil || strings.Contains(err.Error(), "caches") {
		t.Fatalf("without caches the refusal names none: %v", err)
	}
	// a's first range takes 20+31 of 100, leaving 49: the second copy of
	// b's range (20+31) does not fit there any more; b takes a's copy.
	rs, err := Place(uniform(4, 10), []Machine{{"a", 100, flat(31)}, {"b", 100, nil}}, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := []Range{
		{Machine: "a", First: 0, Last: 2, Copy: 1, Bytes: 20},
		{Machine: "b", First: 2, Last: 4, Copy: 1, Bytes: 20},
		{Machine: "b", First: 0, Last: 2, Copy: 2, Bytes: 20},
	}
	if !reflect.DeepEqual(rs, want) {
		t.Fatalf("got %+v, want %+v", rs, want)
	}
	// With 30 it fits exactly.
	if rs, err := Place(uniform(4, 10), []Machine{{"a", 100, flat(30)}, {"b", 100, nil}}, 2); err != nil || len(rs) != 4 {
		t.Fatalf("per-range 30: %+v, %v; want four ranges", rs, err)
	}
}

// TestCachesChangeCopies: a machine's caches (prompt cache plus KV cache,
// a fixed cost per range) decide how many copies fit: three machines with
// room for three copies of the blocks alone hold three with small caches,
// two with larger ones, and one when the KV cache alone takes what a
// second slice would need; never a machine beyond its memory.
func TestCachesChangeCopies(t *testing.T) {
	const prompt = 4
	for _, c := range []struct {
		kv     uint64
		copies int
	}{{0, 3}, {2, 3}, {3, 2}, {16, 2}, {17, 1}, {56, 1}} {
		// 6 blocks of 10 over three machines of 80: a copy's range is
		// 20 bytes, so k copies take k × (20 + 4 + kv) on each machine.
		ms := []Machine{{"a", 80, flat(prompt + c.kv)}, {"b", 80, flat(prompt + c.kv)}, {"c", 80, flat(prompt + c.kv)}}
		rs, err := Place(uniform(6, 10), ms, 3)
		if err != nil {
			t.Fatalf("kv %d: %v", c.kv, err)
		}
		copies := 0
		used := map[string]uint64{}
		for _, r := range rs {
			copies = max(copies, r.Copy)
			used[r.Machine] += r.Bytes + prompt + c.kv
		}
		if copies != c.copies || len(rs) != 3*c.copies {
			t.Errorf("kv %d: %d copies in %d ranges, want %d: %+v", c.kv, copies, len(rs), c.copies, rs)
		}
		for m, u := range used {
			if u > 80 {
				t.Errorf("kv %d: %s holds %d of 80", c.kv, m, u)
			}
		}
	}
	// A KV cache that leaves no room for even one slice: no placement,
	// and the refusal says that caches were counted.
	_, err := Place(uniform(6, 10), []Machine{{"a", 80, flat(prompt + 57)}, {"b", 80, flat(prompt + 57)}, {"c", 80, flat(prompt + 57)}}, 1)
	if !errors.Is(err, ErrInsufficient) || !strings.Contains(err.Error(), "caches") {
		t.Fatalf("kv 57: %v", err)
	}
}

// TestParseLimit checks the values a limit such as svc node's
// --prompt-cache takes.
func TestParseLimit(t *testing.T) {
	for in, want := range map[string]int64{"": 0, "0": 0, "off": -1, "OFF": -1, "256MiB": 256 << 20, "1GiB": 1 << 30, "4096": 4096} {
		if got, err := ParseLimit(in); err != nil || got != want {
			t.Errorf("ParseLimit(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"lots", "-1", "1.5GiB", "on"} {
		if got, err := ParseLimit(in); err == nil {
			t.Errorf("ParseLimit(%q) = %d, want an error", in, got)
		}
	}
}

func TestParseBytes(t *testing.T) {
	for in, want := range map[string]uint64{"": 0, "512MiB": 512 << 20, "8GiB": 8 << 30, "1GB": 1e9, "4096": 4096, " 2 GiB ": 2 << 30} {
		if got, err := ParseBytes(in); err != nil || got != want {
			t.Errorf("%q: %d, %v (want %d)", in, got, err, want)
		}
	}
	for _, bad := range []string{"lots", "-1GiB", "1.5GiB", "GiB"} {
		if _, err := ParseBytes(bad); err == nil || !strings.Contains(err.Error(), "not a size") {
			t.Errorf("%q accepted: %v", bad, err)
		}
	}
	// A count that overflows with its unit is refused, not wrapped.
	for _, big := range []string{"99999999999TiB", "18446744073709551615KiB"} {
		if n, err := ParseBytes(big); err == nil || !strings.Contains(err.Error(), "too large") {
			t.Errorf("%q: %d, %v; want too large", big, n, err)
		}
	}
	if n, err := ParseBytes("16777215TiB"); err != nil || n != 16777215<<40 {
		t.Errorf("largest TiB count: %d, %v", n, err)
	}
}

// kvAuto is a range cost shaped as an automatic KV cache: floor, or per
// block of the range where that is more.
func flat(n uint64) func(f, l int) uint64 {
	return func(int, int) uint64 { return n }
}

func kvAuto(floor, per uint64) func(f, l int) uint64 {
	return func(f, l int) uint64 { return max(floor, per*uint64(l-f)) }
}

// within checks that no machine holds more than its memory, counting each
// range with its machine's RangeCost, and that copy 1 covers
// every block once.
func within(t *testing.T, name string, m Model, ms []Machine, rs []Range) {
	t.Helper()
	byID := map[string]Machine{}
	for _, mc := range ms {
		byID[mc.ID] = mc
	}
	used := map[string]uint64{}
	var first []Range
	for _, r := range rs {
		mc := byID[r.Machine]
		if r.Bytes != m.Cost(r.First, r.Last) {
			t.Errorf("%s: %+v: bytes %d, cost %d", name, r, r.Bytes, m.Cost(r.First, r.Last))
		}
		used[r.Machine] += r.Bytes
		if mc.RangeCost != nil {
			used[r.Machine] += mc.RangeCost(r.First, r.Last)
		}
		if r.Copy == 1 {
			first = append(first, r)
		}
	}
	for id, u := range used {
		if u > byID[id].Memory {
			t.Errorf("%s: %s holds %d of %d: %+v", name, id, u, byID[id].Memory, rs)
		}
	}
	for b, n := range Coverage(m.Blocks, first) {
		if n != 1 {
			t.Errorf("%s: block %d in %d ranges of the first copy: %+v", name, b, n, rs)
		}
	}
}

// TestRangeCost: a cost that grows with the range (an automatic KV cache:
// a floor, or one context on the range's blocks where that is more) is
// counted for the range it is: a model whose whole-model cache does not
// fit one machine is split so that each range's smaller cache fits; a
// machine takes fewer blocks the more each block's cache costs; further
// copies are counted the same; no machine is ever planned over its memory.
func TestRangeCost(t *testing.T) {
	m := uniform(6, 10)
	// Three machines of 60: the whole model's cache (6 × 10) with any
	// range leaves no room for blocks, as a fixed cost would say; counted
	// for the range, two blocks take 20 + max(15, 20) = 40 each.
	fixed := []Machine{{"a", 60, flat(60)}, {"b", 60, flat(60)}, {"c", 60, flat(60)}}
	if rs, err := Place(m, fixed, 1); !errors.Is(err, ErrInsufficient) {
		t.Fatalf("the whole model's cache with every range: %+v, %v", rs, err)
	}
	auto := []Machine{{"a", 60, kvAuto(15, 10)}, {"b", 60, kvAuto(15, 10)}, {"c", 60, kvAuto(15, 10)}}
	rs, err := Place(m, auto, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := []Range{
		{Machine: "a", First: 0, Last: 2, Copy: 1, Bytes: 20},
		{Machine: "b", First: 2, Last: 4, Copy: 1, Bytes: 20},
		{Machine: "c", First: 4, Last: 6, Copy: 1, Bytes: 20},
	}
	// 40 each leaves 20, short of a second range's 40: one copy.
	if !reflect.DeepEqual(rs, want) {
		t.Fatalf("got %+v, want %+v", rs, want)
	}
	within(t, "three of 60", m, auto, rs)
	// With 80 each a second copy fits beside the first.
	for i := range auto {
		auto[i].Memory = 80
	}
	if rs, err = Place(m, auto, 2); err != nil || len(rs) != 6 {
		t.Fatalf("three of 80: %+v, %v; want two copies", rs, err)
	}
	within(t, "three of 80", m, auto, rs)

	// Three machines of 100, two blocks a range: the more a block's cache
	// costs, the fewer copies fit (3 × (20 + 2 × per) within 100), until
	// not even one range of two blocks does and the model is refused.
	for per, copies := range map[uint64]int{0: 3, 10: 2, 15: 2, 16: 1, 40: 1, 41: 0} {
		ms := []Machine{{"a", 100, kvAuto(0, per)}, {"b", 100, kvAuto(0, per)}, {"c", 100, kvAuto(0, per)}}
		rs, err := Place(m, ms, 3)
		if copies == 0 {
			if !errors.Is(err, ErrInsufficient) || !strings.Contains(err.Error(), "caches") {
				t.Fatalf("per block %d: %+v, %v; want refused naming the caches", per, rs, err)
			}
			continue
		}
		if err != nil || len(rs) != 3*copies {
			t.Fatalf("per block %d: %+v, %v; want %d copies", per, rs, err, copies)
		}
		within(t, fmt.Sprintf("per block %d", per), m, ms, rs)
	}
	// A cache larger than any machine for the whole model, and one block's
	// cache beyond every machine: refused, saying caches were counted.
	if _, err := Place(uniform(4, 10), []Machine{{"a", 40, kvAuto(31, 1)}}, 1); !errors.Is(err, ErrInsufficient) || !strings.Contains(err.Error(), "caches") {
		t.Fatalf("floor beyond the machine: %v", err)
	}

	// Many machines, memories, fixed and per-range costs, copies: never a
	// machine over its memory, every block covered once by the first copy.
	rng := rand.New(rand.NewPCG(7, 18))
	placed := 0
	for i := 0; i < 300; i++ {
		blocks := 1 + rng.IntN(24)
		model := uniform(blocks, 1+rng.Uint64N(50))
		var ms []Machine
		for j := 0; j < 1+rng.IntN(5); j++ {
			fixed := rng.Uint64N(40)
			mc := Machine{ID: fmt.Sprintf("m%d", j), Memory: rng.Uint64N(2000), RangeCost: flat(fixed)}
			if rng.IntN(3) > 0 {
				auto := kvAuto(rng.Uint64N(200), rng.Uint64N(60))
				mc.RangeCost = func(f, l int) uint64 { return fixed + auto(f, l) }
			}
			ms = append(ms, mc)
		}
		rs, err := Place(model, ms, 1+rng.IntN(3))
		if errors.Is(err, ErrInsufficient) {
			continue
		}
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		within(t, fmt.Sprintf("case %d", i), model, ms, rs)
		placed++
	}
	if placed < 100 {
		t.Fatalf("only %d of 300 cases placed: the check hardly ran", placed)
	}
}
