//go:build amd64 && !purego

package tensor

import (
	"fmt"
	"sync"
)

// AVX-512 VNNI kernels (tiles_q4x_amd64.s) for Q4_0 weights in the x layout
// of packq4x.go. They need what hasQ40xTiles reports.

// hasQ40xTiles: what hasQ0Tiles reports plus GFNI, whose affine byte map
// splits off the high nibbles in one instruction.
func hasQ40xTiles() bool { return q40xTilesGap() == "" }

// q40xTilesGap says why the Q4_0 x kernels cannot run, or "": worked out
// once, as kernelGap is, for q40xTile checks it on every tile.
var q40xTilesGap = sync.OnceValue(func() string {
	return lacking("avx512", append(vnniFeatures(), feature{"GFNI", kernelCaps().HasAVX512GFNI})...)
})

// q40xMaxPos is the most positions q40xBatch16 takes in one call.
const q40xMaxPos = 8

// q40xPrefetch is the prefetch distance (bytes) that measured best for p
// positions on two threads streaming 5632×2048 matrices from DRAM
// (BenchmarkQ4xCold): none for one or two positions, whose demand loads
// run far enough ahead by themselves (software prefetches cost them
// 3-10%); from three on, where the longer compute per block leaves the
// out-of-order window too short to cover the memory latency, about the
// same time ahead: 64/p pairs of blocks, 9216 bytes at 4 positions and
// 4608 at 8 (at 8 positions 7.9 GB/s without, 14-21 GB/s with; at 4, 9216
// beat 4608 and at 8 4608 beat 9216 by 3-5%; PREFETCHT1/NTA measured the
// same as T0).
func q40xPrefetch(p int) int {
	if p <= 2 {
		return 0
	}
	return q40xPair * (64 / p)
}

// q40xTile checks the arguments of one packed tile times p positions and
// runs the kernel for them: tile holds the nb*288 bytes of the tile; the
// activations of position k are qs[k*ystride:][:32*nb], d[k*dstride:][:nb]
// and bias[k*dstride:][:nb]; out[k*16+r] gets row r, position k. One
// position goes to the streaming kernel q40xVec16. pf is the prefetch
// distance in bytes, 0 for none (q40xPrefetch(p) measured best);
// prefetches never fault, so it may point past the tile.
func q40xTile(tile []byte, nb int, qs []int8, ystride int, d []float32, bias []int32, dstride, p int, out []float32, pf int) error {
	switch {
	case !hasQ40xTiles():
		return fmt.Errorf("tensor: Q4_0x tile: %s", q40xTilesGap())
	case pf < 0:
		return fmt.Errorf("tensor: Q4_0x tile: negative prefetch distance %d", pf)
	}
	if err := q40xTileArgs(tile, nb, qs, ystride, d, bias, dstride, p, q40xMaxPos, out); err != nil {
		return err
	}
	if p == 1 {
		q40xVec16(&tile[0], nb, &qs[0], &d[0], &bias[0], &out[0], pf)
		return nil
	}
	q40xBatch16(&tile[0], nb, &qs[0], ystride, &d[0], &bias[0], dstride, p, &out[0], pf)
	return nil
}

// q40xTileArgs checks the arguments of a Q4_0 x tile kernel call for p
// positions (at most maxPos) as q40xTile describes them.
func q40xTileArgs(tile []byte, nb int, qs []int8, ystride int, d []float32, bias []int32, dstride, p, maxPos int, out []float32) error {
	switch {
	case nb <= 0 || p < 1 || p > maxPos:
		return fmt.Errorf("tensor: Q4_0x tile: %d blocks, %d positions (want nb > 0, 1..%d positions)", nb, p, maxPos)
	case len(tile) < nb*q40xTileBytes:
		return fmt.Errorf("tensor: Q4_0x tile: %d bytes, want %d", len(tile), nb*q40xTileBytes)
	case len(out) < 16*p:
		return fmt.Errorf("tensor: Q4_0x tile: %d outputs, want %d", len(out), 16*p)
	case ystride < 32*nb && p > 1 || dstride < nb && p > 1:
		return fmt.Errorf("tensor: Q4_0x tile: strides %d/%d overlap rows of %d blocks", ystride, dstride, nb)
	case len(qs) < (p-1)*ystride+32*nb || len(d) < (p-1)*dstride+nb || len(bias) < (p-1)*dstride+nb:
		return fmt.Errorf("tensor: Q4_0x tile: activations too short for %d positions", p)
	}
	return nil
}
