package model

import (
	"testing"

	"svc/shards/tensor"
)

// pureGoKernels reports whether matrix products run on shards/tensor's
// pure-Go kernels (SVC_KERNELS=generic, -tags purego, or a CPU without
// SIMD kernels). They give the SIMD kernels' bits (tensor's
// TestKernelsMatchGeneric checks every type) several times slower, so
// some long tests then run shorter plans that still cover every weight
// type and code path: the split and batch bit-identity tests, and the
// teacher-forced tests whose subject is not the products (ggml-order
// products, LoRA). TestReferenceTeacherForced, the comparison of every
// model with llama.cpp, always runs in full; so does everything with the
// SIMD sets.
func pureGoKernels() bool { return tensor.KernelSet() == "generic" }

// pureGoSteps is how many completion steps of a reference case the
// teacher-forced tests check under the pure-Go kernels.
const pureGoSteps = 12

// shortCase returns c cut to its first n completion steps (and the
// top_logprobs entries of those steps), or c itself when it is shorter.
func shortCase(t *testing.T, ci int, c refCase, n int) refCase {
	t.Helper()
	if len(c.CompletionTokens) <= n {
		return c
	}
	steps := alignSteps(t, ci, c)
	k := 0
	for k < len(steps) && steps[k] < n {
		k++
	}
	c.CompletionTokens = c.CompletionTokens[:n]
	c.TopLogprobs = c.TopLogprobs[:k]
	return c
}

// refCases returns the cases a teacher-forced test checks: all of them in
// full, or each cut to pureGoSteps under the pure-Go kernels.
func refCases(t *testing.T, cases []refCase) []refCase {
	t.Helper()
	if !pureGoKernels() {
		return cases
	}
	t.Logf("pure-Go kernels: the first %d completion steps of each case", pureGoSteps)
	out := make([]refCase, len(cases))
	for ci, c := range cases {
		out[ci] = shortCase(t, ci, c, pureGoSteps)
	}
	return out
}
