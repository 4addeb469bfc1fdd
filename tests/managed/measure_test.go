package managed

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"svc/internal/proctest"
	"svc/shards/slice"
)

// TestManagedServeMeasure measures, for the model named by
// SVC_MANAGED_MEASURE_MODEL (e.g. a synthetic TinyLlama Q4_0 from svc model
// synth), the time from model serve to served over three agents, and each
// agent's resident memory against its share of the weights. It logs the
// numbers and asserts only that the model is served and each machine holds
// its share; it is skipped unless the variable names a file.
func TestManagedServeMeasure(t *testing.T) {
	path := os.Getenv("SVC_MANAGED_MEASURE_MODEL")
	if path == "" {
		t.Skip("SVC_MANAGED_MEASURE_MODEL names no model file")
	}
	man, err := slice.Build(path)
	if err != nil {
		t.Fatal(err)
	}
	d := newDeployment(t)
	d.mustCo("firewall", "open", "--from", "127.0.0.0/8", "--for", "1h")
	procs := map[string]*proctest.Proc{}
	for _, m := range []string{"m1", "m2", "m3"} {
		if r := d.enroll(m, d.token("--label", m), "--memory", strconv.Itoa(2<<30)); r.Code != 0 {
			t.Fatalf("enroll %s: %d\n%s", m, r.Code, r.Stderr)
		}
		procs[m], _ = d.startAgent(m)
	}
	waitFor(t, "three machines online", func() bool {
		return strings.Count(d.mustCo("node", "list"), " online ") == 3
	})
	name := strings.TrimSuffix(filepath.Base(path), ".gguf")
	served := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + `\s+served\s`)
	start := time.Now()
	d.mustCo("model", "serve", path)
	placed := time.Since(start)
	deadline := time.Now().Add(5 * time.Minute)
	var list string
	for list = d.mustCo("model", "list"); !served.MatchString(list); list = d.mustCo("model", "list") {
		if time.Now().After(deadline) {
			t.Fatalf("not served after 5 minutes:\n%s", list)
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("%s (%d MiB): model serve returned after %v (import and placement), served after %v",
		name, man.Size>>20, placed.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	shares := placedShares(t, list, map[string]*slice.Manifest{name: man})
	for _, m := range []string{"m1", "m2", "m3"} {
		var share uint64
		for _, s := range shares[m] {
			n, _ := man.RangeBytes(s.first, s.last)
			share += n
		}
		disk := allocated(t, filepath.Join(d.path(m), "slices"))
		status, err := os.ReadFile("/proc/" + strconv.Itoa(procs[m].Pid()) + "/status")
		if err != nil {
			t.Fatal(err)
		}
		rss := regexp.MustCompile(`VmRSS:\s+(\d+) kB`).FindSubmatch(status)
		t.Logf("%s %v: VmRSS %s kB, slices on disk %d kB, share %d kB", m, shares[m], rss[1], disk>>10, share>>10)
		if disk > share+share/20 || disk < share*9/10 {
			t.Errorf("%s holds %d kB for a share of %d kB", m, disk>>10, share>>10)
		}
	}
}
