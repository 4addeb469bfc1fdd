package model

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"svc/shards/lora"
	"svc/shards/tensor"
)

// Adapters: a shard holds the LoRA pairs of its own blocks for each adapter
// it was given, and a session names one adapter (or none). An adapted
// product is W·x + float32(scale·B·(A·x)), added before the bias, as
// llama.cpp's llm_build_lora_mm does; the base weights are never changed,
// so every session shares them. In a batch the base product runs once for
// all rows and each session's low-rank product runs over its own rows with
// the row count its Forward would use, so a session's bits do not depend on
// what it is batched with.

// ErrNoAdapter is returned for a session naming an adapter the shard does
// not hold.
var ErrNoAdapter = errors.New("no such adapter")

// loraPair is one adapted matrix of a block: A is rank×in, B is out×rank.
type loraPair struct {
	a, b  tensor.Matrix
	scale float32
	// invariant: both products give each row the same bits whatever other
	// rows share the call (tensor.BatchInvariant), so sessions may share
	// them.
	invariant bool
	// bt is B transposed to float32 (rank × out) when B is narrow: an F32
	// or F16 B whose rank is below one 32-element step, whose dot products
	// are then plain in-order float32 sums. narrowB computes them a column
	// at a time with the same operations (see narrowB).
	bt    []float32
	btF16 bool // activations are rounded to f16 first, as MatMul does for F16
}

// narrowRank is the widest B computed through bt: below it, tensor's F32
// and F16 dot products are one in-order tail (no 32-lane step).
const narrowRank = 32

// newLoRAPair copies a pair out of the adapter file and prepares it.
func newLoRAPair(p *lora.Pair, scale float32) *loraPair {
	lp := &loraPair{a: ownMatrix(p.A), b: ownMatrix(p.B), scale: scale,
		invariant: tensor.BatchInvariant(p.ATyp) && tensor.BatchInvariant(p.BTyp)}
	if p.Rank < narrowRank && (p.BTyp == tensor.F32 || p.BTyp == tensor.F16) {
		lp.btF16 = p.BTyp == tensor.F16
		lp.bt = make([]float32, p.Rank*p.Out)
		row := make([]float32, p.Rank)
		for o := 0; o < p.Out; o++ {
			_ = tensor.Row(lp.b, o, row) // checked by finiteMatrix
			for j, v := range row {
				lp.bt[j*p.Out+o] = v
			}
		}
	}
	return lp
}

// narrowB computes d = B·t for rows of t (rank wide) from B's transpose:
// d[o] starts at 0 and adds float32(B[o][j]·t[j]) for j in order, each
// addition rounded, exactly as tensor's dot product tail does for a row
// shorter than 32 (F16: with t rounded to f16, whose products with f16
// weights are exact in float32), but a column at a time so that the loop
// runs along contiguous memory.
func (p *loraPair) narrowB(t []float32, rows int, d []float32) {
	r, out := p.b.Cols, p.b.Rows
	for i := 0; i < rows; i++ {
		di := d[i*out : (i+1)*out]
		clear(di)
		for j := 0; j < r; j++ {
			x := t[i*r+j]
			if p.btF16 {
				x = tensor.FP16ToFP32(tensor.FP32ToFP16(x))
			}
			axpyRounded(di, x, p.bt[j*out:(j+1)*out])
		}
	}
}

// axpyRounded adds float32(a·x[i]) to y[i]: the product rounded, then the
// sum (the conversion keeps the compiler from fusing them).
func axpyRounded(y []float32, a float32, x []float32) {
	x = x[:len(y)]
	for i := range y {
		y[i] += float32(a * x[i])
	}
}

// blockLoRA is an adapter's pairs for one block, by slot (nil: not adapted).
type blockLoRA [loraSlots]*loraPair

// shardAdapter is an adapter as a shard holds it: the pairs of the shard's
// blocks, copied out of the file.
type shardAdapter struct {
	name   string
	blocks []*blockLoRA // one per shard block; nil: the block is not adapted
}

// adapterTarget maps an adapted tensor's name to its block and slot.
func adapterTarget(name string) (block int, slot loraSlot, ok bool) {
	rest, found := strings.CutPrefix(name, "blk.")
	if !found {
		return 0, noLoRA, false
	}
	num, suffix, found := strings.Cut(rest, ".")
	if !found {
		return 0, noLoRA, false
	}
	i, err := strconv.Atoi(num)
	if err != nil || i < 0 || strconv.Itoa(i) != num {
		return 0, noLoRA, false
	}
	for _, t := range blockTensors {
		if t.suffix == suffix && t.lora != noLoRA {
			return i, t.lora, true
		}
	}
	return 0, noLoRA, false
}

