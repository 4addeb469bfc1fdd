package managed

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	lcrypto "github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	bolt "go.etcd.io/bbolt"

	"svc/coordinator"
	"svc/coordinator/audit"
	"svc/coordinator/ca"
	"svc/coordinator/store"
	"svc/coordinator/trust"
	"svc/internal/proctest"
	"svc/p2p"
)

func TestMain(m *testing.M) { proctest.Main(m) }

// deployment is a coordinator and its machines, real processes in a temp
// directory on 127.0.0.1.
type deployment struct {
	t                    *testing.T
	dir                  string
	coordBin, agentBin   string
	svcBin               string
	env                  []string
	coord                *proctest.Proc
	swarmPort, enrolPort int
}

// testKVCache is the agent.toml line of the tests' KV cache budget.
const testKVCache = "kv_cache = \"8MiB\"\n"

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func newDeployment(t *testing.T) *deployment {
	d := &deployment{t: t, dir: t.TempDir(),
		coordBin: proctest.Build(t, "./cmd/svc-coordinator"),
		agentBin: proctest.Build(t, "./cmd/svc-node-agent"),
		svcBin:   proctest.Build(t, "./cmd/svc"),
	}
	d.swarmPort, d.enrolPort = freePort(t), freePort(t)
	d.env = []string{
		"SVC_COORDINATOR_STATE_DIR=" + filepath.Join(d.dir, "coordinator"),
		"SVC_COORDINATOR_CONFIG=" + filepath.Join(d.dir, "coordinator.toml"),
		"SVC_CA_CERT=" + filepath.Join(d.dir, "ca.crt"),
		"SVC_NODE_AGENT_CONFIG=" + filepath.Join(d.dir, "agent.toml"),
		"SVC_MODELS_DIR=" + filepath.Join(d.dir, "models"),
	}
	d.svc("licence", "keygen", "--private", d.path("vendor.key"), "--public", d.path("vendor.pub"))
	d.write("coordinator.toml", fmt.Sprintf("listen = \"127.0.0.1\"\nswarm_port = %d\nenrol_port = %d\nvendor_keys = [%q]\n",
		d.swarmPort, d.enrolPort, d.path("vendor.pub")))
	// Each slice's KV cache is planned: 8 MiB holds a whole context of any
	// test model's slice, and keeps placements within the small memory
	// the tests give (the default, auto, counts at least 2 GiB a slice).
	d.write("agent.toml", "listen = \"/ip4/127.0.0.1/tcp/0\"\n"+testKVCache)
	if r := d.co("init"); r.Code != 0 || !strings.Contains(r.Stdout, "CA pin sha256:") {
		t.Fatalf("init: %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	if fi, err := os.Stat(d.path("ca.crt")); err != nil || fi.Mode().Perm() != 0o644 {
		t.Fatalf("ca.crt: %v %v", err, fi)
	}
	d.startCoordinator()
	return d
}

func (d *deployment) path(name string) string { return filepath.Join(d.dir, name) }

func (d *deployment) write(name, content string) {
	d.t.Helper()
	if err := os.WriteFile(d.path(name), []byte(content), 0o600); err != nil {
		d.t.Fatal(err)
	}
}

func (d *deployment) ctx() context.Context {
	ctx, cancel := context.WithTimeout(d.t.Context(), 60*time.Second)
	d.t.Cleanup(cancel)
	return ctx
}

func (d *deployment) startCoordinator() {
	d.t.Helper()
	d.coord = proctest.Start(d.t, proctest.Cmd{Path: d.coordBin, Args: []string{"run"}, Env: d.env, Name: "coordinator"})
	if _, err := d.coord.WaitLine(d.ctx(), regexp.MustCompile(`^ready `)); err != nil {
		d.t.Fatal(err)
	}
}

func (d *deployment) run(bin string, env []string, args ...string) proctest.Result {
	d.t.Helper()
	r, err := proctest.Run(d.ctx(), proctest.Cmd{Path: bin, Args: args, Env: append(append([]string{}, d.env...), env...)})
	if err != nil {
		d.t.Fatal(err)
	}
	return r
}

// co runs an operator command.
func (d *deployment) co(args ...string) proctest.Result { return d.run(d.coordBin, nil, args...) }

// mustCo runs an operator command that must succeed.
func (d *deployment) mustCo(args ...string) string {
	d.t.Helper()
	r := d.co(args...)
	if r.Code != 0 {
		d.t.Fatalf("svc-coordinator %s: exit %d\n%s%s", strings.Join(args, " "), r.Code, r.Stdout, r.Stderr)
	}
	return r.Stdout
}

func (d *deployment) svc(args ...string) string {
	d.t.Helper()
	r := d.run(d.svcBin, nil, args...)
	if r.Code != 0 {
		d.t.Fatalf("svc %s: exit %d\n%s", strings.Join(args, " "), r.Code, r.Stderr)
	}
	return r.Stdout
}

// agent runs svc-node-agent for machine name (its own state directory).
func (d *deployment) agent(name string, args ...string) proctest.Result {
	return d.run(d.agentBin, []string{"SVC_NODE_AGENT_STATE_DIR=" + d.path(name)}, args...)
}

type token struct{ token, pin, addr string }

var tokenRE = regexp.MustCompile(`enroll --coordinator (\S+) --token (\S+) --ca-pin (\S+)`)

func (d *deployment) token(args ...string) token {
	d.t.Helper()
	out := d.mustCo(append([]string{"token", "create"}, args...)...)
	m := tokenRE.FindStringSubmatch(out)
	if m == nil {
		d.t.Fatalf("token create printed no enroll command:\n%s", out)
	}
	return token{addr: m[1], token: m[2], pin: m[3]}
}

func (d *deployment) enroll(name string, tk token, extra ...string) proctest.Result {
	return d.agent(name, append([]string{"enroll", "--coordinator", tk.addr, "--token", tk.token, "--ca-pin", tk.pin}, extra...)...)
}

func (d *deployment) startAgent(name string) (*proctest.Proc, string) {
	d.t.Helper()
	p := proctest.Start(d.t, proctest.Cmd{Path: d.agentBin, Args: []string{"run"}, Name: name,
		Env: append(append([]string{}, d.env...), "SVC_NODE_AGENT_STATE_DIR="+d.path(name))})
	line, err := p.WaitLine(d.ctx(), regexp.MustCompile(`^ready (\S+)`))
	if err != nil {
		d.t.Fatal(err)
	}
	return p, line[1]
}

func refused(t *testing.T, what string, r proctest.Result, words string) {
	t.Helper()
	if r.Code != 1 || !strings.Contains(r.Stderr, words) {
		t.Fatalf("%s: exit %d, want 1 with %q on stderr:\n%s%s", what, r.Code, words, r.Stdout, r.Stderr)
	}
}

// dialAs tries to connect to addr with key, as an outsider would.
func dialAs(t *testing.T, key lcrypto.PrivKey, addr string) error {
	t.Helper()
	ep, err := p2p.NewEndpoint(t.Context(), p2p.EndpointConfig{Key: key})
	if err != nil {
		t.Fatal(err)
	}
	defer ep.Close()
	ai, err := peer.AddrInfoFromString(addr)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	if err := ep.Host.Connect(ctx, *ai); err != nil {
		return err
	}
	// The gater admits the handshake only for members; a refused peer's
	// connection is closed right after it. Opening a stream tells.
	_, err = p2p.FetchRoster(ctx, ep.Host, ai.ID)
	return err
}

func TestManaged(t *testing.T) {
	d := newDeployment(t)

	// Licence: the vendor signs, the coordinator verifies.
	d.svc("licence", "issue", "--key", d.path("vendor.key"), "--licensee", "ACME", "--expires", "8760h",
		"--machines", "5", "--models", "2", "--features", "api", "--out", d.path("acme.licence"))
	data, _ := os.ReadFile(d.path("acme.licence"))
	d.write("altered.licence", strings.Replace(string(data), `"machines": 5`, `"machines": 50`, 1))
	refused(t, "altered licence", d.co("licence", "install", d.path("altered.licence")), "altered")
	d.svc("licence", "keygen", "--private", d.path("other.key"), "--public", d.path("other.pub"))
	d.svc("licence", "issue", "--key", d.path("other.key"), "--licensee", "X", "--expires", "1h", "--out", d.path("other.licence"))
	refused(t, "licence of an untrusted vendor", d.co("licence", "install", d.path("other.licence")), "does not trust")
	refused(t, "no licence yet", d.co("licence", "show"), "no licence")
	d.mustCo("licence", "install", d.path("acme.licence"))
	if out := d.mustCo("licence", "show"); !strings.Contains(out, "licensee: ACME") || !strings.Contains(out, "machines: 5") {
		t.Fatalf("licence show:\n%s", out)
	}

	// Enrolment is closed until the operator opens it.
	tk1 := d.token("--label", "m1")
	refused(t, "enrol while closed", d.enroll("m1", tk1), "enrolment port")
	d.mustCo("firewall", "open", "--from", "127.0.0.0/8", "--for", "1h")
	if out := d.mustCo("firewall", "status", "--print-nftables"); !strings.Contains(out, "enrolment: open") || !strings.Contains(out, "tcp dport") {
		t.Fatalf("firewall status:\n%s", out)
	}

	// Three machines enrol and run.
	tokens := map[string]token{"m1": tk1, "m2": d.token("--label", "m2"), "m3": d.token()}
	addrs := map[string]string{}
	procs := map[string]*proctest.Proc{}
	for _, m := range []string{"m1", "m2", "m3"} {
		var extra []string
		if m == "m3" {
			extra = []string{"--label", "m3"}
		}
		if r := d.enroll(m, tokens[m], extra...); r.Code != 0 || !strings.Contains(r.Stdout, "enrolled as "+m) {
			t.Fatalf("enroll %s: %d\n%s%s", m, r.Code, r.Stdout, r.Stderr)
		}
		procs[m], addrs[m] = d.startAgent(m)
	}
	waitFor(t, "three machines online and reporting their memory", func() bool {
		return len(regexp.MustCompile(`online\s+\d+\.\d GiB`).FindAllString(d.mustCo("node", "list"), -1)) == 3
	})

	// Every refusal of enrolment, each recorded.
	t.Run("enrolment refusals", func(t *testing.T) {
		refused(t, "token reuse", d.enroll("x1", tk1, "--label", "x1"), "already used")
		tk := d.token()
		d.mustCo("token", "revoke", strings.Split(tk.token, ".")[0])
		refused(t, "revoked token", d.enroll("x2", tk, "--label", "x2"), "revoked")
		tk = d.token()
		wrong := tk
		wrong.token = tk.token[:7] + strings.Repeat("z", 16)
		refused(t, "wrong secret", d.enroll("x3", wrong, "--label", "x3"), "wrong token secret")
		wrong = tk
		wrong.pin = "sha256:" + strings.Repeat("0", 64)
		refused(t, "wrong pin", d.enroll("x4", wrong, "--label", "x4"), "wrong CA pin")
		recs := d.mustCo("audit", "show", "--kind", "enrol")
		// Reuse, revoked, wrong secret, wrong pin (the closed port refused
		// before any handshake, so there was no enrolment to record).
		if n := strings.Count(recs, " refused "); n != 4 {
			t.Fatalf("%d refused enrolments recorded, want 4:\n%s", n, recs)
		}
	})

	t.Run("outsider refused", func(t *testing.T) {
		k, _, err := lcrypto.GenerateEd25519Key(nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []string{"m1", "m2"} {
			if err := dialAs(t, k, addrs[m]); err == nil {
				t.Fatalf("an unenrolled peer reached %s", m)
			}
		}
		// The same exchange with a member's own key works: the refusal is
		// admission, not the test's dialing.
		mk, err := p2p.LoadOrCreateKey(filepath.Join(d.path("m1"), "node.key"))
		if err != nil {
			t.Fatal(err)
		}
		if err := dialAs(t, mk, addrs["m2"]); err != nil {
			t.Fatalf("a member's key refused by m2: %v", err)
		}
	})

	t.Run("machine firewall", func(t *testing.T) {
		// A member that is not connected to m2 yet: closing m2's port
		// keeps its running peers (m1, the coordinator) and takes no new one.
		if r := d.enroll("m5", d.token("--label", "m5")); r.Code != 0 {
			t.Fatalf("enroll m5: %d %s", r.Code, r.Stderr)
		}
		mk, err := p2p.LoadOrCreateKey(filepath.Join(d.path("m5"), "node.key"))
		if err != nil {
			t.Fatal(err)
		}
		waitFor(t, "m2 admits the new member m5", func() bool { return dialAs(t, mk, addrs["m2"]) == nil })
		if r := d.agent("m2", "firewall", "close"); r.Code != 0 {
			t.Fatalf("firewall close: %d %s", r.Code, r.Stderr)
		}
		waitFor(t, "m2 refuses a new member connection", func() bool { return dialAs(t, mk, addrs["m2"]) != nil })
		if r := d.agent("m2", "firewall", "status"); !strings.Contains(r.Stdout, "closed") {
			t.Fatalf("firewall status: %s", r.Stdout)
		}
		if r := d.agent("m2", "firewall", "open"); r.Code != 0 {
			t.Fatalf("firewall open: %d %s", r.Code, r.Stderr)
		}
		waitFor(t, "m2 admits members again", func() bool { return dialAs(t, mk, addrs["m2"]) == nil })
	})

	t.Run("removed machine dropped", func(t *testing.T) {
		start := time.Now()
		d.mustCo("node", "remove", "m3")
		code, err := procs["m3"].Wait(d.ctx())
		if err != nil || code != 1 || len(procs["m3"].Grep(regexp.MustCompile("removed from the deployment"))) == 0 {
			t.Fatalf("m3 after removal: exit %d, %v\n%s", code, err, procs["m3"].Tail(10))
		}
		t.Logf("m3 stopped %v after node remove", time.Since(start).Round(time.Millisecond))
		k, err := p2p.LoadOrCreateKey(filepath.Join(d.path("m3"), "node.key"))
		if err != nil {
			t.Fatal(err)
		}
		waitFor(t, "m1 and m2 refuse m3", func() bool {
			return dialAs(t, k, addrs["m1"]) != nil && dialAs(t, k, addrs["m2"]) != nil
		})
		t.Logf("m1 and m2 refuse m3 %v after node remove", time.Since(start).Round(time.Millisecond))
		if out := d.mustCo("node", "list"); !regexp.MustCompile(`m3\s+machine\s+removed`).MatchString(out) {
			t.Fatalf("node list:\n%s", out)
		}
	})

	t.Run("SIGKILL mid command stream", func(t *testing.T) {
		expiring := d.token("--label", "late")
		var mu sync.Mutex
		var done []string
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for range 2 {
			wg.Go(func() {
				for {
					select {
					case <-stop:
						return
					default:
					}
					r, err := proctest.Run(d.t.Context(), proctest.Cmd{Path: d.coordBin, Args: []string{"token", "create"}, Env: d.env})
					if err == nil && r.Code == 0 {
						if m := tokenRE.FindStringSubmatch(r.Stdout); m != nil {
							mu.Lock()
							done = append(done, strings.Split(m[2], ".")[0])
							mu.Unlock()
						}
					}
				}
			})
		}
		waitFor(t, "commands done", func() bool { mu.Lock(); defer mu.Unlock(); return len(done) >= 20 })
		if err := d.coord.Kill(); err != nil {
			t.Fatal(err)
		}
		close(stop)
		wg.Wait()
		// While it is down: the token's expiry moves to the past, and an
		// expired certificate is made for a fourth machine.
		editDB(t, d.path("coordinator/state.db"), func(tx *bolt.Tx) error {
			var tk coordinator.Token
			id := strings.Split(expiring.token, ".")[0]
			if _, err := store.Get(tx, store.Tokens, id, &tk); err != nil {
				return err
			}
			tk.Expires = time.Now().Add(-time.Minute)
			return store.Put(tx, store.Tokens, id, tk)
		})
		expiredMachine(t, d)
		d.startCoordinator()
		list := d.mustCo("token", "list")
		for _, id := range done {
			if !strings.Contains(list, id) {
				t.Fatalf("token %s was reported created but is gone after SIGKILL", id)
			}
		}
		t.Logf("%d commands reported done before SIGKILL, all present after restart", len(done))
		if out := d.mustCo("audit", "verify"); !strings.Contains(out, "intact") {
			t.Fatal(out)
		}
		refused(t, "expired token", d.enroll("late", expiring), "expired")
	})

	t.Run("expired certificate exits 77", func(t *testing.T) {
		r := d.agent("m4", "run")
		if r.Code != 77 || !strings.Contains(r.Stderr, "expired") {
			t.Fatalf("agent with an expired certificate: exit %d\n%s", r.Code, r.Stderr)
		}
	})

	t.Run("backup", func(t *testing.T) {
		out := d.path("backup.db")
		d.mustCo("backup", out)
		var n uint64
		viewDB(t, out, func(tx *bolt.Tx) error {
			var err error
			n, err = audit.Verify(tx)
			return err
		})
		if n < 20 {
			t.Fatalf("backup holds %d audit records", n)
		}
	})

	t.Run("audit export", func(t *testing.T) {
		d.mustCo("audit", "export", "--from", "1h", "--format", "csv", "--out", d.path("a.csv"))
		d.mustCo("audit", "export", "--from", "1h", "--format", "jsonl", "--out", d.path("a.jsonl"))
		b, _ := os.ReadFile(d.path("a.jsonl"))
		var first audit.Record
		if err := json.Unmarshal([]byte(strings.SplitN(string(b), "\n", 2)[0]), &first); err != nil || first.Seq != 1 {
			t.Fatalf("export: %v %+v", err, first)
		}
	})

	t.Run("coordinator outage and move", func(t *testing.T) {
		if err := d.coord.Terminate(15 * time.Second); err != nil {
			t.Fatal(err)
		}
		// A machine restarted while the coordinator is away joins through
		// the members it saw last, with the roster it holds.
		if err := procs["m2"].Terminate(15 * time.Second); err != nil {
			t.Fatal(err)
		}
		procs["m2"], addrs["m2"] = d.startAgent("m2")
		mk, err := p2p.LoadOrCreateKey(filepath.Join(d.path("m1"), "node.key"))
		if err != nil {
			t.Fatal(err)
		}
		if err := dialAs(t, mk, addrs["m2"]); err != nil {
			t.Fatalf("m2 restarted during the outage does not serve the roster to m1: %v", err)
		}
		// The coordinator moves to another port: its certificate first,
		// then the restart there. The machines follow without enrolling.
		d.startCoordinator()
		newPort := freePort(t)
		d.mustCo("certificate", "rotate", "--endpoint", fmt.Sprintf("127.0.0.1:%d", newPort))
		for _, m := range []string{"m1", "m2"} {
			waitFor(t, m+" holds the roster naming the new address", func() bool {
				return rosterNames(t, d.path(m), fmt.Sprintf("/tcp/%d/", newPort))
			})
		}
		if err := d.coord.Terminate(15 * time.Second); err != nil {
			t.Fatal(err)
		}
		d.swarmPort = newPort
		d.write("coordinator.toml", fmt.Sprintf("listen = \"127.0.0.1\"\nendpoint = \"127.0.0.1:%d\"\nswarm_port = %d\nenrol_port = %d\nvendor_keys = [%q]\n",
			newPort, newPort, d.enrolPort, d.path("vendor.pub")))
		d.startCoordinator()
		waitFor(t, "m1 and m2 online at the moved coordinator", func() bool {
			return strings.Count(d.mustCo("node", "list"), " online ") == 2
		})
		if out := d.mustCo("status"); !strings.Contains(out, fmt.Sprintf("127.0.0.1:%d", newPort)) {
			t.Fatalf("status after the move:\n%s", out)
		}
	})

	t.Run("edited audit record named", func(t *testing.T) {
		if err := d.coord.Terminate(15 * time.Second); err != nil {
			t.Fatal(err)
		}
		editDB(t, d.path("coordinator/state.db"), func(tx *bolt.Tx) error {
			b := tx.Bucket([]byte(store.Audit))
			var k [8]byte
			binary.BigEndian.PutUint64(k[:], 7)
			var r audit.Record
			if err := json.Unmarshal(b.Get(k[:]), &r); err != nil {
				return err
			}
			r.Outcome = "ok"
			r.Detail = "nothing happened here"
			v, _ := json.Marshal(r)
			return b.Put(k[:], v)
		})
		d.startCoordinator()
		refused(t, "audit verify after an edit", d.co("audit", "verify"), "record 7")
	})
}

// expiredMachine gives machine m4 a certificate that expired an hour ago,
// signed by the deployment CA (read from the stopped coordinator's state).
func expiredMachine(t *testing.T, d *deployment) {
	t.Helper()
	var certPEM, keyPEM string
	viewDB(t, d.path("coordinator/state.db"), func(tx *bolt.Tx) error {
		if _, err := store.Get(tx, store.Meta, "ca/cert", &certPEM); err != nil {
			return err
		}
		_, err := store.Get(tx, store.Meta, "ca/key", &keyPEM)
		return err
	})
	authority, err := ca.Load([]byte(certPEM), []byte(keyPEM))
	if err != nil {
		t.Fatal(err)
	}
	dir := d.path("m4")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	k, err := p2p.LoadOrCreateKey(filepath.Join(dir, "node.key"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := authority.Issue(time.Now().Add(-2*time.Hour), ca.IssueRequest{Key: k.GetPublic(), Label: "m4", Role: ca.RoleMachine, Lifetime: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	roster, err := os.ReadFile(filepath.Join(d.path("m1"), "roster"))
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{
		"ca.crt":     authority.CertPEM(),
		"member.crt": pemCert(m.Raw),
		"roster":     roster,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

func pemCert(der []byte) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

func editDB(t *testing.T, path string, fn func(tx *bolt.Tx) error) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Update(fn); err != nil {
		t.Fatal(err)
	}
}

func viewDB(t *testing.T, path string, fn func(tx *bolt.Tx) error) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: 10 * time.Second, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.View(fn); err != nil {
		t.Fatal(err)
	}
}

// waitFor polls cond (bounded: 60 s) — an event wait, not a timing
// assertion.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// rosterNames says whether the roster a machine holds lists a coordinator
// address containing part.
func rosterNames(t *testing.T, dir, part string) bool {
	b, err := os.ReadFile(filepath.Join(dir, "roster"))
	if err != nil {
		return false
	}
	var s trust.Signed
	var r trust.Roster
	if json.Unmarshal(b, &s) != nil || json.Unmarshal(s.Roster, &r) != nil {
		return false
	}
	for _, a := range r.CoordinatorAddrs {
		if strings.Contains(a, part) {
			return true
		}
	}
	return false
}
