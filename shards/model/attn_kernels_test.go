package model

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"svc/shards/tensor"
)

// The SIMD kernel sets must give the pure-Go kernels' bits for every input
// the attention can produce; these tests compare them on random data of
// many shapes, including extremes (huge and tiny values, infinities, NaN).
// NaNs are compared as NaNs: which NaN payload a float operation returns
// depends on operand order even in compiled Go code.

func sameBits32(a, b float32) bool {
	return math.Float32bits(a) == math.Float32bits(b) || (a != a && b != b)
}

func compareRows(t *testing.T, what string, got, want []float32) {
	t.Helper()
	for i := range want {
		if !sameBits32(got[i], want[i]) {
			t.Fatalf("%s: element %d = %g (%#08x), want %g (%#08x)", what, i,
				got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
		}
	}
}

// simdSets returns the kernel sets to check against genericAttn; on a CPU
// (or build) without any there is nothing to compare and the test skips.
func simdSets(t *testing.T) []*attnKernels {
	sets := attnKernelSets()[1:]
	if len(sets) == 0 {
		t.Skip("no SIMD attention kernels in this build or on this CPU; only the Go kernels run")
	}
	return sets
}

// randF32 draws a float32 of a random kind: mostly moderate values of the
// given scale, sometimes zeros, tiny, huge, infinite or NaN ones when
// extremes is set.
func randF32(r *rand.Rand, scale float32, extremes bool) float32 {
	if extremes {
		switch r.IntN(24) {
		case 0:
			return 0
		case 1:
			return float32(math.Copysign(0, -1))
		case 2:
			return float32(r.NormFloat64()) * 1e-6 // f16 subnormal range
		case 3:
			return float32(r.NormFloat64()) * 7e4 // past f16's range
		case 4:
			return float32(math.Inf(1 - 2*r.IntN(2)))
		case 5:
			return float32(math.NaN())
		case 6:
			return float32(r.NormFloat64()) * 1e-30
		}
	}
	return float32(r.NormFloat64()) * scale
}

// randF16 returns f16 bit patterns of values drawn like randF32.
func randF16(r *rand.Rand, n int, scale float32, extremes bool) []uint16 {
	h := make([]uint16, n)
	for i := range h {
		h[i] = tensor.FP32ToFP16(randF32(r, scale, extremes))
	}
	return h
}

func TestAttnPrepQ(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, ks := range simdSets(t) {
		for _, hd := range []int{1, 5, 15, 16, 17, 31, 63, 64, 65, 100, 128, 129, 256} {
			for _, ext := range []bool{false, true} {
				q := make([]float32, hd)
				for i := range q {
					q[i] = randF32(r, 3, ext)
				}
				w16, g16 := make([]uint16, hd), make([]uint16, hd)
				wf, gf := make([]float32, roundUp(hd, lanes)), make([]float32, roundUp(hd, lanes))
				for i := range gf {
					gf[i] = float32(math.NaN()) // the padding must be cleared
				}
				genericAttn.prepQ(w16, wf, q)
				ks.prepQ(g16, gf, q)
				for i := range w16 {
					if w16[i] != g16[i] {
						t.Fatalf("%s hd=%d: q16[%d] = %#04x, want %#04x (q=%g)", ks.name, hd, i, g16[i], w16[i], q[i])
					}
				}
				compareRows(t, fmt.Sprintf("%s hd=%d qf", ks.name, hd), gf, wf)
			}
		}
	}
}

func TestAttnScores(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	spans := []int{1, 2, 3, 15, 16, 17, 33, 64, 100, 128, 600}
	for _, ks := range simdSets(t) {
		for _, tiny := range []bool{true, false} {
			hds := []int{1, 7, 16, 63, 64, 65, 100, 127, 128, 129, 192, 256}
			if tiny {
				hds = []int{16, 32, 48, 64, 80, 128, 256}
			}
			for _, hd := range hds {
				for _, span := range spans {
					for _, ext := range []bool{false, true} {
						stride := hd * (1 + r.IntN(3))
						k := randF16(r, (span-1)*stride+hd, 1, ext)
						q := make([]float32, hd)
						for i := range q {
							q[i] = randF32(r, 2, ext)
						}
						q16, qf := make([]uint16, hd), make([]float32, roundUp(hd, lanes))
						genericAttn.prepQ(q16, qf, q)
						scale := 1 / float32(math.Sqrt(float64(hd)))
						want, got := make([]float32, span), make([]float32, span)
						gen, simd := genericAttn.scoresVec, ks.scoresVec
						if tiny {
							gen, simd = genericAttn.scoresTiny, ks.scoresTiny
						}
						gen(q16, qf, k, stride, scale, want)
						simd(q16, qf, k, stride, scale, got)
						compareRows(t, fmt.Sprintf("%s tiny=%v hd=%d span=%d extremes=%v", ks.name, tiny, hd, span, ext), got, want)
					}
				}
			}
		}
	}
}

func TestAttnSoftmax(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	spans := []int{1, 2, 3, 5, 15, 16, 17, 31, 32, 33, 64, 100, 128, 255, 600}
	scales := []float32{0, 0.01, 1, 10, 40, 200}
	for _, ks := range simdSets(t) {
		for _, span := range spans {
			for _, scale := range scales {
				for _, ext := range []bool{false, true} {
					s := make([]float32, span)
					for i := range s {
						s[i] = randF32(r, scale, ext && r.IntN(4) == 0)
					}
					if ext && span > 2 {
						s[r.IntN(span)] = float32(math.Inf(-1)) // a masked score
					}
					n := roundUp(span, lanes)
					want, got := make([]float32, n), make([]float32, n)
					copy(want, s)
					copy(got, s)
					for i := span; i < n; i++ {
						want[i], got[i] = float32(math.NaN()), float32(math.Inf(1)) // stale padding
					}
					genericAttn.softmax(want, span)
					ks.softmax(got, span)
					compareRows(t, fmt.Sprintf("%s span=%d scale=%g extremes=%v", ks.name, span, scale, ext), got, want)
				}
			}
		}
		// All scores -Inf (no finite maximum) and a single huge one.
		for _, span := range []int{1, 17, 40} {
			n := roundUp(span, lanes)
			want, got := make([]float32, n), make([]float32, n)
			for i := range span {
				want[i], got[i] = float32(math.Inf(-1)), float32(math.Inf(-1))
			}
			genericAttn.softmax(want, span)
			ks.softmax(got, span)
			compareRows(t, fmt.Sprintf("%s all -Inf span=%d", ks.name, span), got, want)
			for i := range span {
				want[i], got[i] = float32(-i), float32(-i)
			}
			want[span-1], got[span-1] = 3e38, 3e38
			genericAttn.softmax(want, span)
			ks.softmax(got, span)
			compareRows(t, fmt.Sprintf("%s huge span=%d", ks.name, span), got, want)
		}
	}
}

// TestVexpfVector runs the vector exponential over inputs that reach every
// branch (overflow, underflow to subnormals and to zero, NaN) through the
// softmax of two scores, one of them 0 so that the maximum is 0 or the
// other score.
func TestVexpfVector(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, ks := range simdSets(t) {
		for range 20000 {
			x := float32(-r.Float64() * 130)
			if r.IntN(8) == 0 {
				x = -math.Float32frombits(r.Uint32() & 0x7fffffff)
			}
			want := []float32{0, x}
			want = append(want, make([]float32, lanes-2)...)
			got := append([]float32(nil), want...)
			genericAttn.softmax(want, 2)
			ks.softmax(got, 2)
			compareRows(t, fmt.Sprintf("%s x=%g", ks.name, x), got, want)
		}
	}
}

func TestAttnKQV(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	spans := []int{1, 2, 3, 15, 16, 17, 31, 32, 33, 63, 64, 65, 90, 96, 97, 128, 150, 600}
	for _, ks := range simdSets(t) {
		for _, tiny := range []bool{true, false} {
			// 8 and 40: the NEON kernels' narrow 8-value chunks, alone and
			// after a wide 32-value one.
			hds := []int{1, 3, 8, 17, 20, 40, 64, 65, 128, 129}
			if tiny {
				hds = []int{4, 8, 12, 20, 40, 64, 68, 100, 128, 132, 256}
			}
			for _, hd := range hds {
				for _, span := range spans {
					for _, ext := range []bool{false, true} {
						stride := hd + r.IntN(2)*hd
						v := randF16(r, (span-1)*stride+hd, 1, ext)
						// Probabilities are f16 values (the softmax rounds
						// them), mostly in [0, 1], some exactly 0.
						p := make([]float32, span)
						for i := range p {
							x := float32(r.Float64())
							if ext {
								x = randF32(r, 1, true)
							} else if r.IntN(5) == 0 {
								x = 0
							}
							p[i] = tensor.FP16ToFP32(tensor.FP32ToFP16(x))
						}
						want, got := make([]float32, hd), make([]float32, hd)
						wacc, gacc := make([]float32, attnAccLen(hd)), make([]float32, attnAccLen(hd))
						for i := range gacc {
							gacc[i] = float32(math.NaN()) // stale scratch
						}
						sum := make([]float64, hd)
						if tiny {
							genericAttn.kqvTiny(p, v, stride, wacc, want)
							ks.kqvTiny(p, v, stride, gacc, got)
						} else {
							genericAttn.kqvVec(p, v, stride, wacc, sum, want)
							ks.kqvVec(p, v, stride, gacc, sum, got)
						}
						compareRows(t, fmt.Sprintf("%s tiny=%v hd=%d span=%d extremes=%v", ks.name, tiny, hd, span, ext), got, want)
					}
				}
			}
		}
	}
}

// TestAttentionKernelSets runs whole attention calls (several rows and
// heads on a thread pool) with every kernel set and with the all-Go code
// the kernel sets replaced, and wants the same bits from all.
func TestAttentionKernelSets(t *testing.T) {
	pool := tensor.NewPool(2)
	defer pool.Close()
	r := rand.New(rand.NewPCG(11, 12))
	type shape struct{ heads, kvHeads, hd int }
	shapes := []shape{{8, 2, 64}, {4, 4, 128}, {6, 2, 20}, {4, 2, 18}, {2, 1, 48}}
	type batch struct{ n, pos0 int }
	batches := []batch{{1, 0}, {1, 1}, {1, 40}, {1, 95}, {1, 300}, {1, 599}, {2, 0}, {3, 7}, {17, 0}, {17, 31}, {128, 0}, {128, 200}}
	for _, sh := range shapes {
		c := &Config{Heads: sh.heads, KVHeads: sh.kvHeads, HeadDim: sh.hd}
		for _, b := range batches {
			total := b.pos0 + b.n
			lc := &layerCache{
				k: randF16(r, total*c.KVDim(), 1, false),
				v: randF16(r, total*c.KVDim(), 1, false),
			}
			q := make([]float32, b.n*c.QDim())
			for i := range q {
				q[i] = randF32(r, 3, false)
			}
			want := make([]float32, len(q))
			legacyAttention(c, lc, q, b.n, b.pos0, want)
			for _, ks := range attnKernelSets() {
				bufs := newAttnBufList(4)
				task := attnTask{kern: ks}
				got := make([]float32, len(q))
				attention(pool, &task, bufs, c, lc, q, b.n, b.pos0, got)
				compareRows(t, fmt.Sprintf("%s heads=%d/%d hd=%d n=%d pos0=%d", ks.name, sh.heads, sh.kvHeads, sh.hd, b.n, b.pos0), got, want)
			}
		}
	}
}

func TestSiLUKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	for _, ks := range simdSets(t) {
		for _, n := range []int{1, 7, 15, 16, 17, 31, 32, 33, 100, 5632} {
			for _, ext := range []bool{false, true} {
				x := make([]float32, n)
				for i := range x {
					x[i] = randF32(r, 4, ext)
					if ext && r.IntN(6) == 0 {
						x[i] = float32(r.NormFloat64() * 120) // past exp's flush points
					}
				}
				want, got := make([]float32, n), append([]float32(nil), x...)
				genericAttn.silu(want, x)
				ks.silu(got, got) // in place, as swiGLU calls it
				compareRows(t, fmt.Sprintf("%s n=%d extremes=%v", ks.name, n, ext), got, want)
			}
		}
	}
}

