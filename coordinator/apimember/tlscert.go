package apimember

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"net"
	"os"
	"slices"
	"time"

	"svc/coordinator/agent"
	"svc/coordinator/ca"
)

// The API's TLS server certificate: an ECDSA P-256 key made here (it
// never leaves the machine), and a certificate the deployment CA signed for
// the configured host names. It is renewed when it expires within a third
// of its lifetime or no longer names the configured hosts.

// ensureTLS returns the API's TLS certificate, requesting a new one with
// request when the stored one is missing, stale or for other hosts.
func ensureTLS(ctx context.Context, f Files, caCert *x509.Certificate, hosts []string, now time.Time,
	request func(ctx context.Context, csr []byte) ([]byte, error)) (*tls.Certificate, error) {
	key, err := loadOrCreateTLSKey(f.TLSKey())
	if err != nil {
		return nil, err
	}
	if der, err := readPEM(f.TLSCert(), "CERTIFICATE"); err == nil {
		if c, err := checkTLSCert(der, key, caCert, hosts, now); err == nil && !renewDue(c, now) {
			return &tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: c}, nil
		}
	}
	csr, err := ca.ServerRequest(key, hosts)
	if err != nil {
		return nil, err
	}
	der, err := request(ctx, csr)
	if err != nil {
		return nil, fmt.Errorf("TLS certificate from the coordinator: %w", err)
	}
	c, err := checkTLSCert(der, key, caCert, hosts, now)
	if err != nil {
		return nil, fmt.Errorf("the coordinator issued an unusable TLS certificate: %w", err)
	}
	if err := agent.WriteFile(f.TLSCert(), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})); err != nil {
		return nil, err
	}
	return &tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: c}, nil
}

func renewDue(c *x509.Certificate, now time.Time) bool {
	life := c.NotAfter.Sub(c.NotBefore)
	return c.NotAfter.Sub(now) < life/3
}

// checkTLSCert checks that der is a server certificate of the CA for key,
// valid now, naming every host.
func checkTLSCert(der []byte, key *ecdsa.PrivateKey, caCert *x509.Certificate, hosts []string, now time.Time) (*x509.Certificate, error) {
	c, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	pub, ok := c.PublicKey.(*ecdsa.PublicKey)
	if !ok || !pub.Equal(&key.PublicKey) {
		return nil, errors.New("the certificate is not for this machine's TLS key")
	}
	roots := x509.NewCertPool()
	roots.AddCert(caCert)
	if _, err := c.Verify(x509.VerifyOptions{Roots: roots, CurrentTime: now, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}); err != nil {
		return nil, err
	}
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			if !slices.ContainsFunc(c.IPAddresses, func(a net.IP) bool { return a.Equal(ip) }) {
				return nil, fmt.Errorf("the certificate does not name %s", h)
			}
		} else if err := c.VerifyHostname(h); err != nil {
			return nil, err
		}
	}
	return c, nil
}

func loadOrCreateTLSKey(path string) (*ecdsa.PrivateKey, error) {
	if der, err := readPEM(path, "PRIVATE KEY"); err == nil {
		k, err := x509.ParsePKCS8PrivateKey(der)
		if err != nil {
			return nil, fmt.Errorf("TLS key %s: %w", path, err)
		}
		ek, ok := k.(*ecdsa.PrivateKey)
		if !ok {
			return nil, fmt.Errorf("TLS key %s is %T, want ECDSA", path, k)
		}
		return ek, nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("TLS key: %w", err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		return nil, fmt.Errorf("TLS key: %w", err)
	}
	if err := agent.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})); err != nil {
		return nil, err
	}
	return k, nil
}

// readPEM reads the first block of the given type from path.
func readPEM(path, typ string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	b, _ := pem.Decode(data)
	if b == nil || b.Type != typ {
		return nil, fmt.Errorf("%s: not a PEM %s", path, typ)
	}
	return b.Bytes, nil
}
