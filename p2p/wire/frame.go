package wire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"google.golang.org/protobuf/proto"
)

// Protocol ids. The version is part of the id, so libp2p's multistream
// negotiation refuses a peer that speaks another version.
const (
	ForwardProtocol = "/svc/forward/1.0.0"
	MetaProtocol    = "/svc/meta/1.0.0"
	// RecordProtocol returns the node's current signed announcement, the
	// same bytes it puts in the DHT, straight from the node.
	RecordProtocol = "/svc/record/1.0.0"
)

// MaxControl bounds the protobuf part of a frame.
const MaxControl = 4 << 20

// DefaultMaxPayload bounds the raw part of a frame unless the caller says
// otherwise: 256 MiB holds a 4096-position prefill of an 16384-wide model.
const DefaultMaxPayload = 256 << 20

// ErrFrame marks a malformed frame; the stream that carried it must end.
var ErrFrame = errors.New("malformed frame")

// WriteFrame writes ctrl and payload as one frame.
func WriteFrame(w io.Writer, ctrl proto.Message, payload []byte) error {
	c, err := proto.Marshal(ctrl)
	if err != nil {
		return fmt.Errorf("encode control message: %w", err)
	}
	if len(c) > MaxControl {
		return fmt.Errorf("control message of %d bytes exceeds %d: %w", len(c), MaxControl, ErrFrame)
	}
	if uint64(len(payload)) > math.MaxUint32 {
		return fmt.Errorf("payload of %d bytes too large: %w", len(payload), ErrFrame)
	}
	// Header and control go out in one write; a large payload follows
	// without being copied.
	buf := make([]byte, 8, 8+len(c)+min(len(payload), 64<<10))
	binary.BigEndian.PutUint32(buf[0:], uint32(len(c)))
	binary.BigEndian.PutUint32(buf[4:], uint32(len(payload)))
	buf = append(buf, c...)
	if len(payload) <= 64<<10 {
		buf = append(buf, payload...)
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

// ReadFrame reads one frame, decodes its control part into ctrl and returns
// its payload, which may be at most maxPayload bytes. A clean end of stream
// before the first byte returns io.EOF; anything else that is wrong returns an
// error wrapping ErrFrame or the read error.
func ReadFrame(r io.Reader, ctrl proto.Message, maxPayload int) ([]byte, error) {
	var hdr [8]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, io.EOF
		}
		return nil, fmt.Errorf("read frame header: %w", err)
	}
	cl := binary.BigEndian.Uint32(hdr[0:])
	pl := binary.BigEndian.Uint32(hdr[4:])
	if cl > MaxControl {
		return nil, fmt.Errorf("control length %d exceeds %d: %w", cl, MaxControl, ErrFrame)
	}
	if int64(pl) > int64(maxPayload) {
		return nil, fmt.Errorf("payload length %d exceeds %d: %w", pl, maxPayload, ErrFrame)
	}
	c := make([]byte, cl)
	if _, err := io.ReadFull(r, c); err != nil {
		return nil, fmt.Errorf("read control message: %w", noEOF(err))
	}
	if err := proto.Unmarshal(c, ctrl); err != nil {
		return nil, fmt.Errorf("decode control message: %v: %w", err, ErrFrame)
	}
	if pl == 0 {
		return nil, nil
	}
	p := make([]byte, pl)
	if _, err := io.ReadFull(r, p); err != nil {
		return nil, fmt.Errorf("read payload: %w", noEOF(err))
	}
	return p, nil
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
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
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
