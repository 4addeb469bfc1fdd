//go:build linux

package tensor

import (
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"golang.org/x/sys/unix"
)

// BenchmarkDecodeMemory streams the products of eight TinyLlama blocks
// (as BenchmarkDecodeStream) from memory of different kinds: the Go heap,
// anonymous mappings with and without transparent huge pages, and a
// file mapping in the page cache (as a loaded model's weights are). It
// tells whether 4 KiB pages (TLB misses) cost decode bandwidth.
//
//	SVC_BENCH_FILE=/tmp/tinyllama-q8_0.gguf go test -run x -bench DecodeMemory -benchtime 10x ./shards/tensor/
func BenchmarkDecodeMemory(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 9))
	ms, bytes := decodeSet(r, Q8_0, 8)
	x := randomVec(r, 5632)
	out := make([]float32, 5632)
	// place copies ms into mem, one matrix after another.
	place := func(mem []byte) []Matrix {
		c := make([]Matrix, len(ms))
		off := 0
		for i, m := range ms {
			c[i] = m
			c[i].Data = mem[off : off+len(m.Data)]
			off += len(m.Data)
			copy(c[i].Data, m.Data)
		}
		return c
	}
	anon := func(b *testing.B, advice int) []Matrix {
		mem, err := unix.Mmap(-1, 0, bytes, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = unix.Munmap(mem) })
		if err := unix.Madvise(mem, advice); err != nil {
			b.Fatal(err)
		}
		return place(mem)
	}
	sources := []struct {
		name string
		get  func(b *testing.B) []Matrix
	}{
		{"heap", func(b *testing.B) []Matrix { return ms }},
		{"anon4k", func(b *testing.B) []Matrix { return anon(b, unix.MADV_NOHUGEPAGE) }},
		{"anonhuge", func(b *testing.B) []Matrix { return anon(b, unix.MADV_HUGEPAGE) }},
		{"file", func(b *testing.B) []Matrix {
			name := os.Getenv("SVC_BENCH_FILE")
			if name == "" {
				b.Skip("SVC_BENCH_FILE not set")
			}
			f, err := os.Open(name)
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			mem, err := unix.Mmap(int(f.Fd()), 0, bytes, unix.PROT_READ, unix.MAP_SHARED)
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { _ = unix.Munmap(mem) })
			c := make([]Matrix, len(ms))
			off := 0
			for i, m := range ms {
				c[i] = m
				c[i].Data = mem[off : off+len(m.Data)]
				off += len(m.Data)
			}
			return c
		}},
	}
	for _, src := range sources {
		for _, th := range []int{1, 2} {
			b.Run(src.name+"/threads="+strconv.Itoa(th), func(b *testing.B) {
				c := src.get(b)
				p := NewPool(th)
				defer p.Close()
				ws := NewWorkspace()
				for _, m := range c { // fault in
					MatMul(p, ws, m, x, 1, out)
				}
				b.ResetTimer()
				c0 := cpuTime()
				for i := 0; i < b.N; i++ {
					for _, m := range c {
						MatMul(p, ws, m, x, 1, out)
					}
				}
				sec := b.Elapsed().Seconds() / float64(b.N)
				b.ReportMetric(float64(bytes)/sec/1e9, "GB/s")
				b.ReportMetric(float64(bytes)/((cpuTime()-c0).Seconds()/float64(b.N))/1e9, "GB/cpu-s")
			})
		}
	}
}
