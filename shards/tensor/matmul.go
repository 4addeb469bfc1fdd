package tensor

import (
	"fmt"
	"math"
)

// Matrix is a GGUF weight tensor: Rows = ne[1] (output features), Cols =
// ne[0] (input features), Data = Rows*RowBytes(Type, Cols) bytes. As built
// by callers it is row-major, typically a zero-copy slice of an mmap'ed
// file; Pack returns a copy in the tiled layout that the SIMD kernels
// stream faster (see pack.go), which every function of this package reads.
type Matrix struct {
	Type       Type
	Rows, Cols int
	Data       []byte
	// group > 0: Data holds groups of that many rows whose blocks are
	// interleaved (block 0 of each of the group's rows, then block 1, ...;
	// pack.go). Only Pack sets it, to a divisor of rowTile and of Rows.
	group int
	// x: the groups (of rowTile rows) are in the type's x layout instead
	// (xlayout.go).
	x bool
	// bf16e: for BF16, the exponent range of the weights (bf16Exponents),
	// set by Pack where the kernel set needs it (bf16Exact); bf16Known
	// says it is.
	bf16e     expRange
	bf16Known bool
}

// Validate checks that the type is supported, Cols is a multiple of its
// block size and Data is large enough.
func (m Matrix) Validate() error {
	if m.Rows < 0 || m.Cols < 0 {
		return fmt.Errorf("tensor: matrix %dx%d has a negative dimension", m.Rows, m.Cols)
	}
	rb, err := RowBytes(m.Type, m.Cols)
	if err != nil {
		return fmt.Errorf("tensor: matrix %dx%d: %w", m.Rows, m.Cols, err)
	}
	if rb > 0 && m.Rows > math.MaxInt/rb {
		return fmt.Errorf("tensor: matrix %dx%d is too large", m.Rows, m.Cols)
	}
	if len(m.Data) < m.Rows*rb {
		return fmt.Errorf("tensor: %v matrix %dx%d needs %d bytes, has %d", m.Type, m.Rows, m.Cols, m.Rows*rb, len(m.Data))
	}
	if g := m.group; g != 0 && (g < 0 || rowTile%g != 0 || m.Rows%g != 0 || m.Type.BlockSize() == 1) {
		return fmt.Errorf("tensor: packed %v matrix %dx%d: not a whole number of %d-row groups of blocks", m.Type, m.Rows, m.Cols, g)
	}
	if m.x && (m.group != rowTile || xFormatOf(m.Type).pack == nil) {
		return fmt.Errorf("tensor: %v matrix %dx%d in an x layout it does not have", m.Type, m.Rows, m.Cols)
	}
	return nil
}

// CheckMatMul reports whether MatMul(p, ws, w, x, n, out) has consistent
// arguments. MatMul panics on the errors it returns: they are programming
// errors, which model code should rule out when it loads a model.
func CheckMatMul(w Matrix, x []float32, n int, out []float32) error {
	if err := w.Validate(); err != nil {
		return err
	}
	if n < 0 {
		return fmt.Errorf("tensor: matmul with n=%d positions", n)
	}
	if n > 0 && (w.Cols > math.MaxInt/n || w.Rows > math.MaxInt/n) {
		return fmt.Errorf("tensor: matmul with n=%d positions of a %dx%d matrix is too large", n, w.Rows, w.Cols)
	}
	if len(x) < n*w.Cols {
		return fmt.Errorf("tensor: matmul: x has %d elements, need %d positions x %d", len(x), n, w.Cols)
	}
	if len(out) < n*w.Rows {
		return fmt.Errorf("tensor: matmul: out has %d elements, need %d positions x %d", len(out), n, w.Rows)
	}
	return nil
}

// Workspace holds the quantized copy of the activations and the state of
// the current product between calls so that MatMul does not allocate once
// it has grown. One per goroutine that calls MatMul.
type Workspace struct {
	act acts
	mm  mmTask
	// MatMulMany's products, and the global index of each one's first
	// tile (len(parts)+1 entries).
	parts  []mmTask
	starts []int
	// Method values bound once: passing them to Pool.For costs nothing,
	// where a fresh closure per call would be a heap allocation.
	tilesFn, convFn, manyFn func(lo, hi int)
	// Result buffers of the tile kernels, maxTile floats per row tile: a
	// chunk of tiles [lo, hi) uses the one at lo, so concurrent chunks
	// never share one. They live here because a buffer declared in the
	// loop escapes through the kernel's func value and would be a heap
	// allocation per tile.
	scratch []float32
}

