package model

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"hash/fnv"
	"math"
	"os"
	"testing"

	"svc/shards/tensor"
)

// goldenLogits holds, per fixture (the SHA-256 prefix of the GGUF file and
// of its reference file), a hash of the bits of every logits row
// TestReferenceTeacherForced computes, computed on amd64 (the AVX2 and
// generic sets agreed, and arm64's NEON sets under qemu on 2026-11-28);
// every kernel set on every architecture (the AVX2, AVX-512 and generic
// sets, NEON under qemu) must give the same bits, because a chain may mix
// x86 and ARM machines and must produce exactly what one machine produces.
// The split tests compare chains with one machine of the same CPU; only a
// constant catches a difference between architectures (the Go compiler
// fuses multiply-adds on arm64 where no explicit float32 conversion
// stops it, math functions with per-architecture assembly). A fixture
// without an entry (a model the suite has not seen) is compared with
// llama.cpp's reference only.
var goldenLogits = map[string]uint64{
	"122490e3dffcc9db": 0x167f3a9d3a8fc92f, // mini-llama-q4_k_m
	"125b56b28a0dff37": 0xd653790086d5010e, // mini-llama-q4_0
	"1456d017554768a9": 0xbd8789f1b2560a05, // mini-llama-q5_1
	"3a6b232f1ca6f52e": 0x094944828fabe499, // mini-llama-f16
	"3e7bc23a2d65448c": 0xcd4db39bc27b9d44, // mini-llama-q2_k
	"5b3b51ae190c692f": 0x905ecbdee5239280, // mini-llama-bf16
	"8ffdb39d23326f31": 0x7565d9b642e0722c, // stories260K
	"939d3ed1a5cc8d56": 0xc711d5e232446719, // mini-llama-q6_k
	"ad43acd3772e0d4c": 0x0b52d56658549317, // mini-qwen2-q4_k_m
	"b246972d8a62b0c6": 0xbd873d3ada6eea12, // mini-llama-q3_k_m
	"b5db102308761a39": 0x7fa0b21ffc282186, // mini-qwen2-chat-q8_0
	"bc0c17ff5af72232": 0x996b8c246e615143, // mini-llama-q5_0
	"c1811a1051f17826": 0x3f3fc447ddcb1272, // mini-qwen2-q8_0
	"c3eede032c8a6aad": 0xb0a5242645d1f4b4, // mini-llama-f32
	"dc699f6e0dbeb27e": 0x48ce7498620ac28d, // mini-llama-q8_0
	"ea22144887c592b2": 0x5b0c8b89d58fb731, // mini-llama-q5_k_m
	"fffd091f6152d87f": 0xa81334b36c0dff30, // mini-llama-q4_1
}

// fixtureKey names a model file and its reference file by content.
func fixtureKey(t *testing.T, paths ...string) string {
	t.Helper()
	h := sha256.New()
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// logitsHash accumulates the bits of logits rows.
type logitsHash struct{ h hash.Hash64 }

func newLogitsHash() *logitsHash { return &logitsHash{h: fnv.New64a()} }

func (lh *logitsHash) add(rows [][]float32) {
	var b [4]byte
	for _, row := range rows {
		for _, v := range row {
			binary.LittleEndian.PutUint32(b[:], math.Float32bits(v))
			lh.h.Write(b[:])
		}
	}
}

// checkGolden compares the hash of a fixture's logits with goldenLogits.
func checkGolden(t *testing.T, key string, lh *logitsHash) {
	t.Helper()
	got := lh.h.Sum64()
	want, ok := goldenLogits[key]
	switch {
	case !ok:
		t.Logf("no golden logits for fixture %s (hash %#016x): compared with llama.cpp only", key, got)
	case got != want:
		t.Errorf("fixture %s: logits hash %#016x, want %#016x (computed on amd64): this CPU's kernels (%s) or architecture give other bits", key, got, want, tensor.KernelSet())
	}
}
