package gguf

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"os"
	"sort"

	"golang.org/x/sys/unix"
)

// Magic is the first four bytes of every GGUF file.
const Magic = "GGUF"

// DefaultAlignment is used when general.alignment is absent.
const DefaultAlignment = 32

// maxDims is GGML's limit on tensor dimensions.
const maxDims = 4

// ValueType is the type tag of a metadata value.
type ValueType uint32

// Metadata value types.
const (
	ValUint8   ValueType = 0
	ValInt8    ValueType = 1
	ValUint16  ValueType = 2
	ValInt16   ValueType = 3
	ValUint32  ValueType = 4
	ValInt32   ValueType = 5
	ValFloat32 ValueType = 6
	ValBool    ValueType = 7
	ValString  ValueType = 8
	ValArray   ValueType = 9
	ValUint64  ValueType = 10
	ValInt64   ValueType = 11
	ValFloat64 ValueType = 12
)

var valueTypeNames = [...]string{"uint8", "int8", "uint16", "int16", "uint32", "int32", "float32", "bool", "string", "array", "uint64", "int64", "float64"}

func (v ValueType) String() string {
	if int(v) < len(valueTypeNames) {
		return valueTypeNames[v]
	}
	return fmt.Sprintf("valuetype(%d)", uint32(v))
}

// KV is one metadata entry. Value holds a Go value of the matching kind:
// uint8, int8, uint16, int16, uint32, int32, float32, bool, string, uint64,
// int64, float64, or for arrays a typed slice ([]string, []float32, []int32,
// []uint32, []uint8, ... ; []any for arrays of arrays).
type KV struct {
	Key   string
	Type  ValueType
	Value any
}

// TensorInfo describes one tensor of the file.
type TensorInfo struct {
	Name string
	// Dims are GGML's ne: Dims[0] is the innermost (contiguous) dimension.
	Dims   []uint64
	Type   TensorType
	Offset uint64 // relative to the start of the data section
	Size   uint64 // bytes
}

// Elements is the number of elements in the tensor.
func (t *TensorInfo) Elements() uint64 {
	n := uint64(1)
	for _, d := range t.Dims {
		n *= d
	}
	return n
}

// File is a parsed GGUF file. Tensor data slices point into the mapping and
// stay valid until Close.
type File struct {
	Path      string
	Version   uint32
	Alignment uint64
	KVs       []KV
	Tensors   []TensorInfo

	kv        map[string]int
	tensors   map[string]int
	data      []byte // the data section
	mapping   []byte // the whole mapping (nil when parsed from a caller's slice)
	dataBase  uint64 // file offset of the data section
	headerLen uint64 // bytes of header (magic through tensor table)
	header    bool   // parsed with ParseHeader: no tensor data
	raw       []byte // the bytes parsed
}

// Open memory-maps path and parses it.
func Open(path string) (*File, error) {
	fd, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("gguf: %w", err)
	}
	defer fd.Close()
	st, err := fd.Stat()
	if err != nil {
		return nil, fmt.Errorf("gguf: %s: %w", path, err)
	}
	if st.Size() < 24 {
		return nil, fmt.Errorf("gguf: %s: file too short (%d bytes) to be GGUF", path, st.Size())
	}
	if st.Size() > math.MaxInt {
		return nil, fmt.Errorf("gguf: %s: file too large", path)
	}
	m, err := unix.Mmap(int(fd.Fd()), 0, int(st.Size()), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return nil, fmt.Errorf("gguf: %s: mmap: %w", path, err)
	}
	f, err := Parse(m)
	if err != nil {
		_ = unix.Munmap(m)
		return nil, fmt.Errorf("%w (file %s)", err, path)
	}
	f.Path = path
	f.mapping = m
	return f, nil
}

// Close releases the mapping. Tensor data slices must not be used afterwards.
func (f *File) Close() error {
	if f.mapping == nil {
		return nil
	}
	m := f.mapping
	f.mapping, f.data = nil, nil
	if err := unix.Munmap(m); err != nil {
		return fmt.Errorf("gguf: munmap %s: %w", f.Path, err)
	}
	return nil
}

// Advise tells the kernel how a byte range of tensor data will be used
// (unix.MADV_WILLNEED to prefetch, MADV_DONTNEED to drop); a no-op for
// files not opened from disk.
func (f *File) Advise(ti *TensorInfo, advice int) error {
	if f.mapping == nil {
		return nil
	}
	start := f.dataBase + ti.Offset
	page := uint64(os.Getpagesize())
	lo := start &^ (page - 1)
	hi := start + ti.Size
	if err := unix.Madvise(f.mapping[lo:hi], advice); err != nil {
		return fmt.Errorf("gguf: madvise %s: %w", ti.Name, err)
	}
	return nil
}

