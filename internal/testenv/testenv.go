package testenv

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// EnvVar overrides where the shared fixtures live.
const EnvVar = "SVC_SHARED"

// RepoRoot walks up from the working directory to the directory holding go.mod.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("testenv: working directory: %w", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("testenv: no go.mod above the working directory")
		}
		dir = parent
	}
}

// SharedDirErr returns the fixture directory or an error saying where it looked.
func SharedDirErr() (string, error) {
	dir := os.Getenv(EnvVar)
	if dir == "" {
		root, err := RepoRoot()
		if err != nil {
			return "", err
		}
		dir = filepath.Join(root, "..", "shared")
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return "", fmt.Errorf("testenv: shared fixtures not found at %s (set %s to override)", dir, EnvVar)
	}
	return filepath.Clean(dir), nil
}

// SharedDir returns the fixture directory, failing the test if it is missing.
func SharedDir(tb testing.TB) string {
	tb.Helper()
	dir, err := SharedDirErr()
	if err != nil {
		tb.Fatal(err)
	}
	return dir
}

// Path joins elements under the fixture directory and fails the test if the
// file does not exist.
func Path(tb testing.TB, elem ...string) string {
	tb.Helper()
	p := filepath.Join(append([]string{SharedDir(tb)}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		tb.Fatalf("fixture missing: %v", err)
	}
	return p
}

// Models lists every *.gguf under shared/models.
func Models(tb testing.TB) []string {
	tb.Helper()
	m, err := filepath.Glob(filepath.Join(SharedDir(tb), "models", "*.gguf"))
	if err != nil || len(m) == 0 {
		tb.Fatalf("no models under %s/models", SharedDir(tb))
	}
	return m
}
