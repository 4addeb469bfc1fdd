package managed

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"svc/coordinator/placement"
	"svc/internal/testenv"
	"svc/p2p"
	"svc/shards/slice"
)

// TestManagedPromptCachePlacement: two machines each give twice the
// model's bytes (and two slices' KV caches) to slices, and their agents
// keep a prompt cache of the model's size for every slice (agent.toml
// prompt_cache). Two copies of the model's blocks would fit that memory
// without the prompt caches (the placement says so when told of the KV
// caches only), not with them: model serve --replicas 2 places one copy,
// and it is served.
func TestManagedPromptCachePlacement(t *testing.T) {
	stories := testenv.Path(t, "models", "stories260K.gguf")
	man, err := slice.Build(stories)
	if err != nil {
		t.Fatal(err)
	}
	// Each slice's KV cache holds one whole context of the model (as
	// any slice of it needs) and is counted too, with room for two.
	kv := uint64(p2p.ContextCacheBytes(man.Config(), man.Blocks()))
	mem := 2*man.Size + 2*kv
	cost := func(f, l int) uint64 { n, _ := man.RangeBytes(f, l); return n }
	perSlice := func(int, int) uint64 { return kv }
	without, err := placement.Place(placement.Model{Blocks: man.Blocks(), Cost: cost},
		[]placement.Machine{{ID: "a", Memory: mem, RangeCost: perSlice}, {ID: "b", Memory: mem, RangeCost: perSlice}}, 2)
	if err != nil || len(without) != 4 {
		t.Fatalf("without prompt caches two copies must fit: %+v, %v", without, err)
	}

	d := newDeployment(t)
	d.write("agent.toml", fmt.Sprintf("listen = \"/ip4/127.0.0.1/tcp/0\"\nprompt_cache = \"%d\"\nkv_cache = \"%d\"\n", man.Size, kv))
	d.mustCo("firewall", "open", "--from", "127.0.0.0/8", "--for", "1h")
	for _, m := range []string{"m1", "m2"} {
		if r := d.enroll(m, d.token("--label", m), "--memory", strconv.FormatUint(mem, 10)); r.Code != 0 {
			t.Fatalf("enroll %s: %d\n%s", m, r.Code, r.Stderr)
		}
		d.startAgent(m)
	}
	// A machine's free memory is listed once its first report (which
	// carries its prompt cache) has arrived.
	reported := regexp.MustCompile(`(?m)\sonline\s+\d+\.\d GiB\s`)
	waitFor(t, "two machines online and reported", func() bool {
		return len(reported.FindAllString(d.mustCo("node", "list"), -1)) == 2
	})
	d.mustCo("model", "serve", stories, "--replicas", "2")
	waitFor(t, "stories260K served", func() bool {
		return regexp.MustCompile(`(?m)^stories260K\s+served\s`).MatchString(d.mustCo("model", "list"))
	})
	list := d.mustCo("model", "list")
	shares := placedShares(t, list, map[string]*slice.Manifest{"stories260K": man})
	n := 0
	for m, ps := range shares {
		n += len(ps)
		if len(ps) != 1 {
			t.Errorf("%s holds %v: with its prompt caches a machine has room for one slice", m, ps)
		}
	}
	if n != 2 || !strings.Contains(list, "m1[") || !strings.Contains(list, "m2[") {
		t.Fatalf("want one copy over both machines:\n%s", list)
	}
}
