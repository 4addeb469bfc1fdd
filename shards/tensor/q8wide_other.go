//go:build !amd64 || purego

package tensor

// widenQ8 is widenQ8Go where no assembly version exists (only the AVX2
// set reads acts.w16).
func widenQ8(qs []int8, w []int16) { widenQ8Go(qs, w) }

// transposeQ8T is transposeQ8TGo (only the AVX2 set reads acts.t16).
func transposeQ8T(qs []int8, t []int16, j int) { transposeQ8TGo(qs, t, j) }
