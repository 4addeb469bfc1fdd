package lora

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"

	"svc/shards/gguf"
	"svc/shards/tensor"
)

// PairData is one pair to write: A is Rank×In and B is Out×Rank, row-major
// float32, converted to Type when written. For a token embedding
// (EmbeddingTarget) A is In×Rank, one row per token of the In-token
// vocabulary, and Out is the embedding width (Pair's layout).
type PairData struct {
	Target        string
	In, Out, Rank int
	A, B          []float32
}

// WriteOptions describe an adapter file.
type WriteOptions struct {
	Arch  string
	Name  string
	Alpha float32 // 0: written as 0, which llama.cpp reads as "scale = user scale"
	Type  tensor.Type
	Pairs []PairData
}

// Write writes an adapter in llama.cpp's GGUF LoRA format.
func Write(w io.Writer, o WriteOptions) error {
	if o.Arch == "" {
		return errors.New("lora: write: no architecture")
	}
	if _, err := checkWriteType(o.Type); err != nil {
		return err
	}
	kvs := []gguf.KV{
		{Key: KeyArch, Value: o.Arch},
		{Key: KeyGeneralType, Value: "adapter"},
		{Key: KeyAdapterType, Value: "lora"},
		{Key: KeyAlpha, Value: o.Alpha},
	}
	if o.Name != "" {
		kvs = append(kvs, gguf.KV{Key: KeyName, Value: o.Name})
	}
	var specs []gguf.TensorSpec
	var data [][]float32
	for _, p := range o.Pairs {
		if p.Rank <= 0 || p.In <= 0 || p.Out <= 0 || len(p.A) != p.Rank*p.In || len(p.B) != p.Out*p.Rank {
			return fmt.Errorf("lora: write %s: inconsistent pair (rank %d, in %d, out %d, %d and %d values)", p.Target, p.Rank, p.In, p.Out, len(p.A), len(p.B))
		}
		aDims := []uint64{uint64(p.In), uint64(p.Rank)}
		if EmbeddingTarget(p.Target) {
			aDims = []uint64{uint64(p.Rank), uint64(p.In)}
		}
		specs = append(specs,
			gguf.TensorSpec{Name: p.Target + SuffixA, Dims: aDims, Type: gguf.TensorType(o.Type)},
			gguf.TensorSpec{Name: p.Target + SuffixB, Dims: []uint64{uint64(p.Rank), uint64(p.Out)}, Type: gguf.TensorType(o.Type)})
		data = append(data, p.A, p.B)
	}
	for _, s := range specs {
		if _, err := s.Size(); err != nil {
			return fmt.Errorf("lora: write: %w (Q8_0 needs the rank and the input width to be multiples of 32)", err)
		}
	}
	err := gguf.Write(w, kvs, specs, 0, func(i int, w io.Writer) error {
		n, _ := specs[i].Size()
		buf := make([]byte, n)
		if err := tensor.Quantize(o.Type, data[i], buf); err != nil {
			return fmt.Errorf("tensor %s: %w", specs[i].Name, err)
		}
		_, err := w.Write(buf)
		return err
	})
	if err != nil {
		return fmt.Errorf("lora: write: %w", err)
	}
	return nil
}

func checkWriteType(t tensor.Type) (tensor.Type, error) {
	for _, ok := range Types {
		if t == ok {
			return t, nil
		}
	}
	return 0, fmt.Errorf("lora: type %v: adapters may hold F32, F16, BF16 or Q8_0", t)
}

// Target is a base matrix to adapt: its name and sides (for a token
// embedding, In is the vocabulary and Out the embedding width).
type Target struct {
	Name    string
	In, Out int
}

// SynthOptions configure Synth.
type SynthOptions struct {
	Targets []Target
	Rank    int
	Seed    uint64
	// Std is the standard deviation of A's and B's normal draws (0: 0.02).
	// Both are non-zero, so the adapter changes the model from the start.
	Std float64
}

// Synth returns a random adapter's pairs: every value of every tensor is a
// seeded normal draw, so the same options give the same file.
func Synth(o SynthOptions) ([]PairData, error) {
	if o.Rank <= 0 || o.Rank > MaxRank {
		return nil, fmt.Errorf("lora: synth: rank %d is not in [1, %d]", o.Rank, MaxRank)
	}
	if len(o.Targets) == 0 {
		return nil, errors.New("lora: synth: no target tensors")
	}
	std := o.Std
	if std == 0 {
		std = 0.02
	}
	var pairs []PairData
	for i, t := range o.Targets {
		rng := rand.New(rand.NewPCG(o.Seed, uint64(i)))
		p := PairData{Target: t.Name, In: t.In, Out: t.Out, Rank: o.Rank,
			A: make([]float32, o.Rank*t.In), B: make([]float32, t.Out*o.Rank)}
		for _, v := range [][]float32{p.A, p.B} {
			for j := range v {
				v[j] = float32(rng.NormFloat64() * std)
			}
		}
		pairs = append(pairs, p)
	}
	return pairs, nil
}

// WriteFile writes the adapter to path through a temporary file in the same
// directory, so a failed run leaves nothing behind.
func WriteFile(path string, o WriteOptions) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("lora: %w", err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err = Write(f, o); err != nil {
		return err
	}
	if err = f.Chmod(0o644); err != nil {
		return fmt.Errorf("lora: %w", err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("lora: %w", err)
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("lora: %w", err)
	}
	return nil
}