// NewWorkspace returns an empty workspace; it grows on demand.
func NewWorkspace() *Workspace { return &Workspace{} }

// bind creates the workspace's method values on first use (a zero
// Workspace is valid too).
func (ws *Workspace) bind() {
	if ws.tilesFn == nil {
		ws.tilesFn = ws.mm.tiles
		ws.convFn = ws.act.convRange
		ws.manyFn = ws.manyTiles
	}
}

// acts is the activation matrix converted to the weight type's vec_dot
// format: n rows of cols elements each.
type acts struct {
	t     Type // weight type the activations were prepared for
	cols  int
	nb    int // activation blocks per row
	ks    *kernelSet
	x     []float32
	qs    []int8
	d     []float32
	s     []float32
	bsums []int16
	h     []uint16
	// hf: for F16 on a set with kernelSet.f16f32, the values of h as
	// float32, so that kernels multiplying in float32 need not widen the
	// activations again for every row; for BF16 on a set with
	// kernelSet.bf16f32 (n > 1, cols a multiple of 32), the same in
	// splitBF16's order, and hx, each position's exponent range.
	hf []float32
	hx []uint32
	// xs: the x kernels' per-row activation terms (prepareX), xstride
	// of them per row.
	xs      []int32
	xstride int
	// d4: for Q8_0 on a set with kernelSet.q8d4, the scales d of each
	// whole group of four positions from n32 on (those before are in t16
	// and d8) four by four: block b of positions n32+4g..n32+4g+3 at
	// d4[4*(g*nb+b):][:4].
	d4 []float32
	// w16: with d4, the quants as int16, per block the 16 even elements
	// then the 16 odd ones (widenQ8), which the AVX2 Q8_0 batch kernel
	// multiplies with VPMADDWD alone; position n32+j at w16[j*cols:].
	w16 []int16
	// t16, d8: for Q8_0 on a set with kernelSet.q8d4 and n >= posTile,
	// positions [0, n32) (whole posTiles) transposed for
	// q80Batch2x32TAVX2: per group of eight positions, per lane l of the
	// canonical order and per block, for each position the int16 pair
	// (a[4l], a[4l+2]), then (a[4l+1], a[4l+3]) (transposeQ8T); d8 the
	// scales, per posTile, block and group of eight the eight positions'.
	// w16 and d4 then hold only the positions from n32 on.
	t16 []int16
	d8  []float32
	n32 int
	// u8: for Q6_K on a set with kernelSet.q6u8 and at least q6U8Min
	// positions, the quants qs offset to unsigned (the bits of qs+128, as
	// int8), which a kernel can multiply as VPMADDUBSW's unsigned operand.
	u8 []int8
}