// AdapterTargets lists the matrices an adapter may adapt in this model's
// blocks (GGUF names with their input and output widths), in file order.
func (m *Model) AdapterTargets() []lora.Target {
	c := &m.cfg
	var ts []lora.Target
	for i := 0; i < c.Blocks; i++ {
		for _, t := range blockTensors {
			if t.lora == noLoRA {
				continue
			}
			d := t.dims(c)
			ts = append(ts, lora.Target{Name: blockName(i, t.suffix), In: d[0], Out: d[1]})
		}
	}
	return ts
}

// CheckAdapter checks that an adapter fits this model: same architecture,
// every adapted tensor a block matrix of the model with the pair's shape.
func (m *Model) CheckAdapter(a *lora.Adapter) error {
	arch, err := m.file.Architecture()
	if err != nil {
		return fmt.Errorf("model: %w", err)
	}
	if err := a.CheckBase(arch, m.file); err != nil {
		return err
	}
	for _, t := range a.Targets() {
		if b, _, ok := adapterTarget(t); !ok || b >= m.cfg.Blocks {
			return fmt.Errorf("lora: %w: tensor %s%s adapts %s; svc applies adapters to the attention and feed-forward matrices of the blocks only", lora.ErrBadAdapter, t, lora.SuffixA, t)
		}
	}
	return nil
}

// AddAdapter makes an adapter available to this shard's sessions under
// name, with the user scale (1 for llama.cpp's --lora). Only the pairs of
// the shard's blocks are copied; a shard holding none of the adapted blocks
// still accepts sessions naming it (they compute as the base there).
func (s *Shard) AddAdapter(name string, a *lora.Adapter, userScale float32) error {
	if name == "" {
		return errors.New("model: an adapter needs a name")
	}
	if err := s.m.CheckAdapter(a); err != nil {
		return err
	}
	sa := &shardAdapter{name: name, blocks: make([]*blockLoRA, len(s.blocks))}
	for _, t := range a.Targets() {
		bi, slot, _ := adapterTarget(t)
		if bi < s.first || bi >= s.last {
			continue
		}
		p, _ := a.Pair(t)
		if err := finiteMatrix(p.A, t+lora.SuffixA); err != nil {
			return err
		}
		if err := finiteMatrix(p.B, t+lora.SuffixB); err != nil {
			return err
		}
		bl := sa.blocks[bi-s.first]
		if bl == nil {
			bl = &blockLoRA{}
			sa.blocks[bi-s.first] = bl
		}
		bl[slot] = newLoRAPair(p, p.Scale(a.Alpha, userScale))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return fmt.Errorf("model: adapter %q: %w", name, ErrClosed)
	}
	if _, ok := s.adapters[name]; ok {
		return fmt.Errorf("model: adapter %q is already loaded", name)
	}
	if s.adapters == nil {
		s.adapters = map[string]*shardAdapter{}
	}
	s.adapters[name] = sa
	return nil
}

// finiteMatrix refuses a matrix holding a NaN or an infinity, which would
// turn every adapted session's output into NaNs.
func finiteMatrix(m tensor.Matrix, name string) error {
	row := make([]float32, m.Cols)
	for r := 0; r < m.Rows; r++ {
		if err := tensor.Row(m, r, row); err != nil {
			return fmt.Errorf("lora: %w: tensor %s: %w", lora.ErrBadAdapter, name, err)
		}
		for c, v := range row {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return fmt.Errorf("lora: %w: tensor %s holds %v at row %d, column %d", lora.ErrBadAdapter, name, v, r, c)
			}
		}
	}
	return nil
}

// ownMatrix copies a matrix's bytes, so that the adapter file can be closed.
func ownMatrix(m tensor.Matrix) tensor.Matrix {
	rb, _ := tensor.RowBytes(m.Type, m.Cols)
	m.Data = append([]byte(nil), m.Data[:m.Rows*rb]...)
	return m
}

