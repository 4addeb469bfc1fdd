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
// it was given (and the token embedding's on the first shard, the output
// head's on the last), and a session names one adapter (or none). An
// adapted product is W·x + float32(scale·B·(A·x)), added before the bias,
// as llama.cpp's llm_build_lora_mm does, the output head included; the
// base weights are never changed, so every session shares them. In a batch
// the base product runs once for all rows and each session's low-rank
// product runs over its own rows with the row count its Forward would use,
// so a session's bits do not depend on what it is batched with.
//
// The token embedding's pair is applied as llama.cpp's llm_build_inp_embd
// does: each token's row of A (the flipped layout of lora.Pair.Embedding)
// is looked up, multiplied by B, scaled and added to the token's embedding
// row, all in float32. A model with a tied head (no output.weight, the head
// is token_embd.weight) computes its head without the embedding's pair:
// PEFT's forward pass, which trained the adapter, adapts only the lookup.
// llama.cpp at the references' commit has no answer to match there: its
// tied head carries token_embd.weight's name, so llm_build_lora_mm finds
// the embedding's pair for it and multiplies by the flipped A as by an
// ordinary one, which fails ggml_mul_mat's shape assertion
// (GGML_ASSERT(ggml_can_mul_mat(a, b)), seen with llama-cli on
// mini-qwen2-q8_0 and a token_embd adapter) and aborts the process.

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
	embd   *loraPair    // first shard: token_embd.weight's pair (A is vocab×rank), or nil
	head   *loraPair    // last shard: output.weight's pair, or nil
}

// Targets outside the blocks.
const (
	embdTarget = "token_embd.weight"
	headTarget = "output.weight"
)

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
// every adapted tensor a block matrix of the model, its token embedding or
// its output head (output.weight; a tied head has none) with the pair's
// shape (lora.Adapter.CheckBase, whose errors name the tensor and both
// shapes).
func (m *Model) CheckAdapter(a *lora.Adapter) error {
	arch, err := m.file.Architecture()
	if err != nil {
		return fmt.Errorf("model: %w", err)
	}
	if err := a.CheckBase(arch, m.file); err != nil {
		return err
	}
	for _, t := range a.Targets() {
		if t == embdTarget || t == headTarget {
			continue // CheckBase found it in the model, with the pair's shape
		}
		if b, _, ok := adapterTarget(t); !ok || b >= m.cfg.Blocks {
			return fmt.Errorf("lora: %w: tensor %s%s adapts %s; svc applies adapters to the token embedding, the output head and the attention and feed-forward matrices of the blocks", lora.ErrBadAdapter, t, lora.SuffixA, t)
		}
	}
	return nil
}

