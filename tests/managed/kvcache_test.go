package managed

import (
	"fmt"
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

// TestManagedKVCachePlacement: the KV cache each slice's node may fill
// (agent.toml kv_cache) is planned. Two machines give the same memory to
// slices, without prompt caches; the operator changes kv_cache and
// restarts the agents, and the coordinator places accordingly:
//   - a budget short of one session of the model's context on any range is
//     refused by model serve, naming kv_cache and the machine;
//   - a budget of the model's size and one context leaves room for one
//     copy of the model's blocks over both machines (served), and not for
//     another model, refused saying that the caches were counted;
//   - a budget of one context leaves room for two copies (served);
//   - lowered below a context once placed, the agents refuse their slices
//     and the model is unavailable, the reason naming kv_cache.
//
// placement.Place agrees with each count; node list shows the caches a
// slice takes.
func TestManagedKVCachePlacement(t *testing.T) {
	stories := testenv.Path(t, "models", "stories260K.gguf")
	man, err := slice.Build(stories)
	if err != nil {
		t.Fatal(err)
	}
	// One session of the whole context over every block: what any range
	// of the model needs at most.
	ctxBytes := uint64(p2p.ContextCacheBytes(man.Config(), man.Blocks()))
	small, large := ctxBytes, man.Size+ctxBytes
	mem := 2*man.Size + 2*ctxBytes
	cost := func(f, l int) uint64 { n, _ := man.RangeBytes(f, l); return n }
	for kv, want := range map[uint64]int{small: 4, large: 2} {
		perSlice := func(int, int) uint64 { return kv }
		rs, err := placement.Place(placement.Model{Blocks: man.Blocks(), Cost: cost},
			[]placement.Machine{{ID: "a", Memory: mem, RangeCost: perSlice}, {ID: "b", Memory: mem, RangeCost: perSlice}}, 2)
		if err != nil || len(rs) != want {
			t.Fatalf("kv cache %d: %+v, %v; want %d ranges", kv, rs, err, want)
		}
	}

	d := newDeployment(t)
	d.mustCo("firewall", "open", "--from", "127.0.0.0/8", "--for", "1h")
	for _, m := range []string{"m1", "m2"} {
		if r := d.enroll(m, d.token("--label", m), "--memory", strconv.FormatUint(mem, 10)); r.Code != 0 {
			t.Fatalf("enroll %s: %d\n%s", m, r.Code, r.Stderr)
		}
	}
	// withKV restarts both agents with kv_cache = kv bytes and waits until
	// the coordinator lists what each slice takes there.
	running := map[string]*proctest.Proc{}
	withKV := func(kv uint64) {
		t.Helper()
		for m, p := range running {
			if err := p.Terminate(30 * time.Second); err != nil {
				t.Fatalf("stop %s: %v", m, err)
			}
		}
		d.write("agent.toml", fmt.Sprintf("listen = \"/ip4/127.0.0.1/tcp/0\"\nprompt_cache = \"off\"\nkv_cache = \"%d\"\n", kv))
		for _, m := range []string{"m1", "m2"} {
			running[m], _ = d.startAgent(m)
		}
		listed := regexp.MustCompile(fmt.Sprintf(`(?m)\sonline\s+\d+\.\d GiB\s+%d MiB\s`, (kv+1<<20-1)>>20))
		waitFor(t, fmt.Sprintf("both machines reporting kv_cache %d", kv), func() bool {
			return len(listed.FindAllString(d.mustCo("node", "list"), -1)) == 2
		})
	}
	served := func() string {
		t.Helper()
		waitFor(t, "stories260K served", func() bool {
			return regexp.MustCompile(`(?m)^stories260K\s+served\s`).MatchString(d.mustCo("model", "list"))
		})
		return d.mustCo("model", "list")
	}
	copies := func(list string) int {
		t.Helper()
		n := 0
		for _, ps := range placedShares(t, list, map[string]*slice.Manifest{"stories260K": man}) {
			n += len(ps)
		}
		return n
	}

	// Less than one block's context (256 KiB a block): refused up front.
	withKV(100000)
	r := d.co("model", "serve", stories, "--replicas", "2")
	refused(t, "a KV cache short of one context", r, "raise kv_cache in m")
	if !regexp.MustCompile(`go to m[12], whose kv_cache \(100000 bytes a slice\) holds less than one session of the model's context of 2048 positions`).MatchString(r.Stderr) {
		t.Fatalf("the refusal names the machine, the setting and the context:\n%s", r.Stderr)
	}

	withKV(large)
	d.mustCo("model", "serve", stories, "--replicas", "2")
	if list := served(); copies(list) != 2 || !strings.Contains(list, "m1[") || !strings.Contains(list, "m2[") {
		t.Fatalf("kv_cache %d: want one copy over both machines:\n%s", large, list)
	}
	// What is left does not hold another model's slices with their
	// caches: the refusal says the caches were counted, and what to lower.
	r = d.co("model", "serve", testenv.Path(t, "models", "mini-llama-q4_0.gguf"))
	refused(t, "a second model beside the caches", r, "lower prompt_cache or kv_cache")
	if !strings.Contains(r.Stderr, "every slice its node's caches") || !strings.Contains(r.Stderr, fmt.Sprintf("(prompt_cache off, kv_cache %d bytes)", large)) {
		t.Fatalf("the refusal names the caches counted:\n%s", r.Stderr)
	}
	d.mustCo("model", "stop", "stories260K")

	withKV(small)
	d.mustCo("model", "serve", stories, "--replicas", "2")
	if list := served(); copies(list) != 4 {
		t.Fatalf("kv_cache %d: want two copies:\n%s", small, list)
	}

	// The operator lowers kv_cache below a context and restarts the
	// agents: each refuses the slices already placed on it, and says why.
	withKV(100000)
	waitFor(t, "stories260K unavailable for want of KV cache", func() bool {
		return regexp.MustCompile(`(?m)^stories260K\s+unavailable\s.*kv_cache in agent\.toml: p2p: blocks \[\d,\d\): KV cache budget too small`).MatchString(d.mustCo("model", "list"))
	})
}
