package model

import (
	"context"
	"encoding/binary"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"svc/internal/testenv"
	"svc/shards/gguf"
	"svc/shards/modeltools"
	"svc/shards/tensor"
)

// residentBytes counts the bytes of b's pages that are mapped into this
// process (bit 63 of /proc/self/pagemap), which is what a mapping adds to
// the resident set size. Unlike mincore it ignores pages that are merely in
// the page cache.
func residentBytes(t *testing.T, b []byte) int {
	t.Helper()
	if len(b) == 0 {
		return 0
	}
	page := uintptr(os.Getpagesize())
	start := uintptr(unsafe.Pointer(&b[0]))
	end := start + uintptr(len(b))
	first, last := start/page, (end-1)/page
	f, err := os.Open("/proc/self/pagemap")
	if err != nil {
		t.Fatalf("pagemap: %v", err)
	}
	defer f.Close()
	buf := make([]byte, 8*(last-first+1))
	if _, err := f.ReadAt(buf, int64(first*8)); err != nil {
		t.Fatalf("pagemap: %v", err)
	}
	n := 0
	for i := uintptr(0); i <= last-first; i++ {
		if binary.LittleEndian.Uint64(buf[8*i:])>>63 == 1 {
			lo, hi := max(start, (first+i)*page), min(end, (first+i+1)*page)
			n += int(hi - lo)
		}
	}
	return n
}

// residency sums resident and total bytes of a model's tensors, split into
// the blocks [first,last) and everything else. packed maps the names of the
// held tensors that a shard computes with as packed copies (tensor.Pack) to
// those copies: for them, heldRes counts the copy's resident bytes and
// doubled the mapping's (which should have been released).
func residency(t *testing.T, f *gguf.File, first, last int, packed map[string]tensor.Matrix) (heldRes, held, doubled, otherRes, other int) {
	for i := range f.Tensors {
		ti := &f.Tensors[i]
		r := residentBytes(t, f.Data(ti))
		mine := false
		for b := first; b < last; b++ {
			if strings.HasPrefix(ti.Name, blockName(b, "")) {
				mine = true
			}
		}
		switch w, ok := packed[ti.Name]; {
		case mine && ok:
			heldRes, held, doubled = heldRes+residentBytes(t, w.Data), held+int(ti.Size), doubled+r
		case mine:
			heldRes, held = heldRes+r, held+int(ti.Size)
		default:
			otherRes, other = otherRes+r, other+int(ti.Size)
		}
	}
	return
}

// packedMatrices maps the tensor names of a shard's packed block matrices
// to the copies.
func packedMatrices(sh *Shard) map[string]tensor.Matrix {
	out := map[string]tensor.Matrix{}
	for k, b := range sh.blocks {
		for name, w := range map[string]tensor.Matrix{"attn_q": b.wq, "attn_k": b.wk, "attn_v": b.wv, "attn_output": b.wo, "ffn_gate": b.wgate, "ffn_up": b.wup, "ffn_down": b.wdown} {
			if w.Packed() {
				out[blockName(sh.first+k, name+".weight")] = w
			}
		}
	}
	return out
}

// runMiddleShard runs a forward step on a new shard of blocks [first,
// last); the caller closes the shard.
func runMiddleShard(t *testing.T, m *Model, first, last int, o ShardOptions) *Shard {
	t.Helper()
	o.Threads, o.IdleTimeout = 2, -1
	sh, err := m.NewShard(first, last, o)
	if err != nil {
		t.Fatal(err)
	}
	if err := sh.OpenSession("rss", 16); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewSource(1))
	h := make([]float32, 8*m.Config().Dim)
	for i := range h {
		h[i] = float32(r.NormFloat64())
	}
	if _, err := sh.Forward(context.Background(), "rss", Input{Hidden: h}); err != nil {
		t.Fatal(err)
	}
	return sh
}

// edgeSlop is what a page fault near a shard's edge may map beyond it:
// the kernel maps the surrounding 64 KiB (fault-around) or the whole large
// folio of the page cache (up to 2 MiB on recent kernels), on both edges.
const edgeSlop = 2 * (2 << 20)

// TestShardResidentMemory checks that a shard pages in its own blocks'
// weights and (nearly) nothing else of the file, and that the weights it
// packs (tensor.Pack) are resident once: as the copy, the mapped pages
// having been released.
func TestShardResidentMemory(t *testing.T) {
	check := func(t *testing.T, path string, first, last int, wantPacked bool) {
		for _, o := range []ShardOptions{{}, {NoRepack: true}} {
			m, err := Open(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			f := m.File()
			hr0, _, _, or0, _ := residency(t, f, first, last, nil)
			t.Logf("after Open: %d bytes of tensor data resident", hr0+or0)
			sh := runMiddleShard(t, m, first, last, o)
			packed := packedMatrices(sh)
			heldRes, held, doubled, otherRes, other := residency(t, f, first, last, packed)
			t.Logf("%s NoRepack=%v: shard [%d,%d) of %d blocks: %d matrices packed; resident %.2f of its %.2f MiB of weights (%.3f MiB mapped twice), %.3f of the other %.2f MiB",
				filepath.Base(path), o.NoRepack, first, last, m.Config().Blocks, len(packed), mib(heldRes), mib(held), mib(doubled), mib(otherRes), mib(other))
			if heldRes < held*95/100 {
				t.Errorf("the shard's own weights are only %d of %d bytes resident", heldRes, held)
			}
			// Only the pages at the ends of a packed tensor may stay mapped.
			if slop := len(packed) * 2 * os.Getpagesize(); doubled > slop {
				t.Errorf("%d bytes of the packed tensors' mapping stay resident besides the copies", doubled)
			}
			if otherRes > edgeSlop {
				t.Errorf("%d bytes of weights the shard does not hold became resident", otherRes)
			}
			if o.NoRepack && len(packed) > 0 {
				t.Errorf("NoRepack: %d matrices packed", len(packed))
			}
			if !o.NoRepack && wantPacked && len(packed) == 0 {
				t.Errorf("no matrix packed, though tensor.Pack packs this model's type on this CPU")
			}
			sh.Close()
			m.Close()
		}
	}
	t.Run("mini-qwen2-q8_0", func(t *testing.T) {
		check(t, testenv.Path(t, "models", "mini-qwen2-q8_0.gguf"), 1, 3, false)
	})
	t.Run("synthetic-72MB", func(t *testing.T) {
		vocab, err := gguf.Open(testenv.Path(t, "models", "stories260K.gguf"))
		if err != nil {
			t.Fatal(err)
		}
		defer vocab.Close()
		// Q4_0: the type tensor.Pack packs (on CPUs with its kernels).
		ft, err := modeltools.ParseFileType("q4_0")
		if err != nil {
			t.Fatal(err)
		}
		shape := modeltools.Shape{Name: "rss", Dim: 1024, Blocks: 6, Heads: 16, KVHeads: 4, FFN: 2816, Context: 256, RopeBase: 10000, Eps: 1e-5}
		path := filepath.Join(t.TempDir(), "rss.gguf")
		if err := modeltools.SynthFile(context.Background(), path, modeltools.SynthOptions{Shape: shape, Vocab: vocab, Type: ft, Seed: 1, Threads: 2}); err != nil {
			t.Fatal(err)
		}
		probe, err := tensor.Pack(tensor.Matrix{Type: tensor.Q4_0, Rows: 16, Cols: 32, Data: make([]byte, 16*18)})
		if err != nil {
			t.Fatal(err)
		}
		check(t, path, 2, 4, probe.Packed())
	})
}

func mib(n int) float64 { return float64(n) / (1 << 20) }
