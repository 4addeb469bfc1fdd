package bench

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"time"
)

// BandwidthOptions configures ReadBandwidth.
type BandwidthOptions struct {
	Threads int   // reading goroutines; <= 0 means all cores
	Bytes   int64 // buffer size; 0 means 1 GiB (far beyond any cache)
	Runs    int   // passes over the buffer; the fastest counts; 0 means 7
}

// BandwidthResult is a read-bandwidth measurement, in 1e9 bytes per second
// (best pass).
type BandwidthResult struct {
	// GBps: each thread reads its share as one sequential stream, as a
	// matrix-vector product reads its weight rows.
	GBps float64
	// MultiStreamGBps: each thread reads four streams at once, which keeps
	// more memory requests in flight: the memory system's peak read rate.
	MultiStreamGBps float64
	Threads         int
	Bytes           int64
	Kernel          string // "avx2" or "go"
}

// ReadBandwidth measures how fast Threads goroutines, each pinned to an OS
// thread and streaming through its own share of one large buffer, can read
// memory together, with one stream per thread and with four. Passes of the
// two kinds alternate, so both see the same neighbours. The buffer is
// written first so that every page is real memory (untouched pages all map
// the one zero page, which sits in cache).
func ReadBandwidth(ctx context.Context, o BandwidthOptions) (BandwidthResult, error) {
	threads := o.Threads
	if threads <= 0 {
		threads = runtime.NumCPU()
	}
	size := o.Bytes
	if size <= 0 {
		size = 1 << 30
	}
	runs := o.Runs
	if runs <= 0 {
		runs = 7
	}
	per := size / int64(threads) &^ 511
	if per < 512 {
		return BandwidthResult{}, fmt.Errorf("bench: bandwidth buffer of %d bytes is too small for %d threads", size, threads)
	}
	buf := make([]byte, per*int64(threads))
	defer debug.FreeOSMemory()
	parts := make([][]byte, threads)
	for i := range parts {
		parts[i] = buf[int64(i)*per : int64(i+1)*per]
	}
	// Fill in parallel: faulting in 1 GiB single-threaded takes a while.
	parallel(threads, func(i int) {
		p := parts[i]
		for j := range p {
			p[j] = byte(j*7 + i)
		}
	})
	var best [2]time.Duration
	kernels := [2]func([]byte) uint64{readSum, readSum4}
	sums := make([]uint64, threads)
	for r := 0; r < runs; r++ {
		for k, kernel := range kernels {
			if err := ctx.Err(); err != nil {
				return BandwidthResult{}, err
			}
			d := timePass(parts, sums, kernel)
			if best[k] == 0 || d < best[k] {
				best[k] = d
			}
		}
	}
	runtime.KeepAlive(sums)
	return BandwidthResult{
		GBps:            float64(len(buf)) / best[0].Seconds() / 1e9,
		MultiStreamGBps: float64(len(buf)) / best[1].Seconds() / 1e9,
		Threads:         threads,
		Bytes:           int64(len(buf)),
		Kernel:          readKernel(),
	}, nil
}

// timePass reads each part on its own pinned goroutine, all starting
// together, and returns the wall time until the last one finishes.
func timePass(parts [][]byte, sums []uint64, kernel func([]byte) uint64) time.Duration {
	threads := len(parts)
	var ready, start sync.WaitGroup
	ready.Add(threads)
	start.Add(1)
	var t0 time.Time
	go func() {
		ready.Wait()
		t0 = time.Now()
		start.Done()
	}()
	parallel(threads, func(i int) {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		ready.Done()
		start.Wait()
		sums[i] += kernel(parts[i])
	})
	// Every reader waited for start, so t0 was set before they began.
	return time.Since(t0)
}

// parallel runs fn(0..n-1) on n goroutines and waits for all of them.
func parallel(n int, fn func(i int)) {
	var wg sync.WaitGroup
	wg.Add(n)
	for i := 0; i < n; i++ {
		go func() {
			defer wg.Done()
			fn(i)
		}()
	}
	wg.Wait()
}

func defaultThreads() int { return runtime.NumCPU() }
