//go:build !linux

package server

import "net"

// watchConn is not implemented off Linux: a departed client is noticed
// when a stream write fails, and a whole-body answer runs to its end.
func watchConn(net.Conn, func()) (stop func()) { return func() {} }
