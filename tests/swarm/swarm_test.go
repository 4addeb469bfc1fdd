package swarm_test

import (
	"testing"
	"time"

	"svc/internal/proctest"
	"svc/internal/testenv"
)

// TestSwarm builds svc once and runs every scenario of the package with
// it, each on a swarm of its own. Whole package: about 3 to 4 minutes on
// 2 cores (the soak is bounded to about a minute and a half).
func TestSwarm(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end swarm tests: build svc and run processes (not in -short)")
	}
	model := testenv.Path(t, "models", "stories260K.gguf")
	t0 := time.Now()
	bin := proctest.Build(t, "./cmd/svc")
	t.Logf("svc built in %.1fs", time.Since(t0).Seconds())

	run := func(name string, f func(t *testing.T, bin, model string)) {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			// A cleanup runs after the subtest's parallel subtests too.
			t.Cleanup(func() { t.Logf("%s took %.1fs", name, time.Since(start).Seconds()) })
			f(t, bin, model)
		})
	}
	run("failover", testFailover)
	run("frozen hop", testFrozenHop)
	run("swarm view while a node is frozen", testFrozenNodeView)
	run("capacity", testCapacity)
	run("steady view with short record TTL", testSteadyView)
	run("soak", testSoak)
	run("churn", testChurn)
}
