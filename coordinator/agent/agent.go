package agent

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/peerstore"
	ma "github.com/multiformats/go-multiaddr"

	"svc/coordinator/ca"
	"svc/coordinator/placement"
	"svc/coordinator/trust"
	"svc/p2p"
)

// Defaults of the agent's files.
const (
	DefaultStateDir   = "/var/lib/svc-node-agent"
	DefaultConfigPath = "/etc/svc/agent.toml"
)

// ErrExpired is wrapped when this machine's certificate has expired.
var ErrExpired = errors.New("this machine's certificate has expired; enrol it again with a new token (svc-coordinator token create, then svc-node-agent enroll)")

// ErrRemoved is wrapped when the roster revokes this machine.
var ErrRemoved = errors.New("this machine was removed from the deployment (its certificate is revoked)")

// Files names the state directory's files.
type Files struct{ Dir string }

func (f Files) Key() string      { return filepath.Join(f.Dir, "node.key") }
func (f Files) Cert() string     { return filepath.Join(f.Dir, "member.crt") }
func (f Files) CA() string       { return filepath.Join(f.Dir, "ca.crt") }
func (f Files) Roster() string   { return filepath.Join(f.Dir, "roster") }
func (f Files) Firewall() string { return filepath.Join(f.Dir, "firewall.json") }

// Config is agent.toml.
type Config struct {
	// Coordinator is the coordinator's swarm multiaddr (with /p2p/); the
	// roster's addresses are used when empty.
	Coordinator string `toml:"coordinator"`
	Label       string `toml:"label"`
	// Listen is the swarm multiaddr (default /ip4/0.0.0.0/tcp/7402).
	Listen string `toml:"listen"`
	// Memory this machine gives to slices ("8GiB" or bytes; 0: what the
	// machine has free).
	Memory string `toml:"memory"`
	// PromptCache is each slice's prompt cache, which answers a session's
	// first step from an identical earlier one ("256MiB" or bytes; empty
	// or 0: model.DefaultPromptCacheBytes; "off": none). The agent reports
	// it, and the coordinator's placement counts it with every slice it
	// puts on this machine, within Memory.
	PromptCache string `toml:"prompt_cache"`
	// KVCache is each slice's KV cache, its sessions' keys and values:
	// "auto" (the default; also empty or 0) or a size ("4GiB" or bytes).
	// Automatic is p2p.SliceCacheBytes of the slice: 2GiB, or one
	// session of the model's whole context on the slice's blocks where
	// that is more, so that a model with a long trained context is
	// served. It bounds the positions all sessions of the slice's node
	// may reserve together; the agent reports it (0 for auto), and the
	// coordinator's placement counts the same with every slice it puts
	// on this machine, within Memory. A size that cannot hold one session
	// of the model's whole context on a slice's blocks is refused
	// (reported unavailable, naming kv_cache and the size it needs),
	// rather than planned for less than a request may ask.
	KVCache string `toml:"kv_cache"`
}

// KVCacheBytes is KVCache in bytes, 0 for auto (the default), as
// p2p.SliceCacheBytes takes it.
func (c Config) KVCacheBytes() (int64, error) {
	if strings.EqualFold(strings.TrimSpace(c.KVCache), "auto") {
		return 0, nil
	}
	n, err := placement.ParseBytes(c.KVCache)
	if err != nil {
		return 0, fmt.Errorf("kv_cache: %w, or auto (sessions need a KV cache: it cannot be off)", err)
	}
	if n > math.MaxInt64 {
		return 0, fmt.Errorf("kv_cache: %q is too large", c.KVCache)
	}
	return int64(n), nil
}

// PromptCacheBytes is PromptCache as p2p.NodeConfig.PromptCacheBytes
// takes it.
func (c Config) PromptCacheBytes() (int64, error) {
	n, err := placement.ParseLimit(c.PromptCache)
	if err != nil {
		return 0, fmt.Errorf("prompt_cache: %w", err)
	}
	return n, nil
}

