package coordinator

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/user"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	lcrypto "github.com/libp2p/go-libp2p/core/crypto"
	bolt "go.etcd.io/bbolt"
	"golang.org/x/sys/unix"

	"svc/coordinator/audit"
	"svc/coordinator/ca"
	"svc/coordinator/store"
	"svc/coordinator/trust"
	"svc/p2p"
)

// Handler executes one operator command. It reads its arguments with
// c.Args, changes state with c.Commit (which records the audit entry in the
// same transaction) and writes what the operator sees with c.Printf. A
// returned error is a refusal: the operator sees it and the command exits 1.
type Handler func(ctx context.Context, c *Call) error

// Call is one command being executed.
type Call struct {
	Command string
	// Actor is the operator's user name, from the socket's SO_PEERCRED.
	Actor string
	d     *Daemon
	args  json.RawMessage
	text  bytes.Buffer
	// stream is a file answered after the text (backup, export).
	stream   []byte
	recorded bool
	target   string
}

// Args decodes the command's arguments, refusing unknown fields.
func (c *Call) Args(v any) error {
	if len(c.args) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(c.args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s: arguments: %w", c.Command, err)
	}
	return nil
}

// Printf adds to what the operator sees.
func (c *Call) Printf(format string, a ...any) { fmt.Fprintf(&c.text, format, a...) }

// Stream sets the file answered after the text.
func (c *Call) Stream(b []byte) { c.stream = b }

// Target names what the command acts on, for its audit record.
func (c *Call) Target(t string) { c.target = t }

// Daemon returns the daemon executing the call.
func (c *Call) Daemon() *Daemon { return c.d }

// Commit runs fn and appends rec (Actor and, when empty, Kind and Target
// filled from the call) in one transaction, committed before it returns.
// The dispatcher then adds no record of its own.
func (c *Call) Commit(fn func(tx *bolt.Tx) error, rec audit.Record) error {
	if rec.Actor == "" {
		rec.Actor = c.Actor
	}
	if rec.Kind == "" {
		rec.Kind = c.Command
	}
	if rec.Target == "" {
		rec.Target = c.target
	}
	err := c.d.st.Update(func(tx *bolt.Tx) error {
		if fn != nil {
			if err := fn(tx); err != nil {
				return err
			}
		}
		_, err := audit.Append(tx, rec)
		return err
	})
	if err == nil {
		c.recorded = true
		c.d.changed()
	}
	return err
}

// Daemon is a running coordinator.
type Daemon struct {
	Cfg Config
	Log *slog.Logger
	// Now is the clock (time.Now); tests do not move it, but certificate
	// and token expiries read it through here.
	Now func() time.Time

	st   *store.Store
	ca   *ca.CA
	key  lcrypto.PrivKey
	cert *ca.Member

	mu       sync.Mutex
	handlers map[string]Handler
	// onChange hooks run after every committed change (roster push).
	onChange []func()
	live     live
	trust    *trust.Trust
	// kick asks the swarm part to push the newest roster.
	kick chan struct{}
	// events are machine events recorded by the swarm part's goroutine
	// (libp2p's notifications must not wait for an fsync).
	events chan audit.Record
	// models is the model library (modelcmds.go).
	models modelState
}

// Open loads an initialised coordinator's state (the database, the CA and
// the coordinator's own key and certificate) and registers the built-in
// commands.
func Open(cfg Config, log *slog.Logger) (*Daemon, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if _, err := os.Stat(cfg.DBPath()); err != nil {
		return nil, fmt.Errorf("no coordinator state in %s (run svc-coordinator init first): %w", cfg.StateDir, err)
	}
	st, err := store.Open(cfg.DBPath(), 2*time.Second)
	if err != nil {
		return nil, err
	}
	d := &Daemon{Cfg: cfg, Log: log, Now: time.Now, st: st, handlers: map[string]Handler{},
		kick: make(chan struct{}, 1), events: make(chan audit.Record, 256)}
	if err := d.load(); err != nil {
		_ = st.Close()
		return nil, err
	}
	d.trust = trust.New(d.ca.Cert, log)
	d.trust.SetCredential(d.cert.Raw)
	d.refreshRoster()
	d.registerBuiltins()
	d.registerAPIKeys()
	d.registerModels()
	return d, nil
}

