//go:build amd64 && !purego && linux

package tensor

import (
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// Tests and benchmarks of the q80x assembly kernels (the pure-Go pack and
// reference are tested in tiles_q8x_test.go on every platform).

// TestQ80xKernels compares q80xVec and q80xBatch (P = 1..11: every pass
// split, and more positions than one sweep takes; several chunk sizes)
// with dotQ8_0 on the original rows, bit for bit (NaN only as NaN), on
// random, extreme, zero-laden and non-finite data.
func TestQ80xKernels(t *testing.T) {
	skipUnless(t, q0TilesGap())
	r := rand.New(rand.NewPCG(85, 86))
	const npos = 11
	for _, mode := range q80xModes {
		for _, nb := range q80xBlockCounts {
			c := q80xMakeCase(t, r, mode, 32, nb, npos)
			for tt := 0; tt < 2; tt++ {
				tile := c.tile(tt)
				check := func(what string, p, k int, got float32) {
					t.Helper()
					if w := c.want(16*tt+k, p); !q80xSame(got, w) {
						t.Fatalf("%s %s nb=%d row %d pos %d: %g (%#08x), dotQ8_0 %g (%#08x)",
							what, mode, nb, 16*tt+k, p, got, math.Float32bits(got), w, math.Float32bits(w))
					}
				}
				for p := 0; p < npos; p++ {
					out := make([]float32, 16)
					if err := q80xVec(tile, c.qs[p*c.ys:], c.d[p*c.dstride:p*c.dstride+nb], c.s[p*c.sstride:], out); err != nil {
						t.Fatal(err)
					}
					for k := range out {
						check("vec", p, k, out[k])
					}
				}
				for np := 1; np <= npos; np++ {
					// The default chunking, and small chunks (many chunk
					// boundaries, a lone odd block in the last chunk).
					for _, chunk := range []int{q80xChunk, 2, 6} {
						out := make([]float32, 16*np)
						if err := q80xBatchOpt(tile, nb, np, c.qs, c.ys, c.d, c.dstride, c.s, c.sstride, out, chunk, 64*chunk, chunk != 2); err != nil {
							t.Fatal(err)
						}
						for p := 0; p < np; p++ {
							for k := 0; k < 16; k++ {
								check("batch P="+strconv.Itoa(np)+" chunk "+strconv.Itoa(chunk), p, k, out[16*p+k])
							}
						}
					}
				}
			}
		}
	}
}

// TestQ80xKernelErrors checks that the wrappers reject buffers that do not
// fit instead of reading past them.
func TestQ80xKernelErrors(t *testing.T) {
	r := rand.New(rand.NewPCG(87, 88))
	c := q80xMakeCase(t, r, "random", 16, 3, 2)
	out := make([]float32, 32)
	if err := q80xVec(c.packed[:100], c.qs, c.d[:3], c.s, out); err == nil {
		t.Error("vec: short tile accepted")
	}
	if err := q80xVec(c.packed, c.qs, c.d[:0], c.s, out); err == nil {
		t.Error("vec: nb=0 accepted")
	}
	if err := q80xVec(c.packed, c.qs, c.d[:3], c.s[:5], out); err == nil {
		t.Error("vec: short sums accepted")
	}
	if err := q80xBatch(c.packed, 3, 2, c.qs, c.ys, c.d, c.dstride, c.s, c.sstride, out[:20]); err == nil {
		t.Error("batch: short out accepted")
	}
	if err := q80xBatch(c.packed, 3, 3, c.qs, c.ys, c.d, c.dstride, c.s, c.sstride, make([]float32, 48)); err == nil {
		t.Error("batch: more positions than activations accepted")
	}
	if err := q80xBatch(c.packed, 3, 2, c.qs, 8, c.d, c.dstride, c.s, c.sstride, out); err == nil {
		t.Error("batch: overlapping strides accepted")
	}
}

// q80xBlockSeq returns row-major Q8_0 data in Pack's block-sequential
// layout (per 16-row tile: block 0 of rows 0..15, block 1 of rows 0..15,
// ...), which the current kernels read with a row stride of one block.
func q80xBlockSeq(w []byte, rows, cols int) []byte {
	nb := cols / 32
	rb := 34 * nb
	out := make([]byte, len(w))
	for r := 0; r < rows; r++ {
		t, k := r/16, r%16
		for j := 0; j < nb; j++ {
			copy(out[t*16*rb+(16*j+k)*34:][:34], w[r*rb+34*j:][:34])
		}
	}
	return out
}

// q80xWorkers runs a function on two goroutines locked to their OS
// threads and measures the threads' CPU time, which on a shared machine
// varies less than the wall clock (time slices lost to other processes do
// not count). stop ends the goroutines.
type q80xWorkers struct {
	jobs [2]chan func(half int)
	done chan time.Duration
}

func newQ80xWorkers() *q80xWorkers {
	w := &q80xWorkers{done: make(chan time.Duration, 2)}
	for h := range w.jobs {
		w.jobs[h] = make(chan func(int))
		go func(h int) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			for fn := range w.jobs[h] {
				c0 := q80xThreadCPU()
				fn(h)
				w.done <- q80xThreadCPU() - c0
			}
		}(h)
	}
	return w
}

