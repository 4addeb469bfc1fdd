//go:build !unix

package tensor

import "time"

// cpuTime is not measured here; benchmarks then report wall-clock figures
// only.
func cpuTime() time.Duration { return 0 }
