// Package ca is the managed deployment's certificate authority: an ECDSA
// P-256 key whose self-signed certificate is /etc/svc/ca.crt, member
// certificates, the CA pin and the revocation list.
//
// A member certificate's public key is the member's libp2p Ed25519 key, so a
// certificate names exactly one peer id; the subject carries the label
// (CommonName) and the role (OrganizationalUnit: machine, api or
// coordinator), and a URI SAN "svc-peer:<peer id>" repeats the peer id so
// that a reader need not derive it. A coordinator certificate also carries
// its endpoints (host:port) as IP/DNS SANs and "svc-endpoint:" URIs, which
// is what certificate rotate changes.
//
// The pin printed by token create is kubeadm's CA hash: "sha256:" and the
// hex sha256 of the CA certificate's SubjectPublicKeyInfo. Revocation is an
// X.509 CRL signed by the CA; the roster (coordinator/trust) carries it.
package ca
