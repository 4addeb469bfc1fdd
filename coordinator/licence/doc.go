// Package licence reads, signs and verifies the managed deployment's
// licence: a JSON document naming the licensee, its expiry and what it
// allows (machines, models, features), signed by the vendor with Ed25519.
//
// File format (what svc licence issue writes and licence install reads):
//
//	{"licence":{"licensee":…,"issued":…,"expires":…,"machines":N,"models":N,"features":[…]},
//	 "key":"<key id>","signature":"<base64>"}
//
// The signature covers the licence object's compact JSON (json.Compact of
// the bytes as they stand in the file), so whitespace does not matter but
// any change of a value does. The key id is the first 8 bytes of the
// sha256 of the vendor's raw public key, in hex. Verify accepts a licence
// signed by one of the trusted keys: the vendor key built into the program
// (vendor.pub; its private key is not in the repository and was not kept,
// so only keys named in coordinator.toml can sign usable licences in tests
// and private deployments) plus the keys configured.
package licence
