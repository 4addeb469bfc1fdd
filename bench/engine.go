package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"svc/shards/gguf"
	"svc/shards/model"
	"svc/shards/tensor"
)

// EngineOptions configures RunEngine.
type EngineOptions struct {
	Model   string // GGUF path
	Threads int    // <= 0: all cores
	Prompt  int    // prompt tokens prefilled in one batch; 0 means 128
	Gen     int    // single-token decode steps; 0 means 64
	// Context is the number of tokens in the cache when the timed decode
	// starts (0: Prompt). The first Prompt of them are the timed prefill;
	// the rest are prefilled untimed after it, so that decode speed can be
	// measured at a long context with the usual prefill figure.
	Context int
	// NoRepack computes on the model file's mapped row-major weights
	// instead of the packed copies a shard makes by default.
	NoRepack bool
	// Repeat runs the prefill+decode measurement this many times (after
	// one warm-up) and keeps the best of each; 0 means 1.
	Repeat int
	// Bandwidth tunes the read-bandwidth measurement; its Threads is
	// always the engine's thread count.
	Bandwidth BandwidthOptions
	// FixedBandwidthGBps, when positive, replaces the measurement: on a
	// machine shared with other work a reference figure gives comparable
	// efficiencies from run to run.
	FixedBandwidthGBps float64
	// Progress, if set, is told each stage as it starts ("load",
	// "bandwidth 1/2", "warm-up", "prefill 1/2", "decode 1/2", "bandwidth
	// 2/2") and each decode
	// step (step, total).
	Progress func(stage string, step, total int)
}

// EngineResult is RunEngine's measurement; the JSON names are the
// benchmark's published interface.
type EngineResult struct {
	Model   string `json:"model"`
	Threads int    `json:"threads"`
	// Type is the model's weight type mix (general.file_type's name).
	Type string `json:"type"`
	// Kernels names the kernel set that ran: "generic", "avx2" or
	// "avx512", the best the CPU runs within SVC_KERNELS.
	Kernels      string `json:"kernels"`
	PromptTokens int    `json:"prompt_tokens"`
	// ContextTokens is the cache length at the first timed decode step.
	ContextTokens        int     `json:"context_tokens"`
	GenTokens            int     `json:"gen_tokens"`
	PrefillTokensPerS    float64 `json:"prefill_tokens_per_s"`
	DecodeTokensPerS     float64 `json:"decode_tokens_per_s"`
	WeightsBytesPerToken int64   `json:"weights_bytes_per_token"`
	// ReadBandwidthGBps is read with one sequential stream per thread, the
	// way decoding reads weights, and is the efficiency's denominator;
	// MultiStreamGBps is read with four streams per thread, the memory
	// system's peak (0 when the bandwidth was given, not measured).
	ReadBandwidthGBps float64 `json:"read_bandwidth_gb_s"`
	MultiStreamGBps   float64 `json:"read_bandwidth_multistream_gb_s"`
	// BandwidthMeasured is false when the bandwidth was given, not measured.
	BandwidthMeasured         bool    `json:"bandwidth_measured"`
	DecodeBandwidthEfficiency float64 `json:"decode_bandwidth_efficiency"`
	// DecodeAllocsPerToken is the Go heap allocations per decode step,
	// counted in the warm-up run (which reports no progress, so nothing
	// else allocates) after its first step; the per-token path should
	// allocate little.
	DecodeAllocsPerToken float64 `json:"decode_allocs_per_token"`
}

