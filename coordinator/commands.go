package coordinator

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"net"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	bolt "go.etcd.io/bbolt"

	"svc/coordinator/audit"
	"svc/coordinator/ca"
	"svc/coordinator/licence"
	"svc/coordinator/store"
	"svc/coordinator/trust"
	"svc/p2p"
	"svc/shards/model"
)

func (d *Daemon) registerBuiltins() {
	d.Handle("status", d.cmdStatus)
	d.Handle("token.create", d.cmdTokenCreate)
	d.Handle("token.list", d.cmdTokenList)
	d.Handle("token.revoke", d.cmdTokenRevoke)
	d.Handle("node.list", d.cmdNodeList)
	d.Handle("node.remove", d.cmdNodeRemove)
	d.Handle("licence.install", d.cmdLicenceInstall)
	d.Handle("licence.show", d.cmdLicenceShow)
	d.Handle("firewall.open", d.cmdFirewallOpen)
	d.Handle("firewall.close", d.cmdFirewallClose)
	d.Handle("firewall.status", d.cmdFirewallStatus)
	d.Handle("audit.show", d.cmdAuditShow)
	d.Handle("audit.verify", d.cmdAuditVerify)
	d.Handle("audit.export", d.cmdAuditExport)
	d.Handle("certificate.rotate", d.cmdCertificateRotate)
	d.Handle("backup", d.cmdBackup)
}

func (d *Daemon) cmdStatus(_ context.Context, c *Call) error {
	m := d.Certificate()
	c.Printf("coordinator %s\nendpoint    %s\nCA pin      %s\n", m.Peer, strings.Join(m.Endpoints, ", "), ca.Pin(d.ca.Cert))
	return nil
}

// Token is an enrolment token as stored. Of the secret only Verifier is
// kept: the public half of the key the secret gives (p2p.EnrolVerifier),
// which checks a machine's proof but cannot make one, so a copy of the
// state file does not let anyone use an unused token.
type Token struct {
	ID string `json:"id"`
	// Verifier is p2p.EnrolVerifier of the secret, hex.
	Verifier string `json:"verifier,omitempty"`
	// SecretHash is how tokens created before Verifier stored their
	// secret: the key of the first protocol's proof (p2p.EnrolKey). Such
	// a token is still accepted until it is used or expires.
	SecretHash string    `json:"secret_hash,omitempty"`
	Label      string    `json:"label,omitempty"`
	Role       string    `json:"role"`
	Created    time.Time `json:"created"`
	Expires    time.Time `json:"expires"`
	CreatedBy  string    `json:"created_by"`
	State      string    `json:"state"` // active, used, revoked
	UsedBy     string    `json:"used_by,omitempty"`
	UsedAt     time.Time `json:"used_at,omitzero"`
}

// Token states.
const (
	TokenActive  = "active"
	TokenUsed    = "used"
	TokenRevoked = "revoked"
)

// tokenAlphabet is kubeadm's: lower-case letters and digits.
const tokenAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789"

func randomString(n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("token: %w", err)
	}
	for i := range b {
		// 252 = 7·36: drawing again above it keeps every letter equally likely.
		for b[i] >= 252 {
			var one [1]byte
			if _, err := rand.Read(one[:]); err != nil {
				return "", fmt.Errorf("token: %w", err)
			}
			b[i] = one[0]
		}
		b[i] = tokenAlphabet[int(b[i])%len(tokenAlphabet)]
	}
	return string(b), nil
}

// ParseToken splits "id.secret" (6 and 16 characters of [a-z0-9]).
func ParseToken(t string) (id, secret string, err error) {
	id, secret, ok := strings.Cut(strings.TrimSpace(t), ".")
	valid := func(s string, n int) bool {
		if len(s) != n {
			return false
		}
		for _, r := range s {
			if !strings.ContainsRune(tokenAlphabet, r) {
				return false
			}
		}
		return true
	}
	if !ok || !valid(id, 6) || !valid(secret, 16) {
		return "", "", fmt.Errorf("token %q is not of the form abcdef.0123456789abcdef (as token create prints it)", t)
	}
	return id, secret, nil
}

// TokenCreateArgs are token create's arguments.
type TokenCreateArgs struct {
	TTL   string `json:"ttl,omitempty"`
	Label string `json:"label,omitempty"`
	Role  string `json:"role,omitempty"`
}

