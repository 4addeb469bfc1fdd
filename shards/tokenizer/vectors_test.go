package tokenizer

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"svc/internal/testenv"
	"svc/shards/gguf"
)

// loaded caches tokenizers per GGUF path for the package's tests.
var loaded sync.Map

func load(tb testing.TB, path string) *Tokenizer {
	tb.Helper()
	if v, ok := loaded.Load(path); ok {
		return v.(*Tokenizer)
	}
	f, err := gguf.Open(path)
	if err != nil {
		tb.Fatalf("open %s: %v", path, err)
	}
	defer f.Close()
	tok, err := FromGGUF(f)
	if err != nil {
		tb.Fatalf("load %s: %v", path, err)
	}
	loaded.Store(path, tok)
	return tok
}

func vocabPath(tb testing.TB, name string) string {
	return testenv.Path(tb, "tokenizer", "ggml-vocab-"+name+".gguf")
}

// readVectors reads llama.cpp's .inp/.out test format.
func readVectors(tb testing.TB, inp, out string) ([]string, [][]int32) {
	tb.Helper()
	raw, err := os.ReadFile(inp)
	if err != nil {
		tb.Fatal(err)
	}
	const sep = "\n__ggml_vocab_test__\n"
	texts := strings.Split(string(raw), sep)
	if len(texts) < 2 || texts[len(texts)-1] != "" {
		tb.Fatalf("%s: not in .inp format", inp)
	}
	texts = texts[:len(texts)-1]
	rawOut, err := os.ReadFile(out)
	if err != nil {
		tb.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(rawOut), "\n"), "\n")
	if len(lines) != len(texts) {
		tb.Fatalf("%s: %d lines for %d texts", out, len(lines), len(texts))
	}
	ids := make([][]int32, len(lines))
	for i, l := range lines {
		ids[i] = []int32{}
		for _, f := range strings.Fields(l) {
			v, err := strconv.ParseInt(f, 10, 32)
			if err != nil {
				tb.Fatalf("%s line %d: %v", out, i+1, err)
			}
			ids[i] = append(ids[i], int32(v))
		}
	}
	return texts, ids
}

var vocabs = []string{"llama-spm", "phi-3", "gpt-2", "llama-bpe", "qwen2", "deepseek-llm",
	"deepseek-coder", "falcon", "starcoder", "mpt", "refact"}

func TestVocabFixturesAllPresent(t *testing.T) {
	got, err := filepath.Glob(filepath.Join(testenv.SharedDir(t), "tokenizer", "*.gguf"))
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range got {
		name := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(g), "ggml-vocab-"), ".gguf")
		if !slices.Contains(vocabs, name) {
			t.Errorf("fixture vocab %s is not covered by the tests", name)
		}
	}
}

func TestEncodeVectors(t *testing.T) {
	for _, name := range vocabs {
		t.Run(name, func(t *testing.T) {
			p := vocabPath(t, name)
			tok := load(t, p)
			texts, want := readVectors(t, p+".inp", p+".out")
			pass := 0
			for i, text := range texts {
				got, err := tok.Encode(text, false, false)
				if err != nil {
					t.Errorf("text %d %q: %v", i, text, err)
					continue
				}
				if !slices.Equal(got, want[i]) {
					t.Errorf("text %d %q:\n got %v\nwant %v", i, text, got, want[i])
					continue
				}
				pass++
			}
			t.Logf("%s: %d/%d texts match", name, pass, len(texts))
		})
	}
}

func TestEncodeSpecialVectors(t *testing.T) {
	for _, name := range []string{"llama-bpe", "qwen2"} {
		t.Run(name, func(t *testing.T) {
			p := vocabPath(t, name)
			tok := load(t, p)
			texts, want := readVectors(t, testenv.Path(t, "tokenizer", "ggml-vocab-"+name+".gguf.special.inp"),
				testenv.Path(t, "tokenizer", "ggml-vocab-"+name+".gguf.special.out"))
			pass := 0
			for i, text := range texts {
				got, err := tok.Encode(text, false, true)
				if err != nil {
					t.Errorf("text %d %q: %v", i, text, err)
					continue
				}
				if !slices.Equal(got, want[i]) {
					t.Errorf("text %d %q:\n got %v\nwant %v", i, text, got, want[i])
					continue
				}
				pass++
			}
			t.Logf("%s special: %d/%d texts match", name, pass, len(texts))
		})
	}
}

