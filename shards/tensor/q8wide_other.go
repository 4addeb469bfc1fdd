//go:build !amd64 || purego

package tensor

// widenQ8 is widenQ8Go where no assembly version exists (only the AVX2
// set reads acts.w16).
func widenQ8(qs []int8, w []int16) { widenQ8Go(qs, w) }
