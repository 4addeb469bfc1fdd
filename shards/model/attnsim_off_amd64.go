//go:build amd64 && !purego && !avx512sim

package model

// attnSim512 is set in the avx512sim test build (attnsim_on_amd64.go).
const attnSim512 = false
