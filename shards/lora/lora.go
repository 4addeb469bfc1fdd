package lora

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"svc/shards/gguf"
	"svc/shards/tensor"
)

// ErrBadAdapter marks a file that is not a usable LoRA adapter (or not one
// for the base model it is checked against).
var ErrBadAdapter = errors.New("bad LoRA adapter")

// Metadata keys (llama.cpp's names).
const (
	KeyGeneralType = "general.type"
	KeyArch        = "general.architecture"
	KeyName        = "general.name"
	KeyAdapterType = "adapter.type"
	KeyAlpha       = "adapter.lora.alpha"
)

// Tensor name suffixes of a pair.
const (
	SuffixA = ".lora_a"
	SuffixB = ".lora_b"
)

// MaxRank bounds an adapter's rank: far above any adapter in use (8–256),
// and low enough that a hostile file cannot make the engine reserve huge
// per-row scratch.
const MaxRank = 4096

// Types are the tensor types an adapter may hold.
var Types = []tensor.Type{tensor.F32, tensor.F16, tensor.BF16, tensor.Q8_0}

// Pair is the low-rank update of one base tensor: A is Rank×In (GGML
// [In, Rank]), B is Out×Rank (GGML [Rank, Out]). A token embedding's pair
// (Embedding) is stored flipped, as llama.cpp reads it: A is In×Rank (GGML
// [Rank, In]) with In the vocabulary, one row per token, and B is Out×Rank
// with Out the embedding width, so that token t's row gains
// scale·B·A[t]. The matrices are views of the adapter file's data.
type Pair struct {
	Target       string // the base tensor, e.g. "blk.0.attn_q.weight"
	In, Out      int
	Rank         int
	A, B         tensor.Matrix
	ATyp, BTyp   tensor.Type
	Embedding    bool // Target is a token embedding (EmbeddingTarget)
	aInfo, bInfo *gguf.TensorInfo
}

// EmbeddingTarget reports whether an adapted base tensor is a token
// embedding, whose pair llama.cpp keeps flipped: its llm_build_inp_embd
// looks the tokens' rows up in lora_a (GGML [r, n_vocab]) and multiplies
// them by lora_b ([r, n_embd]), and convert_lora_to_gguf.py transposes
// PEFT's lora_embedding_A to that layout. The name test is llama.cpp's
// (the name ends in "token_embd.weight").
func EmbeddingTarget(target string) bool { return strings.HasSuffix(target, "token_embd.weight") }

// Scale is the factor of B·(A·x) for a user scale: user × alpha / rank,
// rounded to float32 at each step as llama.cpp's get_scale does, or user
// alone when alpha is 0.
func (p *Pair) Scale(alpha, user float32) float32 {
	if alpha == 0 {
		return user
	}
	return user * alpha / float32(p.Rank)
}

// Adapter is a parsed adapter file.
type Adapter struct {
	file    *gguf.File
	Path    string
	Arch    string
	Name    string  // general.name, may be empty
	Alpha   float32 // 0: absent
	pairs   map[string]*Pair
	targets []string // sorted
	// Skipped lists the tensors llama.cpp ignores (norm vectors).
	Skipped []string
}

// Open maps and parses an adapter file.
func Open(path string) (*Adapter, error) {
	f, err := gguf.Open(path)
	if err != nil {
		return nil, fmt.Errorf("lora: %w: %w", ErrBadAdapter, err)
	}
	a, err := fromFile(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%w (file %s)", err, path)
	}
	a.Path = path
	return a, nil
}

// Parse parses an adapter held in memory (b must outlive the Adapter).
func Parse(b []byte) (*Adapter, error) {
	f, err := gguf.Parse(b)
	if err != nil {
		return nil, fmt.Errorf("lora: %w: %w", ErrBadAdapter, err)
	}
	return fromFile(f)
}

// Close releases the file's mapping; the pairs' matrices must not be used
// afterwards.
func (a *Adapter) Close() error { return a.file.Close() }

// File is the underlying GGUF file.
func (a *Adapter) File() *gguf.File { return a.file }

// Targets are the adapted base tensors' names, sorted.
func (a *Adapter) Targets() []string { return a.targets }

// Pair returns the pair adapting base tensor target.
func (a *Adapter) Pair(target string) (*Pair, bool) {
	p, ok := a.pairs[target]
	return p, ok
}

// Ranks returns the distinct ranks of the pairs, ascending.
func (a *Adapter) Ranks() []int {
	seen := map[int]bool{}
	var rs []int
	for _, p := range a.pairs {
		if !seen[p.Rank] {
			seen[p.Rank] = true
			rs = append(rs, p.Rank)
		}
	}
	sort.Ints(rs)
	return rs
}

