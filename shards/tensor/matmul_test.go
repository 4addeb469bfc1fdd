package tensor

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// actValues returns the activation values MatMul actually multiplies with
// (after conversion to the weight type's vec_dot format), and for Q4_1/Q5_1
// the per-block sums s that ggml uses for the offset term.
func actValues(t Type, x []float32) (xq []float64, s []float64) {
	xq = make([]float64, len(x))
	switch t {
	case F32:
		for i, v := range x {
			xq[i] = float64(v)
		}
	case F16:
		for i, v := range x {
			xq[i] = float64(FP16ToFP32(FP32ToFP16(v)))
		}
	case BF16:
		for i, v := range x {
			xq[i] = float64(BF16ToFP32(FP32ToBF16(v)))
		}
	case Q8_0, Q4_0, Q5_0, Q4_1, Q5_1:
		nb := len(x) / 32
		qs, d, ss := make([]int8, len(x)), make([]float32, nb), make([]float32, nb)
		quantQ8_1(x, qs, d, ss)
		for i := range x {
			xq[i] = float64(qs[i]) * float64(d[i/32])
		}
		for _, v := range ss {
			s = append(s, float64(v))
		}
	default:
		nb := len(x) / qkK
		qs, d, bs := make([]int8, len(x)), make([]float32, nb), make([]int16, 16*nb)
		quantQ8_K(x, qs, d, bs)
		for i := range x {
			xq[i] = float64(qs[i]) * float64(d[i/qkK])
		}
	}
	return xq, s
}

// checkAgainstReference compares out (n positions) with float64 references:
// exactly-quantized activations with a tight tolerance, and the original
// activations with a tolerance derived from the activation quantization step.
func checkAgainstReference(t *testing.T, w Matrix, x []float32, n int, out []float32) {
	t.Helper()
	row := make([]float32, w.Cols)
	for r := 0; r < w.Rows; r++ {
		if err := Row(w, r, row); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			xi := x[i*w.Cols : (i+1)*w.Cols]
			xq, s := actValues(w.Type, xi)
			var exact, quant, mag, bound float64
			bs := w.Type.BlockSize()
			if bs == 1 {
				bs = 32
			}
			for b := 0; b*bs < w.Cols; b++ {
				var amax float64
				for j := b * bs; j < (b+1)*bs && j < w.Cols; j++ {
					amax = math.Max(amax, math.Abs(float64(xi[j])))
				}
				for j := b * bs; j < (b+1)*bs && j < w.Cols; j++ {
					wj := float64(row[j])
					exact += wj * float64(xi[j])
					quant += wj * xq[j]
					mag += math.Abs(wj * xq[j])
					switch w.Type {
					case F32:
					case F16:
						bound += math.Abs(wj) * math.Abs(float64(xi[j])) * 0x1p-11
					case BF16:
						bound += math.Abs(wj) * math.Abs(float64(xi[j])) * 0x1p-8
					default:
						bound += math.Abs(wj) * amax * (0.5/127 + 0x1p-10)
					}
				}
			}
			tight := 2e-5*mag + 1e-6
			if s != nil {
				// The offset term uses m*s with s rounded to f16, and the
				// weight minima m are folded into the dequantized row.
				blockBytes := w.Type.BlockBytes()
				rb, _ := RowBytes(w.Type, w.Cols)
				for b := range s {
					m := float64(f16at(w.Data[r*rb+b*blockBytes+2:]))
					tight += math.Abs(m) * math.Abs(s[b]) * 0x1p-10
					var sum float64
					for j := 32 * b; j < 32*b+32; j++ {
						sum += xq[j]
					}
					tight += math.Abs(m) * math.Abs(sum) * 0x1p-10
				}
			}
			got := float64(out[i*w.Rows+r])
			if math.Abs(got-quant) > tight {
				t.Fatalf("%v %dx%d row %d pos %d: got %.7g, quantized-activation reference %.7g (tolerance %.3g)", w.Type, w.Rows, w.Cols, r, i, got, quant, tight)
			}
			if math.Abs(got-exact) > bound+tight {
				t.Fatalf("%v row %d pos %d: got %.7g, float64 reference %.7g (tolerance %.3g)", w.Type, r, i, got, exact, bound+tight)
			}
		}
	}
}

func TestMatMulAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	p := NewPool(2)
	defer p.Close()
	ws := NewWorkspace()
	for _, typ := range allTypes {
		t.Run(typ.String(), func(t *testing.T) {
			rows, cols, n := 13, colsFor(typ), 3
			w := randomMatrix(r, typ, rows, cols)
			x := randomVec(r, n*cols)
			out := make([]float32, n*rows)
			MatMul(p, ws, w, x, n, out)
			checkAgainstReference(t, w, x, n, out)
		})
	}
}

