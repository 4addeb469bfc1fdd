package p2p

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"

	"svc/internal/testenv"
	"svc/shards/slice"
)

// sliceFixture runs a slice server for stories260K that lets one peer have
// blocks [0,2) and nobody anything else.
func sliceFixture(t *testing.T) (srv, cli *Endpoint, m *slice.Manifest, path string) {
	t.Helper()
	path = testenv.Path(t, "models", "stories260K.gguf")
	m, err := slice.Build(path)
	if err != nil {
		t.Fatal(err)
	}
	enc, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	srv, cli = client(t, t.Context(), nil), client(t, t.Context(), nil)
	allowed, _ := m.Need(0, 2)
	ok := map[string]bool{"": true}
	for _, tn := range allowed {
		ok[tn.Name] = true
	}
	s, err := ServeSlices(srv.Host, SliceSource{
		Lookup: func(hash string) (*slice.Manifest, []byte, io.ReaderAt, error) {
			if hash != m.Hash() {
				return nil, nil, nil, fmt.Errorf("no model %s", hash)
			}
			return m, enc, f, nil
		},
		Authorize: func(p peer.ID, hash, tensor string) error {
			if p != cli.ID() || !ok[tensor] {
				return fmt.Errorf("tensor %q is not in the assignment of %s", tensor, p)
			}
			return nil
		},
		MaxStreams: 2,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	cli.Host.Peerstore().AddAddrs(srv.ID(), srv.Host.Addrs(), time.Hour)
	return srv, cli, m, path
}

func TestSliceFetch(t *testing.T) {
	srv, cli, m, _ := sliceFixture(t)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	got, err := FetchManifest(ctx, cli.Host, srv.ID(), m.Hash())
	if err != nil {
		t.Fatal(err)
	}
	if got.Digest != m.Digest {
		t.Fatalf("manifest digest %s, want %s", got.Digest, m.Digest)
	}
	ts, _ := got.Need(0, 2)
	sp := filepath.Join(t.TempDir(), "s.gguf")
	st, err := slice.Write(ctx, sp, got, ts, 0, SliceFetch(cli.Host, srv.ID(), m.Hash()))
	if err != nil {
		t.Fatal(err)
	}
	if st.Fetched != len(ts) {
		t.Fatalf("fetched %+v of %d", st, len(ts))
	}
	if err := slice.Check(sp, m, ts); err != nil {
		t.Fatal(err)
	}
	// A tensor outside the assignment, an unknown model and a stranger
	// are refused with the server's reason.
	outside, _ := m.Need(2, 3)
	var se *SliceError
	err = FetchTensor(ctx, cli.Host, srv.ID(), m.Hash(), outside[0], io.Discard)
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "not in the assignment") {
		t.Fatalf("tensor outside the assignment: %v", err)
	}
	if _, err := FetchManifest(ctx, cli.Host, srv.ID(), "sha256:"+strings.Repeat("0", 64)); !errors.As(err, &se) {
		t.Fatalf("unknown model: %v", err)
	}
	other := client(t, ctx, nil)
	other.Host.Peerstore().AddAddrs(srv.ID(), srv.Host.Addrs(), time.Hour)
	if _, err := FetchManifest(ctx, other.Host, srv.ID(), m.Hash()); !errors.As(err, &se) {
		t.Fatalf("stranger got the manifest: %v", err)
	}
}

// TestSliceHostile: malformed requests end their stream and leave the
// server answering.
func TestSliceHostile(t *testing.T) {
	srv, cli, m, _ := sliceFixture(t)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	for name, raw := range map[string][]byte{
		"huge length":   binary.BigEndian.AppendUint32(nil, 1<<30),
		"not json":      append(binary.BigEndian.AppendUint32(nil, 3), "abc"...),
		"unknown field": append(binary.BigEndian.AppendUint32(nil, 9), `{"x":1}  `...),
		"truncated":     append(binary.BigEndian.AppendUint32(nil, 100), "{"...),
		"header only":   {0, 0},
	} {
		st, err := cli.Host.NewStream(ctx, srv.ID(), protocol.ID(SliceProtocol))
		if err != nil {
			t.Fatal(err)
		}
		_, _ = st.Write(raw)
		_ = st.CloseWrite()
		_ = st.SetReadDeadline(time.Now().Add(10 * time.Second))
		b, err := io.ReadAll(st)
		if err == nil && len(b) > 0 {
			t.Errorf("%s: server answered %q", name, b)
		}
		_ = st.Close()
	}
	// A client that claims a size mismatch is caught before writing.
	ts, _ := m.Need(0, 1)
	wrong := ts[0]
	wrong.Size++
	var buf bytes.Buffer
	if err := FetchTensor(ctx, cli.Host, srv.ID(), m.Hash(), wrong, &buf); err == nil || buf.Len() != 0 {
		t.Fatalf("size mismatch: %v, %d bytes written", err, buf.Len())
	}
	if _, err := FetchManifest(ctx, cli.Host, srv.ID(), m.Hash()); err != nil {
		t.Fatalf("server stopped answering: %v", err)
	}
}