// ErrFormat is wrapped by every error about the file's content.
var ErrFormat = errors.New("malformed GGUF")

type reader struct {
	b   []byte
	off uint64
}

func (r *reader) fail(format string, args ...any) error {
	return fmt.Errorf("gguf: %w: %s (at byte %d)", ErrFormat, fmt.Sprintf(format, args...), r.off)
}

func (r *reader) need(n uint64, what string) error {
	if n > uint64(len(r.b))-r.off {
		return r.fail("truncated while reading %s: need %d bytes, %d left", what, n, uint64(len(r.b))-r.off)
	}
	return nil
}

func (r *reader) u8(what string) (uint8, error) {
	if err := r.need(1, what); err != nil {
		return 0, err
	}
	v := r.b[r.off]
	r.off++
	return v, nil
}

func (r *reader) u16(what string) (uint16, error) {
	if err := r.need(2, what); err != nil {
		return 0, err
	}
	v := binary.LittleEndian.Uint16(r.b[r.off:])
	r.off += 2
	return v, nil
}

func (r *reader) u32(what string) (uint32, error) {
	if err := r.need(4, what); err != nil {
		return 0, err
	}
	v := binary.LittleEndian.Uint32(r.b[r.off:])
	r.off += 4
	return v, nil
}

func (r *reader) u64(what string) (uint64, error) {
	if err := r.need(8, what); err != nil {
		return 0, err
	}
	v := binary.LittleEndian.Uint64(r.b[r.off:])
	r.off += 8
	return v, nil
}

func (r *reader) str(what string) (string, error) {
	n, err := r.u64(what + " length")
	if err != nil {
		return "", err
	}
	if err := r.need(n, what); err != nil {
		return "", err
	}
	s := string(r.b[r.off : r.off+n])
	r.off += n
	return s, nil
}

// Parse parses a whole GGUF file held in memory. The returned File refers to
// b for tensor data.
func Parse(b []byte) (*File, error) { return parse(b, false) }

// ParseHeader parses only the header of a GGUF file: the metadata and the
// tensor table, without tensor data (b may end at the data section). The
// result serves to build tokenizers and templates on a machine that does not
// hold the weights; Data must not be called on it.
func ParseHeader(b []byte) (*File, error) { return parse(b, true) }

func parse(b []byte, headerOnly bool) (*File, error) {
	r := &reader{b: b}
	if len(b) < 4 || string(b[:4]) != Magic {
		return nil, fmt.Errorf("gguf: %w: bad magic (not a GGUF file)", ErrFormat)
	}
	r.off = 4
	version, err := r.u32("version")
	if err != nil {
		return nil, err
	}
	if version != 2 && version != 3 {
		return nil, fmt.Errorf("gguf: %w: unsupported GGUF version %d (want 2 or 3)", ErrFormat, version)
	}
	nTensors, err := r.u64("tensor count")
	if err != nil {
		return nil, err
	}
	nKV, err := r.u64("metadata count")
	if err != nil {
		return nil, err
	}
	// Each KV needs at least 12 bytes and each tensor info at least 24: a
	// count larger than the file could hold is a lie we refuse before
	// allocating for it.
	if rest := uint64(len(b)) - r.off; nKV > rest/12 || nTensors > rest/24 {
		return nil, r.fail("tensor count %d or metadata count %d is larger than the file can hold", nTensors, nKV)
	}
	f := &File{
		raw:       b,
		Version:   version,
		Alignment: DefaultAlignment,
		KVs:       make([]KV, 0, nKV),
		kv:        make(map[string]int, nKV),
		Tensors:   make([]TensorInfo, 0, nTensors),
		tensors:   make(map[string]int, nTensors),
	}
	for i := uint64(0); i < nKV; i++ {
		key, err := r.str(fmt.Sprintf("metadata key #%d", i))
		if err != nil {
			return nil, err
		}
		if _, dup := f.kv[key]; dup {
			return nil, r.fail("duplicate metadata key %q", key)
		}
		t, err := r.u32("type of " + key)
		if err != nil {
			return nil, err
		}
		v, err := r.value(ValueType(t), key, 0)
		if err != nil {
			return nil, err
		}
		f.kv[key] = len(f.KVs)
		f.KVs = append(f.KVs, KV{Key: key, Type: ValueType(t), Value: v})
	}
	if v, ok := f.kv["general.alignment"]; ok {
		a, ok := toUint(f.KVs[v].Value)
		if !ok || a == 0 || a&(a-1) != 0 || a > 1<<20 {
			return nil, fmt.Errorf("gguf: %w: general.alignment %v is not a power of two up to 1 MiB", ErrFormat, f.KVs[v].Value)
		}
		f.Alignment = a
	}
	for i := uint64(0); i < nTensors; i++ {
		ti, err := r.tensorInfo(i)
		if err != nil {
			return nil, err
		}
		if _, dup := f.tensors[ti.Name]; dup {
			return nil, r.fail("duplicate tensor %q", ti.Name)
		}
		f.tensors[ti.Name] = len(f.Tensors)
		f.Tensors = append(f.Tensors, ti)
	}
	f.headerLen = r.off
	if headerOnly {
		f.header = true
		return f, nil
	}
	base := alignUp(r.off, f.Alignment)
	if base > uint64(len(b)) {
		if nTensors == 0 {
			base = uint64(len(b))
		} else {
			return nil, r.fail("data section starts past the end of the file")
		}
	}
	f.dataBase = base
	f.data = b[base:]
	if err := f.checkTensors(); err != nil {
		return nil, err
	}
	return f, nil
}

