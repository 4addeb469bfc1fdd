package main

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/spf13/cobra"

	"svc/cmd/internal/cli"
	"svc/coordinator/agent"
)

type paths struct{ config, stateDir string }

// resolve applies the environment to the flags not given.
func (p *paths) resolve(cmd *cobra.Command) {
	if v := os.Getenv("SVC_NODE_AGENT_CONFIG"); v != "" && !cmd.Flags().Changed("config") {
		p.config = v
	}
	if v := os.Getenv("SVC_NODE_AGENT_STATE_DIR"); v != "" && !cmd.Flags().Changed("state-dir") {
		p.stateDir = v
	}
}

func (p *paths) files(cmd *cobra.Command) agent.Files {
	p.resolve(cmd)
	return agent.Files{Dir: p.stateDir}
}

func newRootCmd() *cobra.Command {
	p := &paths{}
	root := &cobra.Command{
		Use:   "svc-node-agent",
		Short: "A machine of a managed deployment: enrol it, run it, open or close its swarm port",
		Long: `svc-node-agent makes this machine part of a managed deployment: enroll
joins it with a single-use token from the coordinator, run keeps it a member
of the swarm (admitting only certified peers), firewall opens or closes its
swarm port, status describes it.

Exit codes: 0 done, 1 refused (the reason on stderr), 2 wrong command line
(usage printed), 77 this machine's certificate has expired (enrol again
with a new token; restarting cannot help).`,
	}
	f := root.PersistentFlags()
	f.StringVar(&p.config, "config", agent.DefaultConfigPath, "configuration file (env SVC_NODE_AGENT_CONFIG)")
	f.StringVar(&p.stateDir, "state-dir", agent.DefaultStateDir, "this machine's identity and slices (env SVC_NODE_AGENT_STATE_DIR)")
	root.AddCommand(newEnrollCmd(p), newRunCmd(p), newFirewallCmd(p), newStatusCmd(p))
	return root
}