// TensorTypes returns the distinct tensor types of the pairs, by name.
func (a *Adapter) TensorTypes() []string {
	seen := map[string]bool{}
	var ts []string
	for _, p := range a.pairs {
		for _, t := range []tensor.Type{p.ATyp, p.BTyp} {
			if s := t.String(); !seen[s] {
				seen[s] = true
				ts = append(ts, s)
			}
		}
	}
	sort.Strings(ts)
	return ts
}

func bad(format string, args ...any) error {
	return fmt.Errorf("lora: %w: %s", ErrBadAdapter, fmt.Sprintf(format, args...))
}

func stringKey(f *gguf.File, key string, required bool) (string, error) {
	v, ok := f.Get(key)
	if !ok {
		if required {
			return "", bad("missing key %s", key)
		}
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", bad("key %s is a %T, want a string", key, v)
	}
	return s, nil
}

func fromFile(f *gguf.File) (*Adapter, error) {
	a := &Adapter{file: f, pairs: map[string]*Pair{}}
	gt, err := stringKey(f, KeyGeneralType, true)
	if err != nil {
		return nil, err
	}
	if gt != "adapter" {
		return nil, bad("key %s is %q, want \"adapter\" (is this a model rather than an adapter?)", KeyGeneralType, gt)
	}
	at, err := stringKey(f, KeyAdapterType, true)
	if err != nil {
		return nil, err
	}
	if at != "lora" {
		return nil, bad("key %s is %q, want \"lora\"", KeyAdapterType, at)
	}
	if a.Arch, err = stringKey(f, KeyArch, true); err != nil {
		return nil, err
	}
	if a.Arch == "" {
		return nil, bad("key %s is empty", KeyArch)
	}
	if a.Name, err = stringKey(f, KeyName, false); err != nil {
		return nil, err
	}
	if v, ok := f.Get(KeyAlpha); ok {
		// llama.cpp reads it with gguf_get_val_f32, which requires float32.
		x, ok := v.(float32)
		if !ok {
			return nil, bad("key %s is a %T, want a float32", KeyAlpha, v)
		}
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return nil, bad("key %s is %v, want a finite number", KeyAlpha, x)
		}
		a.Alpha = x
	}
	as, bs := map[string]*gguf.TensorInfo{}, map[string]*gguf.TensorInfo{}
	for i := range f.Tensors {
		ti := &f.Tensors[i]
		switch {
		case strings.HasSuffix(ti.Name, SuffixA) && len(ti.Name) > len(SuffixA):
			as[strings.TrimSuffix(ti.Name, SuffixA)] = ti
		case strings.HasSuffix(ti.Name, SuffixB) && len(ti.Name) > len(SuffixB):
			bs[strings.TrimSuffix(ti.Name, SuffixB)] = ti
		case strings.HasSuffix(ti.Name, "_norm.weight"):
			a.Skipped = append(a.Skipped, ti.Name)
		default:
			return nil, bad("tensor %q is neither a %s nor a %s tensor", ti.Name, SuffixA, SuffixB)
		}
	}
	for target, ai := range as {
		bi, ok := bs[target]
		if !ok {
			return nil, bad("tensor %s has no %s partner", ai.Name, target+SuffixB)
		}
		p, err := newPair(f, target, ai, bi)
		if err != nil {
			return nil, err
		}
		a.pairs[target] = p
		a.targets = append(a.targets, target)
	}
	for target, bi := range bs {
		if _, ok := as[target]; !ok {
			return nil, bad("tensor %s has no %s partner", bi.Name, target+SuffixA)
		}
	}
	if len(a.pairs) == 0 {
		return nil, bad("no %s/%s tensor pairs", SuffixA, SuffixB)
	}
	sort.Strings(a.targets)
	return a, nil
}

// dims2 returns a tensor's two GGML dimensions (trailing 1s allowed).
func dims2(ti *gguf.TensorInfo) (int, int, error) {
	if len(ti.Dims) < 2 {
		return 0, 0, bad("tensor %s has %d dimension(s), want 2", ti.Name, len(ti.Dims))
	}
	for _, d := range ti.Dims[2:] {
		if d != 1 {
			return 0, 0, bad("tensor %s has shape %v, want 2 dimensions", ti.Name, ti.Dims)
		}
	}
	const lim = 1 << 24 // no weight matrix has a side this long
	if ti.Dims[0] == 0 || ti.Dims[1] == 0 || ti.Dims[0] > lim || ti.Dims[1] > lim {
		return 0, 0, bad("tensor %s has shape %v", ti.Name, ti.Dims)
	}
	return int(ti.Dims[0]), int(ti.Dims[1]), nil
}