func alignUp(x, a uint64) uint64 { return (x + a - 1) / a * a }

func (r *reader) tensorInfo(i uint64) (TensorInfo, error) {
	var ti TensorInfo
	name, err := r.str(fmt.Sprintf("name of tensor #%d", i))
	if err != nil {
		return ti, err
	}
	ti.Name = name
	nd, err := r.u32("dimension count of " + name)
	if err != nil {
		return ti, err
	}
	if nd == 0 || nd > maxDims {
		return ti, r.fail("tensor %q has %d dimensions (want 1 to %d)", name, nd, maxDims)
	}
	ti.Dims = make([]uint64, nd)
	for d := range ti.Dims {
		if ti.Dims[d], err = r.u64("shape of " + name); err != nil {
			return ti, err
		}
		if ti.Dims[d] == 0 || ti.Dims[d] > 1<<40 {
			return ti, r.fail("tensor %q has dimension %d of size %d", name, d, ti.Dims[d])
		}
	}
	t, err := r.u32("type of " + name)
	if err != nil {
		return ti, err
	}
	ti.Type = TensorType(t)
	if !ti.Type.Known() {
		return ti, r.fail("tensor %q has unknown tensor type %d", name, t)
	}
	if ti.Offset, err = r.u64("offset of " + name); err != nil {
		return ti, err
	}
	bs := uint64(ti.Type.BlockSize())
	if ti.Dims[0]%bs != 0 {
		return ti, r.fail("tensor %q: row length %d is not a multiple of the %s block size %d", name, ti.Dims[0], ti.Type, bs)
	}
	rows := uint64(1)
	for _, d := range ti.Dims[1:] {
		hi, lo := bits.Mul64(rows, d)
		if hi != 0 {
			return ti, r.fail("tensor %q: shape overflows", name)
		}
		rows = lo
	}
	rowBytes := ti.Dims[0] / bs * uint64(ti.Type.BlockBytes())
	hi, size := bits.Mul64(rows, rowBytes)
	if hi != 0 || size > 1<<50 {
		return ti, r.fail("tensor %q: size overflows", name)
	}
	ti.Size = size
	return ti, nil
}

func (f *File) checkTensors() error {
	type span struct{ lo, hi uint64 }
	spans := make([]struct {
		span
		name string
	}, 0, len(f.Tensors))
	for i := range f.Tensors {
		ti := &f.Tensors[i]
		if ti.Offset%f.Alignment != 0 {
			return fmt.Errorf("gguf: %w: tensor %q: offset %d is not aligned to %d", ErrFormat, ti.Name, ti.Offset, f.Alignment)
		}
		end := ti.Offset + ti.Size
		if end < ti.Offset || end > uint64(len(f.data)) {
			return fmt.Errorf("gguf: %w: tensor %q: data [%d,%d) runs past the end of the file (data section holds %d bytes)", ErrFormat, ti.Name, ti.Offset, end, len(f.data))
		}
		spans = append(spans, struct {
			span
			name string
		}{span{ti.Offset, end}, ti.Name})
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].lo < spans[j].lo })
	for i := 1; i < len(spans); i++ {
		if spans[i].lo < spans[i-1].hi {
			return fmt.Errorf("gguf: %w: tensors %q and %q overlap", ErrFormat, spans[i-1].name, spans[i].name)
		}
	}
	return nil
}

// maxArrayDepth bounds nested arrays so a hostile file cannot recurse deeply.
const maxArrayDepth = 3

