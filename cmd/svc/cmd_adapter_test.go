package main

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"svc/cmd/internal/cli"
	"svc/internal/testenv"
)

// TestAdapterCommands: synth-adapter writes the same file for the same
// seed, inspect describes it and says whether it fits a base model, and
// wrong flags are usage errors naming the flag.
func TestAdapterCommands(t *testing.T) {
	stories := testenv.Path(t, "models", "stories260K.gguf")
	qwen := testenv.Path(t, "models", "mini-qwen2-q8_0.gguf")
	dir := t.TempDir()
	ad := filepath.Join(dir, "ad.gguf")
	if _, err := runCmd(t, newModelSynthAdapterCmd(), "--base", stories, "--out", ad, "--rank", "4", "--alpha", "8", "--type", "bf16", "--targets", "attn_q,ffn_down"); err != nil {
		t.Fatal(err)
	}
	out, err := runCmd(t, newModelInspectCmd(), "--json", "--base", stories, ad)
	if err != nil {
		t.Fatal(err)
	}
	var ins adapterInspection
	if err := json.Unmarshal([]byte(out), &ins); err != nil {
		t.Fatalf("%q: %v", out, err)
	}
	if ins.Kind != "lora adapter" || ins.Architecture != "llama" || ins.Alpha != 8 || ins.Pairs != 10 ||
		len(ins.Ranks) != 1 || ins.Ranks[0] != 4 || ins.Fits == nil || !*ins.Fits || strings.Join(ins.Types, ",") != "BF16" {
		t.Fatalf("inspection %+v", ins)
	}
	out, err = runCmd(t, newModelInspectCmd(), "--base", qwen, ad)
	if err == nil || !strings.Contains(out, "does not fit") || !strings.Contains(err.Error(), "architecture") {
		t.Fatalf("adapter on qwen2: %v\n%s", err, out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--base", stories, "--out", ad}, "--rank"},
		{[]string{"--base", stories, "--out", ad, "--rank", "4", "--type", "q4_0"}, "--type q4_0"},
		{[]string{"--base", stories, "--out", ad, "--rank", "8", "--type", "q8_0"}, "multiples of 32"},
		{[]string{"--base", stories, "--out", ad, "--rank", "4", "--targets", "attn_x"}, "attn_x"},
	} {
		_, err := runCmd(t, newModelSynthAdapterCmd(), c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want an error naming %s", c.args, err, c.want)
		}
	}
	var ue *cli.UsageError
	if _, err := runCmd(t, newModelSynthAdapterCmd(), "--base", stories); !errors.As(err, &ue) {
		t.Errorf("missing flags: %v is not a usage error", err)
	}
}
