package main

import (
	"bytes"
	"errors"
	"testing"

	"github.com/spf13/cobra"

	"svc/cmd/internal/cli"
	"svc/internal/testenv"
)

func runCmd(t *testing.T, c *cobra.Command, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	c.SetOut(&out)
	c.SetErr(&bytes.Buffer{})
	c.SetArgs(args)
	c.SilenceUsage, c.SilenceErrors = true, true
	err := c.Execute()
	return out.String(), err
}

func TestTokenizeCommand(t *testing.T) {
	stories := testenv.Path(t, "models", "stories260K.gguf")
	qwen := testenv.Path(t, "tokenizer", "ggml-vocab-qwen2.gguf")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--model", stories, "Once upon a time"}, "[1,403,407,261,378]\n"},
		{[]string{"--model", stories, "--no-bos", "Once upon a time"}, "[403,407,261,378]\n"},
		{[]string{"--model", qwen, "--special", "<|im_start|>user\nHi<|im_end|>"}, "[151644,872,198,13048,151645]\n"},
		{[]string{"--model", qwen, "<|im_start|>user"}, "[27,91,318,4906,91,29,872]\n"},
	}
	for _, c := range cases {
		got, err := runCmd(t, newTokenizeCmd(), c.args...)
		if err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if got != c.want {
			t.Errorf("%v: got %q want %q", c.args, got, c.want)
		}
	}
	if _, err := runCmd(t, newTokenizeCmd(), "text"); !errors.As(err, new(*cli.UsageError)) {
		t.Errorf("missing --model: got %v, want a usage error", err)
	}
}

func TestDetokenizeCommand(t *testing.T) {
	stories := testenv.Path(t, "models", "stories260K.gguf")
	qwen := testenv.Path(t, "tokenizer", "ggml-vocab-qwen2.gguf")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--model", stories, "403,407, 261,378"}, "Once upon a time"},
		{[]string{"--model", stories, "[1, 403, 407]"}, "<s> Once upon"},
		{[]string{"--model", stories, "--skip-special", "1,403,407"}, " Once upon"},
		{[]string{"--model", qwen, "[151644,872,198,13048,151645]"}, "<|im_start|>user\nHi<|im_end|>"},
	}
	for _, c := range cases {
		got, err := runCmd(t, newDetokenizeCmd(), c.args...)
		if err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if got != c.want {
			t.Errorf("%v: got %q want %q", c.args, got, c.want)
		}
	}
	if _, err := runCmd(t, newDetokenizeCmd(), "--model", stories, "1,x"); !errors.As(err, new(*cli.UsageError)) {
		t.Errorf("bad ids: got %v, want a usage error", err)
	}
	if _, err := runCmd(t, newDetokenizeCmd(), "--model", stories, "1,512"); err == nil {
		t.Error("out-of-vocabulary id must be refused")
	}
}
