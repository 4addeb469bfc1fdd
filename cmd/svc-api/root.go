package main

import (
	"fmt"
	"log/slog"
	"os"

	"github.com/spf13/cobra"

	"svc/coordinator/apimember"
)

// config holds the configuration file's path, from --config or
// SVC_API_CONFIG.
type config struct{ path string }

func (c *config) load(cmd *cobra.Command) (apimember.Config, error) {
	named := cmd.Flags().Changed("config")
	if v := os.Getenv("SVC_API_CONFIG"); v != "" && !named {
		c.path, named = v, true
	}
	environ := os.Environ()
	// SVC_API_CONFIG names the file; it is not one of the file's keys.
	for i, kv := range environ {
		if len(kv) > len("SVC_API_CONFIG=") && kv[:len("SVC_API_CONFIG=")] == "SVC_API_CONFIG=" {
			environ = append(environ[:i:i], environ[i+1:]...)
			break
		}
	}
	return apimember.LoadConfig(c.path, named, environ)
}

func newRootCmd() *cobra.Command {
	c := &config{}
	root := &cobra.Command{
		Use:   "svc-api",
		Short: "The managed deployment's API: HTTPS on 8443 with API keys",
		Long: `svc-api serves the managed deployment's OpenAI-compatible API at
https://HOST:8443/v1. It is an api-role member of the swarm: enroll joins it
with a token from svc-coordinator token create --role api; run serves.

Configuration is /etc/svc/api.env (KEY=VALUE lines, the unit's
EnvironmentFile); every key may be overridden by the environment, and an
unknown SVC_API_ key is refused. Keys:

` + apimember.Keys() + `
Exit codes: 0 done, 1 refused (the reason on stderr), 2 wrong command line
(usage printed).`,
	}
	root.PersistentFlags().StringVar(&c.path, "config", apimember.DefaultEnvPath, "configuration file (env SVC_API_CONFIG)")
	root.AddCommand(newEnrollCmd(c), newRunCmd(c))
	return root
}

func newEnrollCmd(c *config) *cobra.Command {
	var o apimember.EnrollOptions
	cmd := &cobra.Command{
		Use:   "enroll --coordinator ADDR --token T --ca-pin sha256:HEX [--label NAME]",
		Short: "Join the deployment as its API with a token from token create --role api",
		Long: `Make this API's libp2p key pair (in SVC_API_STATE_DIR), check the
coordinator's CA against --ca-pin, prove possession of the token and store
the member certificate the coordinator issues. The TLS certificate for
SVC_API_HOSTS is requested by run (its key is made on this machine).`,
		Example: `  svc-coordinator token create --role api --label api-1
  svc-api enroll --coordinator /ip4/10.0.0.5/tcp/7401/p2p/12D3KooW... \
      --token abcdef.0123456789abcdef --ca-pin sha256:5f0c...`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := c.load(cmd)
			if err != nil {
				return err
			}
			o.StateDir = cfg.StateDir
			m, err := apimember.Enroll(cmd.Context(), o)
			if err != nil {
				return fmt.Errorf("enroll: %w", err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "enrolled as %s (%s), peer %s, certificate valid until %s\nNext: svc-api run (or systemctl start svc-api)\n",
				m.Label, m.Role, m.Peer, m.NotAfter.UTC().Format("2006-01-02T15:04:05Z"))
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&o.Coordinator, "coordinator", "", "the coordinator's enrolment address, as token create printed it")
	fl.StringVar(&o.Token, "token", "", "the enrolment token (id.secret), created with --role api")
	fl.StringVar(&o.Pin, "ca-pin", "", "sha256 pin of the deployment CA, as token create printed it")
	fl.StringVar(&o.Label, "label", "", "this API's label (when the token names none)")
	for _, n := range []string{"coordinator", "token", "ca-pin"} {
		_ = cmd.MarkFlagRequired(n)
	}
	return cmd
}

func newRunCmd(c *config) *cobra.Command {
	var verbose bool
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Serve the API over HTTPS",
		Long: `Join the swarm as this API member, get (or renew) the TLS certificate for
SVC_API_HOSTS from the deployment CA, fetch the API key set from the
coordinator, and serve https://SVC_API_LISTEN/v1 with the managed error
table. Prints "ready https=ADDR metrics=ADDR plain=ADDR" on stdout once it
answers. Every refused request is written to SVC_API_JOURNAL and sent to the
coordinator's audit trail (svc-coordinator audit show --reference
chatcmpl-…). Stops with exit 1 when the member is removed or its
certificate expires.`,
		Example: `  svc-api run
  SVC_API_STATE_DIR=/tmp/api SVC_API_LISTEN=127.0.0.1:8443 SVC_API_HOSTS=localhost svc-api run --config /tmp/api.env`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := c.load(cmd)
			if err != nil {
				return err
			}
			level := slog.LevelInfo
			if verbose {
				level = slog.LevelDebug
			}
			log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
			return apimember.Run(cmd.Context(), apimember.RunOptions{Config: cfg, Log: log,
				Ready: func(https, metrics, plain string) {
					fmt.Fprintf(cmd.OutOrStdout(), "ready https=%s metrics=%s plain=%s\n", https, metrics, plain)
				}})
		},
	}
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "debug logging")
	return cmd
}