func (d *Daemon) load() error {
	var certPEM, keyPEM string
	var coordCert []byte
	err := d.st.View(func(tx *bolt.Tx) error {
		if _, err := store.Get(tx, store.Meta, "ca/cert", &certPEM); err != nil {
			return err
		}
		if _, err := store.Get(tx, store.Meta, "ca/key", &keyPEM); err != nil {
			return err
		}
		_, err := store.Get(tx, store.Meta, "coordinator/cert", &coordCert)
		return err
	})
	if err != nil {
		return err
	}
	if certPEM == "" || keyPEM == "" {
		return fmt.Errorf("the state in %s holds no CA (run svc-coordinator init)", d.Cfg.StateDir)
	}
	if d.ca, err = ca.Load([]byte(certPEM), []byte(keyPEM)); err != nil {
		return err
	}
	if d.key, err = loadKey(d.Cfg.KeyPath()); err != nil {
		return err
	}
	m, err := ca.Verify(d.ca.Cert, coordCert, d.Now())
	if err != nil {
		return fmt.Errorf("the coordinator's own certificate: %w (run svc-coordinator certificate rotate)", err)
	}
	d.cert = m
	return nil
}

// Close closes the database.
func (d *Daemon) Close() error { return d.st.Close() }

// Store is the state database (for the daemon's own parts and tests in
// this module; operator commands never reach it directly).
func (d *Daemon) Store() *store.Store { return d.st }

// CA is the deployment CA.
func (d *Daemon) CA() *ca.CA { return d.ca }

// Key is the coordinator's libp2p identity.
func (d *Daemon) Key() lcrypto.PrivKey { return d.key }

// Certificate is the coordinator's own member certificate.
func (d *Daemon) Certificate() *ca.Member {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.cert
}

// Handle registers (or replaces) the handler of a command, named as
// "group.verb" ("model.serve").
func (d *Daemon) Handle(name string, h Handler) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.handlers[name] = h
}

// OnChange registers f to run after every committed change.
func (d *Daemon) OnChange(f func()) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.onChange = append(d.onChange, f)
}

func (d *Daemon) changed() {
	d.refreshRoster()
	d.mu.Lock()
	fs := append([]func(){}, d.onChange...)
	d.mu.Unlock()
	for _, f := range fs {
		f()
	}
}

// Record appends an audit record outside any command (machine events).
func (d *Daemon) Record(rec audit.Record) {
	if err := d.st.Update(func(tx *bolt.Tx) error { _, err := audit.Append(tx, rec); return err }); err != nil {
		d.Log.Error("audit record lost", "kind", rec.Kind, "err", err)
	}
}

// Commands lists the registered command names.
func (d *Daemon) Commands() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	names := make([]string, 0, len(d.handlers))
	for n := range d.handlers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Execute runs one command as actor and returns its answer; the caller
// writes it to the operator.
func (d *Daemon) Execute(ctx context.Context, actor string, req Request) (Response, []byte) {
	d.mu.Lock()
	h := d.handlers[req.Command]
	d.mu.Unlock()
	c := &Call{Command: req.Command, Actor: actor, d: d, args: req.Args}
	if h == nil {
		err := fmt.Errorf("unknown command %q (this coordinator knows %s)", req.Command, strings.Join(d.Commands(), ", "))
		d.Record(audit.Record{Actor: actor, Kind: "command.unknown", Target: req.Command, Outcome: audit.Refused, Detail: err.Error()})
		return Response{Error: err.Error()}, nil
	}
	err := h(ctx, c)
	if !c.recorded {
		rec := audit.Record{Actor: actor, Kind: req.Command, Target: c.target, Outcome: audit.OK}
		if err != nil {
			rec.Outcome, rec.Detail = audit.Refused, err.Error()
		}
		d.Record(rec)
	}
	if err != nil {
		return Response{Error: err.Error(), Text: c.text.String()}, nil
	}
	return Response{OK: true, Text: c.text.String(), Stream: int64(len(c.stream))}, c.stream
}

// serveAdmin answers operator commands on the admin socket until ctx ends.
func (d *Daemon) serveAdmin(ctx context.Context, ln *net.UnixListener) {
	var wg sync.WaitGroup
	defer wg.Wait()
	go func() {
		<-ctx.Done()
		_ = ln.Close()
	}()
	for {
		conn, err := ln.AcceptUnix()
		if err != nil {
			if ctx.Err() == nil {
				d.Log.Error("admin socket", "err", err)
			}
			return
		}
		wg.Go(func() {
			defer conn.Close()
			d.serveConn(ctx, conn)
		})
	}
}

