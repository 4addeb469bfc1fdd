package tensor

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"testing"
)

// A deliberately minimal GGUF reader for the tests (the real one lives in
// shards/gguf): just enough to find tensors and their bytes.

type testTensor struct {
	name string
	dims []uint64
	typ  Type
	data []byte
}

type ggufReader struct {
	b   []byte
	off int
	err error
}

func (r *ggufReader) need(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || r.off+n > len(r.b) {
		r.err = io.ErrUnexpectedEOF
		return nil
	}
	s := r.b[r.off : r.off+n]
	r.off += n
	return s
}

func (r *ggufReader) u32() uint32 {
	if s := r.need(4); s != nil {
		return binary.LittleEndian.Uint32(s)
	}
	return 0
}

func (r *ggufReader) u64() uint64 {
	if s := r.need(8); s != nil {
		return binary.LittleEndian.Uint64(s)
	}
	return 0
}

func (r *ggufReader) str() string { return string(r.need(int(r.u64()))) }

// value skips (or returns, for integers) a metadata value of type vt.
func (r *ggufReader) value(vt uint32) uint64 {
	switch vt {
	case 0, 1, 7:
		if s := r.need(1); s != nil {
			return uint64(s[0])
		}
	case 2, 3:
		if s := r.need(2); s != nil {
			return uint64(binary.LittleEndian.Uint16(s))
		}
	case 4, 5, 6:
		return uint64(r.u32())
	case 8:
		r.str()
	case 9:
		et := r.u32()
		n := r.u64()
		for i := uint64(0); i < n && r.err == nil; i++ {
			r.value(et)
		}
	case 10, 11, 12:
		return r.u64()
	default:
		r.err = fmt.Errorf("bad metadata value type %d", vt)
	}
	return 0
}

func readTestGGUF(t testing.TB, path string) map[string]testTensor {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	r := &ggufReader{b: b}
	if string(r.need(4)) != "GGUF" {
		t.Fatalf("%s: not a GGUF file", path)
	}
	r.u32() // version
	nt, nkv := r.u64(), r.u64()
	align := uint64(32)
	for i := uint64(0); i < nkv && r.err == nil; i++ {
		key := r.str()
		v := r.value(r.u32())
		if key == "general.alignment" {
			align = v
		}
	}
	type info struct {
		testTensor
		off uint64
	}
	infos := make([]info, 0, nt)
	for i := uint64(0); i < nt && r.err == nil; i++ {
		var in info
		in.name = r.str()
		nd := r.u32()
		for d := uint32(0); d < nd; d++ {
			in.dims = append(in.dims, r.u64())
		}
		in.typ = Type(r.u32())
		in.off = r.u64()
		infos = append(infos, in)
	}
	if r.err != nil {
		t.Fatalf("%s: %v", path, r.err)
	}
	base := (uint64(r.off) + align - 1) / align * align
	out := make(map[string]testTensor, len(infos))
	for _, in := range infos {
		n := uint64(1)
		for _, d := range in.dims {
			n *= d
		}
		rb, err := RowBytes(in.typ, int(in.dims[0]))
		if err != nil {
			t.Fatalf("%s: tensor %s: %v", path, in.name, err)
		}
		size := uint64(rb) * (n / in.dims[0])
		start := base + in.off
		if start+size > uint64(len(b)) {
			t.Fatalf("%s: tensor %s runs past the end of the file", path, in.name)
		}
		in.data = b[start : start+size]
		out[in.name] = in.testTensor
	}
	return out
}