// TestMatMulModelTensors multiplies real tensors of every type from the model
// files, so that the dot products are checked on the layouts llama.cpp wrote.
func TestMatMulModelTensors(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	p := NewPool(2)
	defer p.Close()
	ws := NewWorkspace()
	files := []string{"mini-llama-f32", "mini-llama-f16", "mini-llama-bf16", "mini-llama-q8_0", "mini-llama-q4_0", "mini-llama-q4_1",
		"mini-llama-q5_0", "mini-llama-q5_1", "mini-llama-q2_k", "mini-llama-q3_k_m", "mini-llama-q4_k_m", "mini-llama-q5_k_m", "mini-llama-q6_k"}
	seen := map[Type]bool{}
	for _, f := range files {
		ts := readTestGGUF(t, testPath(t, f+".gguf"))
		for _, name := range []string{"blk.0.attn_q.weight", "blk.1.ffn_down.weight", "blk.0.attn_v.weight", "output.weight"} {
			tt, ok := ts[name]
			if !ok || len(tt.dims) != 2 {
				t.Fatalf("%s: no 2-D tensor %s", f, name)
			}
			w := Matrix{Type: tt.typ, Rows: int(tt.dims[1]), Cols: int(tt.dims[0]), Data: tt.data}
			if seen[w.Type] && name != "blk.0.attn_q.weight" {
				continue
			}
			seen[w.Type] = true
			w.Rows = min(w.Rows, 40)
			w.Data = w.Data[:w.Rows*mustRowBytes(w.Type, w.Cols)]
			x := randomVec(r, 5*w.Cols) // five positions: the four-position kernels and one more
			out := make([]float32, 5*w.Rows)
			MatMul(p, ws, w, x, 5, out)
			checkAgainstReference(t, w, x, 5, out)
		}
	}
	for _, typ := range allTypes {
		if !seen[typ] {
			t.Errorf("type %v not exercised", typ)
		}
	}
}

func mustRowBytes(t Type, n int) int {
	rb, err := RowBytes(t, n)
	if err != nil {
		panic(err)
	}
	return rb
}

// TestMatMulDeterminism checks the bit-for-bit contract: an output element
// does not depend on the thread count, the batch size or its position in
// the batch.
func TestMatMulDeterminism(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	pools := []*Pool{NewPool(1), NewPool(2), NewPool(3)}
	defer func() {
		for _, p := range pools {
			p.Close()
		}
	}()
	for _, typ := range allTypes {
		t.Run(typ.String(), func(t *testing.T) {
			// Large enough that n=7 runs on several workers (see serialBytes).
			rows, cols := 300, colsFor(typ)
			w := randomMatrix(r, typ, rows, cols)
			const n = 7
			x := randomVec(r, n*cols)
			ref := make([]float32, n*rows)
			MatMul(pools[0], NewWorkspace(), w, x, n, ref)
			for pi, p := range pools {
				ws := NewWorkspace()
				out := make([]float32, n*rows)
				MatMul(p, ws, w, x, n, out)
				if d := firstDiff(ref, out); d >= 0 {
					t.Fatalf("threads=%d n=%d differs at %d: %x vs %x", pi+1, n, d, math.Float32bits(ref[d]), math.Float32bits(out[d]))
				}
				if typ == BF16 {
					// BF16's order depends on n by design (bf16order.go):
					// TestBF16OrderByBatch covers it.
					continue
				}
				// Each position alone.
				one := make([]float32, rows)
				for i := 0; i < n; i++ {
					MatMul(p, ws, w, x[i*cols:(i+1)*cols], 1, one)
					if d := firstDiff(ref[i*rows:(i+1)*rows], one); d >= 0 {
						t.Fatalf("threads=%d position %d alone differs at row %d", pi+1, i, d)
					}
				}
				// Inside a larger batch (past one position tile), at another index.
				const big = 45
				xb := randomVec(r, big*cols)
				copy(xb[40*cols:], x[3*cols:4*cols])
				outb := make([]float32, big*rows)
				MatMul(p, ws, w, xb, big, outb)
				if d := firstDiff(ref[3*rows:4*rows], outb[40*rows:41*rows]); d >= 0 {
					t.Fatalf("threads=%d: position 3 as position 40 of %d differs at row %d", pi+1, big, d)
				}
			}
		})
	}
}

func firstDiff(a, b []float32) int {
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return i
		}
	}
	return -1
}