func (d *Daemon) cmdTokenCreate(_ context.Context, c *Call) error {
	var a TokenCreateArgs
	if err := c.Args(&a); err != nil {
		return err
	}
	ttl := d.Cfg.TokenTTL.Duration
	if a.TTL != "" {
		v, err := time.ParseDuration(a.TTL)
		if err != nil || v < time.Minute || v > 30*24*time.Hour {
			return fmt.Errorf("--ttl %q must be a duration from 1m to 720h", a.TTL)
		}
		ttl = v
	}
	if a.Role == "" {
		a.Role = ca.RoleMachine
	}
	if a.Role != ca.RoleMachine && a.Role != ca.RoleAPI {
		return fmt.Errorf("--role %q must be machine or api", a.Role)
	}
	if a.Label != "" {
		if err := validLabel(a.Label); err != nil {
			return err
		}
	}
	id, err := randomString(6)
	if err != nil {
		return err
	}
	secret, err := randomString(16)
	if err != nil {
		return err
	}
	now := d.Now()
	t := Token{ID: id, Verifier: hex.EncodeToString(p2p.EnrolVerifier(secret)), Label: a.Label, Role: a.Role, Created: now.UTC(),
		Expires: now.Add(ttl).UTC(), CreatedBy: c.Actor, State: TokenActive}
	c.Target(id)
	err = c.Commit(func(tx *bolt.Tx) error {
		if a.Label != "" {
			var m MemberRecord
			if ok, _ := store.Get(tx, store.Members, a.Label, &m); ok && m.Removed.IsZero() {
				return fmt.Errorf("label %q is taken by an enrolled machine (node remove %s first)", a.Label, a.Label)
			}
		}
		return store.Put(tx, store.Tokens, id, t)
	}, audit.Record{Detail: fmt.Sprintf("role %s, label %q, expires %s", a.Role, a.Label, t.Expires.Format(time.RFC3339))})
	if err != nil {
		return err
	}
	pin := ca.Pin(d.ca.Cert)
	program, labelFlag := "svc-node-agent", ""
	if a.Role == ca.RoleAPI {
		program = "svc-api"
	}
	if a.Label == "" {
		labelFlag = " --label NAME"
	}
	c.Printf("token:   %s.%s\nexpires: %s\nca pin:  %s\n\nOn the machine, run:\n  %s enroll --coordinator %s --token %s.%s --ca-pin %s%s\n",
		id, secret, t.Expires.Format(time.RFC3339), pin, program, d.EnrolAddr(), id, secret, pin, labelFlag)
	return nil
}

// EnrolAddr is the multiaddr of the enrolment port, with the coordinator's
// peer id.
func (d *Daemon) EnrolAddr() string {
	m := d.Certificate()
	host := "127.0.0.1"
	if len(m.Endpoints) > 0 {
		if h, _, err := net.SplitHostPort(m.Endpoints[0]); err == nil {
			host = h
		}
	}
	port := d.Cfg.EnrolPort
	if p := d.enrolPort(); p != 0 {
		port = p
	}
	return fmt.Sprintf("%s/tcp/%d/p2p/%s", hostMultiaddr(host), port, m.Peer)
}

func hostMultiaddr(host string) string {
	if ip := net.ParseIP(host); ip != nil {
		if ip.To4() != nil {
			return "/ip4/" + ip.String()
		}
		return "/ip6/" + ip.String()
	}
	return "/dns/" + host
}

func validLabel(l string) error {
	if l == "" || len(l) > 63 {
		return fmt.Errorf("label %q must be 1 to 63 characters", l)
	}
	for _, r := range l {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return fmt.Errorf("label %q may hold only letters, digits, '-', '_' and '.'", l)
		}
	}
	if l == "coordinator" {
		return fmt.Errorf("label %q is the coordinator's own", l)
	}
	return nil
}

