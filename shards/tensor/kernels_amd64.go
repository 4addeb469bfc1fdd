//go:build amd64 && !purego

package tensor

import (
	"fmt"
	"strings"
	"sync"

	"golang.org/x/sys/cpu"
)

// bestKernels is chosen once from the CPU's features and never changes.
var bestKernels = detectKernels()

func detectKernels() *kernelSet {
	switch {
	case hasAVX512Set():
		return avx512Kernels()
	case hasAVX2Set():
		return avx2Kernels()
	}
	return genericKernels
}

// feature is one CPU feature a kernel set needs, by its usual name.
type feature struct {
	name string
	has  bool
}

// lacking says why kernels of the set level needing the features cannot
// run: the features the CPU lacks, or SVC_KERNELS keeping a lower set;
// "" when they can.
func lacking(level string, fs ...feature) string {
	var miss []string
	for _, f := range fs {
		if !f.has {
			miss = append(miss, f.name)
		}
	}
	if len(miss) > 0 {
		return "the CPU lacks " + strings.Join(miss, ", ")
	}
	return capReason(level)
}

// x86Caps are the CPU features the kernel sets read, by golang.org/x/sys/cpu's
// names. kernelCaps gives them: the CPU's own (hostCaps), except in the
// avx512sim test build, which runs the AVX-512 kernels in an interpreter and
// reports those features present (sim512run_amd64.go).
type x86Caps struct {
	HasAVX2, HasFMA, HasF16C                                    bool
	HasAVX512F, HasAVX512DQ, HasAVX512BW, HasAVX512VL           bool
	HasAVX512VNNI, HasAVX512VBMI, HasAVX512VBMI2, HasAVX512GFNI bool
	HasAVX512BF16                                               bool
}

func hostCaps() x86Caps {
	x := &cpu.X86
	return x86Caps{
		HasAVX2: x.HasAVX2, HasFMA: x.HasFMA, HasF16C: x.HasF16C,
		HasAVX512F: x.HasAVX512F, HasAVX512DQ: x.HasAVX512DQ, HasAVX512BW: x.HasAVX512BW, HasAVX512VL: x.HasAVX512VL,
		HasAVX512VNNI: x.HasAVX512VNNI, HasAVX512VBMI: x.HasAVX512VBMI, HasAVX512VBMI2: x.HasAVX512VBMI2,
		HasAVX512GFNI: x.HasAVX512GFNI, HasAVX512BF16: x.HasAVX512BF16,
	}
}

// The features of each set; the later lists include the earlier ones.

func avx2Features() []feature {
	x := kernelCaps()
	return []feature{{"AVX2", x.HasAVX2}, {"FMA", x.HasFMA}, {"F16C", x.HasF16C}}
}

func avx512Features() []feature {
	x := kernelCaps()
	return append(avx2Features(), feature{"AVX512F", x.HasAVX512F}, feature{"AVX512DQ", x.HasAVX512DQ})
}

// vnniFeatures are those of the VNNI tile kernels for Q8_0 and Q4_0:
// VPDPBUSD (AVX512_VNNI) and VPERMT2B (AVX512_VBMI) on 512-bit and EVEX
// 256-bit registers (BW, VL).
func vnniFeatures() []feature {
	x := kernelCaps()
	return append(avx512Features(), feature{"AVX512BW", x.HasAVX512BW}, feature{"AVX512VL", x.HasAVX512VL},
		feature{"AVX512VNNI", x.HasAVX512VNNI}, feature{"AVX512VBMI", x.HasAVX512VBMI})
}

// kernelGap says why the named set cannot run here, or "". Kernels check
// it on every tile, so the answers are worked out once (kernelGaps): the
// CPU's features and SVC_KERNELS do not change while the process runs, and
// building the feature lists again cost an allocation per call.
func kernelGap(name string) string {
	if gap, ok := kernelGaps()[name]; ok {
		return gap
	}
	return fmt.Sprintf("no kernel set %q", name)
}

var kernelGaps = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"generic": "",
		"avx2":    lacking("avx2", avx2Features()...),
		"avx512":  lacking("avx512", avx512Features()...),
	}
})

// hasAVX2Set reports whether the AVX2 kernels can run (they also use FMA
// and F16C) and SVC_KERNELS allows them.
func hasAVX2Set() bool { return kernelGap("avx2") == "" }

// hasAVX512Set reports whether the AVX-512 kernels can run (AVX512F and DQ,
// on top of the AVX2 set for what they do not replace) and SVC_KERNELS
// allows them.
func hasAVX512Set() bool { return kernelGap("avx512") == "" }

// kernelSets lists every set this CPU can run, for tests and benchmarks.
func kernelSets() []*kernelSet {
	sets := []*kernelSet{genericKernels}
	if hasAVX2Set() {
		sets = append(sets, avx2Kernels())
	}
	if hasAVX512Set() {
		sets = append(sets, avx512Kernels())
	}
	return sets
}

