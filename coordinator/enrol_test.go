package coordinator

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"svc/coordinator/agent"
	"svc/coordinator/licence"
)

// The licence's machine bound is enforced at enrolment, and an enrolment
// the licence refuses consumes nothing.
func TestEnrolLicenceBound(t *testing.T) {
	dir := t.TempDir()
	privPEM, pubPEM, err := licence.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	pub := filepath.Join(dir, "vendor.pub")
	if err := os.WriteFile(pub, pubPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	_, sock := testDaemon(t, func(c *Config) { c.VendorKeys = []string{pub} })
	priv, _ := licence.ParsePrivateKey(privPEM)
	lic, err := licence.Sign(licence.Licence{Licensee: "T", Issued: time.Now(), Expires: time.Now().Add(time.Hour), Machines: 1}, priv)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := send(t, sock, "licence.install", LicenceArgs{File: lic, Name: "t.licence"}); err != nil {
		t.Fatal(err)
	}
	if _, err := send(t, sock, "firewall.open", FirewallArgs{From: []string{"127.0.0.1"}}); err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`--coordinator (\S+) --token (\S+) --ca-pin (\S+)`)
	enrol := func(label string) error {
		out, err := send(t, sock, "token.create", TokenCreateArgs{Label: label})
		if err != nil {
			t.Fatal(err)
		}
		m := re.FindStringSubmatch(out)
		_, err = agent.Enroll(t.Context(), agent.EnrollOptions{StateDir: filepath.Join(dir, label), Coordinator: m[1],
			Token: m[2], Pin: m[3], Role: "machine"})
		return err
	}
	if err := enrol("m1"); err != nil {
		t.Fatalf("first machine: %v", err)
	}
	if err := enrol("m2"); err == nil || !strings.Contains(err.Error(), "licence allows 1 machines") {
		t.Fatalf("second machine under a one-machine licence: %v", err)
	}
	out, err := send(t, sock, "token.list", nil)
	if err != nil || strings.Count(out, " used ") != 1 || strings.Count(out, " active ") != 1 {
		t.Fatalf("token list after a refused enrolment:\n%s %v", out, err)
	}
}