// q6U8Min is the fewest positions for which prepare computes acts.u8 (the
// eight-position Q6_K kernel's).
const q6U8Min = 8

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// prepare converts x (n rows of cols) for weights of type t; convFn is
// a.convRange bound once by the caller's workspace.
func (a *acts) prepare(ks *kernelSet, p *Pool, t Type, x []float32, n, cols int, convFn func(lo, hi int)) {
	a.t, a.cols, a.ks = t, cols, ks
	a.x = x[:n*cols]
	switch t {
	case F32:
		return
	case F16:
		a.h = grow(a.h, n*cols)
		if ks.f16f32 {
			a.hf = grow(a.hf, n*cols)
		}
	case BF16:
		a.h = grow(a.h, n*cols)
		a.hf = a.hf[:0]
		if ks.bf16f32 && n > 1 && cols%32 == 0 {
			a.hf, a.hx = grow(a.hf, n*cols), grow(a.hx, n)
		}
	case Q4_0, Q5_0, Q8_0:
		a.nb = cols / 32
		a.qs, a.d = grow(a.qs, n*cols), grow(a.d, n*a.nb)
	case Q4_1, Q5_1:
		a.nb = cols / 32
		a.qs, a.d, a.s = grow(a.qs, n*cols), grow(a.d, n*a.nb), grow(a.s, n*a.nb)
	default: // k-quants
		a.nb = cols / qkK
		a.qs, a.d, a.bsums = grow(a.qs, n*cols), grow(a.d, n*a.nb), grow(a.bsums, n*a.nb*16)
	}
	a.w16, a.t16, a.n32 = a.w16[:0], a.t16[:0], 0
	a.u8 = a.u8[:0]
	if t == Q6_K && ks.q6u8 && n >= q6U8Min {
		a.u8 = grow(a.u8, n*cols)
	}
	if t == Q8_0 && ks.q8d4 {
		if cols%32 == 0 {
			a.n32 = n / posTile * posTile
			a.t16 = grow(a.t16, a.n32*cols)
		}
		a.w16 = grow(a.w16, (n/4*4-a.n32)*cols)
	}
	if n == 1 || n*cols < 1<<14 {
		a.convRange(0, n)
	} else {
		p.For(n, convFn)
	}
	if t == Q8_0 && ks.q8d4 {
		a.d4 = grow(a.d4, (n/4*4-a.n32)*a.nb)
		a.d8 = grow(a.d8, a.n32*a.nb)
		for i := range a.n32 {
			t, g, j := i/posTile, i%posTile/8, i%8
			for b, v := range a.d[i*a.nb : (i+1)*a.nb] {
				a.d8[8*(4*(t*a.nb+b)+g)+j] = v
			}
		}
		for g := 0; g < n/4-a.n32/4; g++ {
			for j := range 4 {
				for b, v := range a.d[(a.n32+4*g+j)*a.nb : (a.n32+4*g+j+1)*a.nb] {
					a.d4[4*(g*a.nb+b)+j] = v
				}
			}
		}
	}
}

// convRange converts activation rows [lo, hi) for the type set by prepare.
func (a *acts) convRange(lo, hi int) {
	ks, cols, nb := a.ks, a.cols, a.nb
	for i := lo; i < hi; i++ {
		x := a.x[i*cols : (i+1)*cols]
		switch a.t {
		case F16:
			h := a.h[i*cols : (i+1)*cols]
			ks.f16(x, h)
			if ks.f16f32 {
				hf := a.hf[i*cols : (i+1)*cols]
				for j, v := range h {
					hf[j] = f16Lookup[v]
				}
			}
		case BF16:
			ks.bf16(x, a.h[i*cols:(i+1)*cols])
			if len(a.hf) > 0 {
				a.hx[i] = splitBF16(a.h[i*cols:(i+1)*cols], a.hf[i*cols:(i+1)*cols])
			}
		case Q4_0, Q5_0, Q8_0:
			ks.q8_0(x, a.qs[i*cols:(i+1)*cols], a.d[i*nb:(i+1)*nb])
			if i < a.n32 {
				g := i / 8
				transposeQ8T(a.qs[i*cols:(i+1)*cols], a.t16[g*8*cols:(g+1)*8*cols], i%8)
			} else if j := i - a.n32; (j+1)*cols <= len(a.w16) {
				widenQ8(a.qs[i*cols:(i+1)*cols], a.w16[j*cols:(j+1)*cols])
			}
		case Q4_1, Q5_1:
			ks.q8_1(x, a.qs[i*cols:(i+1)*cols], a.d[i*nb:(i+1)*nb], a.s[i*nb:(i+1)*nb])
		default: // k-quants
			ks.q8_K(x, a.qs[i*cols:(i+1)*cols], a.d[i*nb:(i+1)*nb], a.bsums[i*nb*16:(i+1)*nb*16])
			if len(a.u8) > 0 {
				offsetU8(a.qs[i*cols:(i+1)*cols], a.u8[i*cols:(i+1)*cols])
			}
		}
	}
}

// offsetU8 sets u[j] to the bits of qs[j]+128 (acts.u8).
func offsetU8(qs, u []int8) {
	for j, q := range qs[:len(u)] {
		u[j] = q ^ -128
	}
}

