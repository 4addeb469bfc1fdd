package main

import (
	"context"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"svc/cmd/internal/cli"
	"svc/coordinator"
)

// paths are the files every command may need; each has a flag and an
// environment override (flag first, then environment, then the
// configuration file, then the default).
type paths struct {
	config, stateDir, caCert, socket string
	modelsDir                        string
}

func newRootCmd() *cobra.Command {
	p := &paths{}
	root := &cobra.Command{
		Use:   "svc-coordinator",
		Short: "The managed deployment's authority: CA, enrolment, roster, licence, audit trail",
		Long: `svc-coordinator runs the managed variant's authority (svc-coordinator run)
and is the operator's tool: every command but init and run talks to the
running daemon over its admin socket (STATE_DIR/admin.sock, mode 0600) and
never opens the state database itself. The audit trail records each
command with the calling user.

Exit codes: 0 done, 1 refused (the reason on stderr), 2 wrong command line
(usage printed).`,
	}
	f := root.PersistentFlags()
	// Defaults stay literal (the generated reference shows them); the
	// environment is read when a flag is not given (paths.resolve).
	f.StringVar(&p.config, "config", coordinator.DefaultConfigPath, "configuration file (env SVC_COORDINATOR_CONFIG)")
	f.StringVar(&p.stateDir, "state-dir", "", "state directory (env SVC_COORDINATOR_STATE_DIR; default: state_dir of the configuration, "+coordinator.DefaultStateDir+")")
	f.StringVar(&p.caCert, "ca-cert", "", "where init writes the CA certificate (env SVC_CA_CERT; default: ca_cert of the configuration, "+coordinator.DefaultCACertPath+")")
	f.StringVar(&p.socket, "socket", "", "admin socket (env SVC_COORDINATOR_SOCKET; default STATE_DIR/admin.sock)")
	f.StringVar(&p.modelsDir, "models-dir", "", "models directory: a model file placed there is imported (env SVC_MODELS_DIR; default: models_dir of the configuration, "+coordinator.DefaultModelsDir+")")
	root.AddCommand(
		newInitCmd(p),
		newRunCmd(p),
		newLicenceCmd(p),
		newTokenCmd(p),
		newNodeCmd(p),
		newFirewallCmd(p),
		newAuditCmd(p),
		newCertificateCmd(p),
		newBackupCmd(p),
		newStatusCmd(p),
		newAPIKeyCmd(p),
		newModelCmd(p),
	)
	return root
}

// load reads the configuration and applies the path flags. required says
// whether a missing configuration file is an error (it is when the
// operator named it).
func (p *paths) load(cmd *cobra.Command) (coordinator.Config, error) {
	p.resolve(cmd)
	named := cmd.Flags().Changed("config") || os.Getenv("SVC_COORDINATOR_CONFIG") != ""
	cfg, err := coordinator.LoadConfig(p.config, named)
	if err != nil {
		return cfg, err
	}
	if p.stateDir != "" {
		cfg.StateDir = p.stateDir
	}
	if p.caCert != "" {
		cfg.CACert = p.caCert
	}
	if p.modelsDir != "" {
		cfg.ModelsDir = p.modelsDir
	}
	if cfg.StateDir, err = filepath.Abs(cfg.StateDir); err != nil {
		return cfg, err
	}
	return cfg, nil
}

// resolve applies the environment to the flags not given.
func (p *paths) resolve(cmd *cobra.Command) {
	for _, e := range []struct {
		flag, env string
		v         *string
	}{
		{"config", "SVC_COORDINATOR_CONFIG", &p.config},
		{"state-dir", "SVC_COORDINATOR_STATE_DIR", &p.stateDir},
		{"ca-cert", "SVC_CA_CERT", &p.caCert},
		{"socket", "SVC_COORDINATOR_SOCKET", &p.socket},
		{"models-dir", "SVC_MODELS_DIR", &p.modelsDir},
	} {
		if v := os.Getenv(e.env); v != "" && !cmd.Flags().Changed(e.flag) {
			*e.v = v
		}
	}
}

func (p *paths) socketPath(cmd *cobra.Command) (string, error) {
	p.resolve(cmd)
	if p.socket != "" {
		return p.socket, nil
	}
	cfg, err := p.load(cmd)
	if err != nil {
		return "", err
	}
	return cfg.SocketPath(), nil
}

// send runs one operator command on the daemon and prints its answer.
func (p *paths) send(cmd *cobra.Command, name string, args any) error {
	return p.sendTo(cmd, name, args, nil)
}

func (p *paths) sendTo(cmd *cobra.Command, name string, args any, stream *os.File) error {
	sock, err := p.socketPath(cmd)
	if err != nil {
		return err
	}
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	var sw interface{ Write([]byte) (int, error) }
	if stream != nil {
		sw = stream
	}
	return coordinator.Send(ctx, sock, name, args, cmd.OutOrStdout(), sw)
}

// noArgs refuses arguments with the command's usage.
var noArgs = cobra.NoArgs

func exactArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return cli.Usagef("%s: expects %s", cmd.CommandPath(), what)
		}
		return nil
	}
}

func group(use, short string, subs ...*cobra.Command) *cobra.Command {
	c := &cobra.Command{Use: use, Short: short}
	c.AddCommand(subs...)
	return c
}
