package proctest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

// buildTimeout bounds one go build; a cold build of cmd/svc on a loaded
// 2-core machine takes about a minute.
const buildTimeout = 10 * time.Minute

// builds is the test binary's build cache: Main sets it up and removes its
// directory when the tests end. It is the package's only state, and exists
// because "once per test binary" cannot be said any other way.
var builds struct {
	mu   sync.Mutex
	dir  string                 // set by Main
	bins map[string]*buildEntry // package path → binary
}

type buildEntry struct {
	once sync.Once
	n    int // the entry's own subdirectory
	bin  string
	err  error
}

// Main runs the tests with a build directory for Build and removes it
// afterwards. Call it from TestMain.
func Main(m *testing.M) {
	dir, err := os.MkdirTemp("", "proctest-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "proctest: build directory:", err)
		os.Exit(1)
	}
	builds.mu.Lock()
	builds.dir, builds.bins = dir, map[string]*buildEntry{}
	builds.mu.Unlock()
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// Build compiles the main package pkg (a path relative to the module root,
// such as "./cmd/svc") once per test binary and returns the program's path.
// It fails the test if the build fails or TestMain does not call Main.
func Build(tb testing.TB, pkg string) string {
	tb.Helper()
	bin, err := BuildErr(tb.Context(), pkg)
	if err != nil {
		tb.Fatal(err)
	}
	return bin
}

// BuildErr is Build returning its error.
func BuildErr(ctx context.Context, pkg string) (string, error) {
	builds.mu.Lock()
	if builds.dir == "" {
		builds.mu.Unlock()
		return "", fmt.Errorf("proctest: Build(%q) needs proctest.Main in the package's TestMain", pkg)
	}
	e := builds.bins[pkg]
	if e == nil {
		e = &buildEntry{n: len(builds.bins)}
		builds.bins[pkg] = e
	}
	dir := builds.dir
	builds.mu.Unlock()
	e.once.Do(func() {
		root, err := moduleRoot()
		if err != nil {
			e.err = err
			return
		}
		// The program keeps its own name (it may print it in usage).
		bin := filepath.Join(dir, strconv.Itoa(e.n), path.Base(filepath.ToSlash(pkg)))
		bctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), buildTimeout)
		defer cancel()
		args := []string{"build", "-o", bin}
		if raceEnabled {
			args = append(args, "-race")
		}
		cmd := exec.CommandContext(bctx, "go", append(args, pkg)...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			e.err = fmt.Errorf("proctest: go build %s: %w\n%s", pkg, err, out)
			return
		}
		e.bin = bin
	})
	return e.bin, e.err
}

// moduleRoot walks up from the working directory (a test runs in its
// package's directory) to the directory holding go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("proctest: working directory: %w", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("proctest: no go.mod above the working directory")
		}
		dir = parent
	}
}
