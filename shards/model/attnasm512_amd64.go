//go:build amd64 && !purego && !avx512sim

package model

// The declarations of the AVX-512 attention kernels (attn_amd64.s), apart
// from their wrappers so that the avx512sim build can replace them with
// bodies that run the same assembly in internal/x86sim's interpreter
// (attnsim512_amd64.go, generated from this file: go generate after
// changing one).

//go:generate go run svc/internal/x86sim/gensim -in attnasm512_amd64.go -out attnsim512_amd64.go

// attnAVX512Runs: natively, whenever the CPU has the features.
func attnAVX512Runs() bool { return true }

//go:noescape
func attnPrepQ512(q *float32, q16 *uint16, qf *float32, n int)

//go:noescape
func attnScoresTiny512(qf *float32, k *uint16, stride int, chunks int, span int, scale float32, s *float32)

//go:noescape
func attnScoresVec512(qf *float32, k *uint16, stride int, hd int, span int, scale float32, s *float32)

//go:noescape
func attnSoftmax512(p *float32, span int)

//go:noescape
func attnKQVTiny512(p *float32, v *uint16, stride int, span int, hd int, acc *float32, o *float32)

//go:noescape
func attnToF16_512(dst *uint16, x *float32, n int)

//go:noescape
func attnSiLU512(y, x *float32, n int)

//go:noescape
func attnKQVVec512(p *float32, v *uint16, stride int, span int, np int, hd int, acc *float32, o *float32)

// attnExp512 applies VEXP, the vector exponential of attnSoftmax512, to n
// (a multiple of 16) values in place; only the tests call it, to check it
// against vexpf bit for bit over the whole float range.
//
//go:noescape
func attnExp512(x *float32, n int)