// BenchmarkAttention times one block's attention with TinyLlama's shape
// (32 query heads, 4 key/value heads of 64) on one thread, per kernel set:
// a 128-position prompt and single-position steps at 128, 512 and 2000
// positions. A set with a group kernel is also timed without it
// ("-perhead"), the two alternating within one run. cpu-µs/op is the
// process's CPU time per call, which a shared machine disturbs less than
// the wall clock.
func BenchmarkAttention(b *testing.B) {
	pool := tensor.NewPool(1)
	defer pool.Close()
	r := rand.New(rand.NewPCG(17, 18))
	c := &Config{Heads: 32, KVHeads: 4, HeadDim: 64}
	var sets []*attnKernels
	for _, ks := range attnKernelSets() {
		sets = append(sets, ks)
		if ks.group != nil || ks.group128 != nil {
			ph := *ks
			ph.name, ph.group, ph.group128 = ks.name+"-perhead", nil, nil
			sets = append(sets, &ph)
		}
	}
	for _, bt := range []struct{ n, pos0 int }{{128, 0}, {1, 127}, {1, 511}, {1, 1999}} {
		total := bt.n + bt.pos0
		lc := &layerCache{k: randF16(r, total*c.KVDim(), 1, false), v: randF16(r, total*c.KVDim(), 1, false)}
		q := make([]float32, bt.n*c.QDim())
		for i := range q {
			q[i] = randF32(r, 3, false)
		}
		out := make([]float32, len(q))
		for _, ks := range sets {
			b.Run(fmt.Sprintf("n=%d/pos0=%d/%s", bt.n, bt.pos0, ks.name), func(b *testing.B) {
				bufs := newAttnBufList(4)
				task := attnTask{kern: ks}
				c0 := cpuSeconds()
				for b.Loop() {
					attention(pool, &task, bufs, c, lc, q, bt.n, bt.pos0, out)
				}
				b.ReportMetric(float64((cpuSeconds()-c0).Microseconds())/float64(b.N), "cpu-µs/op")
			})
		}
	}
}

