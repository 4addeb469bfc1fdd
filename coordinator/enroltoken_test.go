package coordinator

import (
	"crypto/rand"
	"encoding/hex"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	bolt "go.etcd.io/bbolt"

	"svc/coordinator/agent"
	"svc/coordinator/store"
	"svc/p2p"
)

// TestEnrolTokenProof: the state file keeps of a token's secret only the
// verifier, which checks a machine's signature but cannot make a proof:
// neither a MAC keyed with it nor a signature by another secret or over
// another challenge enrols, and the right signature does. A token stored
// before verifiers (the secret's hash only) still enrols a machine, whose
// agent sends both proofs.
func TestEnrolTokenProof(t *testing.T) {
	d, sock := testDaemon(t)
	re := regexp.MustCompile(`--coordinator (\S+) --token (\S+) --ca-pin (\S+)`)
	out, err := send(t, sock, "token.create", TokenCreateArgs{Label: "m1"})
	if err != nil {
		t.Fatal(err)
	}
	m := re.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("token create printed no enroll command:\n%s", out)
	}
	id, secret, err := ParseToken(m[2])
	if err != nil {
		t.Fatal(err)
	}
	var tok Token
	if err := d.st.View(func(tx *bolt.Tx) error {
		_, err := store.Get(tx, store.Tokens, id, &tok)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	verifier, err := hex.DecodeString(tok.Verifier)
	if err != nil || len(verifier) != 32 || tok.SecretHash != "" {
		t.Fatalf("stored token: verifier %q, secret hash %q; want a 32-byte verifier and no hash", tok.Verifier, tok.SecretHash)
	}

	_, pub, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	p, err := peer.IDFromPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	coord := d.Certificate().Peer
	nonce := make([]byte, 32)
	other := make([]byte, 32)
	other[0] = 1
	hello := p2p.EnrolHello{TokenID: id, Role: "machine"}
	e := enrolment{d}
	for _, c := range []struct {
		name  string
		proof p2p.EnrolProof
	}{
		{"a MAC keyed with the stored verifier", p2p.EnrolProof{MAC: p2p.EnrolMAC(verifier, nonce, p, coord)}},
		{"the first protocol's MAC of the right secret", p2p.EnrolProof{MAC: p2p.EnrolMAC(p2p.EnrolKey(secret), nonce, p, coord)}},
		{"a signature by another secret", p2p.EnrolProof{Sig: p2p.EnrolSign(p2p.EnrolSigner(secret+"x"), nonce, p, coord)}},
		{"a signature over another challenge", p2p.EnrolProof{Sig: p2p.EnrolSign(p2p.EnrolSigner(secret), other, p, coord)}},
		{"a signature naming another coordinator", p2p.EnrolProof{Sig: p2p.EnrolSign(p2p.EnrolSigner(secret), nonce, p, p)}},
		{"no proof", p2p.EnrolProof{}},
	} {
		if _, err := e.Complete(t.Context(), p, pub, "/ip4/127.0.0.1/tcp/1", hello, nonce, c.proof); err == nil || !strings.Contains(err.Error(), "wrong token secret") {
			t.Errorf("%s: %v, want a wrong-secret refusal", c.name, err)
		}
	}
	res, err := e.Complete(t.Context(), p, pub, "/ip4/127.0.0.1/tcp/1", hello, nonce,
		p2p.EnrolProof{Sig: p2p.EnrolSign(p2p.EnrolSigner(secret), nonce, p, coord)})
	if err != nil || len(res.Certificate) == 0 {
		t.Fatalf("the right signature: %v", err)
	}

	// A token as the first version stored it.
	legacy := Token{ID: "old001", SecretHash: hex.EncodeToString(p2p.EnrolKey("0123456789abcdef")), Role: "machine",
		Created: d.Now().UTC(), Expires: d.Now().Add(3600e9).UTC(), CreatedBy: "tester", State: TokenActive}
	if err := d.st.Update(func(tx *bolt.Tx) error { return store.Put(tx, store.Tokens, legacy.ID, legacy) }); err != nil {
		t.Fatal(err)
	}
	if _, err := send(t, sock, "firewall.open", FirewallArgs{From: []string{"127.0.0.1"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := agent.Enroll(t.Context(), agent.EnrollOptions{StateDir: filepath.Join(t.TempDir(), "m2"), Coordinator: m[1],
		Token: "old001.0123456789abcdef", Pin: m[3], Role: "machine", Label: "m2"}); err != nil {
		t.Fatalf("a token stored before verifiers: %v", err)
	}
}
