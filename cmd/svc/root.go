package main

import (
	"github.com/spf13/cobra"
)

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "svc",
		Short: "Serve large language models from a peer-to-peer swarm",
	}
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
		newLicenceCmd(),
	)
	return root
}
