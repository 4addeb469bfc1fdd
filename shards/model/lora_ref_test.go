package model

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"svc/internal/testenv"
	"svc/shards/lora"
	"svc/shards/tensor"
)

// loraFixture is a testdata/lora/*.json file (make-fixtures.py).
type loraFixture struct {
	Model   string `json:"model"`
	Adapter struct {
		Rank    int     `json:"rank"`
		Alpha   float32 `json:"alpha"`
		Type    string  `json:"type"`
		Seed    uint64  `json:"seed"`
		Std     float64 `json:"std"`
		Targets string  `json:"targets"`
		SHA256  string  `json:"sha256"`
	} `json:"adapter"`
	Scale float32   `json:"scale"`
	Cases []refCase `json:"cases"`
}

// TestLoRAReferenceTeacherForced compares base+adapter with llama.cpp run
// with --lora on the same files: the adapter is made again from the
// options the fixture records (same sha256 as the file llama.cpp read),
// then prompt and completion are fed as llama-server batched them, and at
// every generated position the log-probabilities of llama.cpp's top-5
// tokens must agree within the base models' tolerance (the quantized one
// for Q8_0 adapters, whose activations are quantized too). Without the
// adapter the same comparison must fail somewhere, so that the fixture
// tests the adapter.
func TestLoRAReferenceTeacherForced(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "lora", "*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, p := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(p), ".json"), func(t *testing.T) {
			var fx loraFixture
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &fx); err != nil {
				t.Fatal(err)
			}
			m, err := Open(testenv.Path(t, "models", fx.Model), Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			typ, err := tensor.ParseType(fx.Adapter.Type)
			if err != nil {
				t.Fatal(err)
			}
			var kinds []string
			if fx.Adapter.Targets != "" {
				kinds = strings.Split(fx.Adapter.Targets, ",")
			}
			path := filepath.Join(t.TempDir(), "adapter.gguf")
			err = m.SynthAdapter(path, SynthAdapterOptions{Kinds: kinds, Rank: fx.Adapter.Rank, Alpha: fx.Adapter.Alpha, Type: typ, Seed: fx.Adapter.Seed, Std: fx.Adapter.Std})
			if err != nil {
				t.Fatal(err)
			}
			if got := fileSHA256(t, path); got != fx.Adapter.SHA256 {
				t.Fatalf("the adapter made again has sha256 %s, llama.cpp's had %s", got, fx.Adapter.SHA256)
			}
			a, err := lora.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			sh, err := m.NewShard(0, m.Config().Blocks, ShardOptions{PromptCacheBytes: -1, Threads: 2, IdleTimeout: -1})
			if err != nil {
				t.Fatal(err)
			}
			defer sh.Close()
			if err := sh.AddAdapter("a", a, fx.Scale); err != nil {
				t.Fatal(err)
			}
			tol := tolerance(fx.Model)
			if typ == tensor.Q8_0 {
				tol = tolerance("q8_0")
			}
			cases := refCases(t, fx.Cases)
			dev := func(adapter string) (float64, int) {
				worst, bad := 0.0, 0
				for ci, c := range cases {
					steps := alignSteps(t, ci, c)
					rows := teacherForcedAdapter(t, sh, c, adapter)
					for j, want := range c.TopLogprobs {
						row := rows[steps[j]]
						lse := logSumExp(row)
						for _, w := range want {
							d := math.Abs(float64(row[w.ID]) - lse - float64(w.Logprob))
							worst = max(worst, d)
							if d > tol {
								if bad++; bad <= 5 && adapter != "" {
									t.Logf("case %d step %d token %d: logprob %.5f, llama.cpp %.5f", ci, steps[j], w.ID, float64(row[w.ID])-lse, w.Logprob)
								}
							}
						}
						if adapter != "" && len(want) >= 2 && float64(want[0].Logprob-want[1].Logprob) > 2*tol {
							if got := argmax(row); got != want[0].ID {
								t.Errorf("case %d step %d: argmax %d, llama.cpp %d", ci, steps[j], got, want[0].ID)
							}
						}
					}
				}
				return worst, bad
			}
			worst, bad := dev("a")
			if bad > 0 {
				t.Errorf("%d log-probabilities differ from llama.cpp's by more than %.2f (worst %.4f)", bad, tol, worst)
			}
			without, _ := dev("")
			if without <= tol {
				t.Errorf("without the adapter the largest difference is %.4f, within the tolerance: the fixture does not test the adapter", without)
			}
			t.Logf("%s + %s adapter rank %d, scale %g: max |Δ logprob| %.5f nats (tolerance %.2f; without the adapter %.3f)", fx.Model, fx.Adapter.Type, fx.Adapter.Rank, fx.Scale, worst, tol, without)
		})
	}
}

func fileSHA256(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
