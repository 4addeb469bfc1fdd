//go:build amd64 && !purego

package model

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"svc/shards/tensor"
)

// BenchmarkGroupParts times the steps of the AVX2 group kernels for one
// key/value head at 2000 positions, in process CPU nanoseconds per
// position (a figure a shared machine disturbs little), with TinyLlama's
// shape (eight query heads of 64 a key/value head, four of those) and
// Llama 3.2 3B's (three heads of 128, eight): "-cold" cycles through the
// key/value heads of several layers' caches (45-48 MB, past the L3) as
// decoding does, the others reuse one (cache-resident). "-headmajor" is
// the same on caches laid out head by head (stride hd instead of kvDim),
// for comparison.
func BenchmarkGroupParts(b *testing.B) {
	if !hasAttnAVX2() {
		b.Skip("the AVX2 attention kernels cannot run on this CPU or are ruled out by SVC_KERNELS")
	}
	for _, sh := range []struct {
		name              string
		kvDim, hd, nh, nl int
	}{{"hd64", 256, 64, 8, 22}, {"hd128", 1024, 128, 3, 6}} {
		b.Run(sh.name, func(b *testing.B) { benchGroupParts(b, sh.kvDim, sh.hd, sh.nh, sh.nl) })
	}
}

func benchGroupParts(b *testing.B, kvDim, hd, nh, nl int) {
	r := rand.New(rand.NewPCG(1, 2))
	const span = 2000
	kvHeads := kvDim / hd
	ks, vsl := make([][]uint16, nl), make([][]uint16, nl)
	for i := range nl {
		ks[i], vsl[i] = randF16(r, span*kvDim, 1, false), randF16(r, span*kvDim, 1, false)
	}
	k, v := ks[0], vsl[0]
	li, g := 0, 0 // the layer and the group
	next := func() {
		if g = (g + 1) % kvHeads; g == 0 {
			li = (li + 1) % nl
		}
		k, v = ks[li][g*hd:], vsl[li][g*hd:]
	}
	q := make([]float32, nh*hd)
	for i := range q {
		q[i] = randF32(r, 3, false)
	}
	out := make([]float32, nh*hd)
	bf := &attnBuffers{}
	whole := group128AVX2
	if hd == groupHD {
		whole = groupAVX2
	}
	whole(q, k, v, kvDim, 0.125, span, bf, out)
	_, qg, sc, vs, acc := bf.group(hd, span)
	np := vecWhole(span)
	heads := groupHeads
	if nh <= 4 {
		heads = 4
	}
	scores := func() {
		if hd == groupHD {
			attnGroupScores2(&qg[0], &k[0], &v[0], 2*kvDim, span, 0.125, &sc[0])
		} else {
			attnGroupScores128(&qg[0], &k[0], &v[0], 2*kvDim, span, (nh+3)/4, 0.125, &sc[0])
		}
	}
	kqv := func() {
		attnGroupKQV2(&sc[0], &v[0], 2*kvDim, np, heads, hd/64, &acc[0], &vs[0])
	}
	run := func(name string, f func()) {
		b.Run(name, func(b *testing.B) {
			c0 := cpuSeconds()
			for b.Loop() {
				f()
			}
			b.ReportMetric(float64((cpuSeconds()-c0).Nanoseconds())/float64(b.N)/span, "cpu-ns/pos")
		})
	}
	run("scores-cold", func() { next(); scores() })
	run("kqv-cold", func() { next(); kqv() })
	run("kqv-after-scores-cold", func() { next(); scores(); kqv() })
	// The same with each group's keys and values contiguous (a head-major
	// cache): stride hd instead of kvDim.
	hk, hv := make([][]uint16, nl), make([][]uint16, nl)
	for i := range nl {
		hk[i], hv[i] = randF16(r, span*kvDim, 1, false), randF16(r, span*kvDim, 1, false)
	}
	hbf := &attnBuffers{}
	run("whole-cold-headmajor", func() {
		next()
		whole(q, hk[li][g*span*hd:], hv[li][g*span*hd:], hd, 0.125, span, hbf, out)
	})
	run("whole-cold", func() { next(); whole(q, k, v, kvDim, 0.125, span, bf, out) })
	run("scores", scores)
	scCopy := append([]float32(nil), sc...)
	run("softmax", func() {
		copy(sc, scCopy)
		attnGroupSoftmax2(&sc[0], span)
	})
	run("kqv", kqv)
	run("fold", func() {
		t := min(np, span-1)
		for c := 0; c < hd; c += 64 {
			a := acc[c/64*groupHeads*4*lanes*64:]
			for h := range nh {
				foldAVX2(a[h*4*lanes*64:], np, sc[t*groupHeads+h:], groupHeads, v[t*kvDim+c:], kvDim, span-np, out[h*hd+c:h*hd+c+64])
			}
		}
	})
	run("whole", func() { whole(q, k, v, kvDim, 0.125, span, bf, out) })
}

