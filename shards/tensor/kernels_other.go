//go:build !amd64 || purego

package tensor

// bestKernels is the pure-Go set on platforms without assembly kernels.
var bestKernels = genericKernels

// kernelSets lists every set this platform can run.
func kernelSets() []*kernelSet { return []*kernelSet{genericKernels} }
