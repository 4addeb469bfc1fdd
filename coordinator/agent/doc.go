// Package agent is a machine's side of the managed variant, behind
// svc-node-agent: enrolment (the machine's key, the possession proof, the
// pin check, the certificate), and running as a member of the swarm that
// admits only certified peers, keeps the newest signed roster (pushed by
// the coordinator, fetched every second otherwise, served to the other
// members), and stops when its certificate is revoked (ErrRemoved) or
// expires (ErrExpired, exit 77: restarting cannot help).
//
// State directory (/var/lib/svc-node-agent): node.key (the libp2p key,
// 0600), member.crt (its certificate), ca.crt (the deployment CA, checked
// against the pin at enrolment), roster (the newest verified roster),
// firewall.json (the swarm port's state, which the running agent follows),
// slices/ (sparse copies of the models placed on this machine, holding only
// the tensors of its blocks; see slices.go).
package agent
