package coordinator

import (
	"context"
	"crypto/hmac"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	bolt "go.etcd.io/bbolt"

	"svc/coordinator/audit"
	"svc/coordinator/ca"
	"svc/coordinator/store"
	"svc/p2p"
)

// enrolment is the daemon's p2p.EnrolAuthority.
type enrolment struct{ d *Daemon }

func (e enrolment) Challenge() ([]byte, []byte) {
	return e.d.ca.Cert.Raw, e.d.Certificate().Raw
}

func (e enrolment) Abandoned(p peer.ID, remote string, hello p2p.EnrolHello, reason string) {
	e.d.Record(audit.Record{Actor: "machine:" + p.String(), Kind: "enrol", Target: hello.TokenID, Outcome: audit.Refused,
		Detail: fmt.Sprintf("the machine at %s gave up: %s", remote, reason)})
}

// errEnrol is a refusal of enrolment, shown to the machine.
type errEnrol struct{ reason string }

func (e errEnrol) Error() string { return e.reason }

func (e enrolment) Complete(_ context.Context, p peer.ID, key crypto.PubKey, remote string, hello p2p.EnrolHello, nonce []byte, proof p2p.EnrolProof) (*p2p.EnrolResult, error) {
	d := e.d
	now := d.Now()
	rec := audit.Record{Actor: "machine:" + p.String(), Kind: "enrol", Target: hello.TokenID, Outcome: audit.OK}
	var member MemberRecord
	// Read before the update: bbolt must not open a read transaction
	// inside a write one on the same goroutine.
	lic, _ := d.Licence()
	err := d.st.Update(func(tx *bolt.Tx) error {
		var t Token
		ok, err := store.Get(tx, store.Tokens, hello.TokenID, &t)
		if err != nil {
			return err
		}
		if !ok {
			return errEnrol{"unknown token (check the token printed by svc-coordinator token create)"}
		}
		if !t.proven(proof, nonce, p, d.Certificate().Peer) {
			return errEnrol{"wrong token secret (check the token printed by svc-coordinator token create)"}
		}
		switch {
		case t.State == TokenUsed:
			return errEnrol{fmt.Sprintf("token %s was already used (by %s at %s); tokens are single-use: svc-coordinator token create", t.ID, t.UsedBy, t.UsedAt.Format(time.RFC3339))}
		case t.State == TokenRevoked:
			return errEnrol{fmt.Sprintf("token %s was revoked; ask for a new one: svc-coordinator token create", t.ID)}
		case !now.Before(t.Expires):
			return errEnrol{fmt.Sprintf("token %s expired at %s; ask for a new one: svc-coordinator token create", t.ID, t.Expires.Format(time.RFC3339))}
		}
		role := t.Role
		if hello.Role != "" && hello.Role != role {
			return errEnrol{fmt.Sprintf("token %s is for a %s, not a %s", t.ID, t.Role, hello.Role)}
		}
		label := t.Label
		if label == "" {
			label = hello.Label
		} else if hello.Label != "" && hello.Label != label {
			return errEnrol{fmt.Sprintf("token %s is for the machine labelled %s, not %s", t.ID, t.Label, hello.Label)}
		}
		if err := validLabel(label); err != nil {
			return errEnrol{err.Error() + " (enroll --label NAME)"}
		}
		var old MemberRecord
		if ok, _ := store.Get(tx, store.Members, label, &old); ok && old.Removed.IsZero() {
			return errEnrol{fmt.Sprintf("label %s is taken by an enrolled machine (svc-coordinator node remove %s first)", label, label)}
		}
		if role == ca.RoleMachine {
			if lic != nil && lic.Machines > 0 && countMachines(tx) >= lic.Machines {
				return errEnrol{fmt.Sprintf("the licence allows %d machines and %d are enrolled", lic.Machines, countMachines(tx))}
			}
		}
		m, err := d.ca.Issue(now, ca.IssueRequest{Key: key, Label: label, Role: role, Lifetime: d.Cfg.CertificateLifetime.Duration})
		if err != nil {
			return errEnrol{err.Error()}
		}
		if m.Peer != p {
			return fmt.Errorf("issued certificate names %s, connection is %s", m.Peer, p)
		}
		member = MemberRecord{Label: label, Peer: p.String(), Role: role, Serial: m.Serial.String(), Cert: m.Raw,
			NotAfter: m.NotAfter.UTC(), Enrolled: now.UTC(), Token: t.ID, Memory: hello.Memory}
		if err := store.Put(tx, store.Members, label, member); err != nil {
			return err
		}
		t.State, t.UsedBy, t.UsedAt = TokenUsed, label, now.UTC()
		if err := store.Put(tx, store.Tokens, t.ID, t); err != nil {
			return err
		}
		rec.Detail = fmt.Sprintf("%s %s enrolled from %s", role, label, remote)
		if _, err := audit.Append(tx, rec); err != nil {
			return err
		}
		_, err = audit.Append(tx, audit.Record{Actor: "coordinator", Kind: "certificate.issue", Target: label,
			Detail: fmt.Sprintf("serial %s, peer %s, expires %s", m.Serial, p, m.NotAfter.UTC().Format(time.RFC3339))})
		return err
	})
	var refusal errEnrol
	if errors.As(err, &refusal) {
		rec.Outcome, rec.Detail = audit.Refused, fmt.Sprintf("from %s: %s", remote, refusal.reason)
		d.Record(rec)
		return nil, refusal
	}
	if err != nil {
		d.Log.Error("enrolment failed", "peer", p, "err", err)
		rec.Outcome, rec.Detail = audit.Failed, err.Error()
		d.Record(rec)
		return nil, errors.New("the coordinator could not record the enrolment; try again")
	}
	d.changed()
	roster, _ := d.Roster()
	return &p2p.EnrolResult{Certificate: member.Cert, Roster: roster, Swarm: d.SwarmAddrs()}, nil
}

// proven checks a machine's possession proof: the signature against the
// stored verifier, or for a token stored before verifiers (SecretHash
// only) the first protocol's MAC.
func (t *Token) proven(proof p2p.EnrolProof, nonce []byte, machine, coordinator peer.ID) bool {
	if t.Verifier != "" {
		pub, err := hex.DecodeString(t.Verifier)
		return err == nil && p2p.EnrolVerify(pub, nonce, machine, coordinator, proof.Sig)
	}
	key, err := hex.DecodeString(t.SecretHash)
	return err == nil && len(key) > 0 && len(proof.MAC) > 0 && hmac.Equal(proof.MAC, p2p.EnrolMAC(key, nonce, machine, coordinator))
}
