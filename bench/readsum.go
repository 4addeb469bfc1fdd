package bench

import "encoding/binary"

// readSumGo is the portable read kernel: four independent accumulators keep
// the loads from waiting on each other.
func readSumGo(b []byte) uint64 {
	var s0, s1, s2, s3 uint64
	for len(b) >= 32 {
		s0 += binary.LittleEndian.Uint64(b[0:])
		s1 += binary.LittleEndian.Uint64(b[8:])
		s2 += binary.LittleEndian.Uint64(b[16:])
		s3 += binary.LittleEndian.Uint64(b[24:])
		b = b[32:]
	}
	for len(b) >= 8 {
		s0 += binary.LittleEndian.Uint64(b)
		b = b[8:]
	}
	if len(b) > 0 {
		var tail [8]byte
		copy(tail[:], b)
		s1 += binary.LittleEndian.Uint64(tail[:])
	}
	return s0 + s1 + s2 + s3
}