const (
	// rowTile rows form one unit of work: the split among workers happens
	// on tile boundaries only. Tile kernels have at most this many rows.
	rowTile = 16
	// posTile positions are processed against a weight tile while it is in
	// cache, so a prompt batch reads each weight row from memory once.
	posTile = 32
	// serialBytes is the amount of weight traffic (bytes times positions)
	// below which MatMul stays on the calling goroutine.
	serialBytes = 64 << 10
)

// MatMul computes out[i*w.Rows+r] = dot(row r of w, x[i*w.Cols:(i+1)*w.Cols])
// for i in [0,n) and r in [0,w.Rows).
//
// Activations are first converted to the weight type's vec_dot format
// (Q8_0, Q8_1, Q8_K, f16, bf16 or kept f32), as ggml does. Every output
// element is computed by one goroutine with a summation order fixed by the
// weight type alone, so the result is bit-identical for any thread count,
// any split of the rows, and — except where llama.cpp's own order depends
// on it (BF16, see BatchInvariant) — any batch size n.
//
// p may be nil (everything then runs on the caller); ws must not be shared
// with a concurrent MatMul; out must not overlap x. Products too small to
// be worth splitting run on the calling goroutine. MatMul panics if the
// arguments are inconsistent (see CheckMatMul).
func MatMul(p *Pool, ws *Workspace, w Matrix, x []float32, n int, out []float32) {
	matMul(bestKernels, p, ws, w, x, n, out)
}

func matMul(ks *kernelSet, p *Pool, ws *Workspace, w Matrix, x []float32, n int, out []float32) {
	if err := CheckMatMul(w, x, n, out); err != nil {
		panic(err)
	}
	if n == 0 || w.Rows == 0 {
		return
	}
	if w.Cols == 0 {
		clear(out[:n*w.Rows])
		return
	}
	ks = ks.bf16Kernels(x[:n*w.Cols], w)
	ws.bind()
	a := &ws.act
	a.prepare(ks, p, w.Type, x, n, w.Cols, ws.convFn)
	if w.x && ks.x[w.Type].fn != nil {
		a.prepareX(n)
	}
	tiles := (w.Rows + rowTile - 1) / rowTile
	ws.scratch = grow(ws.scratch, tiles*maxTile)
	t := &ws.mm
	*t = newTask(ks, a, w, n, out, ws.scratch)
	if t.rb*w.Rows*n < serialBytes {
		// Too little work to be worth waking other workers.
		t.tiles(0, tiles)
	} else {
		p.For(tiles, ws.tilesFn)
	}
	// Drop the references to the caller's slices until the next call.
	*t = mmTask{}
	a.x = nil
}

// newTask sets up the product of w with the activations a (n positions)
// into out; scratch has room for the tile kernels' results of all of w's
// row tiles.
func newTask(ks *kernelSet, a *acts, w Matrix, n int, out, scratch []float32) mmTask {
	rb, _ := RowBytes(w.Type, w.Cols)
	t := mmTask{w: w, a: a, out: out, n: n, rb: rb, bb: w.Type.BlockBytes(), dot: ks.dot[w.Type], vec: ks.vec[w.Type], batch: ks.batch[w.Type]}
	if many := ks.many[w.Type]; many != nil && n > 1 {
		// This type's order depends on n, as in llama.cpp (bf16order.go).
		t.dot, t.vec, t.batch = many, tileSpec{}, ks.manyBatch[w.Type]
	}
	if w.x {
		// Only x kernels read the x layout; a set without them
		// falls back to gathered rows.
		t.x, t.vec, t.batch = ks.x[w.Type], tileSpec{}, tileSpec{}
	} else if g := w.group; g > 0 {
		// Tile kernels that address rows by a row length alone, or whose
		// tiles would straddle the packed groups, cannot read the matrix:
		// such a set falls back to gathered rows.
		if !t.vec.strided || g%t.vec.rows != 0 {
			t.vec = tileSpec{}
		}
		if !t.batch.strided || g%t.batch.rows != 0 {
			t.batch = tileSpec{}
		}
	}
	if t.vec.fn != nil || t.batch.fn != nil || t.x.fn != nil {
		t.scratch = scratch
	}
	return t
}