func (d *Daemon) serveConn(ctx context.Context, conn *net.UnixConn) {
	actor := peerActor(conn)
	_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	line, err := bufio.NewReader(&limitedReader{r: conn, n: maxRequest}).ReadBytes('\n')
	if err != nil {
		d.Log.Warn("admin request unreadable", "actor", actor, "err", err)
		return
	}
	_ = conn.SetReadDeadline(time.Time{})
	var req Request
	var resp Response
	var stream []byte
	if err := json.Unmarshal(line, &req); err != nil || req.Command == "" {
		resp = Response{Error: "malformed admin request"}
	} else {
		resp, stream = d.Execute(ctx, actor, req)
	}
	out, _ := json.Marshal(resp)
	_ = conn.SetWriteDeadline(time.Now().Add(5 * time.Minute))
	if _, err := conn.Write(append(out, '\n')); err != nil {
		d.Log.Warn("admin answer not delivered", "command", req.Command, "err", err)
		return
	}
	if len(stream) > 0 {
		if _, err := conn.Write(stream); err != nil {
			d.Log.Warn("admin answer not delivered", "command", req.Command, "err", err)
		}
	}
}

type limitedReader struct {
	r interface{ Read([]byte) (int, error) }
	n int
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.n <= 0 {
		return 0, errors.New("request too large")
	}
	if len(p) > l.n {
		p = p[:l.n]
	}
	n, err := l.r.Read(p)
	l.n -= n
	return n, err
}

// peerActor names the process at the other end of the admin socket: the
// user name of its uid (or uid:N).
func peerActor(conn *net.UnixConn) string {
	raw, err := conn.SyscallConn()
	if err != nil {
		return "unknown"
	}
	var cred *unix.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil || cerr != nil || cred == nil {
		return "unknown"
	}
	uid := strconv.FormatUint(uint64(cred.Uid), 10)
	if u, err := user.LookupId(uid); err == nil {
		return u.Username
	}
	return "uid:" + uid
}

// listenAdmin opens the admin socket, mode 0600, replacing a stale one.
func (d *Daemon) listenAdmin() (*net.UnixListener, error) {
	path := d.Cfg.SocketPath()
	if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
		_ = c.Close()
		return nil, fmt.Errorf("another coordinator answers on %s", path)
	}
	_ = os.Remove(path)
	// The state directory is 0700 already; the umask closes the window
	// between bind and chmod for the socket itself.
	old := unix.Umask(0o177)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	unix.Umask(old)
	if err != nil {
		return nil, fmt.Errorf("admin socket %s: %w", path, err)
	}
	ln.SetUnlinkOnClose(true)
	if err := os.Chmod(path, 0o600); err != nil {
		_ = ln.Close()
		return nil, fmt.Errorf("admin socket %s: %w", path, err)
	}
	return ln, nil
}

// Run serves until ctx ends: the admin socket and every part registered
// with OnRun.
func (d *Daemon) Run(ctx context.Context, ready func()) error {
	ln, err := d.listenAdmin()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stopSwarm, err := d.startSwarm(ctx)
	if err != nil {
		_ = ln.Close()
		return err
	}
	defer stopSwarm()
	var wg sync.WaitGroup
	wg.Go(func() { d.serveAdmin(ctx, ln) })
	d.Record(audit.Record{Actor: "coordinator", Kind: "coordinator.start", Target: d.cert.Peer.String(),
		Detail: "admin socket " + d.Cfg.SocketPath()})
	if ready != nil {
		ready()
	}
	<-ctx.Done()
	wg.Wait()
	d.Record(audit.Record{Actor: "coordinator", Kind: "coordinator.stop", Target: d.cert.Peer.String()})
	return nil
}

// live is what the running parts know that the database does not: which
// members are connected, the enrolment port actually bound.
type live struct {
	mu        sync.Mutex
	swarm     *p2p.Endpoint
	enrolPort int
}

func (d *Daemon) online(peerID string) bool {
	for _, p := range d.onlinePeers() {
		if p == peerID {
			return true
		}
	}
	return false
}

func (d *Daemon) enrolPort() int {
	d.live.mu.Lock()
	defer d.live.mu.Unlock()
	return d.live.enrolPort
}
