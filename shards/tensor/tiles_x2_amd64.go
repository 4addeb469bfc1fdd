//go:build amd64 && !purego

package tensor

import "fmt"

// One-position Q4_0 kernels over several x tiles at once
// (tiles_x2_amd64.s). A one-position product is memory-bound, and a thread
// streaming one tile at a time keeps a single sequential stream in flight;
// interleaving the blocks of two or four consecutive tiles gives it that
// many independent streams. Each row's arithmetic is q40xVec16's, so the
// results are bit for bit the same.
//
// MatMul does not use them: they measured no faster than one tile at a
// time. BenchmarkQ4xTilesCold (two threads, DRAM), quiet machine:
// 5632×2048 single tiles 37-42 GB/s, adjacent pairs 34-36, fours 36-38,
// pairs half a chunk apart 42; 2048×5632 single 41-44, pairs 42-43, fours
// 47-48, far pairs 46-49 (under load from other processes every variant
// fell to 12-29 GB/s and adjacent pairs lost 20%). Routed into MatMul for
// one position, BenchmarkDecodeLayouts on TinyLlama Q4_0 (x layout over
// row-major, wall median, alternating variants in one quiet session):
// single tiles 1.00/0.97, far pairs 0.98/0.98, fours 0.88/0.92, adjacent
// pairs 0.82/0.85. More streams per thread do not buy memory-level
// parallelism here; the kernels stay as the measured record and for
// re-checking on other CPUs.

// q40xVec2T is q40xVec16 for the two tiles at w and w+ts: out[0:16] the
// first, out[16:32] the second.
//
//go:noescape
func q40xVec2T(w *byte, ts, nb int, y *int8, d *float32, bias *int32, out *float32)

// q40xVec4T is q40xVec2T for the four tiles at w + k*ts, out[16k:16k+16].
//
//go:noescape
func q40xVec4T(w *byte, ts, nb int, y *int8, d *float32, bias *int32, out *float32)

// q40xTilesVec computes one position against the k consecutive packed
// tiles (1 ≤ k ≤ 4, nb blocks each) that tiles holds: out[16t+r] gets row
// r of tile t. Activations as for q40xTile at one position.
func q40xTilesVec(tiles []byte, k, nb int, qs []int8, d []float32, bias []int32, out []float32) error {
	tb := nb * q40xTileBytes
	switch {
	case !hasQ0Tiles():
		return fmt.Errorf("tensor: Q4_0x tiles: CPU lacks AVX-512 VNNI/VBMI")
	case nb <= 0 || k < 1 || k > 4:
		return fmt.Errorf("tensor: Q4_0x tiles: %d blocks, %d tiles (want nb > 0, 1..4 tiles)", nb, k)
	case len(tiles) < k*tb:
		return fmt.Errorf("tensor: Q4_0x tiles: %d bytes, want %d", len(tiles), k*tb)
	case len(out) < 16*k:
		return fmt.Errorf("tensor: Q4_0x tiles: %d outputs, want %d", len(out), 16*k)
	case len(qs) < 32*nb || len(d) < nb || len(bias) < nb:
		return fmt.Errorf("tensor: Q4_0x tiles: activations too short for %d blocks", nb)
	}
	// Three tiles: two together, then one.
	switch k {
	case 4:
		q40xVec4T(&tiles[0], tb, nb, &qs[0], &d[0], &bias[0], &out[0])
	case 3:
		q40xVec2T(&tiles[0], tb, nb, &qs[0], &d[0], &bias[0], &out[0])
		q40xVec16(&tiles[2*tb], nb, &qs[0], &d[0], &bias[0], &out[32], 0)
	case 2:
		q40xVec2T(&tiles[0], tb, nb, &qs[0], &d[0], &bias[0], &out[0])
	default:
		q40xVec16(&tiles[0], nb, &qs[0], &d[0], &bias[0], &out[0], 0)
	}
	return nil
}