func TestDetokVectors(t *testing.T) {
	for _, name := range []string{"llama-spm", "gpt-2", "llama-bpe", "qwen2"} {
		t.Run(name, func(t *testing.T) {
			p := vocabPath(t, name)
			tok := load(t, p)
			raw, err := os.ReadFile(testenv.Path(t, "tokenizer", "ggml-vocab-"+name+".gguf.detok.json"))
			if err != nil {
				t.Fatal(err)
			}
			var cases []struct {
				IDs  []int32 `json:"ids"`
				Text string  `json:"text"`
			}
			if err := json.Unmarshal(raw, &cases); err != nil {
				t.Fatal(err)
			}
			pass := 0
			for i, c := range cases {
				if got := tok.Decode(c.IDs); got != c.Text {
					t.Errorf("case %d %v:\n got %q\nwant %q", i, c.IDs, got, c.Text)
					continue
				}
				// The stream must agree with the one-shot decode.
				sd := tok.NewStreamDecoder()
				var sb strings.Builder
				for _, id := range c.IDs {
					sb.WriteString(sd.Add(id))
				}
				sb.WriteString(sd.Flush())
				if sb.String() != c.Text {
					t.Errorf("case %d stream: got %q want %q", i, sb.String(), c.Text)
					continue
				}
				pass++
			}
			t.Logf("%s detok: %d/%d match", name, pass, len(cases))
		})
	}
}

// refCase is the part of shared/reference/*.json the tokenizer answers for.
type refFile struct {
	Model string `json:"model"`
	Cases []struct {
		Prompt       string  `json:"prompt"`
		PromptTokens []int32 `json:"prompt_tokens"`
	} `json:"cases"`
}

func TestReferencePromptTokens(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(testenv.SharedDir(t), "reference", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no reference files: %v", err)
	}
	total, pass := 0, 0
	for _, fn := range files {
		raw, err := os.ReadFile(fn)
		if err != nil {
			t.Fatal(err)
		}
		var rf refFile
		if err := json.Unmarshal(raw, &rf); err != nil {
			t.Fatalf("%s: %v", fn, err)
		}
		tok := load(t, testenv.Path(t, "models", rf.Model))
		for _, c := range rf.Cases {
			total++
			got, err := tok.Encode(c.Prompt, true, false)
			if err != nil {
				t.Errorf("%s %q: %v", rf.Model, c.Prompt, err)
				continue
			}
			if !slices.Equal(got, c.PromptTokens) {
				t.Errorf("%s %q:\n got %v\nwant %v", rf.Model, c.Prompt, got, c.PromptTokens)
				continue
			}
			pass++
		}
	}
	t.Logf("reference prompts: %d/%d match", pass, total)
	if total == 0 {
		t.Fatal("no reference cases")
	}
}

func ExampleTokenizer_Encode() {
	// The fixtures are ../shared beside the repository or $SVC_SHARED; a
	// missing one prints the error, which fails the example.
	dir, err := testenv.SharedDirErr()
	if err != nil {
		fmt.Println(err)
		return
	}
	f, err := gguf.Open(filepath.Join(dir, "models", "stories260K.gguf"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	tok, err := FromGGUF(f)
	if err != nil {
		fmt.Println(err)
		return
	}
	ids, _ := tok.Encode("Once upon a time", true, false)
	fmt.Println(ids, tok.Decode(ids[1:]))
	// Output: [1 403 407 261 378] Once upon a time
}

// TestReferenceCompletionText streams each reference completion the way
// llama-server does (plain pieces, control tokens hidden, ill-formed UTF-8
// replaced) and compares with the completion_text llama-server returned.
func TestReferenceCompletionText(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(testenv.SharedDir(t), "reference", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no reference files: %v", err)
	}
	total, pass := 0, 0
	for _, fn := range files {
		raw, err := os.ReadFile(fn)
		if err != nil {
			t.Fatal(err)
		}
		var rf struct {
			Model string `json:"model"`
			Cases []struct {
				Tokens []int32 `json:"completion_tokens"`
				Text   string  `json:"completion_text"`
			} `json:"cases"`
		}
		if err := json.Unmarshal(raw, &rf); err != nil {
			t.Fatalf("%s: %v", fn, err)
		}
		tok := load(t, testenv.Path(t, "models", rf.Model))
		for i, c := range rf.Cases {
			total++
			sd := tok.NewStreamDecoderWith(StreamOptions{Raw: true, DecodeOptions: DecodeOptions{SkipSpecial: true}})
			got := streamAll(t, sd, c.Tokens)
			if got != c.Text {
				t.Errorf("%s case %d:\n got %q\nwant %q", rf.Model, i, got, c.Text)
				continue
			}
			pass++
		}
	}
	t.Logf("reference completions: %d/%d match", pass, total)
}
