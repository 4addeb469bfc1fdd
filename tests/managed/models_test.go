package managed

import (
	"context"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"svc/coordinator/agent"
	"svc/coordinator/ca"
	"svc/coordinator/trust"
	"svc/internal/proctest"
	"svc/internal/testenv"
	"svc/p2p"
	"svc/shards/model"
	"svc/shards/slice"
)

// TestManagedModels: three machines; stories260K served from a file and a
// mini model dropped into the models directory and served by name; each
// machine's slice directory holds its share of the weights and no more;
// generations through the managed swarm equal svc generate token for token;
// a machine removed makes its models unavailable with the reason, and
// model stop makes the machines drop their slices.
func TestManagedModels(t *testing.T) {
	d := newDeployment(t)
	d.svc("licence", "issue", "--key", d.path("vendor.key"), "--licensee", "ACME", "--expires", "8760h",
		"--machines", "5", "--models", "2", "--features", "api", "--out", d.path("acme.licence"))
	d.mustCo("licence", "install", d.path("acme.licence"))
	d.mustCo("firewall", "open", "--from", "127.0.0.0/8", "--for", "1h")
	addrs := map[string]string{}
	procs := map[string]*proctest.Proc{}
	for _, m := range []string{"m1", "m2", "m3"} {
		if r := d.enroll(m, d.token("--label", m)); r.Code != 0 {
			t.Fatalf("enroll %s: %d\n%s", m, r.Code, r.Stderr)
		}
		procs[m], addrs[m] = d.startAgent(m)
	}
	waitFor(t, "three machines online", func() bool {
		return strings.Count(d.mustCo("node", "list"), " online ") == 3
	})

	stories := testenv.Path(t, "models", "stories260K.gguf")
	mini := testenv.Path(t, "models", "mini-llama-q4_k_m.gguf")
	// A file dropped into the models directory is imported.
	b, err := os.ReadFile(mini)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d.modelsDir(), "mini.gguf"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if out := d.mustCo("model", "list"); !regexp.MustCompile(`mini\s+available`).MatchString(out) {
		t.Fatalf("a dropped file is not listed:\n%s", out)
	}
	refused(t, "unknown model", d.co("model", "serve", "nosuch"), "no such model")
	d.mustCo("model", "serve", stories)
	d.mustCo("model", "serve", "mini")
	refused(t, "third model past the licence", d.co("model", "serve", testenv.Path(t, "models", "mini-llama-q4_0.gguf")), "licence allows 2")
	for _, name := range []string{"stories260K", "mini"} {
		waitFor(t, name+" served", func() bool {
			return regexp.MustCompile(`(?m)^` + name + `\s+served\s`).MatchString(d.mustCo("model", "list"))
		})
	}
	list := d.mustCo("model", "list")
	t.Logf("model list:\n%s", list)

	// Each machine holds its share and no more.
	manifests := map[string]*slice.Manifest{}
	for name, path := range map[string]string{"stories260K": stories, "mini": mini} {
		if manifests[name], err = slice.Build(path); err != nil {
			t.Fatal(err)
		}
	}
	shares := placedShares(t, list, manifests)
	for _, m := range []string{"m1", "m2", "m3"} {
		var want, tensors uint64
		for _, s := range shares[m] {
			n, _ := manifests[s.model].RangeBytes(s.first, s.last)
			ts, _ := manifests[s.model].Need(s.first, s.last)
			want += n
			tensors += uint64(len(ts))
		}
		got := allocated(t, filepath.Join(d.path(m), "slices"))
		// Each tensor may round up to whole file-system blocks at both
		// ends.
		if got < want*9/10 || got > want+(tensors+2)*2*4096 {
			t.Errorf("%s holds %d KiB of slices for a share of %d KiB (%v)", m, got>>10, want>>10, shares[m])
		}
		t.Logf("%s: %d KiB on disk for a share of %d KiB: %v", m, got>>10, want>>10, shares[m])
	}
	var total uint64
	for _, man := range manifests {
		total += man.Size
	}
	for _, m := range []string{"m1", "m2", "m3"} {
		if got := allocated(t, filepath.Join(d.path(m), "slices")); got > total*3/4 {
			t.Errorf("%s holds %d of the %d bytes of both models", m, got, total)
		}
	}

	// Generations through the managed swarm equal svc generate.
	member := d.member(t, "api1")
	for name, path := range map[string]string{"stories260K": stories, "mini": mini} {
		var want struct {
			Completion []int32 `json:"completion_tokens"`
		}
		out := d.svc("generate", "--model", path, "--tokens", "1,403,407,261,378", "-n", "24", "--json")
		if err := json.Unmarshal([]byte(out), &want); err != nil {
			t.Fatalf("svc generate --json: %v\n%s", err, out)
		}
		got := member.generate(t, name, manifests[name], addrs, []int32{1, 403, 407, 261, 378}, 24)
		if len(got) < len(want.Completion) || !slices.Equal(got[:len(want.Completion)], want.Completion) {
			t.Fatalf("%s: the managed swarm generates %v, svc generate %v", name, got, want.Completion)
		}
		t.Logf("%s: %v through the managed swarm equals svc generate", name, want.Completion)
	}

	// And through the managed API (svc-api: TLS, a key, its router in the
	// managed swarm), as a developer calls it.
	api := d.startAPI("api-1")
	key := api.key(t, "--models", "*", "--expires", "1d", "--rate", "1000/min", "--name", "web")
	for name, path := range map[string]string{"stories260K": stories, "mini": mini} {
		var want struct {
			Text string `json:"text"`
		}
		out := d.svc("generate", "--model", path, "--prompt", "Once upon a time", "-n", "24", "--json")
		if err := json.Unmarshal([]byte(out), &want); err != nil {
			t.Fatalf("svc generate --json: %v\n%s", err, out)
		}
		var got struct {
			Choices []struct {
				Text string `json:"text"`
			} `json:"choices"`
		}
		body := fmt.Sprintf(`{"model":%q,"prompt":"Once upon a time","max_tokens":24}`, name)
		var r apiAnswer
		waitFor(t, "the API serves "+name, func() bool {
			r = api.call(t, "POST", "/v1/completions", key, body)
			return r.status == 200
		})
		if err := json.Unmarshal(r.body, &got); err != nil || len(got.Choices) != 1 {
			t.Fatalf("completion of %s: %v\n%s", name, err, r.body)
		}
		if got.Choices[0].Text != want.Text {
			t.Fatalf("%s through the managed API: %q, svc generate %q", name, got.Choices[0].Text, want.Text)
		}
		t.Logf("%s through the managed API equals svc generate: %q", name, want.Text)
	}

	// An API member is no machine of any placement: the coordinator gives
	// it neither a manifest nor a tensor.
	coord := member.t.View().Coord.Peer
	pl, _ := member.t.View().Placement("stories260K")
	if _, err := p2p.FetchManifest(d.ctx(), member.ep.Host, coord, pl.Manifest); err == nil || !strings.Contains(err.Error(), "no slice") {
		t.Fatalf("an API member got the manifest: %v", err)
	}
	emb, _ := manifests["stories260K"].Tensor("token_embd.weight")
	if err := p2p.FetchTensor(d.ctx(), member.ep.Host, coord, pl.Manifest, emb, io.Discard); err == nil || !strings.Contains(err.Error(), "not in the slices") {
		t.Fatalf("an API member got a tensor: %v", err)
	}

	// Restarts: the coordinator's placements survive it, and a machine
	// started again serves its slices from its files without fetching.
	if err := d.coord.Terminate(15 * time.Second); err != nil {
		t.Fatal(err)
	}
	d.startCoordinator()
	if err := procs["m1"].Terminate(15 * time.Second); err != nil {
		t.Fatal(err)
	}
	procs["m1"], addrs["m1"] = d.startAgent("m1")
	for _, name := range []string{"stories260K", "mini"} {
		if _, err := procs["m1"].WaitLine(d.ctx(), regexp.MustCompile(`slice file ready.* slice=`+name+`\S* fetched_tensors=0 fetched_bytes=0`)); err != nil {
			t.Fatalf("m1 after a restart: %v\n%s", err, procs["m1"].Tail(20))
		}
	}
	waitFor(t, "both served after the restarts", func() bool {
		return strings.Count(d.mustCo("model", "list"), " served ") >= 2
	})

	// A machine removed: its models lose coverage and become unavailable
	// with the reason, until the operator serves them again.
	d.mustCo("node", "remove", "m3")
	waitFor(t, "models unavailable", func() bool {
		out := d.mustCo("model", "list")
		return strings.Count(out, "unavailable") >= 2 && strings.Contains(out, "m3 was removed")
	})
	d.mustCo("model", "serve", "mini")
	waitFor(t, "mini served again on two machines", func() bool {
		return regexp.MustCompile(`(?m)^mini\s+served\s`).MatchString(d.mustCo("model", "list"))
	})
	d.mustCo("model", "stop", "stories260K")
	waitFor(t, "stories260K's slices dropped", func() bool {
		for _, m := range []string{"m1", "m2"} {
			fs, _ := filepath.Glob(filepath.Join(d.path(m), "slices", "stories260K-*"))
			if len(fs) > 0 {
				return false
			}
		}
		return true
	})
	// A machine that cannot store its slice (its slices directory is
	// gone, a file in its place) reports it: the model becomes unavailable
	// with the machine's reason, after the fetch was tried a few times.
	slicesDir := filepath.Join(d.path("m2"), "slices")
	if err := os.Rename(slicesDir, slicesDir+".off"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(slicesDir, []byte("not a directory"), 0o600); err != nil {
		t.Fatal(err)
	}
	d.mustCo("model", "serve", "stories260K")
	waitFor(t, "stories260K unavailable for m2's reason", func() bool {
		return regexp.MustCompile(`(?m)^stories260K\s+unavailable\s.*machine m2 could not serve blocks \d+:\d+: .*not a directory`).MatchString(d.mustCo("model", "list"))
	})
	if out := d.mustCo("audit", "show", "--kind", "slice.unavailable"); !strings.Contains(out, "m2") {
		t.Fatalf("the failed slice is not on the audit trail:\n%s", out)
	}
	if err := os.Remove(slicesDir); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(slicesDir+".off", slicesDir); err != nil {
		t.Fatal(err)
	}

	// Served again by name (its manifest cached in the library).
	d.mustCo("model", "serve", "stories260K")
	waitFor(t, "stories260K served again", func() bool {
		return regexp.MustCompile(`(?m)^stories260K\s+served\s`).MatchString(d.mustCo("model", "list"))
	})
	if out := d.mustCo("audit", "show", "--kind", "slice.served"); strings.Count(out, "slice.served") < 4 {
		t.Fatalf("served slices not on the audit trail:\n%s", out)
	}
}

func (d *deployment) modelsDir() string { return d.path("models") }

type placed struct {
	model       string
	first, last int
}

var sliceRE = regexp.MustCompile(`(\S+)\[(\d+):(\d+)\]=\S+`)

// placedShares reads model list's slices per machine label.
func placedShares(t *testing.T, list string, manifests map[string]*slice.Manifest) map[string][]placed {
	t.Helper()
	out := map[string][]placed{}
	for _, line := range strings.Split(list, "\n") {
		f := strings.Fields(line)
		if len(f) < 4 || manifests[f[0]] == nil {
			continue
		}
		for _, m := range sliceRE.FindAllStringSubmatch(line, -1) {
			a, _ := strconv.Atoi(m[2])
			b, _ := strconv.Atoi(m[3])
			out[m[1]] = append(out[m[1]], placed{model: f[0], first: a, last: b})
		}
	}
	if len(out) == 0 {
		t.Fatalf("no slices in model list:\n%s", list)
	}
	return out
}

// allocated is the disk space the files of dir take (sparse files count
// their data only).
func allocated(t *testing.T, dir string) uint64 {
	t.Helper()
	fs, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil {
		t.Fatal(err)
	}
	var n uint64
	for _, f := range fs {
		fi, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		n += uint64(fi.Sys().(*syscall.Stat_t).Blocks) * 512
	}
	return n
}

// apiMember is an enrolled api-role member in this process: a host the
// machines admit, with the roster that says where each model's blocks are.
type apiMember struct {
	ep *p2p.Endpoint
	t  *trust.Trust
}

// member enrols an api-role member and joins the swarm with it.
func (d *deployment) member(t *testing.T, name string) *apiMember {
	t.Helper()
	dir := d.path(name)
	tk := d.token("--role", "api", "--label", name)
	if _, err := agent.Enroll(d.ctx(), agent.EnrollOptions{StateDir: dir, Coordinator: tk.addr, Token: tk.token, Pin: tk.pin,
		Label: name, Role: ca.RoleAPI, Listen: "/ip4/127.0.0.1/tcp/0"}); err != nil {
		t.Fatalf("enrol %s: %v", name, err)
	}
	key, err := p2p.LoadOrCreateKey(filepath.Join(dir, "node.key"))
	if err != nil {
		t.Fatal(err)
	}
	read := func(f string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	caCert, err := ca.ParseCertPEM(read("ca.crt"))
	if err != nil {
		t.Fatal(err)
	}
	blk, _ := pem.Decode(read("member.crt"))
	tr := trust.New(caCert, nil)
	if _, err := tr.Update(read("roster")); err != nil {
		t.Fatal(err)
	}
	tr.SetCredential(blk.Bytes)
	ep, err := p2p.NewEndpoint(t.Context(), p2p.EndpointConfig{Key: key, Admission: tr,
		Bootstrap: tr.View().CoordinatorAddrs[:1]})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ep.Close() })
	tr.Attach(ep.Host)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		tr.Refresh(ctx, 500*time.Millisecond)
	}()
	t.Cleanup(func() { cancel(); <-done })
	return &apiMember{ep: ep, t: tr}
}