// MatMulMany computes MatMul(p, ws, w[k], x, n, out[k]) for every k. When
// the matrices share their type and column count (q, k and v of a block;
// gate and up), they share one activation conversion and one Pool.For
// whose row tiles run across all of them: a decode step then pays one
// synchronisation of the workers instead of one per matrix, and each
// worker streams longer runs of weights. Results are bit-identical to
// separate MatMul calls. It panics on inconsistent arguments, as MatMul.
func MatMulMany(p *Pool, ws *Workspace, w []Matrix, x []float32, n int, out [][]float32) {
	matMulMany(bestKernels, p, ws, w, x, n, out)
}

func matMulMany(ks *kernelSet, p *Pool, ws *Workspace, w []Matrix, x []float32, n int, out [][]float32) {
	if len(w) != len(out) {
		panic(fmt.Errorf("tensor: matmul of %d matrices into %d outputs", len(w), len(out)))
	}
	shared := true
	for k := range w {
		if err := CheckMatMul(w[k], x, n, out[k]); err != nil {
			panic(err)
		}
		shared = shared && w[k].Type == w[0].Type && w[k].Cols == w[0].Cols && w[k].Cols > 0
	}
	if !shared || n == 0 || len(w) < 2 {
		for k := range w {
			matMul(ks, p, ws, w[k], x, n, out[k])
		}
		return
	}
	ks = ks.bf16Kernels(x[:n*w[0].Cols], w...)
	ws.bind()
	a := &ws.act
	a.prepare(ks, p, w[0].Type, x, n, w[0].Cols, ws.convFn)
	for k := range w {
		if w[k].x && ks.x[w[k].Type].fn != nil {
			a.prepareX(n)
			break
		}
	}
	ws.starts = append(ws.starts[:0], 0)
	for k := range w {
		ws.starts = append(ws.starts, ws.starts[k]+(w[k].Rows+rowTile-1)/rowTile)
	}
	tiles := ws.starts[len(w)]
	ws.scratch = grow(ws.scratch, tiles*maxTile)
	ws.parts = ws.parts[:0]
	bytes := 0
	for k := range w {
		ws.parts = append(ws.parts, newTask(ks, a, w[k], n, out[k], ws.scratch[ws.starts[k]*maxTile:]))
		bytes += ws.parts[k].rb * w[k].Rows * n
	}
	if bytes < serialBytes {
		ws.manyTiles(0, tiles)
	} else {
		p.For(tiles, ws.manyFn)
	}
	clear(ws.parts)
	a.x = nil
}

// manyTiles computes the global row tiles [lo, hi) of MatMulMany's
// products: the parts of the range that fall in each matrix.
func (ws *Workspace) manyTiles(lo, hi int) {
	for k := range ws.parts {
		s0, s1 := ws.starts[k], ws.starts[k+1]
		if a, b := max(lo, s0), min(hi, s1); a < b {
			ws.parts[k].tiles(a-s0, b-s0)
		}
	}
}

// mmTask is one MatMul in progress: tiles computes row tiles [lo, hi).
type mmTask struct {
	w          Matrix
	a          *acts
	out        []float32
	n, rb, bb  int // positions, row and block bytes
	dot        rowKernel
	vec, batch tileSpec
	x          xTile     // set for an x-packed matrix whose kernels the set has
	scratch    []float32 // Workspace.scratch, when a tile kernel is set
}