func checkType(ti *gguf.TensorInfo) (tensor.Type, error) {
	t := tensor.Type(ti.Type)
	for _, ok := range Types {
		if t == ok {
			return t, nil
		}
	}
	return 0, bad("tensor %s has type %v; adapters may hold F32, F16, BF16 or Q8_0", ti.Name, ti.Type)
}

func newPair(f *gguf.File, target string, ai, bi *gguf.TensorInfo) (*Pair, error) {
	a0, a1, err := dims2(ai)
	if err != nil {
		return nil, err
	}
	rb, out, err := dims2(bi)
	if err != nil {
		return nil, err
	}
	emb := EmbeddingTarget(target)
	in, ra := a0, a1
	if emb {
		in, ra = a1, a0
		if ra != rb {
			return nil, bad("tensor %s has rank %d (ne0) but %s has rank %d (ne0); a token embedding's lora_a must be [r, n_vocab] and its lora_b [r, n_embd], as llama.cpp reads them", ai.Name, ra, bi.Name, rb)
		}
	} else if ra != rb {
		return nil, bad("tensor %s has rank %d (ne1) but %s has rank %d (ne0); lora_a must be [n_in, r] and lora_b [r, n_out]", ai.Name, ra, bi.Name, rb)
	}
	if ra > MaxRank {
		return nil, bad("tensor %s has rank %d, above the limit %d", ai.Name, ra, MaxRank)
	}
	p := &Pair{Target: target, In: in, Out: out, Rank: ra, Embedding: emb, aInfo: ai, bInfo: bi}
	if p.ATyp, err = checkType(ai); err != nil {
		return nil, err
	}
	if p.BTyp, err = checkType(bi); err != nil {
		return nil, err
	}
	p.A = tensor.Matrix{Type: p.ATyp, Rows: ra, Cols: in, Data: f.Data(ai)}
	if emb {
		p.A = tensor.Matrix{Type: p.ATyp, Rows: in, Cols: ra, Data: f.Data(ai)}
	}
	p.B = tensor.Matrix{Type: p.BTyp, Rows: out, Cols: ra, Data: f.Data(bi)}
	if f.HeaderOnly() {
		return p, nil
	}
	if err := p.A.Validate(); err != nil {
		return nil, bad("tensor %s: %v", ai.Name, err)
	}
	if err := p.B.Validate(); err != nil {
		return nil, bad("tensor %s: %v", bi.Name, err)
	}
	return p, nil
}

// Shaper gives a base model's tensor shapes (GGML order); a *gguf.File is
// one.
type Shaper interface {
	Tensor(name string) (*gguf.TensorInfo, bool)
}

// CheckBase checks the adapter against a base model of architecture arch
// whose tensors base describes, as llama.cpp does when it loads the
// adapter: the architectures match, every adapted tensor exists in the
// base, and the pair's outer sides match its shape ([In, Out], or [Out,
// In] for a token embedding: [n_embd, n_vocab]).
func (a *Adapter) CheckBase(arch string, base Shaper) error {
	if a.Arch != arch {
		return bad("the adapter is for architecture %q (key %s), the model is %q", a.Arch, KeyArch, arch)
	}
	for _, t := range a.targets {
		p := a.pairs[t]
		ti, ok := base.Tensor(t)
		if !ok {
			return bad("tensor %s adapts %s, which the base model does not have (wrong base model?)", p.aInfo.Name, t)
		}
		if p.Embedding {
			if len(ti.Dims) < 2 || ti.Dims[0] != uint64(p.Out) || ti.Dims[1] != uint64(p.In) {
				return bad("tensors %s/%s adapt a [%d %d] token embedding (%d tokens of width %d), but base tensor %s has shape %v (wrong base model?)", p.aInfo.Name, p.bInfo.Name, p.Out, p.In, p.In, p.Out, t, ti.Dims)
			}
			continue
		}
		if len(ti.Dims) < 2 || ti.Dims[0] != uint64(p.In) || ti.Dims[1] != uint64(p.Out) {
			return bad("tensors %s/%s adapt a [%d %d] matrix, but base tensor %s has shape %v (wrong base model?)", p.aInfo.Name, p.bInfo.Name, p.In, p.Out, t, ti.Dims)
		}
	}
	return nil
}