func TestToF16Kernels(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	for _, ks := range simdSets(t) {
		for _, n := range []int{1, 7, 8, 9, 15, 16, 17, 100, 256, 1000} {
			x := make([]float32, n)
			for i := range x {
				x[i] = randF32(r, 3, true)
				if r.IntN(4) == 0 {
					x[i] = math.Float32frombits(r.Uint32()) // any bits, NaN payloads too
				}
			}
			want, got := make([]uint16, n+1), make([]uint16, n+1)
			want[n], got[n] = 0x1234, 0x1234 // must stay untouched
			genericAttn.toF16(want[:n], x)
			ks.toF16(got[:n], x)
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("%s n=%d: element %d = %#04x, want %#04x (x=%g)", ks.name, n, i, got[i], want[i], x[i])
				}
			}
		}
	}
}

// TestAttentionGroup checks the single-position path that computes the
// query heads of a key/value head together (attnKernels.group and
// group128) against the per-head Go kernels, for head sizes 64 and 128:
// group sizes 1 to 8 (Llama 3.2 3B's 3, Llama 3 8B's and Mistral 7B's 4,
// Qwen2 7B's 7, TinyLlama's 8) and above groupHeads, spans
// around every boundary of the kernels (8 and 16 lanes, 32-position
// padding, 64-position steps), extreme values, and scratch left dirty by
// a longer call before a shorter one.
func TestAttentionGroup(t *testing.T) {
	var sets []*attnKernels
	for _, ks := range attnKernelSets() {
		if ks.group != nil || ks.group128 != nil {
			sets = append(sets, ks)
		}
	}
	if len(sets) == 0 {
		t.Skip("no kernel set with a group kernel in this build or on this CPU")
	}
	pool := tensor.NewPool(2)
	defer pool.Close()
	r := rand.New(rand.NewPCG(21, 22))
	type shape struct{ heads, kvHeads int }
	// Groups of 1 and 2 take the per-head path (3 too, unless a set's
	// groupLeast or group128Least allows it), 12/1 a group of 8 and
	// one of 4, 40/4 groups of 8 and 2 heads. The group sizes of no common
	// model run fewer spans, for the time under qemu.
	shapes := []shape{{32, 4}, {8, 1}, {2, 2}, {4, 2}, {6, 2}, {4, 1}, {10, 2}, {6, 1}, {14, 2}, {12, 1}, {40, 4}}
	spans := []int{300, 1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 95, 96, 97, 127, 128, 129, 150, 2000}
	few := []int{1, 17, 64, 65, 97, 150}
	for _, sh := range shapes {
		for _, hd := range []int{groupHD, 2 * groupHD} {
			sp := spans
			if g := sh.heads / sh.kvHeads; g != 3 && g != 4 && g != 7 && g != 8 {
				sp = few
			}
			testAttentionGroup(t, sets, pool, r, &Config{Heads: sh.heads, KVHeads: sh.kvHeads, HeadDim: hd}, sp)
		}
	}
}

