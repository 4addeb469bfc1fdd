package modeltools

import (
	"context"
	"fmt"
	"io"
	"sync"

	"svc/shards/tensor"
)

// rowSource fills dst (one row of cols elements) with row r's values. It is
// called concurrently for different rows.
type rowSource func(r int, dst []float32) error

// batchBytes bounds the memory one batch of rows takes (float32 input plus
// encoded output), so large tensors stream through a fixed buffer.
const batchBytes = 8 << 20

// rowWriter converts float32 rows into a tensor type on a worker pool and
// writes them in order.
type rowWriter struct {
	ctx      context.Context
	pool     *tensor.Pool
	progress func(n int64) // bytes just written; may be nil
	out      []byte        // reused batch buffer
}

// write encodes rows×cols values from src as type t and writes them to w.
func (rw *rowWriter) write(w io.Writer, t tensor.Type, rows, cols int, src rowSource) error {
	rb, err := rowBytes(t, cols)
	if err != nil {
		return err
	}
	per := max(1, batchBytes/max(rb, cols*4))
	for lo := 0; lo < rows; lo += per {
		if err := rw.ctx.Err(); err != nil {
			return err
		}
		hi := min(rows, lo+per)
		n := (hi - lo) * rb
		if cap(rw.out) < n {
			rw.out = make([]byte, n)
		}
		buf := rw.out[:n]
		var mu sync.Mutex
		var firstErr error
		rw.pool.For(hi-lo, func(a, b int) {
			row := make([]float32, cols)
			for i := a; i < b; i++ {
				err := src(lo+i, row)
				if err == nil {
					err = encodeRow(t, row, buf[i*rb:(i+1)*rb])
				}
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = fmt.Errorf("row %d: %w", lo+i, err)
					}
					mu.Unlock()
					return
				}
			}
		})
		if firstErr != nil {
			return firstErr
		}
		if _, err := w.Write(buf); err != nil {
			return err
		}
		if rw.progress != nil {
			rw.progress(int64(n))
		}
	}
	return nil
}

// copyRaw writes already-encoded data in batches (for progress reports).
func (rw *rowWriter) copyRaw(w io.Writer, data []byte) error {
	for len(data) > 0 {
		if err := rw.ctx.Err(); err != nil {
			return err
		}
		n := min(len(data), batchBytes)
		if _, err := w.Write(data[:n]); err != nil {
			return err
		}
		if rw.progress != nil {
			rw.progress(int64(n))
		}
		data = data[n:]
	}
	return nil
}

func rowBytes(t tensor.Type, cols int) (int, error) {
	rb, err := tensor.RowBytes(t, cols)
	if err != nil {
		return 0, fmt.Errorf("modeltools: %w", err)
	}
	return rb, nil
}

// encodeRow stores one row of float32 values as type t in dst, with
// ggml's reference rounding.
func encodeRow(t tensor.Type, src []float32, dst []byte) error {
	if err := tensor.Quantize(t, src, dst); err != nil {
		return fmt.Errorf("convert to %v: %w", t, err)
	}
	return nil
}
