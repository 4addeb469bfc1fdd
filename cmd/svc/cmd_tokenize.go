package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"svc/cmd/internal/cli"
	"svc/shards/gguf"
	"svc/shards/tokenizer"
)

// openTokenizer reads only the tokenizer metadata of a GGUF model.
func openTokenizer(path string) (*tokenizer.Tokenizer, error) {
	if path == "" {
		return nil, cli.Usagef("--model is required")
	}
	f, err := gguf.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--model %s: %w", path, err)
	}
	tok, err := tokenizer.FromGGUF(f)
	if cerr := f.Close(); cerr != nil && err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("--model %s: %w", path, err)
	}
	return tok, nil
}

// newTokenizeCmd is "svc tokenize": text to token ids with a model's
// tokenizer, as llama.cpp's llama-tokenize --ids prints them.
func newTokenizeCmd() *cobra.Command {
	var (
		modelPath      string
		noBOS, special bool
	)
	cmd := &cobra.Command{
		Use:   "tokenize --model FILE [--no-bos] [--special] TEXT",
		Short: "Print the token ids of a text as a JSON array",
		Long: `Tokenize TEXT with the tokenizer stored in a GGUF model (tokenizer.ggml.*
metadata) and print the ids as a JSON array, e.g. [1,403,407].

BOS (and EOS, for the rare models that ask for it) is added when the model's
add_bos_token/add_eos_token say so, unless --no-bos. Text that spells a
control token such as <|im_end|> is turned into that token only with
--special; otherwise it is tokenized as ordinary text.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			tok, err := openTokenizer(modelPath)
			if err != nil {
				return err
			}
			ids, err := tok.Encode(args[0], !noBOS, special)
			if err != nil {
				return fmt.Errorf("tokenize: %w", err)
			}
			out, err := json.Marshal(ids)
			if err != nil {
				return fmt.Errorf("tokenize: %w", err)
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "%s\n", out)
			return err
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&modelPath, "model", "", "GGUF model whose tokenizer to use")
	fl.BoolVar(&noBOS, "no-bos", false, "do not add BOS/EOS even if the model asks for them")
	fl.BoolVar(&special, "special", false, "turn control-token text (e.g. <|im_end|>) into those tokens")
	return cmd
}

// newDetokenizeCmd is "svc detokenize": token ids back to text.
func newDetokenizeCmd() *cobra.Command {
	var (
		modelPath   string
		skipSpecial bool
	)
	cmd := &cobra.Command{
		Use:   "detokenize --model FILE IDS",
		Short: "Print the text of token ids",
		Long: `Turn token ids into text with the tokenizer stored in a GGUF model and print
the text exactly (no newline is added).

IDS is a comma-separated list (1,403,407) or a JSON array ([1, 403, 407]).
The text is llama.cpp's detokenization (common_detokenize with special=true):
control tokens are spelled out unless --skip-special, and vocabularies that
ask for it get llama.cpp's clean-up of spaces before punctuation.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ids, err := tokenizer.ParseIDs(args[0])
			if err != nil {
				return &cli.UsageError{Err: fmt.Errorf("detokenize: %w", err)}
			}
			tok, err := openTokenizer(modelPath)
			if err != nil {
				return err
			}
			for _, id := range ids {
				if id < 0 || int(id) >= tok.VocabSize() {
					return fmt.Errorf("detokenize: token id %d is outside the vocabulary (0..%d)", id, tok.VocabSize()-1)
				}
			}
			text := tok.DecodeWith(ids, tokenizer.DecodeOptions{SkipSpecial: skipSpecial})
			_, err = fmt.Fprint(cmd.OutOrStdout(), text)
			return err
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&modelPath, "model", "", "GGUF model whose tokenizer to use")
	fl.BoolVar(&skipSpecial, "skip-special", false, "leave out control tokens (BOS, EOS, <|im_end|>...)")
	return cmd
}
