//go:build unix

package tensor

import (
	"syscall"
	"time"
)

// cpuTime is the process's user+system time: on a shared machine it
// measures a kernel's cost better than the wall clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
