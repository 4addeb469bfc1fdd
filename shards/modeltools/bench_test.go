package modeltools

import (
	"context"
	"io"
	"testing"

	"svc/internal/testenv"
	"svc/shards/gguf"
)

// BenchmarkSynthTiny measures synthesis throughput (random generation plus
// quantization, row-parallel) per target type, in bytes of model written.
func BenchmarkSynthTiny(b *testing.B) {
	vocab, err := gguf.Open(testenv.Path(b, "models", "stories260K.gguf"))
	if err != nil {
		b.Fatal(err)
	}
	defer vocab.Close()
	shape, _ := LookupShape("tiny")
	for _, name := range []string{"F16", "Q8_0", "Q4_0", "Q4_K_M"} {
		b.Run(name, func(b *testing.B) {
			ft, _ := ParseFileType(name)
			var total int64
			for i := 0; i < b.N; i++ {
				err := Synth(context.Background(), io.Discard, SynthOptions{Shape: shape, Vocab: vocab, Type: ft, Seed: int64(i),
					Progress: func(done, t int64) { total = t }})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.SetBytes(total)
		})
	}
}
