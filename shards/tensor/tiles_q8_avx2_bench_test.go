//go:build amd64 && !purego && unix

package tensor

import (
	"math/rand/v2"
	"strconv"
	"testing"
	"time"
)

// BenchmarkQ8BatchAVX2Cycles times q80Batch2xNAVX2 alone on two rows of
// 2048 columns (nb = 64) and 32 positions, everything cache-resident,
// in cycles per 32-element block of one row and one position ("unit";
// the multiplies alone need 2 on a CPU with one integer multiply pipe,
// Zen 2). Both it and the clock, measured by a chain of dependent 64-bit
// multiplies (3 cycles each on Zen 2) right before, are timed in CPU time,
// which a shared machine disturbs less than the wall clock.
//
//	go test -run '^$' -bench Q8BatchAVX2Cycles -count 5 ./shards/tensor/
func BenchmarkQ8BatchAVX2Cycles(b *testing.B) {
	skipUnless(b, kernelGap("avx2"))
	for _, npos := range []int{4, 32} {
		b.Run("p="+strconv.Itoa(npos), func(b *testing.B) { q8BatchCycles(b, npos) })
	}
	b.Run("transposed", q8BatchTCycles)
}

// q8BatchTCycles is q8BatchCycles for q80Batch2x32TAVX2 (32 positions).
func q8BatchTCycles(b *testing.B) {
	const nb, npos = 64, 32
	r := rand.New(rand.NewPCG(8, 8))
	w := randomMatrix(r, Q8_0, 2, 32*nb).Data
	qs := make([]int16, npos*32*nb)
	for i := range qs {
		qs[i] = int16(r.IntN(255) - 127)
	}
	d := make([]float32, npos*nb)
	for i := range d {
		d[i] = r.Float32()
	}
	var out [2 * posTile]float32
	cyc := cycleNanos()
	b.ResetTimer()
	t0 := cpuTime()
	for i := 0; i < b.N; i++ {
		q80Batch2x32TAVX2(&w[0], 34*nb, &qs[0], nb, &d[0], 0, &out)
	}
	el := cpuTime() - t0
	b.ReportMetric(el.Seconds()/float64(b.N)/float64(2*npos*nb)/cyc, "cycles/unit")
}

func q8BatchCycles(b *testing.B, npos int) {
	const nb = 64
	r := rand.New(rand.NewPCG(8, 8))
	w := randomMatrix(r, Q8_0, 2, 32*nb).Data
	qs := make([]int16, npos*32*nb)
	for i := range qs {
		qs[i] = int16(r.IntN(255) - 127)
	}
	d := make([]float32, npos*nb)
	for i := range d {
		d[i] = r.Float32()
	}
	out := make([]float32, 2*npos)
	cyc := cycleNanos()
	b.ResetTimer()
	t0 := cpuTime()
	for i := 0; i < b.N; i++ {
		q80Batch2xNAVX2(&w[0], 34*nb, &qs[0], 64*nb, &d[0], nb, npos/4, 0, &out[0], 2)
	}
	el := cpuTime() - t0
	b.ReportMetric(el.Seconds()/float64(b.N)/float64(2*npos*nb)/cyc, "cycles/unit")
}

var cycleSink uint64

// cycleNanos estimates the length of a cycle in seconds from a chain of
// dependent multiplies (IMUL r64: 3 cycles of latency on Zen 2).
func cycleNanos() float64 {
	best := time.Duration(1 << 62)
	for k := 0; k < 5; k++ {
		x, y := uint64(3)+cycleSink, uint64(5)+cycleSink
		const n = 20_000_000
		t0 := cpuTime()
		for i := 0; i < n; i++ {
			x *= y
		}
		best = min(best, cpuTime()-t0)
		cycleSink += x
	}
	return best.Seconds() / 20_000_000 / 3
}
