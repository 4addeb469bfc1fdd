// Package wire defines what svc nodes say to each other: the protobuf control
// messages of the forward and meta stream protocols and of the signed DHT
// announcement records (wire.proto, compiled to wire.pb.go with protoc-gen-go
// v1.36.12; regenerate with `go generate`), and the frame format that carries
// them.
//
// A frame is
//
//	u32 big-endian control length | u32 big-endian payload length | control | payload
//
// where control is one protobuf message and payload is raw bytes (a tensor as
// little-endian float32, or a GGUF header). Both lengths are checked against
// limits first, and a Reader reads each part into pooled memory that grows
// with the bytes that actually arrive (accounted to a Memory, such as a
// libp2p stream's resource-manager scope), so a peer that declares much and
// sends little costs little. The protocol ids and the handlers and clients
// that exchange these messages live in package p2p, one file per protocol.
package wire

//go:generate protoc --go_out=. --go_opt=paths=source_relative wire.proto