// run calls fn(0) and fn(1) on the two threads and returns the wall time
// and the sum of the two threads' CPU time.
func (w *q80xWorkers) run(fn func(half int)) (wall, cpu time.Duration) {
	t0 := time.Now()
	w.jobs[0] <- fn
	w.jobs[1] <- fn
	cpu = <-w.done + <-w.done
	return time.Since(t0), cpu
}

func (w *q80xWorkers) stop() {
	for _, c := range w.jobs {
		close(c)
	}
}

func q80xThreadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		panic(err) // Linux always has the thread CPU clock
	}
	return time.Duration(ts.Nano())
}

// BenchmarkQ80xCold compares the interleaved kernels ("x") with the
// current Q8_0 tile kernels (q80Vec16s for one position; q80Batch8x4s for
// groups of four positions plus q80Vec16s for the rest, as MatMul does)
// on row-major ("rm") and on Pack's block-sequential ("packed") matrices:
// 5632×2048 Q8_0 weights streaming from DRAM (256 MB of copies in each
// layout, cycled), two threads on disjoint row halves. Every iteration
// runs all three, in rotating order, so they see the same machine.
// Metrics per layout: mean GB/s over the wall clock, and GB/s and GOP/s
// per CPU-second of the two threads (bytes or operations divided by half
// the CPU time: what two undisturbed cores would do). The activation
// quantization and the q80x sums are outside the timing (all need the
// quantized activations; the sums cost 8 adds per 32 activations, once
// per matrix product). Outputs are checked equal at the end.
//
//	go test -run '^$' -bench Q80xCold -benchtime 300x ./shards/tensor/
func BenchmarkQ80xCold(b *testing.B) {
	skipUnless(b, q0TilesGap())
	const rows, cols = 5632, 2048
	const nb, rb, tiles = cols / 32, 34 * cols / 32, rows / 16
	r := rand.New(rand.NewPCG(89, 90))
	w0 := randomMatrix(r, Q8_0, rows, cols)
	copies := max(2, (256<<20)/len(w0.Data))
	layouts := [3][][]byte{} // rm, packed, x
	for i := 0; i < copies; i++ {
		layouts[0] = append(layouts[0], append([]byte(nil), w0.Data...))
		layouts[1] = append(layouts[1], q80xBlockSeq(w0.Data, rows, cols))
		x := make([]byte, len(w0.Data))
		if err := packQ80x(x, w0.Data, rows, cols); err != nil {
			b.Fatal(err)
		}
		layouts[2] = append(layouts[2], x)
	}
	workers := newQ80xWorkers()
	defer workers.stop()
	for _, np := range []int{1, 2, 4, 8} {
		x := randomVec(r, np*cols)
		qs := make([]int8, np*cols)
		d := make([]float32, np*nb)
		s := make([]int32, np*cols/4)
		quantQ8_0(x, qs, d)
		q80xActSums(qs, s)
		var outs [3][]float32
		for k := range outs {
			outs[k] = make([]float32, tiles*16*np)
		}
		// cur runs the current kernels on half h of layout k (0:
		// row-major, 1: packed).
		cur := func(k int, w []byte, h int) {
			out := outs[k]
			var buf [32]float32 // 8 rows × 4 positions, position-major
			for t := h * tiles / 2; t < (h+1)*tiles/2; t++ {
				tw := w[t*16*rb:]
				o := out[t*16*np:]
				rs, bs, next, half := rb, 34, 16*rb, 8*rb
				if k == 1 {
					rs, bs, next, half = 34, 16*34, 0, 8*34
				}
				p := 0
				for ; p+4 <= np; p += 4 {
					for hh := 0; hh < 2; hh++ {
						pf := 0
						if p == 0 && k == 0 {
							pf = 8 * rb
						}
						q80Batch8x4s(&tw[hh*half], rs, bs, &qs[p*cols], cols, &d[p*nb], 4*nb, nb, pf, &buf[0])
						for q := 0; q < 4; q++ {
							copy(o[16*(p+q)+8*hh:16*(p+q)+8*hh+8], buf[8*q:8*q+8])
						}
					}
				}
				for ; p < np; p++ {
					q80Vec16s(&tw[0], rs, bs, &qs[p*cols], &d[p*nb], nb, next, &o[16*p])
				}
			}
		}
		run := [3]func(w []byte, h int){
			func(w []byte, h int) { cur(0, w, h) },
			func(w []byte, h int) { cur(1, w, h) },
			func(w []byte, h int) {
				out := outs[2]
				for t := h * tiles / 2; t < (h+1)*tiles/2; t++ {
					tw := w[t*16*rb : (t+1)*16*rb]
					o := out[t*16*np : (t+1)*16*np]
					var err error
					if np == 1 {
						err = q80xVec(tw, qs, d, s, o)
					} else {
						err = q80xBatch(tw, nb, np, qs, cols, d, nb, s, cols/4, o)
					}
					if err != nil {
						panic(err) // the shapes are fixed above
					}
				}
			},
		}
		b.Run("P="+strconv.Itoa(np), func(b *testing.B) {
			var wall, cpu [3]time.Duration
			for i := 0; i < b.N; i++ {
				c := i % copies
				for j := 0; j < 3; j++ {
					k := (i + j) % 3
					w := layouts[k][c]
					dw, dc := workers.run(func(h int) { run[k](w, h) })
					wall[k] += dw
					cpu[k] += dc
				}
			}
			n := float64(b.N)
			bytes := n * float64(len(w0.Data))
			ops := n * 2 * float64(np) * rows * cols
			for k, name := range []string{"rm", "packed", "x"} {
				b.ReportMetric(bytes/wall[k].Seconds()/1e9, name+"-GB/s")
				b.ReportMetric(bytes/(cpu[k].Seconds()/2)/1e9, name+"-cpuGB/s")
				b.ReportMetric(ops/(cpu[k].Seconds()/2)/1e9, name+"-cpuGOP/s")
			}
		})
		for k := 1; k < 3; k++ {
			for i := range outs[0] {
				if math.Float32bits(outs[0][i]) != math.Float32bits(outs[k][i]) {
					b.Fatalf("P=%d layout %d output %d: %g, row-major %g", np, k, i, outs[k][i], outs[0][i])
				}
			}
		}
	}
}

