package ca

import (
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"
)

// MaxServerHosts bounds the host names of one TLS server certificate.
const MaxServerHosts = 16

// IssueServer signs a TLS server certificate for the API member label from
// its certificate request: the request's own key (which never leaves the
// API's machine) and its host names (DNS names and IP addresses), valid
// from now until notAfter (at most the CA's own expiry). The request's
// signature proves the requester holds the key.
func (c *CA) IssueServer(now time.Time, label string, csrDER []byte, notAfter time.Time) ([]byte, error) {
	if err := checkLabel(label); err != nil {
		return nil, err
	}
	csr, err := x509.ParseCertificateRequest(csrDER)
	if err != nil {
		return nil, fmt.Errorf("%w: certificate request: %v", ErrCertificate, err)
	}
	if err := csr.CheckSignature(); err != nil {
		return nil, fmt.Errorf("%w: certificate request signature: %v", ErrCertificate, err)
	}
	n := len(csr.DNSNames) + len(csr.IPAddresses)
	if n == 0 || n > MaxServerHosts || len(csr.URIs) > 0 || len(csr.EmailAddresses) > 0 {
		return nil, fmt.Errorf("%w: a server certificate names 1 to %d host names or addresses and nothing else (the request names %d)",
			ErrCertificate, MaxServerHosts, n)
	}
	for _, h := range csr.DNSNames {
		if err := checkHostName(h); err != nil {
			return nil, err
		}
	}
	if notAfter.After(c.Cert.NotAfter) {
		notAfter = c.Cert.NotAfter
	}
	if !notAfter.After(now) {
		return nil, fmt.Errorf("%w: the server certificate would expire at once", ErrCertificate)
	}
	serial, err := newSerial()
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject: pkix.Name{
			CommonName:         label,
			OrganizationalUnit: []string{RoleAPI + "-tls"},
			Organization:       []string{organization},
		},
		NotBefore:             now.Add(-time.Minute),
		NotAfter:              notAfter,
		KeyUsage:              x509.KeyUsageDigitalSignature,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		DNSNames:              csr.DNSNames,
		IPAddresses:           csr.IPAddresses,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, c.Cert, csr.PublicKey, c.key)
	if err != nil {
		return nil, fmt.Errorf("ca: sign server certificate: %w", err)
	}
	return der, nil
}

// checkHostName accepts a DNS name (labels of letters, digits and hyphens,
// a leading "*." wildcard is refused: each API names its hosts).
func checkHostName(h string) error {
	if len(h) == 0 || len(h) > 253 || net.ParseIP(h) != nil {
		return fmt.Errorf("%w: host name %q", ErrCertificate, h)
	}
	for _, l := range strings.Split(h, ".") {
		if l == "" || len(l) > 63 || strings.HasPrefix(l, "-") || strings.HasSuffix(l, "-") {
			return fmt.Errorf("%w: host name %q", ErrCertificate, h)
		}
		for _, r := range l {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
				return fmt.Errorf("%w: host name %q", ErrCertificate, h)
			}
		}
	}
	return nil
}

// ErrNoHosts is returned by ServerRequest without host names.
var ErrNoHosts = errors.New("name at least one host (a DNS name or an IP address) for the API's TLS certificate")

// ServerRequest makes the certificate request of a TLS server key for
// hosts (each a DNS name or an IP address).
func ServerRequest(key any, hosts []string) ([]byte, error) {
	if len(hosts) == 0 {
		return nil, ErrNoHosts
	}
	tmpl := &x509.CertificateRequest{Subject: pkix.Name{Organization: []string{organization}}}
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	der, err := x509.CreateCertificateRequest(rand.Reader, tmpl, key)
	if err != nil {
		return nil, fmt.Errorf("ca: certificate request: %w", err)
	}
	return der, nil
}
