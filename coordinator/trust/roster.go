package trust

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"svc/coordinator/ca"
)

// Placement states (SPEC §3).
const (
	StateLoading     = "loading"
	StateServed      = "served"
	StateUnavailable = "unavailable"
)

// Slice is one machine's part of a model: blocks [First, Last).
type Slice struct {
	Peer  string `json:"peer"`
	Label string `json:"label"`
	First int    `json:"first"`
	Last  int    `json:"last"`
	// State is the machine's own: loading, served (loaded and online) or
	// unavailable, with Reason.
	State  string `json:"state,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// Placement is a model served by the deployment.
type Placement struct {
	Name   string `json:"name"`
	Digest string `json:"digest"`
	// Blocks is the model's number of blocks.
	Blocks int `json:"blocks"`
	// Manifest is the sha256 of the model's manifest (per-tensor hashes),
	// which machines check fetched slices against.
	Manifest string  `json:"manifest,omitempty"`
	Replicas int     `json:"replicas,omitempty"`
	State    string  `json:"state"`
	Reason   string  `json:"reason,omitempty"`
	Slices   []Slice `json:"slices"`
	// Extra carries what the placement room adds (adapters, sources)
	// without changing this type.
	Extra json.RawMessage `json:"extra,omitempty"`
}

// Grant is the coordinator's word on the licence, signed into the roster
// so that members refuse work once it has expired without asking.
type Grant struct {
	Licensee string    `json:"licensee"`
	Expires  time.Time `json:"expires"`
	Machines int       `json:"machines"`
	Models   int       `json:"models"`
	Features []string  `json:"features,omitempty"`
}

// Roster is the deployment's membership as the coordinator signs it.
type Roster struct {
	// Version grows with every change; a member keeps the highest.
	Version uint64    `json:"version"`
	Issued  time.Time `json:"issued"`
	// Coordinator is the coordinator's certificate (DER); its endpoints
	// say where members find it.
	Coordinator []byte `json:"coordinator"`
	// CoordinatorAddrs are its swarm multiaddrs.
	CoordinatorAddrs []string `json:"coordinator_addrs,omitempty"`
	// Members are the certificates (DER) of every enrolled member.
	Members [][]byte `json:"members"`
	// CRL is the signed revocation list (DER).
	CRL        []byte      `json:"crl"`
	Grant      *Grant      `json:"grant,omitempty"`
	Placements []Placement `json:"placements,omitempty"`
}

// Signed is a roster on the wire: its JSON and the CA's ECDSA signature
// over sha256 of a domain string and exactly those bytes.
type Signed struct {
	Roster    json.RawMessage `json:"roster"`
	Signature []byte          `json:"signature"`
}

// signDomain keeps roster signatures apart from anything else the CA key
// signs (certificates and CRLs are DER and never start with it).
const signDomain = "svc-roster-v1\n"

// ErrRoster is wrapped by every reason a roster is refused.
var ErrRoster = errors.New("roster refused")

// MaxRosterBytes bounds a roster before it is parsed.
const MaxRosterBytes = 16 << 20

// Sign signs r with the CA key.
func Sign(r *Roster, key crypto.Signer) ([]byte, error) {
	body, err := json.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("roster: encode: %w", err)
	}
	sum := sha256.Sum256(append([]byte(signDomain), body...))
	sig, err := key.Sign(rand.Reader, sum[:], crypto.SHA256)
	if err != nil {
		return nil, fmt.Errorf("roster: sign: %w", err)
	}
	out, err := json.Marshal(Signed{Roster: body, Signature: sig})
	if err != nil {
		return nil, fmt.Errorf("roster: encode: %w", err)
	}
	return out, nil
}

// View is a verified roster: who is admitted and what is served.
type View struct {
	Roster
	// Raw is the signed roster as received, to pass on to other members.
	Raw    []byte
	CRLSet *ca.CRLSet
	// Coord is the coordinator's verified certificate.
	Coord  *ca.Member
	byPeer map[peer.ID]*ca.Member
	// Dropped counts member certificates left out (expired, revoked or
	// not verifying).
	Dropped int
}

// Open verifies a signed roster against the CA at now: the signature, the
// coordinator's certificate, the CRL; member certificates that do not
// verify (expired, foreign) or are revoked are left out, so a stale
// roster can only admit less.
func Open(caCert *x509.Certificate, data []byte, now time.Time) (*View, error) {
	if len(data) > MaxRosterBytes {
		return nil, fmt.Errorf("%w: %d bytes exceeds %d", ErrRoster, len(data), MaxRosterBytes)
	}
	var s Signed
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrRoster, err)
	}
	pub, ok := caCert.PublicKey.(*ecdsa.PublicKey)
	if !ok {
		return nil, fmt.Errorf("%w: CA key is %T", ErrRoster, caCert.PublicKey)
	}
	sum := sha256.Sum256(append([]byte(signDomain), s.Roster...))
	if !ecdsa.VerifyASN1(pub, sum[:], s.Signature) {
		return nil, fmt.Errorf("%w: not signed by this deployment's CA", ErrRoster)
	}
	v := &View{Raw: data, byPeer: map[peer.ID]*ca.Member{}}
	if err := json.NewDecoder(bytes.NewReader(s.Roster)).Decode(&v.Roster); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrRoster, err)
	}
	crl, err := ca.ParseCRL(caCert, v.CRL)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrRoster, err)
	}
	v.CRLSet = crl
	coord, err := ca.Verify(caCert, v.Coordinator, now)
	if err != nil {
		return nil, fmt.Errorf("%w: coordinator certificate: %v", ErrRoster, err)
	}
	if coord.Role != ca.RoleCoordinator {
		return nil, fmt.Errorf("%w: the coordinator certificate has role %s", ErrRoster, coord.Role)
	}
	v.Coord = coord
	v.byPeer[coord.Peer] = coord
	for _, der := range v.Members {
		m, err := ca.Verify(caCert, der, now)
		if err != nil || crl.Revoked(m.Serial) || m.Role == ca.RoleCoordinator {
			v.Dropped++
			continue
		}
		v.byPeer[m.Peer] = m
	}
	return v, nil
}

// Member returns the admitted member with peer id p.
func (v *View) Member(p peer.ID) (*ca.Member, bool) {
	if v == nil {
		return nil, false
	}
	m, ok := v.byPeer[p]
	return m, ok
}

// Admitted lists the admitted members, the coordinator included.
func (v *View) Admitted() []*ca.Member {
	out := make([]*ca.Member, 0, len(v.byPeer))
	for _, m := range v.byPeer {
		out = append(out, m)
	}
	return out
}

// Placement returns the placement of model name.
func (v *View) Placement(name string) (*Placement, bool) {
	for i := range v.Placements {
		if v.Placements[i].Name == name {
			return &v.Placements[i], true
		}
	}
	return nil, false
}

// ErrLicenceExpired is wrapped by GrantError when the grant has expired.
var ErrLicenceExpired = errors.New("the deployment's licence has expired")

// GrantError says whether members may take new work at now: an error once
// the licence grant the roster carries has expired (nil when no licence is
// installed: the deployment then runs without one).
func (v *View) GrantError(now time.Time) error {
	if v == nil || v.Grant == nil {
		return nil
	}
	if !now.Before(v.Grant.Expires) {
		return fmt.Errorf("%w (at %s); the operator installs a new one with svc-coordinator licence install", ErrLicenceExpired, v.Grant.Expires.UTC().Format(time.RFC3339))
	}
	return nil
}

// PlacedAdapter is a LoRA adapter placed with its model's slices: every
// machine holding a slice fetches the adapter's pairs of its blocks and
// serves the model with it as "<model>-<Name>".
type PlacedAdapter struct {
	Name string `json:"name"`
	// Digest is the adapter file's sha256 (hex), its identity in the swarm.
	Digest string `json:"digest"`
	// Manifest is the hash of the adapter's manifest (package slice).
	Manifest string `json:"manifest"`
}

// placementExtra is what Placement.Extra holds.
type placementExtra struct {
	Adapters []PlacedAdapter `json:"adapters,omitempty"`
}

// Adapters lists the adapters placed with the model (none when Extra holds
// none, or is not understood).
func (p *Placement) Adapters() []PlacedAdapter {
	if len(p.Extra) == 0 {
		return nil
	}
	var x placementExtra
	if json.Unmarshal(p.Extra, &x) != nil {
		return nil
	}
	return x.Adapters
}

// SetAdapters records the adapters placed with the model in Extra.
func (p *Placement) SetAdapters(as []PlacedAdapter) error {
	if len(as) == 0 {
		p.Extra = nil
		return nil
	}
	b, err := json.Marshal(placementExtra{Adapters: as})
	if err != nil {
		return fmt.Errorf("trust: encode adapters: %w", err)
	}
	p.Extra = b
	return nil
}
