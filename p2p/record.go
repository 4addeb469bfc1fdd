package p2p

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"google.golang.org/protobuf/proto"

	"svc/p2p/wire"
)

// RecordProtocol returns the node's current signed announcement, the same
// bytes it puts in the DHT, straight from the node: the node writes the
// record and closes the stream.
const RecordProtocol = "/svc/record/1.0.0"

// RecordNamespace is the DHT namespace of announcement records: a node's
// record lives under "/svc/<peer id>".
const RecordNamespace = "svc"

// signDomain separates announcement signatures from anything else a libp2p
// key signs.
const signDomain = "svc-announce-v1\n"

// maxRecordBytes bounds a record before it is parsed.
const maxRecordBytes = 64 << 10

// DefaultMaxRecordTTL is the longest expiry a validator accepts: a record
// must not outlive its node by more than this.
const DefaultMaxRecordTTL = 10 * time.Minute

// ErrRecord is wrapped by every reason a record is rejected.
var ErrRecord = errors.New("invalid announcement record")

// RecordKey is the DHT key of id's announcement.
func RecordKey(id peer.ID) string { return "/" + RecordNamespace + "/" + id.String() }

// SignAnnouncement serialises a, signs it with key and returns the DHT value.
// a.PeerId is set from key.
func SignAnnouncement(key crypto.PrivKey, a *wire.Announcement) ([]byte, error) {
	return signRecord(key, a, nil)
}

// signRecord is SignAnnouncement with the credential that vouches for the
// signer in a managed swarm (Admission.Credential) attached.
func signRecord(key crypto.PrivKey, a *wire.Announcement, credential []byte) ([]byte, error) {
	id, err := peer.IDFromPrivateKey(key)
	if err != nil {
		return nil, fmt.Errorf("announcement: peer id of key: %w", err)
	}
	a.PeerId = []byte(id)
	body, err := proto.MarshalOptions{Deterministic: true}.Marshal(a)
	if err != nil {
		return nil, fmt.Errorf("announcement: encode: %w", err)
	}
	sig, err := key.Sign(append([]byte(signDomain), body...))
	if err != nil {
		return nil, fmt.Errorf("announcement: sign: %w", err)
	}
	pub, err := crypto.MarshalPublicKey(key.GetPublic())
	if err != nil {
		return nil, fmt.Errorf("announcement: encode public key: %w", err)
	}
	v, err := proto.Marshal(&wire.SignedRecord{Announcement: body, Signature: sig, PublicKey: pub, Credential: credential})
	if err != nil {
		return nil, fmt.Errorf("announcement: encode record: %w", err)
	}
	return v, nil
}

// OpenRecord checks a DHT value stored under key and returns its
// announcement: the key names a peer, the public key hashes to that peer, the
// signature verifies over the exact announcement bytes, the announcement names
// the same peer, and it has neither expired at now nor claims an expiry more
// than maxTTL ahead.
func OpenRecord(key string, value []byte, now time.Time, maxTTL time.Duration) (*wire.Announcement, peer.ID, error) {
	a, id, _, err := openRecord(key, value, now, maxTTL)
	return a, id, err
}

// openRecord is OpenRecord that also returns the record's credential.
func openRecord(key string, value []byte, now time.Time, maxTTL time.Duration) (*wire.Announcement, peer.ID, []byte, error) {
	rest, ok := strings.CutPrefix(key, "/"+RecordNamespace+"/")
	if !ok {
		return nil, "", nil, fmt.Errorf("%w: key %q is outside namespace /%s/", ErrRecord, key, RecordNamespace)
	}
	id, err := peer.Decode(rest)
	if err != nil {
		return nil, "", nil, fmt.Errorf("%w: key %q: %v", ErrRecord, key, err)
	}
	if len(value) > maxRecordBytes {
		return nil, "", nil, fmt.Errorf("%w: %d bytes exceeds %d", ErrRecord, len(value), maxRecordBytes)
	}
	var sr wire.SignedRecord
	if err := proto.Unmarshal(value, &sr); err != nil {
		return nil, "", nil, fmt.Errorf("%w: decode: %v", ErrRecord, err)
	}
	pub, err := crypto.UnmarshalPublicKey(sr.PublicKey)
	if err != nil {
		return nil, "", nil, fmt.Errorf("%w: public key: %v", ErrRecord, err)
	}
	signer, err := peer.IDFromPublicKey(pub)
	if err != nil {
		return nil, "", nil, fmt.Errorf("%w: public key: %v", ErrRecord, err)
	}
	if signer != id {
		return nil, "", nil, fmt.Errorf("%w: signed by %s, stored under %s", ErrRecord, signer, id)
	}
	okSig, err := pub.Verify(append([]byte(signDomain), sr.Announcement...), sr.Signature)
	if err != nil || !okSig {
		return nil, "", nil, fmt.Errorf("%w: bad signature", ErrRecord)
	}
	var a wire.Announcement
	if err := proto.Unmarshal(sr.Announcement, &a); err != nil {
		return nil, "", nil, fmt.Errorf("%w: decode announcement: %v", ErrRecord, err)
	}
	if !bytes.Equal(a.PeerId, []byte(id)) {
		return nil, "", nil, fmt.Errorf("%w: announcement names another peer", ErrRecord)
	}
	exp := time.UnixMilli(a.ExpiresUnixMs)
	if !exp.After(now) {
		return nil, "", nil, fmt.Errorf("%w: expired at %s", ErrRecord, exp.UTC().Format(time.RFC3339))
	}
	if exp.Sub(now) > maxTTL {
		return nil, "", nil, fmt.Errorf("%w: expiry %s is more than %s ahead", ErrRecord, exp.UTC().Format(time.RFC3339), maxTTL)
	}
	for _, s := range a.Models {
		if err := checkServed(s); err != nil {
			return nil, "", nil, err
		}
	}
	return &a, id, sr.Credential, nil
}

