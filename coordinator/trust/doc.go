// Package trust is admission in a managed swarm: the roster the
// coordinator signs with the deployment CA (member certificates, the
// revocation list, the licence grant and model placements), its
// verification, and the admission every member (coordinator, agents, API)
// uses to gate connections and DHT records.
//
// A member keeps the newest roster it has verified (by Version), pushed by
// the coordinator on every change and fetched periodically from the
// coordinator or any other member, so the roster survives a coordinator
// outage and a removal reaches everyone within about a second. A roster
// only admits what its certificates prove: member certificates that do not
// verify, have expired or are on the CRL are left out.
package trust
