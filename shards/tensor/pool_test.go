package tensor

import (
	"sync"
	"sync/atomic"
	"testing"
)

func TestPoolCoversRange(t *testing.T) {
	for _, threads := range []int{0, 1, 2, 5} {
		p := NewPool(threads)
		if threads > 0 && p.Threads() != threads {
			t.Errorf("Threads() = %d, want %d", p.Threads(), threads)
		}
		for _, n := range []int{0, 1, 2, 7, 100, 1001} {
			hits := make([]atomic.Int32, n)
			p.For(n, func(lo, hi int) {
				if lo >= hi || lo < 0 || hi > n {
					t.Errorf("bad range [%d,%d) for n=%d", lo, hi, n)
				}
				for i := lo; i < hi; i++ {
					hits[i].Add(1)
				}
			})
			for i := range hits {
				if hits[i].Load() != 1 {
					t.Fatalf("threads=%d n=%d: index %d visited %d times", threads, n, i, hits[i].Load())
				}
			}
		}
		p.Close()
	}
}

func TestPoolConcurrentAndAfterClose(t *testing.T) {
	p := NewPool(3)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 200; k++ {
				var sum atomic.Int64
				p.For(100, func(lo, hi int) {
					for i := lo; i < hi; i++ {
						sum.Add(int64(i))
					}
				})
				if sum.Load() != 4950 {
					t.Errorf("sum %d", sum.Load())
					return
				}
			}
		}()
	}
	wg.Wait()
	p.Close()
	p.Close() // idempotent
	var sum atomic.Int64
	p.For(10, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			sum.Add(1)
		}
	})
	if sum.Load() != 10 {
		t.Errorf("For after Close covered %d of 10", sum.Load())
	}
}

// BenchmarkPoolFor measures the cost of one For call that wakes the workers,
// the per-matmul overhead of decoding.
func BenchmarkPoolFor(b *testing.B) {
	p := NewPool(0)
	defer p.Close()
	var sink atomic.Int64
	for i := 0; i < b.N; i++ {
		p.For(64, func(lo, hi int) { sink.Add(int64(hi - lo)) })
	}
}

// TestPoolRest: Rest between and during For calls (workers parking while
// others hand out jobs) never loses or repeats a chunk, and a rested pool
// still uses its workers.
func TestPoolRest(t *testing.T) {
	p := NewPool(3)
	defer p.Close()
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 300; k++ {
				if k%3 == g%3 {
					p.Rest()
				}
				hits := make([]atomic.Int32, 257)
				p.For(len(hits), func(lo, hi int) {
					for i := lo; i < hi; i++ {
						hits[i].Add(1)
					}
				})
				for i := range hits {
					if n := hits[i].Load(); n != 1 {
						t.Errorf("index %d visited %d times", i, n)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}

// TestPoolRestWakes: after a rest the workers still take the next job. Of
// two chunks, the first claimed waits until the second has run, so For
// returns only if a worker ran one of them. (A fresh pool: a queue full of
// other callers' stale copies would make the caller do both itself.)
func TestPoolRestWakes(t *testing.T) {
	p := NewPool(2)
	defer p.Close()
	for k := 0; k < 20; k++ {
		p.Rest()
		var claimed atomic.Int32
		second := make(chan struct{})
		p.For(2, func(lo, hi int) {
			if claimed.Add(1) == 1 {
				<-second
				return
			}
			close(second)
		})
	}
}
