package trust

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	lcrypto "github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"google.golang.org/protobuf/proto"

	"svc/coordinator/ca"
	"svc/p2p"
	"svc/p2p/wire"
)

type fixture struct {
	ca     *ca.CA
	coord  *ca.Member
	member map[string]*ca.Member
	keys   map[string]lcrypto.PrivKey
}

func newFixture(t *testing.T, labels ...string) *fixture {
	t.Helper()
	c, err := ca.New(time.Now(), 24*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{ca: c, member: map[string]*ca.Member{}, keys: map[string]lcrypto.PrivKey{}}
	for _, l := range append([]string{"coordinator"}, labels...) {
		k, _, err := lcrypto.GenerateEd25519Key(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		role := ca.RoleMachine
		if l == "coordinator" {
			role = ca.RoleCoordinator
		}
		m, err := c.Issue(time.Now(), ca.IssueRequest{Key: k.GetPublic(), Label: l, Role: role, Lifetime: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		f.member[l], f.keys[l] = m, k
	}
	f.coord = f.member["coordinator"]
	return f
}

// roster signs a roster of version v admitting labels and revoking revoked.
func (f *fixture) roster(t *testing.T, v uint64, labels []string, revoked ...string) []byte {
	t.Helper()
	r := &Roster{Version: v, Issued: time.Now(), Coordinator: f.coord.Raw}
	var rv []ca.Revoked
	for _, l := range labels {
		r.Members = append(r.Members, f.member[l].Raw)
	}
	for _, l := range revoked {
		rv = append(rv, ca.Revoked{Serial: f.member[l].Serial, At: time.Now()})
	}
	var err error
	if r.CRL, err = f.ca.CRL(time.Now(), time.Now().Add(time.Hour), int64(v), rv); err != nil {
		t.Fatal(err)
	}
	r.Placements = []Placement{{Name: "stories", Digest: strings.Repeat("ab", 32), Blocks: 5, State: StateServed,
		Slices: []Slice{{Peer: f.member[labels[0]].Peer.String(), Label: labels[0], First: 0, Last: 5}}}}
	b, err := Sign(r, f.ca.Signer())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestRosterAdmission(t *testing.T) {
	f := newFixture(t, "m1", "m2", "m3")
	tr := New(f.ca.Cert, nil)
	if tr.AdmitPeer(f.member["m1"].Peer) {
		t.Fatal("admitted before any roster")
	}
	if ok, err := tr.Update(f.roster(t, 1, []string{"m1", "m2", "m3"})); !ok || err != nil {
		t.Fatalf("update: %v %v", ok, err)
	}
	for _, l := range []string{"coordinator", "m1", "m2", "m3"} {
		if err := tr.Admit(f.member[l].Peer); err != nil {
			t.Errorf("%s: %v", l, err)
		}
	}
	if p, ok := tr.View().Placement("stories"); !ok || p.Slices[0].Label != "m1" {
		t.Fatalf("placement: %+v", p)
	}
	outsider, _, _ := lcrypto.GenerateEd25519Key(rand.Reader)
	oid, _ := peer.IDFromPrivateKey(outsider)
	if tr.AdmitPeer(oid) {
		t.Fatal("outsider admitted")
	}
	// m3 removed: left out of the members and on the CRL.
	if ok, err := tr.Update(f.roster(t, 2, []string{"m1", "m2"}, "m3")); !ok || err != nil {
		t.Fatalf("update 2: %v %v", ok, err)
	}
	if tr.AdmitPeer(f.member["m3"].Peer) {
		t.Fatal("removed m3 still admitted")
	}
	// A revoked certificate listed again (an old roster's member list) is
	// still refused through the CRL.
	if ok, _ := tr.Update(f.roster(t, 3, []string{"m1", "m2", "m3"}, "m3")); !ok || tr.AdmitPeer(f.member["m3"].Peer) {
		t.Fatal("revoked m3 admitted through the member list")
	}
	// An older roster (a replay that would re-admit m3) is ignored.
	if ok, err := tr.Update(f.roster(t, 1, []string{"m1", "m2", "m3"})); ok || err != nil || tr.AdmitPeer(f.member["m3"].Peer) {
		t.Fatalf("stale roster: accepted %v, %v", ok, err)
	}
}

func TestRosterForgeries(t *testing.T) {
	f := newFixture(t, "m1")
	good := f.roster(t, 1, []string{"m1"})
	other := newFixture(t, "m1")
	tr := New(f.ca.Cert, nil)
	// Signed by another deployment's CA.
	if _, err := tr.Update(other.roster(t, 5, []string{"m1"})); err == nil || !strings.Contains(err.Error(), "not signed") {
		t.Fatalf("foreign roster: %v", err)
	}
	// Tampered content (a member added after signing).
	var s Signed
	if err := json.Unmarshal(good, &s); err != nil {
		t.Fatal(err)
	}
	var r Roster
	_ = json.Unmarshal(s.Roster, &r)
	r.Members = append(r.Members, other.member["m1"].Raw)
	s.Roster, _ = json.Marshal(r)
	tampered, _ := json.Marshal(s)
	if _, err := tr.Update(tampered); err == nil {
		t.Fatal("tampered roster accepted")
	}
	// A CRL signed by another CA inside a validly signed roster.
	r2 := &Roster{Version: 2, Coordinator: f.coord.Raw}
	r2.CRL, _ = other.ca.CRL(time.Now(), time.Now().Add(time.Hour), 2, nil)
	b, _ := Sign(r2, f.ca.Signer())
	if _, err := tr.Update(b); err == nil || !strings.Contains(err.Error(), "CRL") {
		t.Fatalf("foreign CRL: %v", err)
	}
	// A forged member certificate (signed by another CA) in a genuine
	// roster is left out, not admitted.
	r3 := &Roster{Version: 3, Coordinator: f.coord.Raw, Members: [][]byte{other.member["m1"].Raw}}
	r3.CRL, _ = f.ca.CRL(time.Now(), time.Now().Add(time.Hour), 3, nil)
	b, _ = Sign(r3, f.ca.Signer())
	if ok, err := tr.Update(b); !ok || err != nil {
		t.Fatalf("roster with a forged member: %v %v", ok, err)
	}
	if tr.AdmitPeer(other.member["m1"].Peer) || tr.View().Dropped != 1 {
		t.Fatal("forged member certificate admitted")
	}
	if _, err := tr.Update([]byte("{")); err == nil {
		t.Fatal("garbage accepted")
	}
}

// record signs an announcement by key with cred attached.
func record(t *testing.T, key lcrypto.PrivKey, cred []byte) (string, []byte) {
	t.Helper()
	v, err := p2p.SignAnnouncement(key, &wire.Announcement{Seq: 1, ExpiresUnixMs: time.Now().Add(time.Minute).UnixMilli()})
	if err != nil {
		t.Fatal(err)
	}
	var sr wire.SignedRecord
	if err := proto.Unmarshal(v, &sr); err != nil {
		t.Fatal(err)
	}
	sr.Credential = cred
	out, err := proto.Marshal(&sr)
	if err != nil {
		t.Fatal(err)
	}
	id, _ := peer.IDFromPrivateKey(key)
	return p2p.RecordKey(id), out
}

// The DHT validator of a managed member accepts records only from members
// that attach their own valid, unrevoked certificate.
func TestRecordCredentials(t *testing.T) {
	f := newFixture(t, "m1", "m2")
	tr := New(f.ca.Cert, nil)
	if _, err := tr.Update(f.roster(t, 1, []string{"m1", "m2"})); err != nil {
		t.Fatal(err)
	}
	val := p2p.Validator{Admission: tr}
	k, v := record(t, f.keys["m1"], f.member["m1"].Raw)
	if err := val.Validate(k, v); err != nil {
		t.Fatalf("member's record: %v", err)
	}
	outsider, _, _ := lcrypto.GenerateEd25519Key(rand.Reader)
	for name, c := range map[string]struct {
		key  lcrypto.PrivKey
		cred []byte
	}{
		"no certificate":            {f.keys["m1"], nil},
		"outsider without":          {outsider, nil},
		"outsider with m1's":        {outsider, f.member["m1"].Raw},
		"m2 with m1's certificate":  {f.keys["m2"], f.member["m1"].Raw},
		"garbage certificate":       {f.keys["m1"], []byte("not a certificate")},
		"another deployment's cert": {f.keys["m1"], newFixture(t, "m1").member["m1"].Raw},
	} {
		k, v := record(t, c.key, c.cred)
		if err := val.Validate(k, v); err == nil {
			t.Errorf("%s: record accepted", name)
		}
	}
	// Once m2 is revoked its records are refused too.
	if _, err := tr.Update(f.roster(t, 2, []string{"m1"}, "m2")); err != nil {
		t.Fatal(err)
	}
	k, v = record(t, f.keys["m2"], f.member["m2"].Raw)
	if err := val.Validate(k, v); err == nil || !strings.Contains(err.Error(), "revoked") {
		t.Fatalf("revoked member's record: %v", err)
	}
}

func TestGrant(t *testing.T) {
	f := newFixture(t, "m1")
	now := time.Now()
	var none *View
	if err := none.GrantError(now); err != nil {
		t.Fatal(err)
	}
	r := &Roster{Version: 1, Coordinator: f.coord.Raw, Grant: &Grant{Licensee: "ACME", Expires: now.Add(time.Hour)}}
	r.CRL, _ = f.ca.CRL(now, now.Add(time.Hour), 1, nil)
	b, err := Sign(r, f.ca.Signer())
	if err != nil {
		t.Fatal(err)
	}
	v, err := Open(f.ca.Cert, b, now)
	if err != nil {
		t.Fatal(err)
	}
	if err := v.GrantError(now); err != nil {
		t.Fatalf("valid grant: %v", err)
	}
	if err := v.GrantError(now.Add(2 * time.Hour)); !errors.Is(err, ErrLicenceExpired) {
		t.Fatalf("expired grant: %v", err)
	}
}
