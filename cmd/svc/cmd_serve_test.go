package main

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go"
	"github.com/openai/openai-go/option"

	"svc/cmd/internal/cli"
	"svc/shards/demo"
)

// TestServeDemo runs "svc serve" with no model and no swarm, as a newcomer
// does first: it serves the built-in demo model, says how to serve a real
// one, and answers /v1/models and a chat completion through the official
// client; with --prompt-cache off, the same prompt again is computed.
// Nothing here reads ../shared.
func TestServeDemo(t *testing.T) {
	models := t.TempDir()
	t.Setenv("SVC_MODELS", models)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	runCtx, stop := context.WithCancel(ctx)
	pr, pw := io.Pipe()
	exit := make(chan int, 1)
	go func() {
		code := cli.Run(runCtx, newRootCmd(), []string{"serve", "--listen", "127.0.0.1:0", "--threads", "1", "--prompt-cache", "off"}, pw)
		pw.Close()
		exit <- code
	}()
	lines := bufio.NewScanner(pr)
	var url string
	var log strings.Builder
	listening := regexp.MustCompile(`msg="API listening" url=(\S+)`)
	for url == "" && lines.Scan() {
		log.WriteString(lines.Text() + "\n")
		if m := listening.FindStringSubmatch(lines.Text()); m != nil {
			url = m[1]
		}
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }() // keep the server's log flowing
	if url == "" {
		t.Fatalf("svc serve never listened; its log:\n%s", log.String())
	}
	if !strings.Contains(log.String(), "svc serve --model FILE.gguf") {
		t.Errorf("no log line says how to serve a real model:\n%s", log.String())
	}
	if _, err := os.Stat(filepath.Join(models, demo.FileName)); err != nil {
		t.Errorf("demo model not in $SVC_MODELS: %v", err)
	}

	c := openai.NewClient(option.WithBaseURL(url+"/"), option.WithAPIKey("any"), option.WithMaxRetries(0))
	list, err := c.Models.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Data) != 1 || list.Data[0].ID != demo.Name {
		t.Errorf("/v1/models lists %+v, want %s alone", list.Data, demo.Name)
	}
	resp, err := c.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{
		Messages:  []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Tell me a story.")},
		MaxTokens: openai.Int(16),
	})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Model != demo.Name || len(resp.Choices) != 1 || resp.Choices[0].Message.Content == "" || resp.Usage.CompletionTokens == 0 {
		t.Errorf("chat completion %+v: want text from %s", resp, demo.Name)
	}
	// --prompt-cache off reaches every in-process node: the same prompt
	// again is computed, not answered from a cache (by default it would be).
	again, err := c.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{
		Messages:  []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Tell me a story.")},
		MaxTokens: openai.Int(16),
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := again.Usage.PromptTokensDetails.CachedTokens; n != 0 {
		t.Errorf("the same prompt again with --prompt-cache off: %d cached tokens, want 0", n)
	}
	stop()
	if code := <-exit; code != cli.ExitOK {
		t.Errorf("svc serve exited %d after its context ended, want 0", code)
	}
}