// BenchmarkAttentionCold runs single-position attention over several
// layers' caches of 2000 positions in turn (past the L3), as decoding
// does, on one and two threads, with TinyLlama's shape (22 layers, 45 MB)
// and Llama 3.2 3B's (head size 128, three query heads a key/value head;
// 6 of its 28 layers, 48 MB); "-perhead" is the same set without its
// group kernels, for comparison.
func BenchmarkAttentionCold(b *testing.B) {
	r := rand.New(rand.NewPCG(17, 18))
	perHead := *bestAttn
	perHead.name, perHead.group, perHead.group128 = bestAttn.name+"-perhead", nil, nil
	for _, sh := range []struct {
		name   string
		c      *Config
		layers int
	}{
		{"tinyllama", &Config{Heads: 32, KVHeads: 4, HeadDim: 64}, 22},
		{"llama3.2-3b", &Config{Heads: 24, KVHeads: 8, HeadDim: 128}, 6},
	} {
		c := sh.c
		const total = 2000
		lcs := make([]*layerCache, sh.layers)
		for i := range lcs {
			lcs[i] = &layerCache{k: randF16(r, total*c.KVDim(), 1, false), v: randF16(r, total*c.KVDim(), 1, false)}
		}
		q := make([]float32, c.QDim())
		for i := range q {
			q[i] = randF32(r, 3, false)
		}
		out := make([]float32, len(q))
		for _, th := range []int{1, 2} {
			for _, ks := range []*attnKernels{bestAttn, &perHead} {
				b.Run(fmt.Sprintf("%s/threads=%d/%s", sh.name, th, ks.name), func(b *testing.B) {
					pool := tensor.NewPool(th)
					defer pool.Close()
					bufs := newAttnBufList(8)
					task := attnTask{kern: ks}
					c0 := cpuSeconds()
					for b.Loop() {
						for _, lc := range lcs {
							attention(pool, &task, bufs, c, lc, q, 1, total-1, out)
						}
					}
					b.ReportMetric(float64((cpuSeconds()-c0).Microseconds())/float64(b.N*len(lcs)), "cpu-µs/layer")
				})
			}
		}
	}
}

// BenchmarkAttentionPrefill times one block's attention for a 2000-position
// prompt (n = 2000 rows from position 0, tinyBLAS's order) on one thread,
// with TinyLlama's shape and Llama 3.2 3B's, for the best kernel set and
// the same set without its tile kernel ("-perhead"), in process CPU
// milliseconds per call.
func BenchmarkAttentionPrefill(b *testing.B) {
	r := rand.New(rand.NewPCG(31, 32))
	perHead := *bestAttn
	perHead.name, perHead.tile = bestAttn.name+"-perhead", nil
	pool := tensor.NewPool(1)
	defer pool.Close()
	for _, sh := range []struct {
		name string
		c    *Config
	}{
		{"tinyllama", &Config{Heads: 32, KVHeads: 4, HeadDim: 64}},
		{"llama3.2-3b", &Config{Heads: 24, KVHeads: 8, HeadDim: 128}},
	} {
		c := sh.c
		for _, n := range []int{128, 2000} {
			lc := &layerCache{k: randF16(r, n*c.KVDim(), 1, false), v: randF16(r, n*c.KVDim(), 1, false)}
			q := make([]float32, n*c.QDim())
			for i := range q {
				q[i] = randF32(r, 3, false)
			}
			out := make([]float32, len(q))
			for _, ks := range []*attnKernels{bestAttn, &perHead} {
				b.Run(fmt.Sprintf("%s/n=%d/%s", sh.name, n, ks.name), func(b *testing.B) {
					bufs := newAttnBufList(2)
					task := attnTask{kern: ks}
					c0 := cpuSeconds()
					for b.Loop() {
						attention(pool, &task, bufs, c, lc, q, n, 0, out)
					}
					b.ReportMetric(float64((cpuSeconds()-c0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
				})
			}
		}
	}
}
