package wire

import (
	"math/bits"
	"sync"
)

// Buffers of a frame come from size classes of powers of two between
// minClass and maxClass bytes; larger ones are allocated and dropped, as they
// are rare (a long prefill) and would pin much memory in a pool.
const (
	minClassShift = 12 // 4 KiB
	maxClassShift = 24 // 16 MiB
)

// pool recycles frame buffers. It is a cache with no meaning of its own
// (like fmt's printer pool), so one per process serves every stream.
var pool [maxClassShift - minClassShift + 1]sync.Pool

// classOf is the index of the smallest class holding n bytes, or -1 when n
// is beyond the largest.
func classOf(n int) int {
	if n <= 1<<minClassShift {
		return 0
	}
	s := bits.Len(uint(n - 1))
	if s > maxClassShift {
		return -1
	}
	return s - minClassShift
}

// getBuf returns a buffer of length n; its capacity is what it costs.
func getBuf(n int) []byte {
	c := classOf(n)
	if c < 0 {
		return make([]byte, n)
	}
	if p, ok := pool[c].Get().(*[]byte); ok {
		return (*p)[:n]
	}
	return make([]byte, n, 1<<(c+minClassShift))
}

// putBuf gives b back; only buffers of an exact class size are kept.
func putBuf(b []byte) {
	c := classOf(cap(b))
	if c < 0 || cap(b) != 1<<(c+minClassShift) {
		return
	}
	b = b[:0]
	pool[c].Put(&b)
}
