// Package apikey is the managed variant's API keys, shared by the three
// places that handle them: the coordinator issues and stores them, the
// swarm carries the key set to the API members (p2p/apikeys.go), and the
// API checks every request's bearer key against it (server).
//
// A key is "svc_<id>_<secret>": an id of 8 and a secret of 32 characters
// [a-z0-9]. It is printed once, when it is created; only its SHA-256 is
// stored and carried. The id finds the record, the hash (compared in
// constant time) proves the key. A record holds the key's name, its scope
// (model names, or "*" for every model), its expiry, its rate limit (requests
// per minute) and whether it was revoked. The key set has a version that
// grows with every change, so a holder asks only for what is newer.
//
// Ring is the API's copy of the key set: it fetches the set from a Source
// by version, keeps the last one on disk so that a restarted API serves the
// keys it knew during a short coordinator outage, and answers Check for
// every request without waiting on the network.
package apikey
