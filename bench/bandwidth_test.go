package bench

import (
	"context"
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// plainSum is the obvious definition readSum must agree with.
func plainSum(b []byte) uint64 {
	var s uint64
	for i := 0; i < len(b); i += 8 {
		var w [8]byte
		copy(w[:], b[i:])
		s += binary.LittleEndian.Uint64(w[:])
	}
	return s
}

func TestReadSumMatchesPlainLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, 1<<16+77)
	for i := range buf {
		buf[i] = byte(rng.Uint32())
	}
	for _, n := range []int{0, 1, 7, 8, 31, 32, 255, 256, 257, 511, 512, 513, 1023, 1024, 1536, 4096, 1<<16 + 13, 1<<16 + 77} {
		for _, off := range []int{0, 8} {
			if off+n > len(buf) {
				continue
			}
			b := buf[off : off+n]
			want := plainSum(b)
			if got := readSum(b); got != want {
				t.Errorf("readSum(len %d, offset %d) = %#x, want %#x", n, off, got, want)
			}
			if got := readSum4(b); got != want {
				t.Errorf("readSum4(len %d, offset %d) = %#x, want %#x", n, off, got, want)
			}
			if got := readSumGo(b); got != want {
				t.Errorf("readSumGo(len %d, offset %d) = %#x, want %#x", n, off, got, want)
			}
		}
	}
	// All-ones words overflow every accumulator lane: the sum must wrap.
	ones := make([]byte, 1024)
	for i := range ones {
		ones[i] = 0xff
	}
	if got, want := readSum(ones), plainSum(ones); got != want {
		t.Errorf("wrapping sum = %#x, want %#x", got, want)
	}
	if got, want := readSum4(ones), plainSum(ones); got != want {
		t.Errorf("wrapping four-stream sum = %#x, want %#x", got, want)
	}
}

func TestReadBandwidthSmall(t *testing.T) {
	r, err := ReadBandwidth(context.Background(), BandwidthOptions{Threads: 2, Bytes: 64 << 20, Runs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if r.GBps <= 0 || r.MultiStreamGBps <= 0 || r.Threads != 2 || r.Bytes != 64<<20 {
		t.Fatalf("unexpected result %+v", r)
	}
	if _, err := ReadBandwidth(context.Background(), BandwidthOptions{Threads: 4, Bytes: 100}); err == nil {
		t.Fatal("tiny buffer accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ReadBandwidth(ctx, BandwidthOptions{Threads: 1, Bytes: 1 << 20}); err == nil {
		t.Fatal("cancelled context ignored")
	}
}

var sink uint64

func benchmarkRead(b *testing.B, fn func([]byte) uint64) {
	buf := make([]byte, 256<<20)
	for i := range buf {
		buf[i] = byte(i)
	}
	b.SetBytes(int64(len(buf)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sink += fn(buf)
	}
}

func BenchmarkReadSum(b *testing.B)   { benchmarkRead(b, readSum) }
func BenchmarkReadSum4(b *testing.B)  { benchmarkRead(b, readSum4) }
func BenchmarkReadSumGo(b *testing.B) { benchmarkRead(b, readSumGo) }
