//go:build !amd64

package bench

func readSum(b []byte) uint64 { return readSumGo(b) }

func readSum4(b []byte) uint64 { return readSumGo(b) }

func readKernel() string { return "go" }
