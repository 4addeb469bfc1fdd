package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"svc/cmd/internal/cli"
	"svc/coordinator"
)

func newStatusCmd(p *paths) *cobra.Command {
	return &cobra.Command{
		Use:   "status",
		Short: "Show the coordinator's identity, endpoint and CA pin",
		Args:  noArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return p.send(cmd, "status", nil) },
	}
}

func newLicenceCmd(p *paths) *cobra.Command {
	install := &cobra.Command{
		Use:   "install FILE",
		Short: "Verify a signed licence and install it",
		Long: `Verify FILE against the vendor keys this coordinator trusts (the built-in
key plus vendor_keys of coordinator.toml) and install it; the coordinator
then signs a grant into the roster so that members refuse work once it
expires. An altered file, an unknown vendor or an expired licence is refused.`,
		Example: `  svc-coordinator licence install /root/acme.licence`,
		Args:    exactArgs(1, "one licence FILE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			data, err := os.ReadFile(args[0])
			if err != nil {
				return fmt.Errorf("licence: %w", err)
			}
			return p.send(cmd, "licence.install", coordinator.LicenceArgs{File: data, Name: filepath.Base(args[0])})
		},
	}
	show := &cobra.Command{
		Use:   "show",
		Short: "Show what the installed licence allows and until when",
		Args:  noArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return p.send(cmd, "licence.show", nil) },
	}
	return group("licence", "Install the licence and see what it allows", install, show)
}

func newTokenCmd(p *paths) *cobra.Command {
	var a coordinator.TokenCreateArgs
	var ttl time.Duration
	create := &cobra.Command{
		Use:   "create [--ttl 24h] [--label NAME] [--role machine|api]",
		Short: "Issue a single-use enrolment token",
		Long: `Issue a single-use enrolment token (id.secret, stored hashed) that expires
after --ttl, and print it with the CA pin and the exact enroll command to
run on the machine. With --label the machine gets that label.`,
		Example: `  svc-coordinator token create
  svc-coordinator token create --ttl 2h --label gpu-01`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cmd.Flags().Changed("ttl") {
				a.TTL = ttl.String()
			}
			return p.send(cmd, "token.create", a)
		},
	}
	create.Flags().DurationVar(&ttl, "ttl", 24*time.Hour, "lifetime of the token (1m to 720h)")
	create.Flags().StringVar(&a.Label, "label", "", "label of the machine that enrols with it")
	create.Flags().StringVar(&a.Role, "role", "machine", "role of the member: machine or api")
	list := &cobra.Command{
		Use:   "list",
		Short: "List enrolment tokens and their state",
		Args:  noArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return p.send(cmd, "token.list", nil) },
	}
	revoke := &cobra.Command{
		Use:     "revoke ID",
		Short:   "Revoke an unused enrolment token",
		Example: `  svc-coordinator token revoke abcdef`,
		Args:    exactArgs(1, "one token ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return p.send(cmd, "token.revoke", coordinator.IDArgs{ID: args[0]})
		},
	}
	return group("token", "Issue, list and revoke enrolment tokens", create, list, revoke)
}

