package p2p

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// members is an Admission over a fixed member list whose credential is the
// text "member <peer id>", enough to exercise every point where p2p asks
// (the coordinator's certificates are tested in its own packages).
type members struct {
	self peer.ID
	mu   sync.Mutex
	ids  map[peer.ID]bool
}

func (m *members) AcceptAddr(ma.Multiaddr) bool { return true }

func (m *members) AdmitPeer(p peer.ID) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.ids[p]
}

func (m *members) CheckCredential(signer peer.ID, cred []byte) error {
	if !m.AdmitPeer(signer) {
		return errors.New("not a member")
	}
	if string(cred) != "member "+signer.String() {
		return fmt.Errorf("credential %q does not name %s", cred, signer)
	}
	return nil
}

func (m *members) Credential() []byte { return []byte("member " + m.self.String()) }

func TestAdmission(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ka, ida := testKey(t)
	kb, idb := testKey(t)
	kc, idc := testKey(t)
	list := map[peer.ID]bool{ida: true, idb: true}
	endpoint := func(k crypto.PrivKey, id peer.ID, boot []string) (*Endpoint, error) {
		e, err := NewEndpoint(ctx, EndpointConfig{Key: k, Server: true, Bootstrap: boot, Admission: &members{self: id, ids: list}})
		if err == nil {
			t.Cleanup(func() { _ = e.Close() })
		}
		return e, err
	}
	a, err := endpoint(ka, ida, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := endpoint(kb, idb, a.Addrs())
	if err != nil {
		t.Fatalf("member refused: %v", err)
	}
	// c is not on the list: whatever the handshake lets through, a's gater
	// drops the connection once c is authenticated, so no stream reaches a.
	for _, adm := range []Admission{&members{self: idc, ids: list}, nil} {
		c, err := NewEndpoint(ctx, EndpointConfig{Key: kc, Admission: adm})
		if err != nil {
			t.Fatal(err)
		}
		c.Host.Peerstore().AddAddrs(ida, a.Host.Addrs(), time.Hour)
		if _, _, err := openStream(ctx, c.Host, ida, RecordProtocol, ServiceRecord); err == nil {
			t.Fatalf("a non-member (own admission: %v) opened a stream to a member", adm != nil)
		}
		_ = c.Close()
	}

	// Records carry the credential, and the validators check it.
	if err := b.Publish(ctx, testAnnouncement(time.Now(), 1)); err != nil {
		t.Fatal(err)
	}
	m, err := a.LookupDirect(ctx, idb)
	if err != nil {
		t.Fatalf("a member's record refused: %v", err)
	}
	if m.ID != idb {
		t.Fatalf("record of %s, want %s", m.ID, idb)
	}
	plain, err := SignAnnouncement(kb, testAnnouncement(time.Now(), 2))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.val.Validate(RecordKey(idb), plain); !errors.Is(err, ErrRecord) {
		t.Fatalf("record without credential: %v, want ErrRecord", err)
	}
	forged, err := signRecord(kc, testAnnouncement(time.Now(), 3), []byte("member "+idb.String()))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.val.Validate(RecordKey(idc), forged); !errors.Is(err, ErrRecord) {
		t.Fatalf("non-member's record with another's credential: %v, want ErrRecord", err)
	}
	if _, err := (Validator{Admission: a.adm}).Select(RecordKey(idb), [][]byte{plain}); err == nil {
		t.Fatal("Select chose a record without credential")
	}
	// Without Admission (the local variant) the same plain record is fine.
	if err := (Validator{}).Validate(RecordKey(idb), plain); err != nil {
		t.Fatalf("local validator: %v", err)
	}
}