// RunEngine loads the whole model as one shard and measures, in this
// order: the machine's read bandwidth with the same thread count, a warm-up
// (which pages every weight in), prefill speed (one Forward of Prompt
// tokens), decode speed (Gen Forwards of one token each, feeding back the
// argmax), and the bandwidth again (the better reading counts). Efficiency is decode tokens/s × weight bytes per token ÷
// bandwidth: the fraction of the memory-bound limit that decoding reaches.
func RunEngine(ctx context.Context, o EngineOptions) (*EngineResult, error) {
	if o.Prompt < 0 || o.Gen < 0 || o.Repeat < 0 || o.Context < 0 || o.FixedBandwidthGBps < 0 {
		return nil, errors.New("bench: prompt, gen, context, repeat and bandwidth must not be negative")
	}
	if err := tensor.KernelEnvError(); err != nil {
		// The figures would be taken for the set the variable names.
		return nil, fmt.Errorf("bench: %w", err)
	}
	if o.Prompt == 0 {
		o.Prompt = 128
	}
	if o.Gen == 0 {
		o.Gen = 64
	}
	if o.Repeat == 0 {
		o.Repeat = 1
	}
	if o.Context == 0 {
		o.Context = o.Prompt
	}
	if o.Context < o.Prompt {
		return nil, fmt.Errorf("bench: a context of %d tokens is shorter than the %d-token prompt it starts with", o.Context, o.Prompt)
	}
	progress := o.Progress
	if progress == nil {
		progress = func(string, int, int) {}
	}
	threads := o.Threads
	if threads <= 0 {
		threads = defaultThreads()
	}
	progress("load", 0, 0)
	m, err := model.Open(o.Model, model.Options{})
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	defer m.Close()
	cfg := m.Config()
	maxLen := o.Context + o.Gen
	if maxLen > cfg.Context {
		return nil, fmt.Errorf("bench: %d context + %d generated tokens exceed the model's context length %d", o.Context, o.Gen, cfg.Context)
	}
	sh, err := m.NewShard(0, cfg.Blocks, model.ShardOptions{Threads: threads, CacheTokens: max(maxLen, 16+warmupSteps), IdleTimeout: -1, NoRepack: o.NoRepack, PromptCacheBytes: -1})
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	defer sh.Close()
	res := &EngineResult{
		Model:         filepath.Base(o.Model),
		Threads:       threads,
		Type:          fileTypeName(m.File()),
		Kernels:       tensor.KernelSet(),
		PromptTokens:  o.Prompt,
		ContextTokens: o.Context,
		GenTokens:     o.Gen,
	}
	if res.WeightsBytesPerToken, err = WeightsBytesPerToken(m.File()); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(1, 2))
	prompt := make([]int32, o.Context)
	for i := range prompt {
		prompt[i] = int32(rng.IntN(cfg.Vocab))
	}

	// Bandwidth is measured before and after the model runs and the best
	// counts: on a shared machine a neighbour's burst lowers one reading.
	if err := measureBandwidth(ctx, o, threads, "bandwidth 1/2", progress, res); err != nil {
		return nil, err
	}

	// The warm-up runs every kernel once and faults every weight page in,
	// so the timed runs measure compute and memory, not the disk.
	progress("warm-up", 0, 0)
	warm, err := runOnce(ctx, sh, "bench-warmup", prompt[:min(o.Prompt, 16)], nil, warmupSteps, nil)
	if err != nil {
		return nil, err
	}
	res.DecodeAllocsPerToken = float64(warm.decodeAllocs) / (warmupSteps - 1)
	for r := 0; r < o.Repeat; r++ {
		tag := fmt.Sprintf("%d/%d", r+1, o.Repeat)
		progress("prefill "+tag, 0, 0)
		t, err := runOnce(ctx, sh, fmt.Sprintf("bench-%d", r), prompt[:o.Prompt], prompt[o.Prompt:], o.Gen, func(i int) { progress("decode "+tag, i, o.Gen) })
		if err != nil {
			return nil, err
		}
		res.PrefillTokensPerS = max(res.PrefillTokensPerS, float64(o.Prompt)/t.prefill.Seconds())
		res.DecodeTokensPerS = max(res.DecodeTokensPerS, float64(o.Gen)/t.decode.Seconds())
	}

	if err := measureBandwidth(ctx, o, threads, "bandwidth 2/2", progress, res); err != nil {
		return nil, err
	}
	res.DecodeBandwidthEfficiency = res.DecodeTokensPerS * float64(res.WeightsBytesPerToken) / (res.ReadBandwidthGBps * 1e9)
	return res, nil
}

func measureBandwidth(ctx context.Context, o EngineOptions, threads int, stage string, progress func(string, int, int), res *EngineResult) error {
	progress(stage, 0, 0)
	if o.FixedBandwidthGBps > 0 {
		res.ReadBandwidthGBps = o.FixedBandwidthGBps
		return nil
	}
	res.BandwidthMeasured = true
	bo := o.Bandwidth
	bo.Threads = threads
	bw, err := ReadBandwidth(ctx, bo)
	if err != nil {
		return err
	}
	res.ReadBandwidthGBps = max(res.ReadBandwidthGBps, bw.GBps)
	res.MultiStreamGBps = max(res.MultiStreamGBps, bw.MultiStreamGBps)
	return nil
}

// warmupSteps is the number of decode steps of the warm-up run.
const warmupSteps = 8

// timings are one run's measurements.
type timings struct {
	prefill, decode time.Duration
	decodeAllocs    uint64 // heap allocations during decode steps 2..gen
}

// fillBatch is the largest batch of the untimed prefill that brings the
// cache to the requested context.
const fillBatch = 512