func (t *mmTask) tiles(lo, hi int) {
	r0, r1 := lo*rowTile, min(hi*rowTile, t.w.Rows)
	var buf []float32
	if t.scratch != nil {
		buf = t.scratch[lo*maxTile : (lo+1)*maxTile]
	}
	if x := t.x; x.fn != nil {
		tb := rowTile * t.rb
		if x.run != nil && t.n == 1 {
			// Rows%rowTile == 0 in an x layout: whole tiles only.
			x.run(t.w.Data[lo*tb:hi*tb], t.a, 0, t.out[r0:r1])
			return
		}
		// Every position against one tile before the next tile: the
		// first call streams it from memory, the others find it in cache.
		for tile := lo; tile < hi; tile++ {
			for i := 0; i < t.n; i += x.pos {
				p := min(x.pos, t.n-i)
				x.fn(t.w.Data[tile*tb:(tile+1)*tb], t.a, i, p, buf)
				t.scatter(buf, tile*rowTile, rowTile, i, p)
			}
		}
		return
	}
	for i0 := 0; i0 < t.n; i0 += posTile {
		i1 := min(i0+posTile, t.n)
		r := r0
		b := t.batch
		least := b.pos
		if b.minPos > 0 {
			least = b.minPos
		}
		if b.fn != nil && i1-i0 >= least {
			for ; r+b.rows <= r1; r += b.rows {
				i := i0
				off, l := t.layout(r, b.rows)
				for i1-i >= least {
					k := min(b.pos, i1-i)
					// The first pass over these rows also fetches the
					// next ones (the rest re-read them from cache).
					lp := l
					if i != i0 {
						lp.next = 0
					}
					if b.direct {
						lp.os = t.w.Rows
						o := i*t.w.Rows + r
						b.fn(t.w.Data[off:], lp, t.a, i, t.out[o:o+(k-1)*t.w.Rows+b.rows])
					} else {
						b.fn(t.w.Data[off:], lp, t.a, i, buf[:b.rows*k])
						t.scatter(buf, r, b.rows, i, k)
					}
					i += k
				}
				t.single(r, r+b.rows, i, i1, buf)
			}
		}
		t.single(r, r1, i0, i1, buf)
	}
}

// single computes rows [r0, r1) for positions [i0, i1) one position at a
// time: the vec tile kernel where whole tiles fit, the row kernel elsewhere.
func (t *mmTask) single(r0, r1, i0, i1 int, buf []float32) {
	if i0 >= i1 {
		return
	}
	w, a, out, rb := t.w, t.a, t.out, t.rb
	r := r0
	if v := t.vec; v.fn != nil {
		for ; r+v.rows <= r1; r += v.rows {
			off, l := t.layout(r, v.rows)
			for i := i0; i < i1; i++ {
				v.fn(w.Data[off:], l, a, i, buf)
				copy(out[i*w.Rows+r:i*w.Rows+r+v.rows], buf[:v.rows])
			}
		}
	}
	var gathered []byte
	for ; r < r1; r++ {
		var row []byte
		if w.group > 0 {
			// Only a kernel set that cannot read the packed layout gets
			// here (Pack packs for the sets that can): a slow path.
			if gathered == nil {
				gathered = make([]byte, rb)
			}
			row = w.gatherRow(r, gathered)
		} else {
			row = w.Data[r*rb : (r+1)*rb]
		}
		for i := i0; i < i1; i++ {
			out[i*w.Rows+r] = t.dot(row, a, i)
		}
	}
}

// layout returns where the tile of rows [r, r+rows) starts in the task's
// matrix and how its kernel steps through it; in a packed matrix the tile
// lies within one group. For a row-major matrix, next asks the kernel to
// prefetch the rows that follow, as the hardware prefetchers follow many
// interleaved row streams badly; a packed group is one sequential stream,
// which they follow well (software prefetching measured slower).
func (t *mmTask) layout(r, rows int) (int, tileLayout) {
	g := t.w.group
	if g == 0 {
		return r * t.rb, tileLayout{rs: t.rb, bs: t.bb, next: rows * t.rb}
	}
	return r/g*g*t.rb + r%g*t.bb, tileLayout{rs: t.bb, bs: g * t.bb}
}

// scatter writes a rows × pos tile (position-major in buf) to out.
func (t *mmTask) scatter(buf []float32, r, rows, i, pos int) {
	for p := 0; p < pos; p++ {
		o := (i+p)*t.w.Rows + r
		copy(t.out[o:o+rows], buf[p*rows:(p+1)*rows])
	}
}

// BatchInvariant reports whether MatMul's result for one position is the
// same whatever other positions share the call. It is false for the types
// whose llama.cpp order depends on the batch size (BF16): positions of
// different sessions may then be computed together only if each session
// alone would have been a batch of more than one position.
func BatchInvariant(t Type) bool { return bestKernels.many[t] == nil }
