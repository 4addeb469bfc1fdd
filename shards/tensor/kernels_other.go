//go:build !(amd64 || arm64) || purego

package tensor

// bestKernels is the pure-Go set on platforms without assembly kernels.
var bestKernels = genericKernels

// kernelSets lists every set this platform can run.
func kernelSets() []*kernelSet { return []*kernelSet{genericKernels} }

// kernelGap says why the named set cannot run here, or "".
func kernelGap(name string) string {
	if name == "generic" {
		return ""
	}
	return "no " + name + " kernels on this platform"
}