// BenchmarkQ80xHot measures the kernels' compute speed on one thread: one
// 16-row tile of 2048 columns (34 KB, cached) computed over and over, for
// P positions; the metric is the best of many rounds (GOP/s), each layout
// and kernel as in BenchmarkQ80xCold.
//
//	go test -run x -bench Q80xHot ./shards/tensor/
func BenchmarkQ80xHot(b *testing.B) {
	skipUnless(b, q0TilesGap())
	const nb, rb = 64, 34 * 64
	r := rand.New(rand.NewPCG(91, 92))
	w0 := randomMatrix(r, Q8_0, 16, 32*nb)
	packed := q80xBlockSeq(w0.Data, 16, 32*nb)
	xl := make([]byte, len(w0.Data))
	if err := packQ80x(xl, w0.Data, 16, 32*nb); err != nil {
		b.Fatal(err)
	}
	for _, np := range []int{1, 2, 3, 4, 5, 6, 7, 8} {
		x := randomVec(r, np*32*nb)
		qs := make([]int8, np*32*nb)
		d := make([]float32, np*nb)
		s := make([]int32, np*8*nb)
		quantQ8_0(x, qs, d)
		q80xActSums(qs, s)
		out := make([]float32, 16*np)
		var buf [32]float32
		cur := func(w []byte, rs, bs, half int) {
			p := 0
			for ; p+4 <= np; p += 4 {
				q80Batch8x4s(&w[0], rs, bs, &qs[p*32*nb], 32*nb, &d[p*nb], 4*nb, nb, 0, &buf[0])
				q80Batch8x4s(&w[half], rs, bs, &qs[p*32*nb], 32*nb, &d[p*nb], 4*nb, nb, 0, &buf[0])
			}
			for ; p < np; p++ {
				q80Vec16s(&w[0], rs, bs, &qs[p*32*nb], &d[p*nb], nb, 0, &out[16*p])
			}
		}
		run := [3]func(){
			func() { cur(w0.Data, rb, 34, 8*rb) },
			func() { cur(packed, 34, 16*34, 8*34) },
			func() {
				var err error
				if np == 1 {
					err = q80xVec(xl, qs, d, s, out)
				} else {
					err = q80xBatch(xl, nb, np, qs, 32*nb, d, nb, s, 8*nb, out)
				}
				if err != nil {
					panic(err) // the shapes are fixed above
				}
			},
		}
		b.Run("P="+strconv.Itoa(np), func(b *testing.B) {
			const reps = 50
			var best [3]time.Duration
			for i := 0; i < b.N; i++ {
				for k := range run {
					t0 := time.Now()
					for j := 0; j < reps; j++ {
						run[k]()
					}
					if dt := time.Since(t0); i == 0 || dt < best[k] {
						best[k] = dt
					}
				}
			}
			ops := 2 * float64(np) * 16 * 32 * nb * reps
			for k, name := range []string{"rm", "packed", "x"} {
				b.ReportMetric(ops/best[k].Seconds()/1e9, name+"-GOP/s")
			}
		})
	}
}
