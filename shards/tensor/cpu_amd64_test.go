//go:build amd64 && !purego

package tensor

import "testing"

// skipUnless skips a test or benchmark of kernels the CPU cannot run (or
// SVC_KERNELS keeps out), with the reason: a CPU feature is not a fixture.
func skipUnless(tb testing.TB, gap string) {
	tb.Helper()
	if gap != "" {
		tb.Skipf("skipped: %s", gap)
	}
}