// avx512Kernels is the AVX2 set with the AVX-512 tile and x-layout kernels
// where the CPU has their extensions, and 512-bit kernels for one F16 row
// and F32 batches. F16 batches keep the AVX2 16-row tile (f16Tile): llvm-mca
// predicts it 1.5-3.5x the throughput of the former 512-bit four-position
// kernel, which widened each position's activations per row and kept a
// separate multiply and add (bench/kernel-mca.sh, bench/RESULTS.md
// 2026-11-28).
func avx512Kernels() *kernelSet {
	ks := avx2Kernels()
	ks.name = "avx512"
	addQ0Tiles(ks)
	addXTiles(ks)
	addKTiles(ks)
	addK8Tiles(ks)
	addBF16Kernels(ks)
	ks.dot[F16] = func(w []byte, a *acts, i int) float32 {
		return f16Row(dotF16AVX512, w, a.hrow(i))
	}
	ks.batch[F32] = quad(func(w []byte, a *acts, i int, out *[4]float32) {
		n := a.cols / 32 * 32
		if n > 0 {
			_ = w[4*n-1]
			_ = a.x[(i+4)*a.cols-1]
			dotF32x4AVX512(&w[0], &a.x[i*a.cols], 4*a.cols, n, out)
		} else {
			*out = [4]float32{}
		}
		for p := range out {
			out[p] = tailF32(out[p], w, a.xrow(i+p), n)
		}
	})
	return ks
}

//go:noescape
func dotQ8_0AVX2(w *byte, y *int8, d *float32, nb int) float32

//go:noescape
func dotQ4_0AVX2(w *byte, y *int8, d *float32, nb int) float32

//go:noescape
func dotQ5_0AVX2(w *byte, y *int8, d *float32, nb int) float32

//go:noescape
func dotQ4_1AVX2(w *byte, y *int8, d *float32, s *float32, nb int) float32

//go:noescape
func dotQ5_1AVX2(w *byte, y *int8, d *float32, s *float32, nb int) float32

//go:noescape
func dotQ4_KAVX2(w *byte, y *int8, d *float32, bsums *int16, nb int) float32

//go:noescape
func dotQ5_KAVX2(w *byte, y *int8, d *float32, bsums *int16, nb int) float32

//go:noescape
func dotQ3_KAVX2(w *byte, y *int8, d *float32, nb int) float32

//go:noescape
func dotQ2_KAVX2(w *byte, y *int8, d *float32, bsums *int16, nb int) float32

//go:noescape
func dotQ6_KAVX2(w *byte, y *int8, d *float32, nb int) float32

//go:noescape
func dotF32AVX2(w *byte, x *float32, n int) float32

//go:noescape
func dotF16AVX2(w *byte, x *uint16, n int) float32

//go:noescape
func dotQ4_0x8rowsAVX2(w *byte, rb int, y *int8, d *float32, nb int, out *[8]float32)

// quad adapts a one-row, four-position kernel to a tile kernel.
func quad(k func(w []byte, a *acts, i int, out *[4]float32)) tileSpec {
	return tileSpec{rows: 1, pos: 4, fn: func(w []byte, _ tileLayout, a *acts, i int, out []float32) {
		k(w, a, i, (*[4]float32)(out))
	}}
}

// tileArgs checks the lengths a kernel over rows weight rows (laid out as
// l says) and pos positions from i relies on (a mismatch would be a bug in
// MatMul, so it panics like an index error) and returns the pointers to the
// weights, the first position's activations and scales, and the block count.
// A zero-column product never reaches the kernels (MatMul returns early).
func tileArgs(w []byte, l tileLayout, a *acts, i, rows, pos, blockBytes int) (*byte, *int8, *float32, int) {
	nb := a.nb
	_ = w[(rows-1)*l.rs+(nb-1)*l.bs+blockBytes-1]
	_ = a.qs[(i+pos)*a.cols-1]
	_ = a.d[(i+pos)*nb-1]
	return &w[0], &a.qs[i*a.cols], &a.d[i*nb], nb
}

// bsumsArgs checks the Q8_K block sums of positions [i, i+pos) and returns
// a pointer to the first.
func bsumsArgs(a *acts, i, pos int) *int16 {
	_ = a.bsums[16*(i+pos)*a.nb-1]
	return &a.bsums[16*i*a.nb]
}

// The wrappers check the lengths the assembly relies on (a mismatch would be
// a bug in MatMul, so they panic like an index error would).

func blockArgs(w []byte, a *acts, i, blockBytes int) (*byte, *int8, *float32, int) {
	nb := a.nb
	_ = w[nb*blockBytes-1]
	return &w[0], &a.qs[i*a.cols], &a.d[i*nb], nb
}

//go:noescape
func quantQ8_0AVX2(x *float32, qs *int8, d *float32, nb int)

//go:noescape
func quantQ8_1AVX2(x *float32, qs *int8, d *float32, s *float32, nb int)

//go:noescape
func quantQ8_KAVX2(x *float32, qs *int8, d *float32, bsums *int16, nb int)

//go:noescape
func toF16AVX2(x *float32, h *uint16, n int)

//go:noescape
func toBF16AVX2(x *float32, h *uint16, n int)