func newEnrollCmd(p *paths) *cobra.Command {
	var o agent.EnrollOptions
	cmd := &cobra.Command{
		Use:   "enroll --coordinator ADDR --token T --ca-pin sha256:HEX [--label NAME]",
		Short: "Join the deployment with a token from svc-coordinator token create",
		Long: `Make this machine's key pair (kept in the state directory), connect to the
coordinator's enrolment port, check its CA against --ca-pin, prove
possession of the token without sending it, and store the certificate the
coordinator issues. A reused, revoked, expired or wrong token, or a wrong
pin, is refused with the reason (exit 1) and recorded by the coordinator.`,
		Example: `  svc-node-agent enroll --coordinator /ip4/10.0.0.5/tcp/7401/p2p/12D3KooW... \
      --token abcdef.0123456789abcdef --ca-pin sha256:5f0c... --label gpu-01`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			files := p.files(cmd)
			o.StateDir = files.Dir
			r, err := agent.Enroll(cmd.Context(), o)
			if err != nil {
				return fmt.Errorf("enroll: %w", err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "enrolled as %s (%s), peer %s, certificate valid until %s\nNext: svc-node-agent run (or systemctl start svc-node-agent)\n",
				r.Member.Label, r.Member.Role, r.Member.Peer, r.Member.NotAfter.UTC().Format("2006-01-02T15:04:05Z"))
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&o.Coordinator, "coordinator", "", "the coordinator's enrolment address, as token create printed it")
	fl.StringVar(&o.Token, "token", "", "the enrolment token (id.secret)")
	fl.StringVar(&o.Pin, "ca-pin", "", "sha256 pin of the deployment CA, as token create printed it")
	fl.StringVar(&o.Label, "label", "", "this machine's label (when the token names none)")
	fl.Int64Var(&o.Memory, "memory", 0, "bytes this machine gives to model slices (0: decided at run)")
	o.Role = "machine"
	for _, n := range []string{"coordinator", "token", "ca-pin"} {
		_ = cmd.MarkFlagRequired(n)
	}
	return cmd
}

func newRunCmd(p *paths) *cobra.Command {
	var verbose bool
	var rosterEvery = agentDuration{}
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Run this machine as a member of the swarm",
		Long: `Run this machine as a member of the managed swarm (agent.toml: the
coordinator's address, this machine's label, the swarm listen address,
and the memory of its slices: memory, and each slice's prompt_cache and
kv_cache, which the agent reports and the coordinator's placement counts
with every slice). kv_cache bounds the keys and values a slice's
sessions hold together: "auto" (the default; also empty or 0) gives each
slice 2GiB, or one session of the model's whole context on its blocks
where that is more (Llama-3.2-1B's 131072 positions take 256MiB a
block), and the coordinator counts the same for each slice it places; a
size gives every slice that, and a slice for which it cannot hold one
session of the model's whole context is refused, naming kv_cache and
the size it needs. Prints "ready" and its addresses on stdout once
it is a member. It admits only peers with a valid certificate of the
deployment, keeps the newest roster, and stops with exit 1 when the
machine is removed, or 77 when its certificate expires.`,
		Example: `  svc-node-agent run
  SVC_NODE_AGENT_STATE_DIR=/tmp/m1 svc-node-agent run --config /tmp/m1/agent.toml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			files := p.files(cmd)
			cfg, err := agent.LoadConfig(p.config, cmd.Flags().Changed("config") || os.Getenv("SVC_NODE_AGENT_CONFIG") != "")
			if err != nil {
				return err
			}
			level := slog.LevelInfo
			if verbose {
				level = slog.LevelDebug
			}
			log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
			err = agent.Run(cmd.Context(), agent.RunOptions{StateDir: files.Dir, Config: cfg, Log: log, RosterInterval: rosterEvery.d,
				Ready: func(addrs []string) {
					fmt.Fprintf(cmd.OutOrStdout(), "ready")
					for _, a := range addrs {
						fmt.Fprintf(cmd.OutOrStdout(), " %s", a)
					}
					fmt.Fprintln(cmd.OutOrStdout())
				}})
			if errors.Is(err, agent.ErrExpired) {
				return cli.CertificateExpired(err)
			}
			return err
		},
	}
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "debug logging")
	cmd.Flags().DurationVar(&rosterEvery.d, "roster-interval", 0, "how often to fetch the roster when none was pushed (default 1s)")
	return cmd
}

type agentDuration struct{ d time.Duration }

func newFirewallCmd(p *paths) *cobra.Command {
	set := func(closed bool) func(cmd *cobra.Command, _ []string) error {
		return func(cmd *cobra.Command, _ []string) error {
			if err := agent.SetFirewall(p.files(cmd), closed); err != nil {
				return err
			}
			if closed {
				fmt.Fprintln(cmd.OutOrStdout(), "swarm port closed: running sessions finish, no new peer is admitted (the coordinator still is)")
			} else {
				fmt.Fprintln(cmd.OutOrStdout(), "swarm port open to the deployment's members")
			}
			return nil
		}
	}
	var nft bool
	status := &cobra.Command{
		Use:   "status [--print-nftables]",
		Short: "Show whether this machine's swarm port is open",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fw := agent.ReadFirewall(p.files(cmd))
			state := "open"
			if fw.Closed {
				state = "closed since " + fw.Since.Format("2006-01-02T15:04:05Z")
			}
			fmt.Fprintf(cmd.OutOrStdout(), "swarm port: %s\n", state)
			if nft {
				cfg, err := agent.LoadConfig(p.config, false)
				if err != nil {
					return err
				}
				fmt.Fprint(cmd.OutOrStdout(), agent.NFTables(cfg, fw))
			}
			return nil
		},
	}
	status.Flags().BoolVar(&nft, "print-nftables", false, "also print nftables rules matching the state")
	c := &cobra.Command{Use: "firewall", Short: "Open or close this machine's swarm port to the deployment"}
	c.AddCommand(
		&cobra.Command{Use: "open", Short: "Open the swarm port to the deployment's members", Args: cobra.NoArgs, RunE: set(false)},
		&cobra.Command{Use: "close", Short: "Close the swarm port: finish running sessions, take no new ones", Args: cobra.NoArgs, RunE: set(true)},
		status,
	)
	return c
}

func newStatusCmd(p *paths) *cobra.Command {
	return &cobra.Command{
		Use:   "status",
		Short: "Describe this machine: label, certificate, roster, swarm port",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, err := agent.Status(p.files(cmd))
			if err != nil {
				return err
			}
			fmt.Fprint(cmd.OutOrStdout(), s)
			return nil
		},
	}
}
