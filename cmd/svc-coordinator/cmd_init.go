package main

import (
	"fmt"
	"log/slog"
	"os"
	"os/user"
	"time"

	"github.com/spf13/cobra"

	"svc/coordinator"
)

func newInitCmd(p *paths) *cobra.Command {
	return &cobra.Command{
		Use:   "init",
		Short: "Create the deployment: its CA, the coordinator's identity and the state database",
		Long: `Create a new deployment in the state directory: the deployment CA (ECDSA
P-256; its key stays in the state database), the coordinator's libp2p
identity and certificate (naming the configured endpoint), and the state
database. The CA certificate is written world-readable to ca_cert
(/etc/svc/ca.crt) for machines and developers. Refused if the state
directory is already initialised.`,
		Example: `  svc-coordinator init
  svc-coordinator init --state-dir /tmp/coord --ca-cert /tmp/coord/ca.crt --config /tmp/coord/coordinator.toml`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := p.load(cmd)
			if err != nil {
				return err
			}
			actor := "unknown"
			if u, err := user.Current(); err == nil {
				actor = u.Username
			}
			r, err := coordinator.Init(cfg, actor, time.Now())
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "deployment created in %s\ncoordinator peer %s\nCA certificate %s\nCA pin %s\n\nNext: svc-coordinator run (or systemctl start svc-coordinator), then licence install FILE.\n",
				cfg.StateDir, r.Peer, r.CACert, r.Pin)
			return nil
		},
	}
}

func newRunCmd(p *paths) *cobra.Command {
	var verbose bool
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Run the coordinator daemon",
		Long: `Run the coordinator: the admin socket for operator commands, the swarm
port (a libp2p peer of the managed swarm that admits only certified members
and serves the signed roster), and the enrolment port (closed unless
firewall open). Prints "ready" on stdout once every port is open; logs go
to stderr. SIGINT or SIGTERM stops it cleanly; a SIGKILL loses nothing a
command reported as done.`,
		Example: `  svc-coordinator run
  SVC_COORDINATOR_STATE_DIR=/tmp/coord svc-coordinator run --config /tmp/coord/coordinator.toml`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := p.load(cmd)
			if err != nil {
				return err
			}
			level := slog.LevelInfo
			if verbose {
				level = slog.LevelDebug
			}
			log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
			d, err := coordinator.Open(cfg, log)
			if err != nil {
				return err
			}
			defer d.Close()
			return d.Run(cmd.Context(), func() {
				fmt.Fprintf(cmd.OutOrStdout(), "ready %s\n", d.EnrolAddr())
			})
		},
	}
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "debug logging")
	return cmd
}
