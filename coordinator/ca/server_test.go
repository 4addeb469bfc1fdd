package ca

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"io"
	"net"
	"testing"
	"time"
)

// A server certificate from a request works for TLS with the CA as the
// only root, for the names requested and no other.
func TestIssueServer(t *testing.T) {
	now := time.Now()
	c, err := New(now, 24*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	csr, err := ServerRequest(key, []string{"api.example.internal", "127.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	der, err := c.IssueServer(now, "api-1", csr, now.Add(48*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	if !cert.NotAfter.Equal(c.Cert.NotAfter) {
		t.Errorf("not after %v, want the CA's %v", cert.NotAfter, c.Cert.NotAfter)
	}
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			_ = conn.(*tls.Conn).Handshake()
			_, _ = io.WriteString(conn, "ok")
			conn.Close()
		}
	}()
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.Cert.Raw}))
	for name, ok := range map[string]bool{"api.example.internal": true, "127.0.0.1": true, "other.example": false} {
		conn, err := tls.DialWithDialer(&net.Dialer{Timeout: 10 * time.Second}, "tcp", ln.Addr().String(), &tls.Config{RootCAs: pool, ServerName: name})
		if (err == nil) != ok {
			t.Errorf("TLS to %s: %v", name, err)
		}
		if conn != nil {
			conn.Close()
		}
	}
	// Requests that name nothing, too much, or something else are refused.
	other, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	for _, hosts := range [][]string{{"a..b"}, {"-a.b"}, {"a_b.c"}} {
		req, err := ServerRequest(other, hosts)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.IssueServer(now, "api-1", req, now.Add(time.Hour)); !errors.Is(err, ErrCertificate) {
			t.Errorf("hosts %v: %v", hosts, err)
		}
	}
	many := make([]string, MaxServerHosts+1)
	for i := range many {
		many[i] = "h" + string(rune('a'+i)) + ".example"
	}
	req, _ := ServerRequest(other, many)
	if _, err := c.IssueServer(now, "api-1", req, now.Add(time.Hour)); !errors.Is(err, ErrCertificate) {
		t.Errorf("%d hosts: %v", len(many), err)
	}
	if _, err := ServerRequest(other, nil); !errors.Is(err, ErrNoHosts) {
		t.Errorf("no hosts: %v", err)
	}
	tampered := append([]byte{}, csr...)
	tampered[len(tampered)-5] ^= 0xff
	if _, err := c.IssueServer(now, "api-1", tampered, now.Add(time.Hour)); err == nil {
		t.Error("a tampered request was signed")
	}
}
