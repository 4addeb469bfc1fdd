package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"svc/internal/testenv"
	"svc/shards/gguf"
	"svc/shards/tensor"
)

func TestRunEngineOnFixture(t *testing.T) {
	path := testenv.Path(t, "models", "mini-llama-q4_0.gguf")
	var stages []string
	steps := 0
	res, err := RunEngine(context.Background(), EngineOptions{
		Model: path, Threads: 2, Prompt: 16, Gen: 5, Repeat: 2,
		Bandwidth: BandwidthOptions{Bytes: 16 << 20, Runs: 2},
		Progress: func(stage string, step, total int) {
			if step == 0 {
				stages = append(stages, stage)
			} else {
				steps++
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(stages, ","); got != "load,bandwidth 1/2,warm-up,prefill 1/2,prefill 2/2,bandwidth 2/2" {
		t.Errorf("stages %q", got)
	}
	if steps != 10 {
		t.Errorf("%d decode progress steps, want 10", steps)
	}
	f, err := gguf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// 4 blocks of q,k,v,o (256×256, 2×256×128) and gate, up, down (256×768)
	// plus the 512×256 head, at the file's own types.
	var want int64
	for _, ti := range f.Tensors {
		if (strings.HasPrefix(ti.Name, "blk.") && len(ti.Dims) == 2) || ti.Name == "output.weight" {
			want += int64(ti.Size)
		}
	}
	if res.WeightsBytesPerToken != want || want == 0 {
		t.Errorf("weights bytes per token %d, want %d", res.WeightsBytesPerToken, want)
	}
	if res.Model != "mini-llama-q4_0.gguf" || !res.BandwidthMeasured || res.Threads != 2 || res.Type != "Q4_0" || res.PromptTokens != 16 || res.GenTokens != 5 {
		t.Errorf("result header %+v", res)
	}
	if res.DecodeAllocsPerToken < 0 || res.DecodeAllocsPerToken > 1e6 {
		t.Errorf("decode allocations per token %v", res.DecodeAllocsPerToken)
	}
	if res.PrefillTokensPerS <= 0 || res.DecodeTokensPerS <= 0 || res.ReadBandwidthGBps <= 0 {
		t.Fatalf("non-positive measurement %+v", res)
	}
	eff := res.DecodeTokensPerS * float64(res.WeightsBytesPerToken) / (res.ReadBandwidthGBps * 1e9)
	if d := res.DecodeBandwidthEfficiency - eff; d > 1e-12 || d < -1e-12 {
		t.Errorf("efficiency %v, want %v", res.DecodeBandwidthEfficiency, eff)
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"model", "threads", "kernels", "prefill_tokens_per_s", "decode_tokens_per_s", "weights_bytes_per_token", "read_bandwidth_gb_s", "decode_bandwidth_efficiency"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON lacks %q: %s", k, b)
		}
	}
	if res.Kernels != tensor.KernelSet() {
		t.Errorf("kernels %q, the package runs %q", res.Kernels, tensor.KernelSet())
	}
	var tab bytes.Buffer
	if err := res.WriteTable(&tab); err != nil || !strings.Contains(tab.String(), "decode bandwidth efficiency") {
		t.Errorf("table %q (%v)", tab.String(), err)
	}
}

func TestRunEngineRejects(t *testing.T) {
	ctx := context.Background()
	if _, err := RunEngine(ctx, EngineOptions{Model: "/nonexistent.gguf"}); err == nil {
		t.Error("missing model accepted")
	}
	path := testenv.Path(t, "models", "mini-llama-q4_0.gguf")
	if _, err := RunEngine(ctx, EngineOptions{Model: path, Prompt: 1000, Gen: 100}); err == nil {
		t.Error("run longer than the context accepted")
	}
	if _, err := RunEngine(ctx, EngineOptions{Model: path, Gen: -1}); err == nil {
		t.Error("negative gen accepted")
	}
	// A given bandwidth replaces the measurement.
	res, err := RunEngine(ctx, EngineOptions{Model: path, Prompt: 4, Gen: 2, FixedBandwidthGBps: 61})
	if err != nil {
		t.Fatal(err)
	}
	if res.ReadBandwidthGBps != 61 || res.BandwidthMeasured {
		t.Errorf("fixed bandwidth: %+v", res)
	}
	if want := res.DecodeTokensPerS * float64(res.WeightsBytesPerToken) / 61e9; res.DecodeBandwidthEfficiency != want {
		t.Errorf("efficiency %v, want %v", res.DecodeBandwidthEfficiency, want)
	}
	// A longer context is filled after the timed prefill (over more than
	// one filler batch) and must leave room for the decode steps.
	res, err = RunEngine(ctx, EngineOptions{Model: path, Prompt: 4, Context: fillBatch + 40, Gen: 2, FixedBandwidthGBps: 61})
	if err != nil {
		t.Fatal(err)
	}
	if res.PromptTokens != 4 || res.ContextTokens != fillBatch+40 || res.GenTokens != 2 || !(res.DecodeTokensPerS > 0) {
		t.Errorf("long-context run: %+v", res)
	}
	if _, err := RunEngine(ctx, EngineOptions{Model: path, Prompt: 8, Context: 4, Gen: 2, FixedBandwidthGBps: 61}); err == nil {
		t.Error("context shorter than the prompt accepted")
	}
	if _, err := RunEngine(ctx, EngineOptions{Model: path, Prompt: 8, Context: 1000, Gen: 100, FixedBandwidthGBps: 61}); err == nil {
		t.Error("context + gen longer than the model's context accepted")
	}
	// The smallest run still has room for the warm-up.
	if _, err := RunEngine(ctx, EngineOptions{Model: path, Prompt: 1, Gen: 1, Bandwidth: BandwidthOptions{Bytes: 1 << 20, Runs: 1}}); err != nil {
		t.Errorf("1+1 token run: %v", err)
	}
}
