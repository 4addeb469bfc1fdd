//go:build linux

package server

import (
	"crypto/tls"
	"net"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// watchConn calls gone when the client closes its connection while its
// request is being answered, so that the generation stops and its sessions
// close instead of computing for nobody. fasthttp does not read the
// connection while a handler runs, so the watcher peeks (MSG_PEEK, never
// consuming a byte of a pipelined request) a few times a second. The
// returned function stops the watcher and waits for it. A TLS connection
// (the managed API's) is watched through the TCP connection beneath.
func watchConn(c net.Conn, gone func()) (stop func()) {
	if tc, ok := c.(*tls.Conn); ok {
		c = tc.NetConn()
	}
	sc, ok := c.(syscall.Conn)
	if !ok {
		return func() {}
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return func() {}
	}
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		buf := make([]byte, 1)
		for {
			select {
			case <-quit:
				return
			case <-t.C:
			}
			closed := false
			// Control, not Read: Read fails once the connection's read
			// deadline (fasthttp's ReadTimeout, counted from the start
			// of the request) has passed, which would take every answer
			// still streaming after it for a departed client.
			err := rc.Control(func(fd uintptr) {
				n, _, err := unix.Recvfrom(int(fd), buf, unix.MSG_PEEK|unix.MSG_DONTWAIT)
				switch {
				case err == nil && n == 0:
					closed = true // orderly shutdown by the peer
				case err != nil && err != unix.EAGAIN && err != unix.EINTR:
					closed = true // reset or otherwise broken
				case err == nil:
					// Bytes wait unread (a pipelined request, or a
					// TLS client's close_notify alert, which it sends
					// before closing): whether the peer shut down after
					// them only poll says.
					fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLRDHUP}}
					if k, err := unix.Poll(fds, 0); err == nil && k > 0 && fds[0].Revents&(unix.POLLRDHUP|unix.POLLHUP|unix.POLLERR) != 0 {
						closed = true
					}
				}
			})
			if err != nil || closed {
				gone()
				return
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			close(quit)
			wg.Wait()
		})
	}
}