func (d *Daemon) cmdTokenList(_ context.Context, c *Call) error {
	now := d.Now()
	w := tabwriter.NewWriter(&c.text, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tROLE\tLABEL\tSTATE\tEXPIRES\tCREATED BY\tUSED BY")
	err := d.st.View(func(tx *bolt.Tx) error {
		return store.Each(tx, store.Tokens, func(_ string, t Token) error {
			state := t.State
			if state == TokenActive && !now.Before(t.Expires) {
				state = "expired"
			}
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", t.ID, t.Role, dash(t.Label), state, t.Expires.Format(time.RFC3339), t.CreatedBy, dash(t.UsedBy))
			return nil
		})
	})
	w.Flush()
	return err
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// IDArgs names one thing.
type IDArgs struct {
	ID string `json:"id"`
}

func (d *Daemon) cmdTokenRevoke(_ context.Context, c *Call) error {
	var a IDArgs
	if err := c.Args(&a); err != nil {
		return err
	}
	id, _, found := strings.Cut(a.ID, ".")
	if found {
		return fmt.Errorf("give the token's id (%s), not the whole token", id)
	}
	c.Target(id)
	return c.Commit(func(tx *bolt.Tx) error {
		var t Token
		ok, err := store.Get(tx, store.Tokens, id, &t)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("no token %q (token list shows them)", id)
		}
		if t.State != TokenActive {
			return fmt.Errorf("token %s is already %s", id, t.State)
		}
		t.State = TokenRevoked
		return store.Put(tx, store.Tokens, id, t)
	}, audit.Record{})
}

// MemberRecord is an enrolled member as stored, by label.
type MemberRecord struct {
	Label    string    `json:"label"`
	Peer     string    `json:"peer"`
	Role     string    `json:"role"`
	Serial   string    `json:"serial"`
	Cert     []byte    `json:"cert"`
	NotAfter time.Time `json:"not_after"`
	Enrolled time.Time `json:"enrolled"`
	Token    string    `json:"token"`
	Removed  time.Time `json:"removed,omitzero"`
	// Memory is what the machine reported it can give to slices (bytes).
	Memory int64 `json:"memory,omitempty"`
	// PromptCache is what each slice's prompt cache may take on the
	// machine, as it reported (bytes; counted with every slice placed).
	PromptCache int64 `json:"prompt_cache,omitempty"`
	// KVCache is what each slice's KV cache (its sessions' keys and
	// values) may take on the machine, as it reported (bytes; 0: auto,
	// p2p.SliceCacheBytes of each slice, as is an agent that predates it
	// and reports none; counted with every slice placed).
	KVCache int64 `json:"kv_cache,omitempty"`
}

// SliceCaches is what a slice of blocks of a model (config c) placed on
// the machine takes besides its blocks' bytes: its node's prompt cache
// and KV cache, the latter p2p.SliceCacheBytes as the agent computes it
// for the node (kv_cache auto: 2GiB, or one session of the model's whole
// context on these blocks where that is more).
func (m MemberRecord) SliceCaches(c model.Config, blocks int) uint64 {
	return uint64(max(m.PromptCache, 0)) + uint64(p2p.SliceCacheBytes(c, blocks, max(m.KVCache, 0)))
}

// KVCacheText is the machine's kv_cache as agent.toml spells it.
func (m MemberRecord) KVCacheText() string {
	if m.KVCache <= 0 {
		return "auto"
	}
	return p2p.SizeText(m.KVCache)
}

// mibs is n bytes in whole MiB, rounded up; mib writes it with the unit.
func mibs(n uint64) uint64 { return (n + 1<<20 - 1) >> 20 }

func mib(n uint64) string { return fmt.Sprintf("%d MiB", mibs(n)) }

// RevokedRecord is a revoked certificate, by serial.
type RevokedRecord struct {
	Serial string    `json:"serial"`
	Label  string    `json:"label"`
	Peer   string    `json:"peer"`
	At     time.Time `json:"at"`
}

func (d *Daemon) cmdNodeList(_ context.Context, c *Call) error {
	var ms []MemberRecord
	if err := d.st.View(func(tx *bolt.Tx) error {
		return store.Each(tx, store.Members, func(_ string, m MemberRecord) error {
			ms = append(ms, m)
			return nil
		})
	}); err != nil {
		return err
	}
	slices := d.slicesByPeer()
	counted := d.slicesCaches(ms)
	now := d.Now()
	d.models.mu.Lock()
	free := maps.Clone(d.models.available)
	d.models.mu.Unlock()
	w := tabwriter.NewWriter(&c.text, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "LABEL\tROLE\tSTATE\tMEMORY FREE\tCACHES A SLICE\tSLICES\tCERTIFICATE EXPIRES\tPEER")
	for _, m := range ms {
		state := d.memberState(m, now)
		sl := strings.Join(slices[m.Peer], " ")
		memory := "-"
		if f, ok := free[m.Peer]; ok && state == "online" {
			memory = fmt.Sprintf("%.1f GiB", float64(f)/(1<<30))
		}
		// What placement counts with each slice (prompt_cache and
		// kv_cache of the machine's agent.toml), the first thing to lower
		// when a model does not fit; with kv_cache auto, what it counted
		// for the slices placed there.
		caches := "-"
		switch {
		case m.Role != ca.RoleMachine:
		case m.KVCache > 0:
			caches = mib(uint64(max(m.PromptCache, 0)) + uint64(m.KVCache))
		default:
			caches = autoCaches(m, counted[m.Peer])
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", m.Label, m.Role, state, memory, caches, dash(sl), m.NotAfter.Format(time.RFC3339), m.Peer)
	}
	return w.Flush()
}

func (d *Daemon) memberState(m MemberRecord, now time.Time) string {
	switch {
	case !m.Removed.IsZero():
		return "removed"
	case !now.Before(m.NotAfter):
		return "expired"
	}
	if d.online(m.Peer) {
		return "online"
	}
	return "offline"
}

func (d *Daemon) cmdNodeRemove(_ context.Context, c *Call) error {
	var a IDArgs
	if err := c.Args(&a); err != nil {
		return err
	}
	c.Target(a.ID)
	var m MemberRecord
	var lost []string
	err := c.Commit(func(tx *bolt.Tx) error {
		ok, err := store.Get(tx, store.Members, a.ID, &m)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("no machine labelled %q (node list shows them)", a.ID)
		}
		if !m.Removed.IsZero() {
			return fmt.Errorf("machine %s was already removed at %s", a.ID, m.Removed.Format(time.RFC3339))
		}
		m.Removed = d.Now().UTC()
		if err := store.Put(tx, store.Members, m.Label, m); err != nil {
			return err
		}
		if err := store.Put(tx, store.Revoked, m.Serial, RevokedRecord{Serial: m.Serial, Label: m.Label, Peer: m.Peer, At: m.Removed}); err != nil {
			return err
		}
		lost, err = markUnavailable(tx, m.Peer, fmt.Sprintf("machine %s was removed", m.Label))
		return err
	}, audit.Record{Kind: "node.remove", Detail: "certificate revoked"})
	if err != nil {
		return err
	}
	d.Record(audit.Record{Actor: c.Actor, Kind: "certificate.revoke", Target: m.Label, Detail: "serial " + m.Serial + ", peer " + m.Peer})
	c.Printf("removed %s: its certificate is revoked; every member drops it at the next roster\n", m.Label)
	for _, name := range lost {
		c.Printf("model %s is unavailable until you serve it again or add a machine\n", name)
	}
	return nil
}

// LicenceRecord is the installed licence.
type LicenceRecord struct {
	File      []byte    `json:"file"`
	Key       string    `json:"key"`
	Installed time.Time `json:"installed"`
}

// LicenceArgs carries a licence file's content.
type LicenceArgs struct {
	File []byte `json:"file"`
	Name string `json:"name"`
}

// VendorKeys are the licence vendor keys this coordinator trusts.
func (d *Daemon) VendorKeys() ([]ed25519.PublicKey, error) {
	keys := licence.Builtin()
	for _, p := range d.Cfg.VendorKeys {
		k, err := licence.ReadPublicKeyFile(p)
		if err != nil {
			return nil, fmt.Errorf("vendor_keys in the configuration: %w", err)
		}
		keys = append(keys, k)
	}
	return keys, nil
}

func (d *Daemon) cmdLicenceInstall(_ context.Context, c *Call) error {
	var a LicenceArgs
	if err := c.Args(&a); err != nil {
		return err
	}
	c.Target(a.Name)
	keys, err := d.VendorKeys()
	if err != nil {
		return err
	}
	l, key, err := licence.Verify(a.File, keys, d.Now())
	if err != nil {
		return fmt.Errorf("%s: %w", a.Name, err)
	}
	err = c.Commit(func(tx *bolt.Tx) error {
		if n := countMachines(tx); l.Machines > 0 && n > l.Machines {
			return fmt.Errorf("%s allows %d machines but %d are enrolled (node remove some first)", a.Name, l.Machines, n)
		}
		return store.Put(tx, store.Licence, "current", LicenceRecord{File: a.File, Key: key, Installed: d.Now().UTC()})
	}, audit.Record{Kind: "licence.install", Detail: fmt.Sprintf("licensee %q, expires %s, vendor key %s", l.Licensee, l.Expires.Format(time.RFC3339), key)})
	if err != nil {
		return err
	}
	c.Printf("licence installed\n%s", l.Summary(d.Now()))
	return nil
}

// Licence returns the installed licence (nil when none).
func (d *Daemon) Licence() (*licence.Licence, error) {
	var rec LicenceRecord
	var ok bool
	if err := d.st.View(func(tx *bolt.Tx) error {
		var err error
		ok, err = store.Get(tx, store.Licence, "current", &rec)
		return err
	}); err != nil || !ok {
		return nil, err
	}
	keys, err := d.VendorKeys()
	if err != nil {
		return nil, err
	}
	l, _, err := licence.Verify(rec.File, keys, d.Now())
	if errors.Is(err, licence.ErrExpired) {
		return l, nil
	}
	return l, err
}

func (d *Daemon) cmdLicenceShow(_ context.Context, c *Call) error {
	l, err := d.Licence()
	if err != nil {
		return err
	}
	if l == nil {
		return fmt.Errorf("no licence is installed (licence install FILE)")
	}
	c.Printf("%s", l.Summary(d.Now()))
	return nil
}

func countMachines(tx *bolt.Tx) int {
	n := 0
	_ = store.Each(tx, store.Members, func(_ string, m MemberRecord) error {
		if m.Removed.IsZero() && m.Role == ca.RoleMachine {
			n++
		}
		return nil
	})
	return n
}

// AuditArgs select records.
type AuditArgs struct {
	Since     time.Time `json:"since,omitzero"`
	Until     time.Time `json:"until,omitzero"`
	Kind      string    `json:"kind,omitempty"`
	Actor     string    `json:"actor,omitempty"`
	Reference string    `json:"reference,omitempty"`
	Limit     int       `json:"limit,omitempty"`
	Format    string    `json:"format,omitempty"`
}

func (d *Daemon) selectAudit(a AuditArgs) ([]audit.Record, error) {
	var recs []audit.Record
	err := d.st.View(func(tx *bolt.Tx) error {
		var err error
		recs, err = audit.Select(tx, audit.Filter{Since: a.Since, Until: a.Until, Kind: a.Kind, Actor: a.Actor, Reference: a.Reference, Limit: a.Limit})
		return err
	})
	return recs, err
}

func (d *Daemon) cmdAuditShow(_ context.Context, c *Call) error {
	var a AuditArgs
	if err := c.Args(&a); err != nil {
		return err
	}
	recs, err := d.selectAudit(a)
	if err != nil {
		return err
	}
	for _, r := range recs {
		c.Printf("%s\n", r.Line())
	}
	return nil
}

func (d *Daemon) cmdAuditVerify(_ context.Context, c *Call) error {
	var n uint64
	err := d.st.View(func(tx *bolt.Tx) error {
		var err error
		n, err = audit.Verify(tx)
		return err
	})
	if err != nil {
		return err
	}
	c.Printf("audit trail intact: %d records, each chained to the one before\n", n)
	return nil
}

func (d *Daemon) cmdAuditExport(_ context.Context, c *Call) error {
	var a AuditArgs
	if err := c.Args(&a); err != nil {
		return err
	}
	recs, err := d.selectAudit(a)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := audit.Export(&buf, a.Format, recs); err != nil {
		return err
	}
	c.Stream(buf.Bytes())
	c.Printf("%d records\n", len(recs))
	return nil
}

// EndpointArgs names an endpoint.
type EndpointArgs struct {
	Endpoint string `json:"endpoint"`
}

func (d *Daemon) cmdCertificateRotate(_ context.Context, c *Call) error {
	var a EndpointArgs
	if err := c.Args(&a); err != nil {
		return err
	}
	if _, _, err := net.SplitHostPort(a.Endpoint); err != nil {
		return fmt.Errorf("--endpoint %q is not HOST:PORT: %v", a.Endpoint, err)
	}
	c.Target(a.Endpoint)
	m, err := issueCoordinator(d.ca, d.key, d.Cfg, d.Now(), a.Endpoint)
	if err != nil {
		return err
	}
	old := d.Certificate()
	err = c.Commit(func(tx *bolt.Tx) error {
		return store.Put(tx, store.Meta, "coordinator/cert", m.Raw)
	}, audit.Record{Kind: "certificate.rotate", Detail: fmt.Sprintf("coordinator certificate for %s (was %s), serial %s", a.Endpoint, strings.Join(old.Endpoints, ","), m.Serial)})
	if err != nil {
		return err
	}
	d.mu.Lock()
	d.cert = m
	d.mu.Unlock()
	d.changed()
	c.Printf("the coordinator's certificate now names %s (valid until %s); members learn it from the roster.\nSet endpoint = %q in coordinator.toml and restart the coordinator on the new address.\n",
		a.Endpoint, m.NotAfter.Format(time.RFC3339), a.Endpoint)
	return nil
}

func (d *Daemon) cmdBackup(_ context.Context, c *Call) error {
	var buf bytes.Buffer
	if _, err := d.st.Backup(&buf); err != nil {
		return err
	}
	c.Stream(buf.Bytes())
	return nil
}

// slicesByPeer lists, per peer id, the slices the placements give it
// ("model[a:b]").
func (d *Daemon) slicesByPeer() map[string][]string {
	out := map[string][]string{}
	_ = d.st.View(func(tx *bolt.Tx) error {
		return store.Each(tx, store.Placements, func(_ string, p Placement) error {
			for _, s := range p.Slices {
				out[s.Peer] = append(out[s.Peer], fmt.Sprintf("%s[%d:%d]", p.Name, s.First, s.Last))
			}
			return nil
		})
	})
	for _, v := range out {
		sort.Strings(v)
	}
	return out
}

// slicesCaches is, by peer, what placement counted with each slice placed
// on the machines ms (MemberRecord.SliceCaches of its model's config and
// blocks), for those whose model the library holds.
func (d *Daemon) slicesCaches(ms []MemberRecord) map[string][]uint64 {
	out := map[string][]uint64{}
	lib, err := d.Library()
	if err != nil {
		return out
	}
	byPeer := map[string]MemberRecord{}
	for _, m := range ms {
		byPeer[m.Peer] = m
	}
	_ = d.st.View(func(tx *bolt.Tx) error {
		return store.Each(tx, store.Placements, func(_ string, p Placement) error {
			e, ok := lib.ByHash(p.Manifest)
			if !ok {
				return nil
			}
			for _, s := range p.Slices {
				if m, ok := byPeer[s.Peer]; ok {
					out[s.Peer] = append(out[s.Peer], m.SliceCaches(e.Manifest.Config(), s.Last-s.First))
				}
			}
			return nil
		})
	})
	return out
}

// autoCaches is node list's CACHES A SLICE of a machine with kv_cache
// auto: what placement counted with the slices placed there (they differ
// with their blocks and models), or the least a slice takes when none is.
func autoCaches(m MemberRecord, counted []uint64) string {
	if len(counted) == 0 {
		return "auto: from " + mib(m.SliceCaches(model.Config{}, 0))
	}
	lo, hi := slices.Min(counted), slices.Max(counted)
	if lo == hi {
		return "auto: " + mib(lo)
	}
	return fmt.Sprintf("auto: %d to %s", mibs(lo), mib(hi))
}

// Placement is a model's placement as stored and carried in the roster.
type Placement = trust.Placement

// markUnavailable makes every placement with a slice on peer unavailable
// (sticky until the operator serves the model again) and returns their
// names.
func markUnavailable(tx *bolt.Tx, peerID, reason string) ([]string, error) {
	var names []string
	var changed []Placement
	err := store.Each(tx, store.Placements, func(_ string, p Placement) error {
		hit := false
		for i := range p.Slices {
			if p.Slices[i].Peer == peerID {
				p.Slices[i].State, p.Slices[i].Reason = trust.StateUnavailable, reason
				hit = true
			}
		}
		if hit && p.State != trust.StateUnavailable {
			p.State, p.Reason = trust.StateUnavailable, reason
			names = append(names, p.Name)
		}
		if hit {
			changed = append(changed, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, p := range changed {
		if err := store.Put(tx, store.Placements, p.Name, p); err != nil {
			return nil, err
		}
	}
	return names, nil
}