// runOnce prefills prompt in one Forward, then fill untimed in batches of
// at most fillBatch, then decodes gen tokens one at a time, and returns the
// time of the two timed phases. The session is closed after.
func runOnce(ctx context.Context, sh *model.Shard, id string, prompt, fill []int32, gen int, step func(int)) (timings, error) {
	var t timings
	if err := sh.OpenSession(id, len(prompt)+len(fill)+gen); err != nil {
		return t, fmt.Errorf("bench: %w", err)
	}
	defer sh.CloseSession(id)
	t0 := time.Now()
	out, err := sh.Forward(ctx, id, model.Input{Tokens: prompt, Logits: model.LogitsLast, OmitLogits: true})
	if err != nil {
		return t, fmt.Errorf("bench: prefill: %w", err)
	}
	t.prefill = time.Since(t0)
	for len(fill) > 0 {
		n := min(len(fill), fillBatch)
		if out, err = sh.Forward(ctx, id, model.Input{Tokens: fill[:n], Logits: model.LogitsLast, OmitLogits: true}); err != nil {
			return t, fmt.Errorf("bench: filling the context: %w", err)
		}
		fill = fill[n:]
	}
	tok := []int32{0}
	var ms runtime.MemStats
	var mallocs uint64
	t1 := time.Now()
	for i := 0; i < gen; i++ {
		if len(out.Argmax) != 1 {
			return t, fmt.Errorf("bench: decode step %d: %d argmax values, want 1", i, len(out.Argmax))
		}
		tok[0] = out.Argmax[0]
		// One Output for every step: the decode loop allocates nothing.
		if err = sh.ForwardInto(ctx, id, model.Input{Tokens: tok, Logits: model.LogitsLast, OmitLogits: true}, out); err != nil {
			return t, fmt.Errorf("bench: decode step %d: %w", i, err)
		}
		if step != nil {
			step(i + 1)
		}
		// The first step may grow buffers once; count the rest. Reading
		// the statistics stops the world, so timed runs (which report
		// progress) do not do it.
		if step == nil && i == 0 {
			runtime.ReadMemStats(&ms)
			mallocs = ms.Mallocs
		}
	}
	t.decode = time.Since(t1)
	if step == nil && gen > 1 {
		runtime.ReadMemStats(&ms)
		t.decodeAllocs = ms.Mallocs - mallocs
	}
	return t, nil
}

// WeightsBytesPerToken is how many bytes of weights one decoded token reads:
// every matrix of every block plus the output head (token_embd when the
// head is tied to it). Norm vectors are negligible and the embedding table
// is only indexed, one row per token, so neither counts.
func WeightsBytesPerToken(f *gguf.File) (int64, error) {
	var n int64
	head := false
	for i := range f.Tensors {
		t := &f.Tensors[i]
		switch {
		case strings.HasPrefix(t.Name, "blk.") && len(t.Dims) >= 2:
			n += int64(t.Size)
		case t.Name == "output.weight":
			n += int64(t.Size)
			head = true
		}
	}
	if !head {
		t, ok := f.Tensor("token_embd.weight")
		if !ok {
			return 0, errors.New("bench: model has neither output.weight nor token_embd.weight")
		}
		n += int64(t.Size)
	}
	return n, nil
}

// fileTypeNames are llama.cpp's names of general.file_type values.
var fileTypeNames = map[int64]string{
	0: "F32", 1: "F16", 2: "Q4_0", 3: "Q4_1", 7: "Q8_0", 8: "Q5_0", 9: "Q5_1",
	10: "Q2_K", 11: "Q3_K_S", 12: "Q3_K_M", 13: "Q3_K_L", 14: "Q4_K_S", 15: "Q4_K_M",
	16: "Q5_K_S", 17: "Q5_K_M", 18: "Q6_K", 32: "BF16",
}

func fileTypeName(f *gguf.File) string {
	v, ok := f.Int("general.file_type")
	if !ok {
		return "unknown"
	}
	if s, ok := fileTypeNames[v]; ok {
		return s
	}
	return fmt.Sprintf("file_type %d", v)
}

// WriteTable prints the result for people.
func (r *EngineResult) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	given := ""
	if !r.BandwidthMeasured {
		given = " (given, not measured)"
	}
	rows := [][2]string{
		{"model", fmt.Sprintf("%s (%s)", r.Model, r.Type)},
		{"threads", fmt.Sprint(r.Threads)},
		{"kernels", r.Kernels},
		{"prefill", fmt.Sprintf("%.1f tokens/s (%d tokens in one batch)", r.PrefillTokensPerS, r.PromptTokens)},
		{"decode", fmt.Sprintf("%.2f tokens/s (%d steps after %d tokens of context)", r.DecodeTokensPerS, r.GenTokens, r.ContextTokens)},
		{"weights per token", fmt.Sprintf("%.1f MB", float64(r.WeightsBytesPerToken)/1e6)},
		{"read bandwidth", fmt.Sprintf("%.1f GB/s%s", r.ReadBandwidthGBps, given)},
		{"read bandwidth, 4 streams/thread", fmt.Sprintf("%.1f GB/s", r.MultiStreamGBps)},
		{"decode bandwidth efficiency", fmt.Sprintf("%.3f", r.DecodeBandwidthEfficiency)},
		{"decode allocations", fmt.Sprintf("%.0f per token", r.DecodeAllocsPerToken)},
	}
	for _, row := range rows {
		fmt.Fprintf(tw, "%s\t%s\n", row[0], row[1])
	}
	return tw.Flush()
}