func newNodeCmd(p *paths) *cobra.Command {
	list := &cobra.Command{
		Use:   "list",
		Short: "List machines: label, role, state, slices, certificate expiry",
		Long: `List the enrolled machines: label, role, state, the memory each has
free, what each slice placed there takes besides its blocks (CACHES A
SLICE: the prompt_cache plus the kv_cache of its agent.toml, as it
reported them; with kv_cache auto, "auto:" and what was counted with the
slices placed there, which grows with their blocks and their models'
contexts, or "auto: from" the least a slice takes when none is), its
slices, its certificate's expiry and its peer id.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return p.send(cmd, "node.list", nil) },
	}
	remove := &cobra.Command{
		Use:   "remove LABEL",
		Short: "Remove a machine: revoke its certificate everywhere",
		Long: `Revoke the machine's certificate. The signed revocation list reaches every
member with the next roster (pushed at once), each member drops the
machine's connections, and models that lose coverage become unavailable
until the operator serves them again.`,
		Example: `  svc-coordinator node remove gpu-01`,
		Args:    exactArgs(1, "one machine LABEL"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return p.send(cmd, "node.remove", coordinator.IDArgs{ID: args[0]})
		},
	}
	return group("node", "List and remove machines", list, remove)
}

func newFirewallCmd(p *paths) *cobra.Command {
	var a coordinator.FirewallArgs
	var dur time.Duration
	open := &cobra.Command{
		Use:   "open [--from CIDR]... [--for DURATION]",
		Short: "Open the enrolment port to machines",
		Long: `Open the coordinator's enrolment port (closed by default) to connections
from --from (any address when omitted) for --for. The coordinator enforces
this itself: its enrolment host's connection gater refuses every other
connection before any handshake.`,
		Example: `  svc-coordinator firewall open --from 10.0.0.0/24 --for 30m`,
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cmd.Flags().Changed("for") {
				a.For = dur.String()
			}
			return p.send(cmd, "firewall.open", a)
		},
	}
	open.Flags().StringSliceVar(&a.From, "from", nil, "source networks allowed to enrol (CIDR or address; repeatable)")
	open.Flags().DurationVar(&dur, "for", coordinator.DefaultFirewallFor, "how long the port stays open")
	closeCmd := &cobra.Command{
		Use:   "close",
		Short: "Close the enrolment port",
		Args:  noArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return p.send(cmd, "firewall.close", nil) },
	}
	var st coordinator.FirewallArgs
	status := &cobra.Command{
		Use:     "status [--print-nftables]",
		Short:   "Show whether enrolment is open, from where and until when",
		Example: `  svc-coordinator firewall status --print-nftables`,
		Args:    noArgs,
		RunE:    func(cmd *cobra.Command, _ []string) error { return p.send(cmd, "firewall.status", st) },
	}
	status.Flags().BoolVar(&st.NFTables, "print-nftables", false, "also print nftables rules matching the state, for the host firewall")
	return group("firewall", "Open the coordinator to enrolments, and close it", open, closeCmd, status)
}

// parseWhen reads an RFC 3339 time, a date, or a duration back from now.
func parseWhen(flag, s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.UTC); err == nil {
			return t, nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return time.Now().Add(-d), nil
	}
	return time.Time{}, cli.Usagef("--%s %q: give an RFC 3339 time, a date (2026-01-31) or a duration back from now (2h)", flag, s)
}

func newAuditCmd(p *paths) *cobra.Command {
	var since, until string
	var a coordinator.AuditArgs
	filter := func(cmd *cobra.Command) error {
		var err error
		if a.Since, err = parseWhen("since", since); err != nil {
			return err
		}
		a.Until, err = parseWhen("until", until)
		return err
	}
	show := &cobra.Command{
		Use:   "show [--since T] [--until T] [--kind K] [--actor A] [--reference ID]",
		Short: "Show audit records",
		Example: `  svc-coordinator audit show --since 24h
  svc-coordinator audit show --kind enrol --actor root
  svc-coordinator audit show --reference chatcmpl-3f2a9c`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := filter(cmd); err != nil {
				return err
			}
			return p.send(cmd, "audit.show", a)
		},
	}
	addFilter := func(c *cobra.Command, fromName, toName string) {
		c.Flags().StringVar(&since, fromName, "", "from this time (RFC 3339, date, or duration back from now)")
		c.Flags().StringVar(&until, toName, "", "until this time, excluded")
		c.Flags().StringVar(&a.Kind, "kind", "", "kind, or its first dotted part (token matches token.create)")
		c.Flags().StringVar(&a.Actor, "actor", "", "actor (user name, machine label, coordinator)")
		c.Flags().StringVar(&a.Reference, "reference", "", "reference (an API error's chatcmpl-… id)")
	}
	addFilter(show, "since", "until")
	show.Flags().IntVar(&a.Limit, "limit", 0, "only the last N matching records (0: all)")
	verify := &cobra.Command{
		Use:   "verify",
		Short: "Check the audit trail's hash chain; name the first edited or removed record",
		Args:  noArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return p.send(cmd, "audit.verify", nil) },
	}
	var out string
	export := &cobra.Command{
		Use:   "export --from T --to T --format jsonl|csv --out FILE",
		Short: "Export a period of the audit trail",
		Example: `  svc-coordinator audit export --from 2026-01-01 --to 2026-02-01 --format csv --out january.csv
  svc-coordinator audit export --from 168h --format jsonl --out week.jsonl`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if a.Format != "jsonl" && a.Format != "csv" {
				return cli.Usagef("--format %q must be jsonl or csv", a.Format)
			}
			if err := filter(cmd); err != nil {
				return err
			}
			return writeAtomic(out, func(f *os.File) error { return p.sendTo(cmd, "audit.export", a, f) })
		},
	}
	addFilter(export, "from", "to")
	export.Flags().StringVar(&a.Format, "format", "jsonl", "jsonl or csv")
	export.Flags().StringVar(&out, "out", "", "file to write")
	_ = export.MarkFlagRequired("out")
	return group("audit", "Read the audit trail or export a period", show, verify, export)
}

// writeAtomic fills path through a temporary file renamed into place once
// fill succeeded.
func writeAtomic(path string, fill func(f *os.File) error) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	defer os.Remove(f.Name())
	err = fill(f)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o600)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	return err
}

func newCertificateCmd(p *paths) *cobra.Command {
	var a coordinator.EndpointArgs
	rotate := &cobra.Command{
		Use:   "rotate --endpoint HOST:PORT",
		Short: "Re-issue the coordinator's certificate for a new address",
		Long: `Re-issue the coordinator's own certificate naming HOST:PORT. The roster
carries it to every member, so enrolled machines follow the coordinator to
its new address without enrolling again; restart the coordinator there with
endpoint set accordingly in coordinator.toml.`,
		Example: `  svc-coordinator certificate rotate --endpoint 10.0.0.5:7400`,
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !strings.Contains(a.Endpoint, ":") {
				return cli.Usagef("--endpoint %q must be HOST:PORT", a.Endpoint)
			}
			return p.send(cmd, "certificate.rotate", a)
		},
	}
	rotate.Flags().StringVar(&a.Endpoint, "endpoint", "", "the coordinator's new HOST:PORT")
	_ = rotate.MarkFlagRequired("endpoint")
	return group("certificate", "Re-issue the coordinator's certificate (the coordinator moved)", rotate)
}

func newBackupCmd(p *paths) *cobra.Command {
	return &cobra.Command{
		Use:   "backup FILE",
		Short: "Write a consistent snapshot of the deployment state to FILE",
		Long: `Write a consistent snapshot of the state database (mode 0600: it holds the
CA key) to FILE. To restore, stop the coordinator and put the file in
place as STATE_DIR/state.db.`,
		Example: `  svc-coordinator backup /root/svc-$(date +%F).db`,
		Args:    exactArgs(1, "one FILE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			err := writeAtomic(args[0], func(f *os.File) error { return p.sendTo(cmd, "backup", nil, f) })
			if err == nil {
				fmt.Fprintf(cmd.OutOrStdout(), "backup written to %s\n", args[0])
			}
			return err
		},
	}
}