func checkServed(s *wire.Served) error {
	if b, err := hex.DecodeString(s.Digest); err != nil || len(b) != 32 {
		return fmt.Errorf("%w: model digest %q is not 64 hex digits", ErrRecord, s.Digest)
	}
	if s.Name == "" || len(s.Name) > 256 {
		return fmt.Errorf("%w: model name of %d bytes", ErrRecord, len(s.Name))
	}
	if s.First >= s.Last || s.Last > s.TotalBlocks || s.TotalBlocks > 1<<16 {
		return fmt.Errorf("%w: blocks [%d,%d) of %d", ErrRecord, s.First, s.Last, s.TotalBlocks)
	}
	if s.State != wire.ServeState_STATE_LOADING && s.State != wire.ServeState_STATE_ONLINE {
		return fmt.Errorf("%w: state %v", ErrRecord, s.State)
	}
	if !(s.MsPerToken >= 0) || s.MsPerToken > 1e7 {
		return fmt.Errorf("%w: speed %v ms/token", ErrRecord, s.MsPerToken)
	}
	return checkAdapters(s.Adapters)
}

// Validator is the DHT's record.Validator for the /svc/ namespace.
type Validator struct {
	// Now is the clock (time.Now when nil); tests move it.
	Now func() time.Time
	// MaxTTL bounds how far ahead an expiry may lie (DefaultMaxRecordTTL
	// when zero).
	MaxTTL time.Duration
	// Admission, when set, must accept the credential of every record's
	// signer (a managed swarm); nil admits every validly signed record.
	Admission Admission
}

func (v Validator) now() time.Time {
	if v.Now != nil {
		return v.Now()
	}
	return time.Now()
}

func (v Validator) maxTTL() time.Duration {
	if v.MaxTTL > 0 {
		return v.MaxTTL
	}
	return DefaultMaxRecordTTL
}

// Validate accepts a record only if Open does.
func (v Validator) Validate(key string, value []byte) error {
	_, _, err := v.Open(key, value)
	return err
}

// Open checks a record as OpenRecord does at the validator's clock, then
// has Admission (when set) check the signer's credential.
func (v Validator) Open(key string, value []byte) (*wire.Announcement, peer.ID, error) {
	a, id, cred, err := openRecord(key, value, v.now(), v.maxTTL())
	if err != nil {
		return nil, "", err
	}
	if v.Admission != nil {
		if err := v.Admission.CheckCredential(id, cred); err != nil {
			return nil, "", fmt.Errorf("%w: signer %s not admitted: %v", ErrRecord, id, err)
		}
	}
	return a, id, nil
}

// Select picks the valid record with the highest sequence number (the
// earliest of equals), so a node's refreshed record replaces its older ones.
func (v Validator) Select(key string, values [][]byte) (int, error) {
	best, bestSeq := -1, uint64(0)
	now := v.now()
	for i, val := range values {
		a, id, cred, err := openRecord(key, val, now, v.maxTTL())
		if err != nil {
			continue
		}
		if v.Admission != nil && v.Admission.CheckCredential(id, cred) != nil {
			continue
		}
		if best < 0 || a.Seq > bestSeq {
			best, bestSeq = i, a.Seq
		}
	}
	if best < 0 {
		return 0, fmt.Errorf("%w: none of %d values is valid", ErrRecord, len(values))
	}
	return best, nil
}

// handleRecord answers RecordProtocol with the last record this host
// published.
func (e *Endpoint) handleRecord(s network.Stream) {
	v := e.record.Load()
	if v == nil {
		_ = s.Reset()
		return
	}
	if err := s.Scope().SetService(ServiceRecord); err != nil {
		_ = s.Reset()
		return
	}
	_ = s.SetWriteDeadline(time.Now().Add(directTimeout))
	if _, err := s.Write(*v); err != nil {
		_ = s.Reset()
		return
	}
	_ = s.Close()
}

// LookupDirect asks the node for its current record and checks it as the
// DHT's validator would. It fails fast (directTimeout) when the node does
// not answer.
func (e *Endpoint) LookupDirect(ctx context.Context, id peer.ID) (*Member, error) {
	if id == e.Host.ID() {
		return nil, errors.New("own record")
	}
	ctx, cancel := context.WithTimeout(ctx, directTimeout)
	defer cancel()
	s, rd, err := openStream(ctx, e.Host, id, RecordProtocol, ServiceRecord)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	dl, _ := ctx.Deadline()
	_ = s.SetReadDeadline(dl)
	fr, err := rd.ReadAll(s, maxRecordBytes)
	defer fr.Free()
	if err != nil {
		_ = s.Reset()
		return nil, fmt.Errorf("read record: %w", err)
	}
	a, _, err := e.val.Open(RecordKey(id), fr.Payload)
	if err != nil {
		return nil, err
	}
	return &Member{ID: id, Record: a, Expires: time.UnixMilli(a.ExpiresUnixMs), Withdrawn: a.Withdrawn}, nil
}