// testAttentionGroup is TestAttentionGroup for one shape.
func testAttentionGroup(t *testing.T, sets []*attnKernels, pool *tensor.Pool, r *rand.Rand, c *Config, spans []int) {
	t.Helper()
	for _, ks := range sets {
		bufs := newAttnBufList(4)
		for _, span := range spans {
			for _, ext := range []bool{false, true} {
				if span == 2000 && (ext || c.Heads != 32) {
					continue // the long span once, for the time
				}
				lc := &layerCache{
					k: randF16(r, span*c.KVDim(), 1, ext),
					v: randF16(r, span*c.KVDim(), 1, ext),
				}
				q := make([]float32, c.QDim())
				for i := range q {
					q[i] = randF32(r, 3, ext)
				}
				what := fmt.Sprintf("%s heads=%d/%d hd=%d", ks.name, c.Heads, c.KVHeads, c.HeadDim)
				want := make([]float32, len(q))
				wt := attnTask{kern: genericAttn}
				attention(nil, &wt, newAttnBufList(1), c, lc, q, 1, span-1, want)
				got := make([]float32, len(q))
				gt := attnTask{kern: ks}
				attention(pool, &gt, bufs, c, lc, q, 1, span-1, got)
				compareRows(t, fmt.Sprintf("%s span=%d extremes=%v", what, span, ext), got, want)
				if span >= 2 {
					// The per-head path on the same scratch.
					q2 := append(q, q...)
					want2, got2 := make([]float32, len(q2)), make([]float32, len(q2))
					attention(nil, &wt, newAttnBufList(1), c, lc, q2, 2, span-2, want2)
					attention(pool, &gt, bufs, c, lc, q2, 2, span-2, got2)
					compareRows(t, fmt.Sprintf("%s two rows to span=%d extremes=%v", what, span, ext), got2, want2)
				}
			}
		}
	}
}

