package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"svc/cmd/internal/cli"
	"svc/coordinator/licence"
)

// newLicenceCmd is the vendor's side of managed licences: a signing key
// pair and signed licences that svc-coordinator licence install verifies.
func newLicenceCmd() *cobra.Command {
	c := &cobra.Command{Use: "licence", Short: "Vendor side of managed licences: keygen, issue"}
	c.AddCommand(newLicenceKeygenCmd(), newLicenceIssueCmd())
	return c
}

func newLicenceKeygenCmd() *cobra.Command {
	var priv, pub string
	keygen := &cobra.Command{
		Use:   "keygen --private FILE --public FILE",
		Short: "Make a vendor key pair for signing licences (Ed25519)",
		Long: `Make an Ed25519 vendor key pair: the private key (mode 0600) signs licences
with svc licence issue; the public key goes to the coordinators that should
trust them (vendor_keys in coordinator.toml). Refuses to overwrite a file.`,
		Example: `  svc licence keygen --private vendor.key --public vendor.pub`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			privPEM, pubPEM, err := licence.GenerateKey()
			if err != nil {
				return err
			}
			if err := writeNewFile(priv, privPEM, 0o600); err != nil {
				return fmt.Errorf("licence keygen: %w", err)
			}
			if err := writeNewFile(pub, pubPEM, 0o644); err != nil {
				return fmt.Errorf("licence keygen: %w", err)
			}
			k, _ := licence.ParsePublicKey(pubPEM)
			fmt.Fprintf(cmd.OutOrStdout(), "vendor key %s: private %s, public %s\n", licence.KeyID(k), priv, pub)
			return nil
		},
	}
	keygen.Flags().StringVar(&priv, "private", "", "file for the private key (created, 0600)")
	keygen.Flags().StringVar(&pub, "public", "", "file for the public key (created)")
	_ = keygen.MarkFlagRequired("private")
	_ = keygen.MarkFlagRequired("public")
	return keygen
}

func newLicenceIssueCmd() *cobra.Command {
	var l licence.Licence
	var key, out, expires, features string
	issue := &cobra.Command{
		Use:   "issue --key FILE --licensee NAME --expires DATE --out FILE [--machines N] [--models N] [--features A,B]",
		Short: "Sign a licence for a deployment",
		Long: `Sign a licence with the vendor's private key: the licensee, the expiry (a
date, an RFC 3339 time or a duration from now) and what it allows (machines
and models, 0 for no bound, and features). The signature covers the
licence's compact JSON.`,
		Example: `  svc licence issue --key vendor.key --licensee "ACME Corp" --expires 2027-12-31 --machines 10 --models 3 --out acme.licence`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := os.ReadFile(key)
			if err != nil {
				return fmt.Errorf("licence issue: %w", err)
			}
			k, err := licence.ParsePrivateKey(p)
			if err != nil {
				return fmt.Errorf("licence issue: %s: %w", key, err)
			}
			now := time.Now()
			l.Issued = now
			if l.Expires, err = parseExpiry(expires, now); err != nil {
				return cli.Usagef("licence issue: --expires: %v", err)
			}
			if features != "" {
				l.Features = strings.Split(features, ",")
			}
			data, err := licence.Sign(l, k)
			if err != nil {
				return cli.Usagef("licence issue: %v", err)
			}
			if err := os.WriteFile(out, data, 0o644); err != nil {
				return fmt.Errorf("licence issue: %w", err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "licence for %s until %s written to %s\n", l.Licensee, l.Expires.UTC().Format(time.RFC3339), out)
			return nil
		},
	}
	f := issue.Flags()
	f.StringVar(&key, "key", "", "the vendor's private key file")
	f.StringVar(&l.Licensee, "licensee", "", "who the licence is for")
	f.StringVar(&expires, "expires", "", "expiry: 2027-12-31, an RFC 3339 time, or a duration from now (8760h)")
	f.IntVar(&l.Machines, "machines", 0, "machines allowed (0: no bound)")
	f.IntVar(&l.Models, "models", 0, "models served at once (0: no bound)")
	f.StringVar(&features, "features", "", "comma-separated features")
	f.StringVar(&out, "out", "", "file to write")
	for _, n := range []string{"key", "licensee", "expires", "out"} {
		_ = issue.MarkFlagRequired(n)
	}
	return issue
}

// writeNewFile writes data to path, refusing to overwrite a file.
func writeNewFile(path string, data []byte, mode os.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func parseExpiry(s string, now time.Time) (time.Time, error) {
	for _, layout := range []string{time.RFC3339, "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d > 0 {
		return now.Add(d), nil
	}
	return time.Time{}, fmt.Errorf("%q is not a date (2027-12-31), an RFC 3339 time nor a positive duration", s)
}