// generate runs a greedy generation of model name over the chain of
// served slices the roster names (the first copy), on the machines.
func (a *apiMember) generate(t *testing.T, name string, man *slice.Manifest, addrs map[string]string, prompt []int32, n int) []int32 {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	var p *trust.Placement
	waitFor(t, "the member's roster serves "+name, func() bool {
		var ok bool
		p, ok = a.t.View().Placement(name)
		return ok && p.State == trust.StateServed
	})
	var hops []model.Hop
	next := 0
	for next < p.Blocks {
		var s *trust.Slice
		for i := range p.Slices {
			if p.Slices[i].First == next && p.Slices[i].State == trust.StateServed {
				s = &p.Slices[i]
				break
			}
		}
		if s == nil {
			t.Fatalf("no served slice of %s starts at block %d: %+v", name, next, p.Slices)
		}
		id, err := peer.Decode(s.Peer)
		if err != nil {
			t.Fatal(err)
		}
		addr, err := ma.NewMultiaddr(strings.TrimSuffix(addrs[s.Label], "/p2p/"+s.Peer))
		if err != nil {
			t.Fatal(err)
		}
		a.ep.Host.Peerstore().AddAddrs(id, []ma.Multiaddr{addr}, time.Hour)
		sess, err := p2p.OpenSession(ctx, a.ep.Host, id, p2p.SessionOptions{ID: fmt.Sprintf("t-%s-%d", name, next), Digest: p.Digest,
			First: s.First, Last: s.Last, MaxLength: len(prompt) + n, Dim: man.Config().Dim})
		if err != nil {
			t.Fatalf("open a session on %s: %v", s.Label, err)
		}
		defer sess.Close()
		hops = append(hops, sess)
		next = s.Last
	}
	res, err := model.Generate(ctx, hops, prompt, model.GenOptions{MaxTokens: n}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Completion
}
