package managed

import (
	"strings"
	"testing"

	"svc/internal/proctest"
)

// Every command of both programs answers a wrong flag with exit 2 and its
// usage.
func TestWrongFlags(t *testing.T) {
	progs := map[string][]string{
		"./cmd/svc-coordinator": {
			"init", "run", "status", "licence install", "licence show", "token create", "token list", "token revoke",
			"node list", "node remove", "firewall open", "firewall close", "firewall status", "audit show",
			"audit verify", "audit export", "certificate rotate", "backup",
		},
		"./cmd/svc-node-agent": {"enroll", "run", "status", "firewall open", "firewall close", "firewall status"},
	}
	dir := t.TempDir()
	for pkg, cmds := range progs {
		bin := proctest.Build(t, pkg)
		for _, c := range cmds {
			args := append(strings.Fields(c), "--no-such-flag")
			r, err := proctest.Run(t.Context(), proctest.Cmd{Path: bin, Args: args, Dir: dir,
				Env: []string{"SVC_COORDINATOR_STATE_DIR=" + dir, "SVC_NODE_AGENT_STATE_DIR=" + dir}})
			if err != nil {
				t.Fatal(err)
			}
			if r.Code != 2 || !strings.Contains(r.Stderr, "Usage:") || !strings.Contains(r.Stderr, "no-such-flag") {
				t.Errorf("%s %s: exit %d, want 2 with usage:\n%s", pkg, strings.Join(args, " "), r.Code, r.Stderr)
			}
		}
	}
}