// groupSets returns the kernel sets with a group kernel for head size hd.
func groupSets(hd int) []*attnKernels {
	var sets []*attnKernels
	for _, ks := range attnKernelSets() {
		if gk, _ := ks.groupFor(hd); gk != nil {
			sets = append(sets, ks)
		}
	}
	return sets
}

// TestAttentionGroupKernel calls the group kernels themselves, for every
// group size 1..groupHeads (below the sizes attention hands them too), on
// the second key/value head of two (a stride wider than the head) and
// against the per-head Go kernels, with one scratch for every call.
func TestAttentionGroupKernel(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 26))
	ran := false
	for _, hd := range []int{groupHD, 128} {
		for _, ks := range groupSets(hd) {
			ran = true
			gk, _ := ks.groupFor(hd)
			b := &attnBuffers{}
			for nh := 1; nh <= groupHeads; nh++ {
				c := &Config{Heads: 2 * nh, KVHeads: 2, HeadDim: hd}
				scale := 1 / float32(math.Sqrt(float64(hd)))
				for _, span := range []int{300, 1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 95, 96, 97, 127, 128, 129, 150, 2000} {
					for _, ext := range []bool{false, true} {
						if span == 2000 && (ext || nh%4 != 3) {
							continue // the long span for 3 and 7 heads, for the time
						}
						lc := &layerCache{
							k: randF16(r, span*c.KVDim(), 1, ext),
							v: randF16(r, span*c.KVDim(), 1, ext),
						}
						q := make([]float32, c.QDim())
						for i := range q {
							q[i] = randF32(r, 3, ext)
						}
						want := make([]float32, len(q))
						attention(nil, &attnTask{kern: genericAttn}, newAttnBufList(1), c, lc, q, 1, span-1, want)
						got := make([]float32, nh*hd)
						if !gk(q[nh*hd:], lc.k[hd:], lc.v[hd:], c.KVDim(), scale, span, b, got) {
							t.Fatalf("%s hd=%d: the group kernel refuses %d heads", ks.name, hd, nh)
						}
						compareRows(t, fmt.Sprintf("%s hd=%d heads=%d span=%d extremes=%v", ks.name, hd, nh, span, ext), got, want[nh*hd:])
					}
				}
			}
		}
	}
	if !ran {
		t.Skip("no kernel set with a group kernel in this build or on this CPU")
	}
}

