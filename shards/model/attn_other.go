//go:build (!amd64 && !arm64) || purego

package model

// bestAttn is the attention kernel set used when the SIMD ones are not
// built (other architectures, -tags purego).
var bestAttn = genericAttn

// attnKernelSets lists every set this build can run, for tests.
func attnKernelSets() []*attnKernels { return []*attnKernels{genericAttn} }
