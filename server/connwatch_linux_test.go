//go:build linux

package server

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"io"
	"math/big"
	"net"
	"sync/atomic"
	"testing"
	"time"
)

// TestWatchConnPastDeadline: a connection whose read deadline has passed
// (fasthttp's ReadTimeout runs from the start of the request, and a long
// answer streams past it) is not taken for a departed client while the
// client is still there, and its closing is still noticed.
func TestWatchConnPastDeadline(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	client, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	srv, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if err := srv.SetReadDeadline(time.Now().Add(-time.Second)); err != nil {
		t.Fatal(err)
	}
	// Several of the watcher's peeks (every 100 ms) pass with the client
	// connected and the deadline gone.
	checkCloseNoticed(t, srv, client, "the client's closing was not noticed",
		"the watcher took a connection past its read deadline for a departed client")
}

// TestWatchConnTLS: a client of a TLS connection (the managed API's) that
// closes it is noticed, as a plain connection's is: through the TCP
// connection beneath, although the client's close_notify alert waits
// unread before the end of its stream.
func TestWatchConnTLS(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := tls.NewListener(tcp, &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}})
	defer ln.Close()
	roots := x509.NewCertPool()
	roots.AddCert(cert)
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err == nil {
			err = c.(*tls.Conn).Handshake()
		}
		if err != nil {
			close(accepted)
			return
		}
		accepted <- c
	}()
	client, err := tls.Dial("tcp", tcp.Addr().String(), &tls.Config{RootCAs: roots})
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	srv, ok := <-accepted
	if !ok {
		t.Fatal("the TLS handshake failed")
	}
	defer srv.Close()
	checkCloseNoticed(t, srv, client, "the TLS client's closing was not noticed",
		"the watcher took a connected TLS client for a departed one")
}

// checkCloseNoticed watches srv, lets several of the watcher's peeks pass
// with the client connected, closes the client and fails with notNoticed
// unless the watcher reports it gone, or with early if it did so before.
func checkCloseNoticed(t *testing.T, srv net.Conn, client io.Closer, notNoticed, early string) {
	t.Helper()
	var clientClosed, goneEarly atomic.Bool
	gone := make(chan struct{})
	stop := watchConn(srv, func() {
		goneEarly.Store(!clientClosed.Load())
		close(gone)
	})
	defer stop()
	time.Sleep(500 * time.Millisecond)
	clientClosed.Store(true)
	client.Close()
	select {
	case <-gone:
	case <-time.After(30 * time.Second):
		t.Fatal(notNoticed)
	}
	if goneEarly.Load() {
		t.Fatal(early)
	}
}
