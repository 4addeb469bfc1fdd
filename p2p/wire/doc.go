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
// limits before anything is allocated, so a hostile peer cannot make a node
// allocate more than the limit or wait for bytes that never come without the
// stream's deadline firing.
package wire

//go:generate protoc --go_out=. --go_opt=paths=source_relative wire.proto
