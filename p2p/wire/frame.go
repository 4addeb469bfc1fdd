package wire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"google.golang.org/protobuf/proto"
)

// MaxControl bounds the protobuf part of a frame.
const MaxControl = 4 << 20

// DefaultMaxPayload bounds the raw part of a frame unless the caller says
// otherwise: 256 MiB holds a 4096-position prefill of an 16384-wide model.
const DefaultMaxPayload = 256 << 20

// ReplyPositionBytes bounds the control bytes one position adds to a step's
// reply when the step asks for every position's logits with k top rows: an
// argmax (a varint of at most 5 bytes), a score (a packed float) and a
// TopRow (tag, a length of at most 2 bytes, k items of tag, length, id field
// ≤ 6 and logprob field 5).
func ReplyPositionBytes(k int) int { return 5 + 4 + 3 + 13*max(k, 1) }

// replySlack is room in a reply's control message for its other fields and
// the packed fields' lengths.
const replySlack = 64 << 10

// MaxReplyPositions is the most positions a step asking for every
// position's logits with k top rows may hold: more could make the reply's
// control message exceed MaxControl, which no peer would read.
func MaxReplyPositions(k int) int { return (MaxControl - replySlack) / ReplyPositionBytes(k) }

// firstChunk is how much memory a frame's part gets before any of its bytes
// arrive; it doubles as bytes come in, so a peer that declares 4 MiB and
// sends nothing costs 16 KiB, and one that sends it all costs two copies.
const firstChunk = 16 << 10

// ErrFrame marks a malformed frame; the stream that carried it must end.
var ErrFrame = errors.New("malformed frame")

// WriteFrame writes ctrl and payload as one frame.
func WriteFrame(w io.Writer, ctrl proto.Message, payload []byte) error {
	size := proto.Size(ctrl)
	if size > MaxControl {
		return fmt.Errorf("control message of %d bytes exceeds %d: %w", size, MaxControl, ErrFrame)
	}
	if uint64(len(payload)) > math.MaxUint32 {
		return fmt.Errorf("payload of %d bytes too large: %w", len(payload), ErrFrame)
	}
	// Header, control and a small payload go out in one write from a pooled
	// buffer; a large payload follows without being copied.
	inline := len(payload) <= 64<<10
	n := 8 + size
	if inline {
		n += len(payload)
	}
	buf := getBuf(n)
	defer putBuf(buf)
	binary.BigEndian.PutUint32(buf[0:], uint32(size))
	binary.BigEndian.PutUint32(buf[4:], uint32(len(payload)))
	c, err := proto.MarshalOptions{UseCachedSize: true}.MarshalAppend(buf[8:8], ctrl)
	if err != nil {
		return fmt.Errorf("encode control message: %w", err)
	}
	if len(c) != size {
		return fmt.Errorf("control message changed size while encoded (%d, then %d bytes)", size, len(c))
	}
	if inline {
		copy(buf[8+size:], payload)
		payload = nil
	}
	if _, err := w.Write(buf); err != nil {
		return fmt.Errorf("write frame: %w", err)
	}
	if len(payload) > 0 {
		if _, err := w.Write(payload); err != nil {
			return fmt.Errorf("write frame payload: %w", err)
		}
	}
	return nil
}

// Memory accounts for what frames are read into, e.g. a libp2p stream's
// resource-manager scope. Reserve is asked before a frame's memory grows by
// n bytes (an error ends the read); Release gives back n bytes reserved
// before.
type Memory interface {
	Reserve(n int) error
	Release(n int)
}

// Reader reads frames into pooled memory that grows with the bytes that
// actually arrive, accounted to Mem when it is set. Its zero value reads
// with nothing accounted.
type Reader struct {
	Mem Memory
}

// Frame is the payload of a frame read by a Reader. Free returns its memory
// (to the pool and to the Reader's Memory); Payload must not be used after.
type Frame struct {
	Payload []byte
	buf     []byte
	mem     Memory
}

// Free returns the frame's memory; calling it twice, or on a zero Frame,
// does nothing.
func (f *Frame) Free() {
	if f.buf == nil {
		return
	}
	if f.mem != nil {
		f.mem.Release(cap(f.buf))
	}
	putBuf(f.buf)
	f.buf, f.Payload = nil, nil
}

// ReadFrame reads one frame, decodes its control part into ctrl and returns
// its payload, which may be at most maxPayload bytes. A clean end of stream
// before the first byte returns io.EOF; anything else that is wrong returns an
// error wrapping ErrFrame or the read error. The payload is the caller's to
// keep.
func ReadFrame(r io.Reader, ctrl proto.Message, maxPayload int) ([]byte, error) {
	var rd Reader
	f, err := rd.Read(r, ctrl, maxPayload)
	if err != nil || f.Payload == nil {
		f.Free()
		return nil, err
	}
	return f.Payload, nil
}