func TestMatMulConcurrentCallers(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	p := NewPool(2)
	defer p.Close()
	w := randomMatrix(r, Q4_K, 64, 512)
	x := randomVec(r, 4*512)
	ref := make([]float32, 4*64)
	MatMul(p, NewWorkspace(), w, x, 4, ref)
	errs := make(chan error, 4)
	for g := 0; g < 4; g++ {
		go func() {
			ws := NewWorkspace()
			out := make([]float32, 4*64)
			for k := 0; k < 20; k++ {
				MatMul(p, ws, w, x, 4, out)
				if d := firstDiff(ref, out); d >= 0 {
					errs <- fmt.Errorf("concurrent result differs at %d", d)
					return
				}
			}
			errs <- nil
		}()
	}
	for g := 0; g < 4; g++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

func TestCheckMatMul(t *testing.T) {
	w := Matrix{Type: Q8_0, Rows: 2, Cols: 64, Data: make([]byte, 2*68)}
	if err := CheckMatMul(w, make([]float32, 64), 1, make([]float32, 2)); err != nil {
		t.Fatal(err)
	}
	bad := []struct {
		name string
		w    Matrix
		x    []float32
		n    int
		out  []float32
	}{
		{"short x", w, make([]float32, 63), 1, make([]float32, 2)},
		{"short out", w, make([]float32, 64), 1, make([]float32, 1)},
		{"negative n", w, nil, -1, nil},
		{"bad cols", Matrix{Type: Q8_0, Rows: 2, Cols: 40, Data: make([]byte, 200)}, make([]float32, 40), 1, make([]float32, 2)},
		{"short data", Matrix{Type: Q8_0, Rows: 2, Cols: 64, Data: make([]byte, 100)}, make([]float32, 64), 1, make([]float32, 2)},
		{"bad type", Matrix{Type: Q8_K, Rows: 1, Cols: 256, Data: make([]byte, 292)}, make([]float32, 256), 1, make([]float32, 1)},
	}
	for _, b := range bad {
		if err := CheckMatMul(b.w, b.x, b.n, b.out); err == nil {
			t.Errorf("%s: accepted", b.name)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("MatMul did not panic on a short output")
		}
	}()
	MatMul(NewPool(1), NewWorkspace(), w, make([]float32, 64), 1, make([]float32, 1))
}

func TestValidateOverflow(t *testing.T) {
	w := Matrix{Type: F32, Rows: math.MaxInt / 2, Cols: 64}
	if err := w.Validate(); err == nil {
		t.Error("absurd matrix accepted")
	}
	w = Matrix{Type: F32, Rows: 1, Cols: 1, Data: make([]byte, 4)}
	if err := CheckMatMul(w, nil, math.MaxInt/2+1, nil); err == nil {
		t.Error("absurd n accepted")
	}
}

// TestBF16OrderByBatch checks that BF16 products use llama.cpp's order for
// one position (ggml_vec_dot_bf16) and for several (tinyBLAS), whatever the
// thread count or the position's index in the batch.
func TestBF16OrderByBatch(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	p := NewPool(2)
	defer p.Close()
	for _, cols := range []int{64, 96, 256, 40} {
		rows := 37
		w := randomMatrix(r, BF16, rows, cols)
		rb, _ := RowBytes(BF16, cols)
		const n = 6
		x := randomVec(r, n*cols)
		xb := make([]uint16, n*cols)
		for i, v := range x {
			xb[i] = FP32ToBF16(v)
		}
		batch := make([]float32, n*rows)
		MatMul(p, NewWorkspace(), w, x, n, batch)
		one := make([]float32, rows)
		for i := 0; i < n; i++ {
			MatMul(p, NewWorkspace(), w, x[i*cols:(i+1)*cols], 1, one)
			for row := 0; row < rows; row++ {
				wr := w.Data[row*rb : (row+1)*rb]
				xr := xb[i*cols : (i+1)*cols]
				if got, want := batch[i*rows+row], dotBF16Batch(wr, xr); math.Float32bits(got) != math.Float32bits(want) {
					t.Fatalf("cols %d: batch position %d row %d: %v, want tinyBLAS order %v", cols, i, row, got, want)
				}
				if got, want := one[row], dotBF16Step(wr, xr); math.Float32bits(got) != math.Float32bits(want) {
					t.Fatalf("cols %d: single position %d row %d: %v, want vec_dot order %v", cols, i, row, got, want)
				}
			}
		}
	}
}

// TestMatMulMany checks that fused products give the bits of separate
// MatMul calls, for every type, single positions and batches, row counts
// that are not whole tiles, and mixed types (which fall back to separate
// calls).
func TestMatMulMany(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	p := NewPool(2)
	defer p.Close()
	for _, typ := range allTypes {
		cols := colsFor(typ) * 4
		rows := []int{200, 40, 37}
		ms := make([]Matrix, len(rows))
		for k, n := range rows {
			ms[k] = randomMatrix(r, typ, n, cols)
		}
		if typ == Q8_0 {
			ms[2] = randomMatrix(r, Q4_0, rows[2], cols)
		}
		for _, n := range []int{1, 3, 40} {
			x := randomVec(r, n*cols)
			ws, wsMany := NewWorkspace(), NewWorkspace()
			outs := make([][]float32, len(ms))
			for k := range outs {
				outs[k] = make([]float32, n*rows[k])
			}
			MatMulMany(p, wsMany, ms, x, n, outs)
			for k, m := range ms {
				want := make([]float32, n*rows[k])
				MatMul(p, ws, m, x, n, want)
				for i := range want {
					if math.Float32bits(want[i]) != math.Float32bits(outs[k][i]) {
						t.Fatalf("%v n=%d matrix %d: out[%d] = %v, separate MatMul gives %v", typ, n, k, i, outs[k][i], want[i])
					}
				}
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("MatMulMany with more matrices than outputs did not panic")
		}
	}()
	MatMulMany(p, NewWorkspace(), []Matrix{{Type: F32}}, nil, 1, nil)
}
