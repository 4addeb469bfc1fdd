//go:build amd64 && !purego

package model

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"svc/shards/tensor"
)

// BenchmarkGroupParts times the steps of the AVX2 group kernel for one
// key/value head of eight query heads at 2000 positions, in process CPU
// nanoseconds per position (a figure a shared machine disturbs little):
// "-cold" cycles through the four key/value heads of 22 layers' caches
// (45 MB, past the L3) as decoding does, the others reuse one
// (cache-resident). "-headmajor" is the same on caches laid out head by
// head (stride hd instead of kvDim), for comparison.
func BenchmarkGroupParts(b *testing.B) {
	if !hasAttnAVX2() {
		b.Skip("the AVX2 attention kernels cannot run on this CPU or are ruled out by SVC_KERNELS")
	}
	r := rand.New(rand.NewPCG(1, 2))
	const kvDim, span, hd = 256, 2000, 64
	const nl = 22 // layers cycled through: 45 MB, past the L3
	var ks, vsl [nl][]uint16
	for i := range nl {
		ks[i], vsl[i] = randF16(r, span*kvDim, 1, false), randF16(r, span*kvDim, 1, false)
	}
	k, v := ks[0], vsl[0]
	li, g := 0, 0 // the layer and the group
	next := func() {
		if g = (g + 1) % 4; g == 0 {
			li = (li + 1) % nl
		}
		k, v = ks[li][g*hd:], vsl[li][g*hd:]
	}
	q := make([]float32, 8*hd)
	for i := range q {
		q[i] = randF32(r, 3, false)
	}
	out := make([]float32, 8*hd)
	bf := &attnBuffers{}
	groupAVX2(q, k, v, kvDim, 0.125, span, bf, out)
	_, qg, sc, vs, acc := bf.group(hd, span)
	np := vecWhole(span)
	run := func(name string, f func()) {
		b.Run(name, func(b *testing.B) {
			c0 := cpuSeconds()
			for b.Loop() {
				f()
			}
			b.ReportMetric(float64((cpuSeconds()-c0).Nanoseconds())/float64(b.N)/span, "cpu-ns/pos")
		})
	}
	run("scores-cold", func() {
		next()
		attnGroupScores2(&qg[0], &k[0], &v[0], 2*kvDim, span, 0.125, &sc[0])
	})
	run("kqv-cold", func() {
		next()
		attnGroupKQV2(&sc[0], &v[0], 2*kvDim, np, groupHeads, &acc[0], &vs[0])
	})
	run("kqv-after-scores-cold", func() {
		next()
		attnGroupScores2(&qg[0], &k[0], &v[0], 2*kvDim, span, 0.125, &sc[0])
		attnGroupKQV2(&sc[0], &v[0], 2*kvDim, np, groupHeads, &acc[0], &vs[0])
	})
	// The same with each group's keys and values contiguous (a head-major
	// cache): stride hd instead of kvDim.
	var hk, hv [nl][]uint16
	for i := range nl {
		hk[i], hv[i] = randF16(r, span*kvDim, 1, false), randF16(r, span*kvDim, 1, false)
	}
	hbf := &attnBuffers{}
	run("whole-cold-headmajor", func() {
		next()
		groupAVX2(q, hk[li][g*span*hd:], hv[li][g*span*hd:], hd, 0.125, span, hbf, out)
	})
	run("whole-cold", func() {
		next()
		groupAVX2(q, k, v, kvDim, 0.125, span, bf, out)
	})
	run("scores", func() { attnGroupScores2(&qg[0], &k[0], &v[0], 2*kvDim, span, 0.125, &sc[0]) })
	scCopy := append([]float32(nil), sc...)
	run("softmax", func() {
		copy(sc, scCopy)
		attnGroupSoftmax2(&sc[0], span)
	})
	run("kqv", func() { attnGroupKQV2(&sc[0], &v[0], 2*kvDim, np, groupHeads, &acc[0], &vs[0]) })
	run("fold", func() {
		t := min(np, span-1)
		for h := range 8 {
			foldAVX2(acc[h*4*lanes*hd:], np, sc[t*groupHeads+h:], groupHeads, v[t*kvDim:], kvDim, span-np, out[h*hd:(h+1)*hd])
		}
	})
	run("whole", func() { groupAVX2(q, k, v, kvDim, 0.125, span, bf, out) })
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