// Read reads one frame as ReadFrame does; the payload lives in memory that
// the caller gives back with Frame.Free.
func (rd *Reader) Read(r io.Reader, ctrl proto.Message, maxPayload int) (Frame, error) {
	var hdr [8]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		if errors.Is(err, io.EOF) {
			return Frame{}, io.EOF
		}
		return Frame{}, fmt.Errorf("read frame header: %w", err)
	}
	cl := binary.BigEndian.Uint32(hdr[0:])
	pl := binary.BigEndian.Uint32(hdr[4:])
	if cl > MaxControl {
		return Frame{}, fmt.Errorf("control length %d exceeds %d: %w", cl, MaxControl, ErrFrame)
	}
	if int64(pl) > int64(maxPayload) {
		return Frame{}, fmt.Errorf("payload length %d exceeds %d: %w", pl, maxPayload, ErrFrame)
	}
	c, err := rd.fill(r, int(cl))
	if err != nil {
		return Frame{}, fmt.Errorf("read control message: %w", err)
	}
	// Unmarshal copies bytes and strings out of c, so c goes back at once.
	err = proto.Unmarshal(c.Payload, ctrl)
	c.Free()
	if err != nil {
		return Frame{}, fmt.Errorf("decode control message: %v: %w", err, ErrFrame)
	}
	if pl == 0 {
		return Frame{}, nil
	}
	p, err := rd.fill(r, int(pl))
	if err != nil {
		return Frame{}, fmt.Errorf("read payload: %w", err)
	}
	return p, nil
}

// ReadMessage reads one length-prefixed message (u32 big-endian length,
// then the bytes) of at most limit bytes, into memory that grows as
// ReadFrame's does. A clean end of stream before the first byte returns
// io.EOF.
func (rd *Reader) ReadMessage(r io.Reader, limit int) (Frame, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		if errors.Is(err, io.EOF) {
			return Frame{}, io.EOF
		}
		return Frame{}, fmt.Errorf("read message length: %w", err)
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if int64(n) > int64(limit) {
		return Frame{}, fmt.Errorf("message of %d bytes exceeds %d: %w", n, limit, ErrFrame)
	}
	f, err := rd.fill(r, int(n))
	if err != nil {
		return Frame{}, fmt.Errorf("read message: %w", err)
	}
	return f, nil
}

// ReadAll reads r to its end, at most limit bytes, into memory that grows
// as ReadFrame's does.
func (rd *Reader) ReadAll(r io.Reader, limit int) (Frame, error) {
	f := Frame{mem: rd.Mem}
	got := 0
	for {
		if got == cap(f.buf) {
			if got > limit {
				f.Free()
				return Frame{}, fmt.Errorf("more than %d bytes: %w", limit, ErrFrame)
			}
			next := min(max(2*cap(f.buf), firstChunk), limit+1)
			if err := rd.reserve(next); err != nil {
				f.Free()
				return Frame{}, err
			}
			nb := getBuf(next)
			copy(nb, f.buf[:got])
			f.Free()
			f.buf, f.mem = nb[:cap(nb)], rd.Mem
		}
		m, err := r.Read(f.buf[got:cap(f.buf)])
		got += m
		if got > limit {
			f.Free()
			return Frame{}, fmt.Errorf("more than %d bytes: %w", limit, ErrFrame)
		}
		if errors.Is(err, io.EOF) {
			f.Payload = f.buf[:got]
			return f, nil
		}
		if err != nil {
			f.Free()
			return Frame{}, err
		}
	}
}

// WriteMessage writes b as one length-prefixed message.
func WriteMessage(w io.Writer, b []byte) error {
	if uint64(len(b)) > math.MaxUint32 {
		return fmt.Errorf("message of %d bytes too large: %w", len(b), ErrFrame)
	}
	buf := getBuf(4 + len(b))
	defer putBuf(buf)
	binary.BigEndian.PutUint32(buf, uint32(len(b)))
	copy(buf[4:], b)
	if _, err := w.Write(buf); err != nil {
		return fmt.Errorf("write message: %w", err)
	}
	return nil
}

// fill reads exactly n bytes into a buffer that starts at firstChunk and
// doubles only once the bytes before have arrived.
func (rd *Reader) fill(r io.Reader, n int) (Frame, error) {
	f := Frame{mem: rd.Mem}
	if n == 0 {
		return f, nil
	}
	size := min(n, firstChunk)
	if err := rd.reserve(size); err != nil {
		return Frame{}, err
	}
	f.buf = getBuf(size)
	got := 0
	for {
		m, err := io.ReadFull(r, f.buf[got:])
		got += m
		if err != nil {
			f.Free()
			return Frame{}, noEOF(err)
		}
		if got == n {
			f.Payload = f.buf[:n]
			return f, nil
		}
		next := min(n, 2*cap(f.buf))
		if err := rd.reserve(next); err != nil {
			f.Free()
			return Frame{}, err
		}
		nb := getBuf(next)
		copy(nb, f.buf[:got])
		f.Free()
		f.buf, f.mem = nb, rd.Mem
	}
}

// reserve accounts for a buffer of n bytes, at the capacity the pool gives.
func (rd *Reader) reserve(n int) error {
	if rd.Mem == nil {
		return nil
	}
	if c := classOf(n); c >= 0 {
		n = 1 << (c + minClassShift)
	}
	if err := rd.Mem.Reserve(n); err != nil {
		return fmt.Errorf("reserve %d bytes: %w", n, err)
	}
	return nil
}

// noEOF turns an end of stream inside a frame into ErrUnexpectedEOF.
func noEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

// EncodeF32 returns v as little-endian float32 bytes.
func EncodeF32(v []float32) []byte {
	return AppendF32(make([]byte, 0, 4*len(v)), v)
}

// AppendF32 appends v to b as little-endian float32 bytes.
func AppendF32(b []byte, v []float32) []byte {
	for _, x := range v {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return b
}

// DecodeF32 reads little-endian float32 bytes; len(b) must be a multiple of 4.
func DecodeF32(b []byte) ([]float32, error) {
	if len(b)%4 != 0 {
		return nil, fmt.Errorf("float32 payload of %d bytes is not a multiple of 4: %w", len(b), ErrFrame)
	}
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v, nil
}