// TestAttentionGroupZeroScores gives the group kernel scores that are
// zeros of either sign (queries of ±0 against keys of either sign, some
// positions all positive so that every product is -0): its plain
// products make -0 scores where the Go code has +0, which must change no
// output bit.
func TestAttentionGroupZeroScores(t *testing.T) {
	for _, hd := range []int{groupHD, 2 * groupHD} {
		testAttentionGroupZeroScores(t, &Config{Heads: 32, KVHeads: 4, HeadDim: hd})
	}
}

func testAttentionGroupZeroScores(t *testing.T, c *Config) {
	t.Helper()
	r := rand.New(rand.NewPCG(23, 24))
	for _, span := range []int{1, 17, 100, 300} {
		k := randF16(r, span*c.KVDim(), 1, false)
		for j := 0; j < span; j += 3 {
			for i := j * c.KVDim(); i < (j+1)*c.KVDim(); i++ {
				k[i] &^= 0x8000 // all positive: (-0)·k = -0
			}
		}
		lc := &layerCache{k: k, v: randF16(r, span*c.KVDim(), 1, false)}
		q := make([]float32, c.QDim())
		for i := range q {
			if (i/c.HeadDim)%3 != 2 {
				q[i] = float32(math.Copysign(0, -1))
			} else if i%5 == 0 {
				q[i] = randF32(r, 3, false) // a few heads with one nonzero term in five
			}
		}
		want := make([]float32, len(q))
		attention(nil, &attnTask{kern: genericAttn}, newAttnBufList(1), c, lc, q, 1, span-1, want)
		for _, ks := range attnKernelSets() {
			got := make([]float32, len(q))
			attention(nil, &attnTask{kern: ks}, newAttnBufList(1), c, lc, q, 1, span-1, got)
			compareRows(t, fmt.Sprintf("%s hd=%d span=%d", ks.name, c.HeadDim, span), got, want)
		}
	}
}

// checkVexp checks a vector exponential against vexpf bit for bit: every
// input in the softmax's range [-105, 1) at a grid of n points per unit,
// random bit patterns over the whole float range (overflow, subnormal
// results, underflow to zero, infinities, NaN), and values around the
// flush points.
func checkVexp(t *testing.T, exp func(x *float32, n int), n int) {
	r := rand.New(rand.NewPCG(13, 14))
	x := make([]float32, n)
	got := make([]float32, n)
	check := func() {
		t.Helper()
		copy(got, x)
		exp(&got[0], n)
		for i, v := range x {
			if want := vexpf(v); !sameBits32(got[i], want) {
				t.Fatalf("vexp(%g [%#08x]) = %g [%#08x], want %g [%#08x]", v, math.Float32bits(v),
					got[i], math.Float32bits(got[i]), want, math.Float32bits(want))
			}
		}
	}
	for lo := float32(-105); lo < 1; lo += 1 {
		for i := range x {
			x[i] = lo + float32(i)/float32(n)
		}
		check()
	}
	for range 16 {
		for i := range x {
			x[i] = math.Float32frombits(r.Uint32())
		}
		check()
	}
	for i := range x {
		// Around the flush thresholds ±88.7 and -103.9, and |n| = 192.
		x[i] = []float32{88, 89, -103, -104, -133, 133, 192 / math.Ln2}[i%7] + float32(r.NormFloat64())
	}
	check()
}

