package main

import (
	"strings"

	"github.com/spf13/cobra"
)

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:           "svc",
		Short:         "Serve large language models from a peer-to-peer swarm",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	root.AddCommand(
		// Each room's commands register here, one constructor a line.
		newModelCmd(),
		newGenerateCmd(),
		newTemplateCmd(),
		newServeCmd(),
		newNodeCmd(),
		newTokenizeCmd(),
		newDetokenizeCmd(),
		newBenchCmd(),
	)
	return root
}

// isFlagError recognises cobra's own argument errors, which it does not type.
func isFlagError(err error) bool {
	msg := err.Error()
	return strings.HasPrefix(msg, "unknown command") || strings.HasPrefix(msg, "accepts ") ||
		strings.HasPrefix(msg, "requires ") || strings.Contains(msg, "required flag")
}