// Adapters lists the names of the adapters the shard holds, sorted.
func (s *Shard) Adapters() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	names := make([]string, 0, len(s.adapters))
	for n := range s.adapters {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// blockAdapter is the session's pairs for shard block l, or nil.
func (ss *session) blockAdapter(l int) *blockLoRA {
	if ss.adapter == nil {
		return nil
	}
	return ss.adapter.blocks[l]
}

// addLoRA adds scale·B·(A·x) to out (rows of width outW) for every span
// whose adapter adapts slot, x being the product's input (rows of width
// inW). The spans sharing a pair share its two products when the pair's
// types are batch-invariant (a row's bits do not depend on the others);
// otherwise (BF16) each span's product covers its own rows, with the row
// count its Forward would use.
func (s *Shard) addLoRA(sc *scratch, spans []span, slot loraSlot, x []float32, inW int, out []float32, outW int) {
	sc.loraDone = append(sc.loraDone[:0], make([]bool, len(spans))...)
	for i, g := range spans {
		if g.lora == nil || g.lora[slot] == nil || sc.loraDone[i] {
			continue
		}
		p := g.lora[slot]
		// The spans computed together: this one, and the later ones with
		// the same pair when the pair allows it.
		sc.loraSpans = append(sc.loraSpans[:0], i)
		rows := g.rows
		if p.invariant {
			for j := i + 1; j < len(spans); j++ {
				if h := spans[j]; h.lora != nil && h.lora[slot] == p {
					sc.loraSpans = append(sc.loraSpans, j)
					rows += h.rows
				}
			}
		}
		in := x[g.row0*inW : (g.row0+g.rows)*inW]
		if len(sc.loraSpans) > 1 {
			sc.loraX = growTo(sc.loraX, rows*inW)
			r := 0
			for _, j := range sc.loraSpans {
				h := spans[j]
				copy(sc.loraX[r*inW:], x[h.row0*inW:(h.row0+h.rows)*inW])
				r += h.rows
			}
			in = sc.loraX
		}
		sc.loraT = growTo(sc.loraT, rows*p.a.Rows)
		sc.loraD = growTo(sc.loraD, rows*outW)
		s.matmul(s.pool, sc.ws, p.a, in, rows, sc.loraT)
		if p.bt != nil {
			p.narrowB(sc.loraT, rows, sc.loraD)
		} else {
			s.matmul(s.pool, sc.ws, p.b, sc.loraT, rows, sc.loraD)
		}
		r := 0
		for _, j := range sc.loraSpans {
			sc.loraDone[j] = true
			h := spans[j]
			o := out[h.row0*outW : (h.row0+h.rows)*outW]
			for k, v := range sc.loraD[r*outW : (r+h.rows)*outW] {
				// ggml_scale then ggml_add: each result rounded to
				// float32 (the conversion keeps the compiler from fusing
				// them).
				o[k] += float32(v * p.scale)
			}
			r += h.rows
		}
	}
}

// AdapterKinds are the block matrices (GGUF names after "blk.N.", without
// ".weight") an adapter may adapt, in block order.
func AdapterKinds() []string {
	var ks []string
	for _, t := range blockTensors {
		if t.lora != noLoRA {
			ks = append(ks, strings.TrimSuffix(t.suffix, ".weight"))
		}
	}
	return ks
}

// SynthAdapterOptions configure SynthAdapter.
type SynthAdapterOptions struct {
	Name  string
	Kinds []string // nil: every kind of AdapterKinds
	Rank  int
	Alpha float32
	Type  tensor.Type
	Seed  uint64
	Std   float64 // 0: lora.Synth's default
}

// SynthAdapter writes to path a random adapter (seeded normal A and B) for
// the chosen matrices of every block of the model. The same options and
// model give the same file.
func (m *Model) SynthAdapter(path string, o SynthAdapterOptions) error {
	kinds := o.Kinds
	if len(kinds) == 0 {
		kinds = AdapterKinds()
	}
	want := map[string]bool{}
	for _, k := range kinds {
		if !slices.Contains(AdapterKinds(), k) {
			return fmt.Errorf("model: adapter target %q is not one of %s", k, strings.Join(AdapterKinds(), ", "))
		}
		want[k] = true
	}
	var targets []lora.Target
	for _, t := range m.AdapterTargets() {
		_, suffix, _ := strings.Cut(strings.TrimPrefix(t.Name, "blk."), ".")
		if want[strings.TrimSuffix(suffix, ".weight")] {
			targets = append(targets, t)
		}
	}
	arch, err := m.file.Architecture()
	if err != nil {
		return fmt.Errorf("model: %w", err)
	}
	pairs, err := lora.Synth(lora.SynthOptions{Targets: targets, Rank: o.Rank, Seed: o.Seed, Std: o.Std})
	if err != nil {
		return err
	}
	return lora.WriteFile(path, lora.WriteOptions{Arch: arch, Name: o.Name, Alpha: o.Alpha, Type: o.Type, Pairs: pairs})
}