// TestAttentionTile checks the path of several positions that computes
// tiles of (row, query head) pairs sharing a key/value head
// (attnKernels.tile) against the per-head Go kernels, for head sizes 64
// and 128 (and 48, a multiple of 16 that is neither), group sizes 1 to 8,
// 2 to 70 rows from position 0 and later (partial tiles, partial octets,
// spans around the kernels' blocks of 3, 16 and 512 positions), extreme
// values, and one scratch for every call, so that a longer call leaves it
// dirty for a shorter one.
func TestAttentionTile(t *testing.T) {
	bufs := map[*attnKernels]attnBufList{}
	var sets []*attnKernels
	for _, ks := range attnKernelSets() {
		if ks.tile != nil {
			sets = append(sets, ks)
			bufs[ks] = newAttnBufList(2)
		}
	}
	if len(sets) == 0 {
		t.Skip("no kernel set with a tile kernel in this build or on this CPU")
	}
	pool := tensor.NewPool(2)
	defer pool.Close()
	r := rand.New(rand.NewPCG(27, 28))
	type batch struct{ n, pos0 int }
	batches := []batch{{2, 0}, {3, 0}, {9, 0}, {70, 0}, {2, 1}, {5, 14}, {8, 28}, {25, 100}, {16, 495}, {33, 500}, {70, 530}, {2, 1999}}
	for _, hd := range []int{64, 128, 48} {
		for g := 1; g <= 8; g++ {
			c := &Config{Heads: 2 * g, KVHeads: 2, HeadDim: hd}
			for bi, bt := range batches {
				if hd == 48 && bi%3 != 0 {
					continue // the odd head size on a few batches, for the time
				}
				heavy := bt.n*(bt.pos0+bt.n) > 4000
				if heavy && g != 1 && g != 3 && g != 8 {
					continue // the long batches for common group sizes, for the time
				}
				for _, ext := range []bool{false, true} {
					if heavy && ext {
						continue
					}
					total := bt.pos0 + bt.n
					lc := &layerCache{
						k: randF16(r, total*c.KVDim(), 1, ext),
						v: randF16(r, total*c.KVDim(), 1, ext),
					}
					q := make([]float32, bt.n*c.QDim())
					for i := range q {
						q[i] = randF32(r, 3, ext)
					}
					want := make([]float32, len(q))
					attention(nil, &attnTask{kern: genericAttn}, newAttnBufList(1), c, lc, q, bt.n, bt.pos0, want)
					for _, ks := range sets {
						got := make([]float32, len(q))
						attention(pool, &attnTask{kern: ks}, bufs[ks], c, lc, q, bt.n, bt.pos0, got)
						compareRows(t, fmt.Sprintf("%s hd=%d group=%d n=%d pos0=%d extremes=%v", ks.name, hd, g, bt.n, bt.pos0, ext), got, want)
					}
				}
			}
		}
	}
}

// TestAttentionTileKernel calls the tile kernels themselves for every row
// count 1..12 and group size 1..8 on the second key/value head of two,
// with one scratch for every call, against the per-head Go kernels.
func TestAttentionTileKernel(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 30))
	ran := false
	for _, ks := range attnKernelSets() {
		if ks.tile == nil {
			continue
		}
		ran = true
		b := &attnBuffers{}
		for _, hd := range []int{64, 128} {
			scale := 1 / float32(math.Sqrt(float64(hd)))
			for g := 1; g <= 8; g++ {
				c := &Config{Heads: 2 * g, KVHeads: 2, HeadDim: hd}
				for rows := 1; rows <= 12; rows++ {
					for _, pos0 := range []int{0, 1, 47, 130} {
						n := rows + 1 // row 0 is computed by the reference only
						total := pos0 + n
						lc := &layerCache{
							k: randF16(r, total*c.KVDim(), 1, false),
							v: randF16(r, total*c.KVDim(), 1, false),
						}
						q := make([]float32, n*c.QDim())
						for i := range q {
							q[i] = randF32(r, 3, false)
						}
						want := make([]float32, len(q))
						attention(nil, &attnTask{kern: genericAttn}, newAttnBufList(1), c, lc, q, n, pos0, want)
						got := make([]float32, len(q))
						off := c.QDim() + g*hd // row 1, key/value head 1
						if !ks.tile(q[off:], c.QDim(), rows, g, hd, lc.k[hd:], lc.v[hd:], c.KVDim(), pos0+2, scale, b, got[off:]) {
							t.Fatalf("%s hd=%d: the tile kernel refuses %d rows of %d heads", ks.name, hd, rows, g)
						}
						for i := 1; i < n; i++ {
							w := want[i*c.QDim()+g*hd : (i+1)*c.QDim()]
							compareRows(t, fmt.Sprintf("%s hd=%d group=%d rows=%d pos0=%d row %d", ks.name, hd, g, rows, pos0, i), got[i*c.QDim()+g*hd:(i+1)*c.QDim()], w)
						}
					}
				}
			}
		}
	}
	if !ran {
		t.Skip("no kernel set with a tile kernel in this build or on this CPU")
	}
}
