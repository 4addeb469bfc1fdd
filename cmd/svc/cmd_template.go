package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"svc/cmd/internal/cli"
	"svc/shards/chattmpl"
	"svc/shards/gguf"
)

// newTemplateCmd is "svc template": render a chat into the prompt text a
// model sees, with the model's own chat template or a template file.
func newTemplateCmd() *cobra.Command {
	var (
		modelPath, messagesPath, templatePath, toolsPath string
		bos, eos                                         string
		noGenerationPrompt                               bool
	)
	cmd := &cobra.Command{
		Use:   "template (--model FILE | --template FILE.jinja) --messages FILE.json",
		Short: "Print the prompt a chat template renders for a conversation",
		Long: `Render a conversation with a chat template, as Hugging Face transformers'
apply_chat_template does, and print the prompt exactly (no newline is added).

The template is the model's tokenizer.chat_template (--model), or a Jinja file
(--template). A model without a template gets the ChatML fallback. bos_token
and eos_token come from the model's BOS/EOS tokens; --bos and --eos set them
(and are the only source with --template alone; unset means undefined).

The messages file is a JSON array of OpenAI-style messages
({"role": ..., "content": ..., "tool_calls": ...}). --tools names a JSON
array of tool definitions; without it the template sees tools=None.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if modelPath == "" && templatePath == "" {
				return cli.Usagef("template: give --model or --template")
			}
			if messagesPath == "" {
				return cli.Usagef("template: --messages is required")
			}
			tpl, opts, err := loadTemplate(modelPath, templatePath)
			if err != nil {
				return err
			}
			if cmd.Flags().Changed("bos") {
				opts.BOS = &bos
			}
			if cmd.Flags().Changed("eos") {
				opts.EOS = &eos
			}
			data, err := os.ReadFile(messagesPath)
			if err != nil {
				return fmt.Errorf("--messages: %w", err)
			}
			msgs, err := chattmpl.MessagesFromJSON(data)
			if err != nil {
				return fmt.Errorf("--messages %s: %w", messagesPath, err)
			}
			if toolsPath != "" {
				if opts.ToolObjects, err = readTools(toolsPath); err != nil {
					return err
				}
			}
			opts.AddGenerationPrompt = !noGenerationPrompt
			out, err := tpl.Render(msgs, opts)
			if err != nil {
				return err
			}
			_, err = fmt.Fprint(cmd.OutOrStdout(), out)
			return err
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&modelPath, "model", "", "GGUF model whose chat template and BOS/EOS tokens to use")
	fl.StringVar(&templatePath, "template", "", "Jinja chat template file to use instead of the model's")
	fl.StringVar(&messagesPath, "messages", "", "JSON file with the array of chat messages")
	fl.StringVar(&toolsPath, "tools", "", "JSON file with the array of tool definitions (default: tools=None)")
	fl.StringVar(&bos, "bos", "", "bos_token text (overrides the model's)")
	fl.StringVar(&eos, "eos", "", "eos_token text (overrides the model's)")
	fl.BoolVar(&noGenerationPrompt, "no-generation-prompt", false, "render with add_generation_prompt=false")
	return cmd
}

// loadTemplate reads the chat template of --model, or of --template when
// given (the model's BOS/EOS still apply).
func loadTemplate(modelPath, templatePath string) (*chattmpl.Template, chattmpl.Options, error) {
	var (
		tpl  *chattmpl.Template
		opts chattmpl.Options
	)
	if modelPath != "" {
		f, err := gguf.Open(modelPath)
		if err != nil {
			return nil, opts, fmt.Errorf("--model %s: %w", modelPath, err)
		}
		m, err := chattmpl.FromGGUF(f)
		if cerr := f.Close(); cerr != nil && err == nil {
			err = cerr
		}
		if err != nil {
			return nil, opts, fmt.Errorf("--model %s: %w", modelPath, err)
		}
		tpl, opts = m.Template, m.Options()
	}
	if templatePath != "" {
		src, err := os.ReadFile(templatePath)
		if err != nil {
			return nil, opts, fmt.Errorf("--template: %w", err)
		}
		if tpl, err = chattmpl.Parse(string(src)); err != nil {
			return nil, opts, fmt.Errorf("--template %s: %w", templatePath, err)
		}
	}
	return tpl, opts, nil
}

// readTools reads a JSON array of tool objects, keeping key order.
func readTools(path string) ([]chattmpl.Object, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--tools: %w", err)
	}
	v, err := chattmpl.DecodeJSON(data)
	if err != nil {
		return nil, fmt.Errorf("--tools %s: %w", path, err)
	}
	arr, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("--tools %s: not a JSON array", path)
	}
	tools := make([]chattmpl.Object, len(arr))
	for i, t := range arr {
		obj, ok := t.(chattmpl.Object)
		if !ok {
			return nil, fmt.Errorf("--tools %s: element %d is not a JSON object", path, i)
		}
		tools[i] = obj
	}
	return tools, nil
}
