//go:build race

package proctest

// raceEnabled makes Build compile programs with the race detector when the
// test binary has it.
const raceEnabled = true