// AddAdapter makes an adapter available to this shard's sessions under
// name, with the user scale (1 for llama.cpp's --lora). Only the pairs of
// the shard's blocks are copied (and the token embedding's on the first
// shard, the output head's on the last); a shard holding none of the
// adapted tensors still accepts sessions naming it (they compute as the
// base there).
func (s *Shard) AddAdapter(name string, a *lora.Adapter, userScale float32) error {
	if name == "" {
		return errors.New("model: an adapter needs a name")
	}
	if err := s.m.CheckAdapter(a); err != nil {
		return err
	}
	sa := &shardAdapter{name: name, blocks: make([]*blockLoRA, len(s.blocks))}
	for _, t := range a.Targets() {
		var dst **loraPair
		switch t {
		case embdTarget:
			if !s.IsFirst() {
				continue
			}
			dst = &sa.embd
		case headTarget:
			if !s.IsLast() {
				continue
			}
			dst = &sa.head
		default:
			bi, slot, _ := adapterTarget(t)
			if bi < s.first || bi >= s.last {
				continue
			}
			bl := sa.blocks[bi-s.first]
			if bl == nil {
				bl = &blockLoRA{}
				sa.blocks[bi-s.first] = bl
			}
			dst = &bl[slot]
		}
		p, _ := a.Pair(t)
		if err := finiteMatrix(p.A, t+lora.SuffixA); err != nil {
			return err
		}
		if err := finiteMatrix(p.B, t+lora.SuffixB); err != nil {
			return err
		}
		*dst = newLoRAPair(p, p.Scale(a.Alpha, userScale))
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

// embdAdapter is the session's token embedding pair, or nil.
func (ss *session) embdAdapter() *loraPair {
	if ss.adapter == nil {
		return nil
	}
	return ss.adapter.embd
}

// headAdapter is the session's output head pair, or nil.
func (ss *session) headAdapter() *loraPair {
	if ss.adapter == nil {
		return nil
	}
	return ss.adapter.head
}

// loraSpan is one session's rows [row0, row0+rows) of an adapted product
// and the session's pair for it (nil: not adapted).
type loraSpan struct {
	row0, rows int
	p          *loraPair
}

// addLoRA adds scale·B·(A·x) to out (rows of width outW) for every span
// whose adapter adapts slot, x being the product's input (rows of width
// inW) (see addLoRASpans).
func (s *Shard) addLoRA(sc *scratch, spans []span, slot loraSlot, x []float32, inW int, out []float32, outW int) {
	sc.loraIn = sc.loraIn[:0]
	for _, g := range spans {
		var p *loraPair
		if g.lora != nil {
			p = g.lora[slot]
		}
		sc.loraIn = append(sc.loraIn, loraSpan{row0: g.row0, rows: g.rows, p: p})
	}
	s.addLoRASpans(sc, sc.loraIn, x, inW, out, outW, 0)
}

// headLoRARows is how many rows of the output head's B·(A·x) (each a row
// of the vocabulary) are computed at once: the temporary beside the
// logits stays a few rows, not one per position of a step asking for
// every position's logits.
const headLoRARows = 32

// addLoRASpans adds scale·B·(A·x) to out (rows of width outW) for every
// span with a pair, x being the product's input (rows of width inW). The
// spans sharing a pair share its two products when the pair's types are
// batch-invariant (a row's bits do not depend on the others); otherwise
// (BF16) each span's product covers its own rows, with the row count its
// Forward would use. chunk > 0 computes B·(A·x) that many rows at a time
// where B's rows do not depend on the row count (every B but BF16): the
// same bits in a smaller temporary.
func (s *Shard) addLoRASpans(sc *scratch, spans []loraSpan, x []float32, inW int, out []float32, outW int, chunk int) {
	if !slices.ContainsFunc(spans, func(g loraSpan) bool { return g.p != nil && g.rows > 0 }) {
		return // nothing adapted: the common case, at no cost
	}
	sc.loraDone = append(sc.loraDone[:0], make([]bool, len(spans))...)
	for i, g := range spans {
		if g.p == nil || g.rows == 0 || sc.loraDone[i] {
			continue
		}
		p := g.p
		// The spans computed together: this one, and the later ones with
		// the same pair when the pair allows it.
		sc.loraSpans = append(sc.loraSpans[:0], i)
		rows := g.rows
		if p.invariant {
			for j := i + 1; j < len(spans); j++ {
				if spans[j].p == p {
					sc.loraSpans = append(sc.loraSpans, j)
					rows += spans[j].rows
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
		rank := p.a.Rows
		sc.loraT = growTo(sc.loraT, rows*rank)
		s.matmul(s.pool, sc.ws, p.a, in, rows, sc.loraT)
		step := rows
		if chunk > 0 && (p.bt != nil || tensor.BatchInvariant(p.b.Type)) {
			step = chunk
		}
		for c0 := 0; c0 < rows; c0 += step {
			k := min(step, rows-c0)
			s.loraB(sc, p, sc.loraT[c0*rank:(c0+k)*rank], k)
			// Rows [c0, c0+k) of the spans' rows, each added to its place.
			r := 0
			for _, j := range sc.loraSpans {
				sc.loraDone[j] = true
				h := spans[j]
				if lo, hi := max(r, c0), min(r+h.rows, c0+k); lo < hi {
					p.addScaled(out[(h.row0+lo-r)*outW:(h.row0+hi-r)*outW], sc.loraD[(lo-c0)*outW:])
				}
				r += h.rows
			}
		}
	}
}

// loraB computes sc.loraD = B·t for the rows of t (rank wide).
func (s *Shard) loraB(sc *scratch, p *loraPair, t []float32, rows int) {
	sc.loraD = growTo(sc.loraD, rows*p.b.Rows)
	if p.bt != nil {
		p.narrowB(t, rows, sc.loraD)
	} else {
		s.matmul(s.pool, sc.ws, p.b, t, rows, sc.loraD)
	}
}

// addScaled adds float32(d[k]·scale) to o[k] for every k of o: ggml_scale
// then ggml_add, each result rounded to float32 (the conversion keeps the
// compiler from fusing them).
func (p *loraPair) addScaled(o, d []float32) {
	d = d[:len(o)]
	for k, v := range d {
		o[k] += float32(v * p.scale)
	}
}

// addEmbdLoRA adds the token embedding pair's scale·B·A[t] to the
// embedding row of each token t (rows of x), as llama.cpp's
// llm_build_inp_embd: A's rows are looked up, not multiplied. The product
// with B runs over the chunks Forward computes the step's blocks in (the
// row count chooses the order of a BF16 product), with the session's
// scratch (its semaphore is held).
func (s *Shard) addEmbdLoRA(sc *scratch, p *loraPair, tokens []int32, x []float32) error {
	d, r := s.cfg.Dim, p.a.Cols
	for r0 := 0; r0 < len(tokens); r0 += maxBatch {
		rows := min(maxBatch, len(tokens)-r0)
		sc.loraT = growTo(sc.loraT, rows*r)
		for i, t := range tokens[r0 : r0+rows] {
			if err := tensor.Row(p.a, int(t), sc.loraT[i*r:(i+1)*r]); err != nil {
				return fmt.Errorf("adapter row of token %d: %w", t, err)
			}
		}
		s.loraB(sc, p, sc.loraT, rows)
		p.addScaled(x[r0*d:(r0+rows)*d], sc.loraD)
	}
	return nil
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

// Kinds of SynthAdapter outside the blocks, adapted only when named: the
// token embedding and the output head (not of a tied-head model).
const (
	KindTokenEmbd = "token_embd"
	KindOutput    = "output"
)

// SynthAdapterOptions configure SynthAdapter.
type SynthAdapterOptions struct {
	Name string
	// Kinds are block matrices of AdapterKinds, KindTokenEmbd and
	// KindOutput (nil: every kind of AdapterKinds).
	Kinds []string
	Rank  int
	Alpha float32
	Type  tensor.Type
	Seed  uint64
	Std   float64 // 0: lora.Synth's default
}

// SynthAdapter writes to path a random adapter (seeded normal A and B) for
// the chosen matrices of every block of the model (and its token embedding
// or output head when named). The same options and model give the same
// file.
func (m *Model) SynthAdapter(path string, o SynthAdapterOptions) error {
	kinds := o.Kinds
	if len(kinds) == 0 {
		kinds = AdapterKinds()
	}
	allowed := append(AdapterKinds(), KindTokenEmbd)
	if !m.cfg.TiedHead {
		allowed = append(allowed, KindOutput)
	}
	want := map[string]bool{}
	for _, k := range kinds {
		if k == KindOutput && m.cfg.TiedHead {
			return fmt.Errorf("model: adapter target %q: the model has no output.weight (its head is token_embd.weight)", k)
		}
		if !slices.Contains(allowed, k) {
			return fmt.Errorf("model: adapter target %q is not one of %s", k, strings.Join(allowed, ", "))
		}
		want[k] = true
	}
	var targets []lora.Target
	c := &m.cfg
	if want[KindTokenEmbd] {
		targets = append(targets, lora.Target{Name: embdTarget, In: c.Vocab, Out: c.Dim})
	}
	for _, t := range m.AdapterTargets() {
		_, suffix, _ := strings.Cut(strings.TrimPrefix(t.Name, "blk."), ".")
		if want[strings.TrimSuffix(suffix, ".weight")] {
			targets = append(targets, t)
		}
	}
	if want[KindOutput] {
		targets = append(targets, lora.Target{Name: headTarget, In: c.Dim, Out: c.Vocab})
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
