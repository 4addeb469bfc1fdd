//go:build !avx512sim

package model

// avx512Simulated: see sim512on_test.go.
const avx512Simulated = false
