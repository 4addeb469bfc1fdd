//go:build linux

package server

import (
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
	var clientClosed, goneEarly atomic.Bool
	gone := make(chan struct{})
	stop := watchConn(srv, func() {
		goneEarly.Store(!clientClosed.Load())
		close(gone)
	})
	defer stop()
	// Several of the watcher's peeks (every 100 ms) pass with the client
	// connected and the deadline gone.
	time.Sleep(500 * time.Millisecond)
	clientClosed.Store(true)
	client.Close()
	select {
	case <-gone:
	case <-time.After(30 * time.Second):
		t.Fatal("the client's closing was not noticed")
	}
	if goneEarly.Load() {
		t.Fatal("the watcher took a connection past its read deadline for a departed client")
	}
}
