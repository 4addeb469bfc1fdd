package model

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"svc/internal/testenv"
)

type refCase struct {
	Prompt           string           `json:"prompt"`
	PromptTokens     []int32          `json:"prompt_tokens"`
	CompletionTokens []int32          `json:"completion_tokens"`
	StoppedByEOS     bool             `json:"stopped_by_eos"`
	TopLogprobs      [][]TokenLogprob `json:"top_logprobs"`
}

type refFile struct {
	Model string    `json:"model"`
	Cases []refCase `json:"cases"`
}

func loadRef(t testing.TB, path string) refFile {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r refFile
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return r
}

// tolerance is the allowed log-probability difference: 0.02 nats for
// float weights, 0.1 for quantized ones.
func tolerance(model string) float64 {
	for _, s := range []string{"-f32", "-f16", "-bf16"} {
		if strings.HasSuffix(strings.TrimSuffix(model, ".gguf"), s) {
			return 0.02
		}
	}
	if strings.HasPrefix(model, "stories260K") {
		return 0.02 // an f32 file
	}
	return 0.1
}

// teacherForced runs a reference case the way llama-server produced it:
// the prompt as one batch (logits for its last position), then each
// completion token one position at a time. It returns the logits row of
// every completion step: row s predicts completion token s.
func teacherForced(t *testing.T, sh *Shard, c refCase) [][]float32 {
	t.Helper()
	return teacherForcedAdapter(t, sh, c, "")
}

// teacherForcedAdapter is teacherForced in a session with the named adapter.
func teacherForcedAdapter(t *testing.T, sh *Shard, c refCase, adapter string) [][]float32 {
	t.Helper()
	const id = "ref"
	ctx := context.Background()
	if err := sh.OpenSessionAdapter(id, len(c.PromptTokens)+len(c.CompletionTokens), adapter); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := sh.CloseSession(id); err != nil {
			t.Error(err)
		}
	}()
	rows := make([][]float32, 0, len(c.CompletionTokens))
	out, err := sh.Forward(ctx, id, Input{Tokens: c.PromptTokens, Logits: LogitsLast})
	if err != nil {
		t.Fatal(err)
	}
	rows = append(rows, out.Logits)
	for _, tok := range c.CompletionTokens[:len(c.CompletionTokens)-1] {
		if out, err = sh.Forward(ctx, id, Input{Tokens: []int32{tok}, Logits: LogitsLast}); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, out.Logits)
	}
	return rows
}

// TestReferenceTeacherForced feeds llama.cpp's prompt and completion, batched
// as llama.cpp batched them, and compares, at every generated position, the
// log-probabilities of llama.cpp's top-5 tokens.
func TestReferenceTeacherForced(t *testing.T) {
	refs, err := filepath.Glob(filepath.Join(testenv.SharedDir(t), "reference", "*.json"))
	if err != nil || len(refs) == 0 {
		t.Fatalf("no reference files: %v", err)
	}
	for _, rp := range refs {
		ref := loadRef(t, rp)
		name := strings.TrimSuffix(filepath.Base(rp), ".json")
		t.Run(name, func(t *testing.T) {
			m, err := Open(testenv.Path(t, "models", ref.Model), Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			sh, err := m.NewShard(0, m.Config().Blocks, ShardOptions{PromptCacheBytes: -1, Threads: 2})
			if err != nil {
				t.Fatal(err)
			}
			defer sh.Close()
			tol := tolerance(ref.Model)
			var maxDev float64
			golden := newLogitsHash()
			for ci, c := range ref.Cases {
				steps := alignSteps(t, ci, c)
				rows := teacherForced(t, sh, c)
				golden.add(rows)
				for j, want := range c.TopLogprobs {
					step := steps[j]
					row := rows[step]
					lse := logSumExp(row)
					for _, w := range want {
						got := float64(row[w.ID]) - lse
						d := math.Abs(got - float64(w.Logprob))
						maxDev = max(maxDev, d)
						if d > tol {
							t.Errorf("case %d step %d token %d: logprob %.5f, llama.cpp %.5f (|Δ| %.4f > %.2f)", ci, step, w.ID, got, w.Logprob, d, tol)
						}
					}
					if len(want) >= 2 && float64(want[0].Logprob-want[1].Logprob) > 2*tol {
						if a := argmax(row); a != want[0].ID {
							t.Errorf("case %d step %d: argmax %d, llama.cpp %d (margin %.3f)", ci, step, a, want[0].ID, want[0].Logprob-want[1].Logprob)
						}
					}
				}
			}
			t.Logf("%s: max |Δ logprob| over top-5 = %.5f nats (tolerance %.2f)", ref.Model, maxDev, tol)
			checkGolden(t, fixtureKey(t, testenv.Path(t, "models", ref.Model), rp), golden)
		})
	}
}

// alignSteps maps each top_logprobs entry to its completion step.
// llama-server leaves out the entries of tokens that end the text in an
// incomplete UTF-8 sequence, so the entries are matched in order to the
// greedy completion, whose token is llama.cpp's top-1 at every step.
func alignSteps(t *testing.T, ci int, c refCase) []int {
	t.Helper()
	var steps []int
	j := 0
	for i, tok := range c.CompletionTokens {
		if j < len(c.TopLogprobs) && len(c.TopLogprobs[j]) > 0 && c.TopLogprobs[j][0].ID == tok {
			steps = append(steps, i)
			j++
		}
	}
	if j != len(c.TopLogprobs) {
		t.Fatalf("case %d: cannot align %d top_logprobs entries with %d completion tokens", ci, len(c.TopLogprobs), len(c.CompletionTokens))
	}
	return steps
}