// LoadConfig reads agent.toml; a missing file is an error only if required.
func LoadConfig(path string, required bool) (Config, error) {
	cfg := Config{Listen: "/ip4/0.0.0.0/tcp/7402"}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) && !required {
		return cfg, nil
	}
	if err != nil {
		return cfg, fmt.Errorf("configuration: %w", err)
	}
	md, err := toml.Decode(string(data), &cfg)
	if err != nil {
		return cfg, fmt.Errorf("configuration %s: %w", path, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		return cfg, fmt.Errorf("configuration %s: unknown key %s", path, strings.Join(keys, ", "))
	}
	if _, err := ma.NewMultiaddr(cfg.Listen); err != nil {
		return cfg, fmt.Errorf("configuration %s: listen %q: %v", path, cfg.Listen, err)
	}
	if _, err := cfg.PromptCacheBytes(); err != nil {
		return cfg, fmt.Errorf("configuration %s: %w", path, err)
	}
	if _, err := cfg.KVCacheBytes(); err != nil {
		return cfg, fmt.Errorf("configuration %s: %w", path, err)
	}
	return cfg, nil
}

// EnrollOptions are enroll's inputs.
type EnrollOptions struct {
	StateDir string
	// Coordinator is the enrolment multiaddr token create printed.
	Coordinator string
	Token       string
	Pin         string
	Label       string
	Role        string
	Memory      int64
	// Listen is where the enrolling host listens (loopback, any port).
	Listen string
}

// Enrolled is what enroll got.
type Enrolled struct {
	Member *ca.Member
	Swarm  []string
}

// Enroll makes (or reuses) this machine's key, proves the token, checks
// the coordinator against the pin and stores the certificate, the CA and
// the roster in the state directory.
func Enroll(ctx context.Context, o EnrollOptions) (*Enrolled, error) {
	id, secret, err := parseToken(o.Token)
	if err != nil {
		return nil, err
	}
	if _, err := x509ParsePin(o.Pin); err != nil {
		return nil, err
	}
	ai, err := peer.AddrInfoFromString(o.Coordinator)
	if err != nil {
		return nil, fmt.Errorf("--coordinator %q must be the multiaddr token create printed (/ip4/…/tcp/…/p2p/…): %v", o.Coordinator, err)
	}
	if err := os.MkdirAll(o.StateDir, 0o700); err != nil {
		return nil, fmt.Errorf("state directory: %w", err)
	}
	f := Files{o.StateDir}
	if m, err := loadCert(f); err == nil {
		return nil, fmt.Errorf("this machine is already enrolled as %s (certificate in %s); remove that file to enrol again", m.Label, f.Cert())
	}
	key, err := p2p.LoadOrCreateKey(f.Key())
	if err != nil {
		return nil, err
	}
	ep, err := p2p.NewEndpoint(ctx, p2p.EndpointConfig{Listen: []string{"/ip4/127.0.0.1/tcp/0"}, Key: key})
	if err != nil {
		return nil, err
	}
	defer ep.Close()
	var caCert *x509.Certificate
	res, err := p2p.Enrol(ctx, ep.Host, p2p.EnrolRequest{
		Coordinator: *ai, TokenID: id, Secret: secret,
		Hello: p2p.EnrolHello{Label: o.Label, Role: o.Role, Memory: o.Memory},
		Check: func(caDER, coordDER []byte, coordPeer peer.ID) error {
			c, err := x509.ParseCertificate(caDER)
			if err != nil {
				return fmt.Errorf("the coordinator sent an unreadable CA certificate: %v", err)
			}
			if err := ca.CheckPin(c, o.Pin); err != nil {
				return fmt.Errorf("wrong CA pin: %w; this is not your deployment's coordinator, or the pin was mistyped", err)
			}
			m, err := ca.Verify(c, coordDER, time.Now())
			if err != nil || m.Role != ca.RoleCoordinator || m.Peer != coordPeer {
				return fmt.Errorf("the coordinator's certificate does not match its peer id (%v)", err)
			}
			caCert = c
			return nil
		},
	})
	if err != nil {
		return nil, err
	}
	m, err := ca.Verify(caCert, res.Certificate, time.Now())
	if err != nil || m.Peer != ep.Host.ID() {
		return nil, fmt.Errorf("the coordinator issued an unusable certificate: %v", err)
	}
	if _, err := trust.Open(caCert, res.Roster, time.Now()); err != nil {
		return nil, fmt.Errorf("the coordinator sent a roster that does not verify: %w", err)
	}
	for _, w := range []struct {
		path string
		data []byte
	}{
		{f.CA(), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caCert.Raw})},
		{f.Roster(), res.Roster},
		{f.Cert(), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: res.Certificate})},
	} {
		if err := WriteFile(w.path, w.data); err != nil {
			return nil, err
		}
	}
	return &Enrolled{Member: m, Swarm: res.Swarm}, nil
}