func avx2Kernels() *kernelSet {
	ks := &kernelSet{name: "avx2"}
	ks.q8_0 = func(x []float32, qs []int8, d []float32) {
		nb := len(x) / 32
		if nb == 0 {
			return
		}
		_, _ = qs[32*nb-1], d[nb-1]
		quantQ8_0AVX2(&x[0], &qs[0], &d[0], nb)
	}
	ks.q8_1 = func(x []float32, qs []int8, d, s []float32) {
		nb := len(x) / 32
		if nb == 0 {
			return
		}
		_, _, _ = qs[32*nb-1], d[nb-1], s[nb-1]
		quantQ8_1AVX2(&x[0], &qs[0], &d[0], &s[0], nb)
	}
	ks.q8_K = func(x []float32, qs []int8, d []float32, bsums []int16) {
		nb := len(x) / qkK
		if nb == 0 {
			return
		}
		_, _, _ = qs[qkK*nb-1], d[nb-1], bsums[16*nb-1]
		quantQ8_KAVX2(&x[0], &qs[0], &d[0], &bsums[0], nb)
	}
	ks.f16 = func(x []float32, h []uint16) {
		n := len(x) / 8 * 8
		if n > 0 {
			_ = h[n-1]
			toF16AVX2(&x[0], &h[0], n)
		}
		for i := n; i < len(x); i++ {
			h[i] = FP32ToFP16(x[i])
		}
	}
	ks.bf16 = func(x []float32, h []uint16) {
		n := len(x) / 16 * 16
		if n > 0 {
			_ = h[n-1]
			toBF16AVX2(&x[0], &h[0], n)
		}
		for i := n; i < len(x); i++ {
			h[i] = FP32ToBF16(x[i])
		}
	}
	ks.dot[Q8_0] = func(w []byte, a *acts, i int) float32 {
		return dotQ8_0AVX2(blockArgs(w, a, i, 34))
	}
	// Tile kernels: several rows for one position (decode), several
	// positions per weight block (batches).
	addQ80AVX2(ks)
	addKAVX2(ks)
	addF16AVX2(ks)
	addBF16AVX2(ks)
	ks.dot[Q4_0] = func(w []byte, a *acts, i int) float32 {
		return dotQ4_0AVX2(blockArgs(w, a, i, 18))
	}
	ks.vec[Q4_0] = tileSpec{rows: 8, pos: 1, fn: func(w []byte, l tileLayout, a *acts, i int, out []float32) {
		_ = w[7*l.rs+18*a.nb-1]
		pw, py, pd, nb := blockArgs(w, a, i, 18)
		dotQ4_0x8rowsAVX2(pw, l.rs, py, pd, nb, (*[8]float32)(out))
	}}
	addQ40xAVX2(ks)
	ks.dot[Q5_0] = func(w []byte, a *acts, i int) float32 {
		return dotQ5_0AVX2(blockArgs(w, a, i, 22))
	}
	ks.dot[Q4_1] = func(w []byte, a *acts, i int) float32 {
		pw, py, pd, nb := blockArgs(w, a, i, 20)
		return dotQ4_1AVX2(pw, py, pd, &a.s[i*nb], nb)
	}
	ks.dot[Q5_1] = func(w []byte, a *acts, i int) float32 {
		pw, py, pd, nb := blockArgs(w, a, i, 24)
		return dotQ5_1AVX2(pw, py, pd, &a.s[i*nb], nb)
	}
	ks.dot[Q4_K] = func(w []byte, a *acts, i int) float32 {
		pw, py, pd, nb := blockArgs(w, a, i, 144)
		return dotQ4_KAVX2(pw, py, pd, &a.bsums[16*i*nb], nb)
	}
	ks.dot[Q5_K] = func(w []byte, a *acts, i int) float32 {
		pw, py, pd, nb := blockArgs(w, a, i, 176)
		return dotQ5_KAVX2(pw, py, pd, &a.bsums[16*i*nb], nb)
	}
	ks.dot[Q3_K] = func(w []byte, a *acts, i int) float32 {
		return dotQ3_KAVX2(blockArgs(w, a, i, 110))
	}
	ks.dot[Q2_K] = func(w []byte, a *acts, i int) float32 {
		pw, py, pd, nb := blockArgs(w, a, i, 84)
		return dotQ2_KAVX2(pw, py, pd, &a.bsums[16*i*nb], nb)
	}
	ks.dot[Q6_K] = func(w []byte, a *acts, i int) float32 {
		return dotQ6_KAVX2(blockArgs(w, a, i, 210))
	}
	ks.dot[F32] = func(w []byte, a *acts, i int) float32 {
		x := a.xrow(i)
		n := len(x) / 32 * 32
		var s float32
		if n > 0 {
			_ = w[4*n-1]
			s = dotF32AVX2(&w[0], &x[0], n)
		}
		return tailF32(s, w, x, n)
	}
	ks.dot[F16] = func(w []byte, a *acts, i int) float32 {
		return f16Row(dotF16AVX2, w, a.hrow(i))
	}
	return withFallback(ks)
}