func (r *reader) value(t ValueType, key string, depth int) (any, error) {
	switch t {
	case ValUint8:
		return r.u8(key)
	case ValInt8:
		v, err := r.u8(key)
		return int8(v), err
	case ValUint16:
		return r.u16(key)
	case ValInt16:
		v, err := r.u16(key)
		return int16(v), err
	case ValUint32:
		return r.u32(key)
	case ValInt32:
		v, err := r.u32(key)
		return int32(v), err
	case ValFloat32:
		v, err := r.u32(key)
		return math.Float32frombits(v), err
	case ValBool:
		v, err := r.u8(key)
		if err == nil && v > 1 {
			return nil, r.fail("key %q: bool value %d", key, v)
		}
		return v == 1, err
	case ValString:
		return r.str(key)
	case ValUint64:
		return r.u64(key)
	case ValInt64:
		v, err := r.u64(key)
		return int64(v), err
	case ValFloat64:
		v, err := r.u64(key)
		return math.Float64frombits(v), err
	case ValArray:
		if depth >= maxArrayDepth {
			return nil, r.fail("key %q: arrays nested too deeply", key)
		}
		et, err := r.u32("element type of " + key)
		if err != nil {
			return nil, err
		}
		n, err := r.u64("length of " + key)
		if err != nil {
			return nil, err
		}
		return r.array(ValueType(et), n, key, depth)
	}
	return nil, r.fail("key %q has unknown value type %d", key, uint32(t))
}

func fixedSize(t ValueType) uint64 {
	switch t {
	case ValUint8, ValInt8, ValBool:
		return 1
	case ValUint16, ValInt16:
		return 2
	case ValUint32, ValInt32, ValFloat32:
		return 4
	case ValUint64, ValInt64, ValFloat64:
		return 8
	}
	return 0
}

func (r *reader) array(et ValueType, n uint64, key string, depth int) (any, error) {
	left := uint64(len(r.b)) - r.off
	if sz := fixedSize(et); sz > 0 {
		if n > left/sz {
			return nil, r.fail("key %q: array of %d %s runs past the end of the file", key, n, et)
		}
		raw := r.b[r.off : r.off+n*sz]
		r.off += n * sz
		return decodeFixed(et, raw, n, key, r)
	}
	switch et {
	case ValString:
		if n > left/8 {
			return nil, r.fail("key %q: array of %d strings runs past the end of the file", key, n)
		}
		out := make([]string, n)
		for i := range out {
			s, err := r.str(key)
			if err != nil {
				return nil, err
			}
			out[i] = s
		}
		return out, nil
	case ValArray:
		if n > left/12 {
			return nil, r.fail("key %q: array of %d arrays runs past the end of the file", key, n)
		}
		out := make([]any, n)
		for i := range out {
			v, err := r.value(ValArray, key, depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	}
	return nil, r.fail("key %q: array of unknown value type %d", key, uint32(et))
}

func decodeFixed(et ValueType, raw []byte, n uint64, key string, r *reader) (any, error) {
	le := binary.LittleEndian
	switch et {
	case ValUint8:
		return append([]uint8(nil), raw...), nil
	case ValInt8:
		out := make([]int8, n)
		for i := range out {
			out[i] = int8(raw[i])
		}
		return out, nil
	case ValBool:
		out := make([]bool, n)
		for i := range out {
			if raw[i] > 1 {
				return nil, r.fail("key %q: bool value %d", key, raw[i])
			}
			out[i] = raw[i] == 1
		}
		return out, nil
	case ValUint16:
		out := make([]uint16, n)
		for i := range out {
			out[i] = le.Uint16(raw[2*i:])
		}
		return out, nil
	case ValInt16:
		out := make([]int16, n)
		for i := range out {
			out[i] = int16(le.Uint16(raw[2*i:]))
		}
		return out, nil
	case ValUint32:
		out := make([]uint32, n)
		for i := range out {
			out[i] = le.Uint32(raw[4*i:])
		}
		return out, nil
	case ValInt32:
		out := make([]int32, n)
		for i := range out {
			out[i] = int32(le.Uint32(raw[4*i:]))
		}
		return out, nil
	case ValFloat32:
		out := make([]float32, n)
		for i := range out {
			out[i] = math.Float32frombits(le.Uint32(raw[4*i:]))
		}
		return out, nil
	case ValUint64:
		out := make([]uint64, n)
		for i := range out {
			out[i] = le.Uint64(raw[8*i:])
		}
		return out, nil
	case ValInt64:
		out := make([]int64, n)
		for i := range out {
			out[i] = int64(le.Uint64(raw[8*i:]))
		}
		return out, nil
	case ValFloat64:
		out := make([]float64, n)
		for i := range out {
			out[i] = math.Float64frombits(le.Uint64(raw[8*i:]))
		}
		return out, nil
	}
	return nil, r.fail("key %q: unexpected element type %s", key, et)
}