func x509ParsePin(pin string) (string, error) {
	s, ok := strings.CutPrefix(pin, "sha256:")
	if !ok || len(s) != 64 {
		return "", fmt.Errorf("--ca-pin %q must be sha256:<64 hex digits> as token create printed it", pin)
	}
	return s, nil
}

func parseToken(t string) (string, string, error) {
	id, secret, ok := strings.Cut(strings.TrimSpace(t), ".")
	if !ok || len(id) != 6 || len(secret) != 16 {
		return "", "", fmt.Errorf("--token %q is not of the form abcdef.0123456789abcdef (as token create prints it)", t)
	}
	return id, secret, nil
}

// WriteFile replaces path atomically (a unique temporary file of mode 0600,
// synced, renamed), so concurrent writers and crashes leave a whole file.
func WriteFile(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(f.Name())
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// OpenMember prepares an enrolled member's start: the key at keyPath, which
// must be the one its certificate names, and the roster it stored at
// rosterPath, so that admission works before the coordinator answers. The
// machine agent and the API member both start this way.
func OpenMember(caCert *x509.Certificate, me *ca.Member, keyPath, rosterPath string, log *slog.Logger) (crypto.PrivKey, *trust.Trust, error) {
	key, err := p2p.LoadOrCreateKey(keyPath)
	if err != nil {
		return nil, nil, err
	}
	if id, _ := peer.IDFromPrivateKey(key); id != me.Peer {
		return nil, nil, fmt.Errorf("%s does not belong to %s's certificate; enrol again", keyPath, me.Label)
	}
	t := trust.New(caCert, log)
	raw, err := os.ReadFile(rosterPath)
	if err != nil {
		return nil, nil, fmt.Errorf("no roster in %s (enrol again): %w", rosterPath, err)
	}
	if _, err := t.Update(raw); err != nil {
		return nil, nil, fmt.Errorf("the stored roster: %w", err)
	}
	return key, t, nil
}

func loadCA(f Files) (*x509.Certificate, error) {
	b, err := os.ReadFile(f.CA())
	if err != nil {
		return nil, fmt.Errorf("not enrolled (no %s): run svc-node-agent enroll: %w", f.CA(), err)
	}
	return ca.ParseCertPEM(b)
}

func loadCert(f Files) (*ca.Member, error) {
	c, err := loadCA(f)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(f.Cert())
	if err != nil {
		return nil, fmt.Errorf("not enrolled (no %s): run svc-node-agent enroll: %w", f.Cert(), err)
	}
	blk, _ := pem.Decode(b)
	if blk == nil {
		return nil, fmt.Errorf("%s is not PEM", f.Cert())
	}
	m, err := ca.Verify(c, blk.Bytes, time.Now())
	if errors.Is(err, ca.ErrExpired) {
		return m, fmt.Errorf("%w (%v)", ErrExpired, err)
	}
	return m, err
}

// Firewall is the agent's swarm port state.
type Firewall struct {
	Closed bool      `json:"closed"`
	Since  time.Time `json:"since"`
}

// ReadFirewall reads the state (open when never set).
func ReadFirewall(f Files) Firewall {
	var fw Firewall
	if b, err := os.ReadFile(f.Firewall()); err == nil {
		_ = json.Unmarshal(b, &fw)
	}
	return fw
}

// SetFirewall writes the state the running agent follows.
func SetFirewall(f Files, closed bool) error {
	b, _ := json.Marshal(Firewall{Closed: closed, Since: time.Now().UTC()})
	return WriteFile(f.Firewall(), b)
}

// Status describes this machine.
func Status(f Files) (string, error) {
	m, err := loadCert(f)
	if m == nil {
		return "", err
	}
	state := "valid"
	if err != nil {
		state = err.Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "label:       %s\nrole:        %s\npeer:        %s\ncertificate: %s, expires %s\n", m.Label, m.Role, m.Peer, state, m.NotAfter.UTC().Format(time.RFC3339))
	if c, err := loadCA(f); err == nil {
		fmt.Fprintf(&b, "CA pin:      %s\n", ca.Pin(c))
		if raw, err := os.ReadFile(f.Roster()); err == nil {
			if v, err := trust.Open(c, raw, time.Now()); err == nil {
				fmt.Fprintf(&b, "roster:      version %d of %s, %d members\n", v.Version, v.Issued.Format(time.RFC3339), len(v.Admitted()))
				if v.CRLSet.Revoked(m.Serial) {
					fmt.Fprintf(&b, "REVOKED:     this machine was removed from the deployment\n")
				}
			}
		}
	}
	fw := "open"
	if ReadFirewall(f).Closed {
		fw = "closed (no new sessions)"
	}
	fmt.Fprintf(&b, "swarm port:  %s\n", fw)
	return b.String(), nil
}

// RunOptions are run's inputs.
type RunOptions struct {
	StateDir string
	Config   Config
	Log      *slog.Logger
	// Ready is called once the agent is a member of the swarm.
	Ready func(addrs []string)
	// RosterInterval is how often the roster is fetched (1 s).
	RosterInterval time.Duration
}

// admission is the agent's: the roster's, and while the firewall is
// closed nobody new but the coordinator.
type admission struct {
	t      *trust.Trust
	closed atomic.Bool
	host   atomic.Pointer[host.Host]
}

func (a *admission) AcceptAddr(m ma.Multiaddr) bool { return a.t.AcceptAddr(m) }
func (a *admission) Credential() []byte             { return a.t.Credential() }
func (a *admission) CheckCredential(signer peer.ID, cred []byte) error {
	return a.t.CheckCredential(signer, cred)
}

// AdmitPeer admits the roster's members; while the swarm port is closed,
// only peers already connected (running sessions finish) and the
// coordinator.
func (a *admission) AdmitPeer(p peer.ID) bool {
	if a.t.Admit(p) != nil {
		return false
	}
	if a.closed.Load() {
		v := a.t.View()
		if v != nil && v.Coord.Peer == p {
			return true
		}
		h := a.host.Load()
		return h != nil && (*h).Network().Connectedness(p) == network.Connected
	}
	return true
}

// Run is a member of the swarm until ctx ends, its certificate is revoked
// (ErrRemoved) or expires (ErrExpired).
func Run(ctx context.Context, o RunOptions) error {
	log := o.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	f := Files{o.StateDir}
	me, err := loadCert(f)
	if err != nil {
		return err
	}
	caCert, err := loadCA(f)
	if err != nil {
		return err
	}
	mem, err := placement.ParseBytes(o.Config.Memory)
	if err != nil {
		return fmt.Errorf("configuration: memory: %w", err)
	}
	memory := int64(mem)
	promptCache, err := o.Config.PromptCacheBytes()
	if err != nil {
		return fmt.Errorf("configuration: %w", err)
	}
	kvCache, err := o.Config.KVCacheBytes()
	if err != nil {
		return fmt.Errorf("configuration: %w", err)
	}
	key, t, err := OpenMember(caCert, me, f.Key(), f.Roster(), log)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	check := func(v *trust.View) {
		if v.CRLSet.Revoked(me.Serial) {
			cancel(ErrRemoved)
		}
	}
	check(t.View())
	if err := context.Cause(ctx); err != nil && ctx.Err() != nil && errors.Is(err, ErrRemoved) {
		return err
	}
	t.SetCredential(me.Raw)
	adm := &admission{t: t}
	adm.closed.Store(ReadFirewall(f).Closed)
	t.OnChange(func(v *trust.View) {
		if err := WriteFile(f.Roster(), v.Raw); err != nil {
			log.Warn("roster not cached", "err", err)
		}
		check(v)
		// The coordinator may have moved (certificate rotate): dial it
		// where the roster says.
		if h := adm.host.Load(); h != nil {
			learnAddrs(*h, v.CoordinatorAddrs)
		}
	})
	// Bootstrap from the coordinator, and from the members last seen, so
	// that a restart during a coordinator outage still joins the swarm.
	boot := append(append([]string{}, t.View().CoordinatorAddrs...), readPeers(f)...)
	if o.Config.Coordinator != "" {
		boot = append([]string{o.Config.Coordinator}, boot...)
	}
	ep, err := p2p.NewEndpoint(ctx, p2p.EndpointConfig{Listen: []string{o.Config.Listen}, Bootstrap: boot, Key: key, Server: true, Admission: adm, Logger: log})
	if err != nil {
		return fmt.Errorf("join the swarm: %w", err)
	}
	defer ep.Close()
	defer t.Attach(ep.Host)()
	adm.host.Store(&ep.Host)
	interval := o.RosterInterval
	if interval <= 0 {
		interval = time.Second
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		t.Refresh(ctx, interval)
	}()
	defer func() { <-done }()
	// The slices placed on this machine, served on its host; their nodes
	// close before the host does.
	kp := newKeeper(ep, t, me.Peer, f.SlicesDir(), memory, log)
	kp.promptCache, kp.kvCache = promptCache, kvCache
	kept := make(chan struct{})
	go func() {
		defer close(kept)
		kp.run(ctx)
	}()
	defer func() { <-kept }()
	if o.Ready != nil {
		var addrs []string
		for _, a := range ep.Host.Addrs() {
			addrs = append(addrs, a.String()+"/p2p/"+ep.Host.ID().String())
		}
		o.Ready(addrs)
	}
	expiry := time.NewTimer(time.Until(me.NotAfter))
	defer expiry.Stop()
	fwTick := time.NewTicker(time.Second)
	defer fwTick.Stop()
	ticks := 0
	for {
		select {
		case <-ctx.Done():
			cancel(nil)
			if err := context.Cause(ctx); errors.Is(err, ErrRemoved) {
				return err
			}
			return nil
		case <-expiry.C:
			cancel(nil)
			return fmt.Errorf("%w (expired at %s)", ErrExpired, me.NotAfter.UTC().Format(time.RFC3339))
		case <-fwTick.C:
			if ticks++; ticks%10 == 1 {
				writePeers(f, ep.Host, t)
			}
			closed := ReadFirewall(f).Closed
			if adm.closed.Swap(closed) != closed {
				log.Info("swarm port", "closed", closed)
				if closed {
					// Running sessions finish on their connections; nothing new is admitted.
					continue
				}
			}
		}
	}
}

// NFTables renders host rules matching the swarm port's state.
func NFTables(cfg Config, fw Firewall) string {
	port := "7402"
	if a, err := ma.NewMultiaddr(cfg.Listen); err == nil {
		if p, err := a.ValueForProtocol(ma.P_TCP); err == nil {
			port = p
		}
	}
	verdict := "accept"
	if fw.Closed {
		verdict = "drop"
	}
	return fmt.Sprintf("table inet svc_node_agent {\n\tchain input {\n\t\ttype filter hook input priority 0; policy accept;\n\t\tct state established,related accept\n\t\ttcp dport %s %s comment \"svc swarm port\"\n\t}\n}\n", port, verdict)
}

// Peers returns the file of members last seen connected.
func (f Files) Peers() string { return filepath.Join(f.Dir, "peers") }

// writePeers remembers the connected members' addresses.
func writePeers(f Files, h host.Host, t *trust.Trust) {
	var out []string
	for _, p := range h.Network().Peers() {
		if t.Admit(p) != nil {
			continue
		}
		for _, c := range h.Network().ConnsToPeer(p) {
			if c.Stat().Direction == network.DirOutbound {
				out = append(out, c.RemoteMultiaddr().String()+"/p2p/"+p.String())
			}
		}
		for _, a := range h.Peerstore().Addrs(p) {
			out = append(out, a.String()+"/p2p/"+p.String())
		}
	}
	sort.Strings(out)
	out = slices.Compact(out)
	if len(out) > 64 {
		out = out[:64]
	}
	b, _ := json.Marshal(out)
	_ = WriteFile(f.Peers(), b)
}

func readPeers(f Files) []string {
	var out []string
	if b, err := os.ReadFile(f.Peers()); err == nil {
		_ = json.Unmarshal(b, &out)
	}
	return out
}

// learnAddrs adds multiaddrs (with /p2p/) to h's peerstore.
func learnAddrs(h host.Host, addrs []string) {
	for _, s := range addrs {
		ai, err := peer.AddrInfoFromString(s)
		if err != nil || ai.ID == h.ID() {
			continue
		}
		h.Peerstore().AddAddrs(ai.ID, ai.Addrs, peerstore.PermanentAddrTTL)
	}
}
