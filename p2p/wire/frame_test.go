package wire

import (
	"bytes"
	"errors"
	"io"
	"math"
	"testing"

	"google.golang.org/protobuf/proto"
)

func TestFrameRoundTrip(t *testing.T) {
	var b bytes.Buffer
	req := &Request{Kind: &Request_Step{Step: &Step{N: 2, Payload: Payload_PAYLOAD_HIDDEN_F32, TopK: 3}}}
	h := []float32{1, -2.5, float32(math.Inf(1)), math.SmallestNonzeroFloat32}
	big := make([]float32, 40000) // past the single-write size
	for i := range big {
		big[i] = float32(i) * 0.5
	}
	for _, p := range [][]float32{h, big, nil} {
		b.Reset()
		if err := WriteFrame(&b, req, EncodeF32(p)); err != nil {
			t.Fatal(err)
		}
		var got Request
		data, err := ReadFrame(&b, &got, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		if !proto.Equal(&got, req) {
			t.Fatalf("control %v, want %v", &got, req)
		}
		v, err := DecodeF32(data)
		if err != nil || len(v) != len(p) {
			t.Fatalf("payload: %v, %d values", err, len(v))
		}
		for i := range p {
			if math.Float32bits(v[i]) != math.Float32bits(p[i]) {
				t.Fatalf("value %d: %v, want %v", i, v[i], p[i])
			}
		}
	}
	var got Request
	if _, err := ReadFrame(&b, &got, 0); !errors.Is(err, io.EOF) {
		t.Fatalf("read at end: %v, want io.EOF", err)
	}
}

func TestFrameLimits(t *testing.T) {
	var b bytes.Buffer
	if err := WriteFrame(&b, &Response{}, make([]byte, 100)); err != nil {
		t.Fatal(err)
	}
	var r Response
	if _, err := ReadFrame(bytes.NewReader(b.Bytes()), &r, 99); !errors.Is(err, ErrFrame) {
		t.Fatalf("oversized payload: %v", err)
	}
	if _, err := ReadFrame(bytes.NewReader(b.Bytes()[:50]), &r, 100); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("truncated frame: %v", err)
	}
	if _, err := ReadFrame(bytes.NewReader([]byte{0, 0}), &r, 100); err == nil || errors.Is(err, io.EOF) {
		t.Fatalf("truncated header: %v", err)
	}
	if _, err := DecodeF32([]byte{1, 2, 3}); !errors.Is(err, ErrFrame) {
		t.Fatalf("odd float payload: %v", err)
	}
}

// FuzzReadFrame feeds arbitrary bytes to the frame decoder: it must return
// an error or a frame that re-encodes to a frame it reads back the same,
// never panic or allocate past its limits.
func FuzzReadFrame(f *testing.F) {
	var b bytes.Buffer
	_ = WriteFrame(&b, &Request{Kind: &Request_Open{Open: &Open{SessionId: "s", ModelDigest: "d", Last: 2, MaxLength: 8}}}, nil)
	f.Add(b.Bytes())
	b.Reset()
	_ = WriteFrame(&b, &Request{Kind: &Request_Step{Step: &Step{N: 1, Payload: Payload_PAYLOAD_HIDDEN_F32}}}, EncodeF32([]float32{1, 2}))
	f.Add(b.Bytes())
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := bytes.NewReader(data)
		for {
			var req Request
			payload, err := ReadFrame(r, &req, 1<<16)
			if err != nil {
				return
			}
			var out bytes.Buffer
			if err := WriteFrame(&out, &req, payload); err != nil {
				t.Fatalf("re-encode: %v", err)
			}
			var again Request
			p2, err := ReadFrame(&out, &again, 1<<16)
			if err != nil || !proto.Equal(&req, &again) || !bytes.Equal(payload, p2) {
				t.Fatalf("round trip differs: %v", err)
			}
			if len(payload)%4 == 0 {
				if _, err := DecodeF32(payload); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
}
