package main

import (
	"github.com/spf13/cobra"

	"svc/coordinator"
)

func newAPIKeyCmd(p *paths) *cobra.Command {
	var a coordinator.APIKeyCreateArgs
	create := &cobra.Command{
		Use:   "create --models A,B|'*' --expires DATE|TIME|DURATION --rate N/min [--name NAME]",
		Short: "Issue an API key (printed once, stored hashed)",
		Long: `Issue an API key for applications calling https://HOST:8443/v1. The key
(svc_<id>_<secret>) is printed once; the coordinator keeps only its SHA-256.
The API members learn it within seconds.

--models is the key's scope: model names as GET /v1/models lists them
(an adapter as MODEL-ADAPTER), or '*' for every model. --expires is a date
(2026-12-31: the end of that day, UTC), a time (2026-12-31T18:00:00Z) or a
duration from now (90m, 36h, 30d). --rate is the number of generation
requests per minute the key may make (a sliding 60-second window; a refused
request is told in Retry-After when the next one is accepted). --name
labels the key in apikey list, the metrics and the audit trail (default
key-<id>); valid keys have distinct names.`,
		Example: `  svc-coordinator apikey create --models '*' --expires 30d --rate 60/min --name web
  svc-coordinator apikey create --models llama-3.2-1b,qwen2 --expires 2026-12-31 --rate 10/min`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return p.send(cmd, "apikey.create", a) },
	}
	create.Flags().StringVar(&a.Models, "models", "", "models the key may use: A,B or '*' (required)")
	create.Flags().StringVar(&a.Expires, "expires", "", "expiry: DATE, TIME (RFC 3339) or DURATION such as 30d (required)")
	create.Flags().StringVar(&a.Rate, "rate", "", "requests per minute: N/min (required)")
	create.Flags().StringVar(&a.Name, "name", "", "name of the key (default key-<id>)")
	for _, f := range []string{"models", "expires", "rate"} {
		_ = create.MarkFlagRequired(f)
	}
	list := &cobra.Command{
		Use:   "list",
		Short: "List API keys: id, name, scope, expiry, rate, state (never the keys)",
		Args:  noArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return p.send(cmd, "apikey.list", nil) },
	}
	revoke := &cobra.Command{
		Use:   "revoke ID|NAME",
		Short: "Revoke an API key; the API refuses it within seconds",
		Example: `  svc-coordinator apikey revoke web
  svc-coordinator apikey revoke k3x9q2m1`,
		Args: exactArgs(1, "one key ID or NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return p.send(cmd, "apikey.revoke", coordinator.IDArgs{ID: args[0]})
		},
	}
	return group("apikey", "Issue, list and revoke API keys", create, list, revoke)
}
