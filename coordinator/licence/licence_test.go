package licence

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

func vendor(t *testing.T) (ed25519.PrivateKey, ed25519.PublicKey) {
	t.Helper()
	privPEM, pubPEM, err := GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	priv, err := ParsePrivateKey(privPEM)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := ParsePublicKey(pubPEM)
	if err != nil {
		t.Fatal(err)
	}
	return priv, pub
}

func TestSignVerify(t *testing.T) {
	priv, pub := vendor(t)
	now := time.Now()
	l := Licence{Licensee: "ACME", Issued: now, Expires: now.Add(24 * time.Hour), Machines: 3, Models: 2, Features: []string{"api"}}
	data, err := Sign(l, priv)
	if err != nil {
		t.Fatal(err)
	}
	trusted := append(Builtin(), pub)
	got, key, err := Verify(data, trusted, now)
	if err != nil {
		t.Fatal(err)
	}
	if got.Licensee != "ACME" || got.Machines != 3 || !got.Allows("api") || key != KeyID(pub) {
		t.Fatalf("licence %+v key %s", got, key)
	}
	if !strings.Contains(got.Summary(now), "machines: 3") {
		t.Fatal(got.Summary(now))
	}
	// Reformatting the file keeps it valid.
	var pretty bytes.Buffer
	_ = json.Indent(&pretty, data, "", "\t\t")
	if _, _, err := Verify(pretty.Bytes(), trusted, now); err != nil {
		t.Fatalf("reindented: %v", err)
	}
	// Expired.
	if _, _, err := Verify(data, trusted, now.Add(25*time.Hour)); !errors.Is(err, ErrExpired) {
		t.Fatalf("expired: %v", err)
	}
	// Untrusted vendor.
	if _, _, err := Verify(data, Builtin(), now); err == nil || !strings.Contains(err.Error(), "does not trust") {
		t.Fatalf("untrusted: %v", err)
	}
	// Altered: more machines.
	altered := bytes.Replace(data, []byte(`"machines": 3,`), []byte(`"machines": 30,`), 1)
	if bytes.Equal(altered, data) {
		t.Fatal("test did not alter the file")
	}
	if _, _, err := Verify(altered, trusted, now); err == nil || !strings.Contains(err.Error(), "altered") {
		t.Fatalf("altered: %v", err)
	}
	// Garbage.
	for _, bad := range []string{"", "{}", "not json", `{"licence":{},"key":"x","signature":"AAAA"}`} {
		if _, _, err := Verify([]byte(bad), trusted, now); !errors.Is(err, ErrLicence) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func TestSignRefusals(t *testing.T) {
	priv, _ := vendor(t)
	now := time.Now()
	for _, l := range []Licence{
		{Licensee: "", Issued: now, Expires: now.Add(time.Hour)},
		{Licensee: "x", Issued: now, Expires: now.Add(-time.Hour)},
		{Licensee: "x", Issued: now, Expires: now.Add(time.Hour), Machines: -1},
	} {
		if _, err := Sign(l, priv); err == nil {
			t.Errorf("Sign(%+v) succeeded", l)
		}
	}
}
