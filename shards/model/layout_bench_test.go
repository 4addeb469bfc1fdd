package model

import (
	"context"
	"math"
	"sort"
	"syscall"
	"testing"
	"time"
)

// BenchmarkDecodeLayouts compares a shard whose weights are packed copies
// (tensor.Pack, the default) with one that computes on the mapping
// (NoRepack), on the whole model SVC_BENCH_MODEL (default: the stories260K
// fixture), e.g.
//
//	SVC_BENCH_MODEL=/tmp/tinyllama-q8_0.gguf go test -run '^$' -bench DecodeLayouts -benchtime 40x ./shards/model
//
// Each iteration runs the same step on both shards, in alternating order,
// so that every pair sees the same machine (which may be shared): a decode
// step of one token after a 16-token prompt ("decode"), or a 128-token
// prompt in a new session ("prefill"). It reports each layout's best
// tokens/s and the median over pairs of the time ratio NoRepack/packed,
// in wall and process CPU time; and it checks that both layouts give the
// same logits, bit for bit.
func BenchmarkDecodeLayouts(b *testing.B) {
	m := openBenchModel(b)
	defer m.Close()
	var shs [2]*Shard // packed, NoRepack
	for k, nr := range []bool{false, true} {
		var err error
		if shs[k], err = m.NewShard(0, m.Config().Blocks, ShardOptions{Threads: 2, IdleTimeout: -1, NoRepack: nr}); err != nil {
			b.Fatal(err)
		}
		defer shs[k].Close()
	}
	vocab := int32(m.Config().Vocab)
	ctx := context.Background()
	for _, prompt := range []int{0, 128} {
		name := "decode"
		if prompt > 0 {
			name = "prefill"
		}
		b.Run(name, func(b *testing.B) {
			maxLen := min(m.Config().Context, 256)
			if prompt >= maxLen {
				b.Skip("context too short")
			}
			n := 0 // positions in the sessions
			open := func() {
				for _, sh := range shs {
					_ = sh.CloseSession("l") // absent the first time
					if err := sh.OpenSession("l", maxLen); err != nil {
						b.Fatal(err)
					}
				}
				n = 0
			}
			open()
			step := func(sh *Shard, toks []int32) (*Output, time.Duration, time.Duration) {
				c0, t0 := cpuSeconds(), time.Now()
				out, err := sh.Forward(ctx, "l", Input{Tokens: toks, Logits: LogitsLast})
				if err != nil {
					b.Fatal(err)
				}
				return out, time.Since(t0), cpuSeconds() - c0
			}
			var wall, cpu []float64
			best := [2]time.Duration{time.Hour, time.Hour}
			tok := int32(1)
			for i := 0; i < b.N; i++ {
				var toks []int32
				if prompt > 0 {
					open()
					toks = make([]int32, prompt)
					for j := range toks {
						toks[j] = int32(1+7*j+i) % vocab
					}
				} else {
					if n == 0 || n+1 > maxLen {
						open()
						warm := make([]int32, 16)
						for j := range warm {
							warm[j] = int32(1+3*j) % vocab
						}
						for _, sh := range shs {
							if _, err := sh.Forward(ctx, "l", Input{Tokens: warm, Logits: LogitsNone}); err != nil {
								b.Fatal(err)
							}
						}
						n = len(warm)
					}
					toks = []int32{tok}
				}
				var outs [2]*Output
				var w, c [2]time.Duration
				for _, k := range [][2]int{{0, 1}, {1, 0}}[i%2] {
					outs[k], w[k], c[k] = step(shs[k], toks)
					best[k] = min(best[k], w[k])
				}
				n += len(toks)
				for j, v := range outs[0].Logits {
					if math.Float32bits(v) != math.Float32bits(outs[1].Logits[j]) {
						b.Fatalf("step %d: logit %d is %v packed, %v row-major", i, j, v, outs[1].Logits[j])
					}
				}
				tok = outs[0].Argmax[0]
				wall = append(wall, float64(w[1])/float64(w[0]))
				cpu = append(cpu, float64(c[1])/float64(max(c[0], 1)))
			}
			sort.Float64s(wall)
			sort.Float64s(cpu)
			per := float64(max(prompt, 1))
			b.ReportMetric(per/best[0].Seconds(), "packed-best-tok/s")
			b.ReportMetric(per/best[1].Seconds(), "norepack-best-tok/s")
			b.ReportMetric(wall[len(wall)/2], "speedup-wall-median")
			b.ReportMetric(cpu[len(cpu)/2], "speedup-cpu-median")
		})
	}
}

// cpuSeconds is the process's user+system time.
func cpuSeconds() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
