package managed

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"svc/internal/proctest"
)

// Every command of both programs (as docs/cli lists them, which TestDocs
// keeps current) answers a wrong flag with exit 2 and its usage.
func TestWrongFlags(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	docs := filepath.Join(filepath.Dir(file), "..", "..", "docs", "cli")
	dir := t.TempDir()
	for _, prog := range []string{"svc-coordinator", "svc-node-agent", "svc-api"} {
		bin := proctest.Build(t, "./cmd/"+prog)
		files, err := filepath.Glob(filepath.Join(docs, prog+"*.md"))
		if err != nil || len(files) < 3 {
			t.Fatalf("docs/cli of %s: %d files, %v", prog, len(files), err)
		}
		for _, f := range files {
			words := strings.Split(strings.TrimSuffix(filepath.Base(f), ".md"), "_")[1:]
			args := append(words, "--no-such-flag")
			r, err := proctest.Run(t.Context(), proctest.Cmd{Path: bin, Args: args, Dir: dir,
				Env: []string{"SVC_COORDINATOR_STATE_DIR=" + dir, "SVC_NODE_AGENT_STATE_DIR=" + dir}})
			if err != nil {
				t.Fatal(err)
			}
			if r.Code != 2 || !strings.Contains(r.Stderr, "Usage:") || !strings.Contains(r.Stderr, "no-such-flag") {
				t.Errorf("%s %s: exit %d, want 2 with usage:\n%s", prog, strings.Join(args, " "), r.Code, r.Stderr)
			}
		}
	}
}
