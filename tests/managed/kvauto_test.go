package managed

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"svc/coordinator/placement"
	"svc/internal/proctest"
	"svc/internal/testenv"
	"svc/p2p"
	"svc/shards/slice"
)

// longContext writes a copy of the GGUF model src whose trained context
// (llama.context_length, a uint32) is n, to dst: the same tensors, a KV
// cache of one whole context as large as a long-context model's.
func longContext(t *testing.T, src, dst string, n uint32) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	key := []byte("llama.context_length")
	i := bytes.Index(b, key)
	if i < 8 || binary.LittleEndian.Uint64(b[i-8:]) != uint64(len(key)) || binary.LittleEndian.Uint32(b[i+len(key):]) != 4 {
		t.Fatalf("%s: no uint32 llama.context_length", src)
	}
	binary.LittleEndian.PutUint32(b[i+len(key)+4:], n)
	if err := os.WriteFile(dst, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestManagedKVCacheAuto: with kv_cache auto (the default), each slice's
// KV cache is 2GiB, or one session of the model's whole context on the
// slice's blocks where that is more, and the coordinator counts exactly
// that with every slice it places. stories260K's context (2048 positions,
// 256KiB a block) counts 2GiB a slice; a copy of it with a context of
// 4194304 positions (512MiB a block, 2.5GiB for its 5 blocks, more than
// the default: a long-context model in miniature) counts 2GiB for a slice
// of up to 4 blocks and 2.5GiB for all 5. m1 gives exactly the long
// model's blocks and 2.5GiB to slices, m2 one byte less:
//   - both online, the long model is split in two, each slice counted 2GiB;
//   - m1 alone holds the whole long model (served; 2560 MiB counted);
//   - m2 alone cannot (refused, the refusal giving the caches counted,
//     2048 to 2560 MiB by blocks), but holds stories260K with its 2GiB.
//
// placement.Place with p2p.SliceCacheBytes agrees with each outcome, and
// node list's CACHES A SLICE shows what was counted.
func TestManagedKVCacheAuto(t *testing.T) {
	stories := testenv.Path(t, "models", "stories260K.gguf")
	long := filepath.Join(t.TempDir(), "stories-long.gguf")
	longContext(t, stories, long, 1<<22)
	short, err := slice.Build(stories)
	if err != nil {
		t.Fatal(err)
	}
	man, err := slice.Build(long)
	if err != nil {
		t.Fatal(err)
	}
	c := man.Config()
	if c.Context != 1<<22 || p2p.ContextCacheBytes(c, 5) != 5<<29 || p2p.ContextCacheBytes(c, 4) != 2<<30 {
		t.Fatalf("the long copy: context %d, one context on 5 blocks %d", c.Context, p2p.ContextCacheBytes(c, 5))
	}
	all, _ := man.RangeBytes(0, man.Blocks())
	m1 := all + uint64(p2p.SliceCacheBytes(c, man.Blocks(), 0))
	if m1 != all+5<<29 {
		t.Fatalf("auto for the whole long model: %d", m1-all)
	}
	m2 := m1 - 1
	// What the arithmetic says, with auto's cost of a range.
	cost := func(m *slice.Manifest) func(f, l int) uint64 {
		return func(f, l int) uint64 { n, _ := m.RangeBytes(f, l); return n }
	}
	auto := func(m *slice.Manifest) func(f, l int) uint64 {
		return func(f, l int) uint64 { return uint64(p2p.SliceCacheBytes(m.Config(), l-f, 0)) }
	}
	place := func(m *slice.Manifest, mems ...uint64) ([]placement.Range, error) {
		var ms []placement.Machine
		for i, mem := range mems {
			ms = append(ms, placement.Machine{ID: fmt.Sprint(i), Memory: mem, RangeCost: auto(m)})
		}
		return placement.Place(placement.Model{Blocks: m.Blocks(), Cost: cost(m)}, ms, 1)
	}
	if rs, err := place(man, m1, m2); err != nil || len(rs) != 2 || rs[0].Last-rs[0].First > 4 || rs[1].Last-rs[1].First > 4 {
		t.Fatalf("the long model over both: %+v, %v; want two slices of at most 4 blocks", rs, err)
	}
	if rs, err := place(man, m1); err != nil || len(rs) != 1 {
		t.Fatalf("the long model on m1: %+v, %v", rs, err)
	}
	if rs, err := place(man, m2); err == nil {
		t.Fatalf("the long model on m2: %+v", rs)
	}
	if rs, err := place(short, m2); err != nil || len(rs) != 1 {
		t.Fatalf("stories260K on m2: %+v, %v", rs, err)
	}

	d := newDeployment(t)
	d.write("agent.toml", "listen = \"/ip4/127.0.0.1/tcp/0\"\nprompt_cache = \"off\"\nkv_cache = \"auto\"\n")
	d.mustCo("firewall", "open", "--from", "127.0.0.0/8", "--for", "1h")
	running := map[string]*proctest.Proc{}
	for name, mem := range map[string]uint64{"m1": m1, "m2": m2} {
		if r := d.enroll(name, d.token("--label", name), "--memory", strconv.FormatUint(mem, 10)); r.Code != 0 {
			t.Fatalf("enroll %s: %d\n%s", name, r.Code, r.Stderr)
		}
		running[name], _ = d.startAgent(name)
	}
	// row is a machine's node list row: online, reported, and its caches.
	row := func(name, caches string) *regexp.Regexp {
		return regexp.MustCompile(`(?m)^` + name + `\s+machine\s+online\s+\d+\.\d GiB\s+` + regexp.QuoteMeta(caches) + `\s`)
	}
	listed := func(what string, rows ...*regexp.Regexp) {
		t.Helper()
		waitFor(t, what, func() bool {
			out := d.mustCo("node", "list")
			for _, r := range rows {
				if !r.MatchString(out) {
					return false
				}
			}
			return true
		})
	}
	served := func(name string) string {
		t.Helper()
		waitFor(t, name+" served", func() bool {
			return regexp.MustCompile(`(?m)^` + name + `\s+served\s`).MatchString(d.mustCo("model", "list"))
		})
		return d.mustCo("model", "list")
	}
	// only stops every agent but name's and waits until name is the one
	// machine online.
	only := func(name string) {
		t.Helper()
		for m, p := range running {
			if m != name {
				if err := p.Terminate(30 * time.Second); err != nil {
					t.Fatalf("stop %s: %v", m, err)
				}
				delete(running, m)
			}
		}
		if running[name] == nil {
			running[name], _ = d.startAgent(name)
		}
		waitFor(t, name+" alone online", func() bool { return strings.Count(d.mustCo("node", "list"), " online ") == 1 })
		listed(name+" reported", row(name, "auto: from 2048 MiB"))
	}
	listed("both machines reporting kv_cache auto", row("m1", "auto: from 2048 MiB"), row("m2", "auto: from 2048 MiB"))

	// Both online: two slices of at most 4 blocks, 2GiB counted each.
	d.mustCo("model", "serve", long)
	list := served("stories-long")
	shares := placedShares(t, list, map[string]*slice.Manifest{"stories-long": man})
	if len(shares["m1"]) != 1 || len(shares["m2"]) != 1 {
		t.Fatalf("the long model over both machines:\n%s", list)
	}
	listed("2GiB counted with each slice", row("m1", "auto: 2048 MiB"), row("m2", "auto: 2048 MiB"))
	d.mustCo("model", "stop", "stories-long")

	// m1 alone: the whole long model, with one context on its 5 blocks.
	only("m1")
	d.mustCo("model", "serve", long)
	if list := served("stories-long"); !strings.Contains(list, "m1[0:5]=served") {
		t.Fatalf("the long model on m1 alone:\n%s", list)
	}
	listed("2.5GiB counted with the whole long model", row("m1", "auto: 2560 MiB"))
	d.mustCo("model", "stop", "stories-long")

	// m2 alone, one byte short: refused, giving what auto counts.
	only("m2")
	r := d.co("model", "serve", long)
	refused(t, "the long model on m2 alone", r, "m2 2048 to 2560 MiB by blocks (prompt_cache off, kv_cache auto: 2GiB, or one session of the model's context of 4194304 positions at 512MiB a block where that is more)")
	// stories260K's short context: 2GiB counted.
	d.mustCo("model", "serve", stories)
	if list := served("stories260K"); !strings.Contains(list, "m2[0:5]=served") {
		t.Fatalf("stories260K on m2 alone:\n%s", list)
	}
	listed("2GiB counted with stories260K", row("m2", "auto: 2048 MiB"))
}
