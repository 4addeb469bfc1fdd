package cli

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// newTree is a small program with the shapes real ones have: a leaf with
// an argument count, typed and required flags and a flag group, a group
// of subcommands, and a leaf with a PreRun hook.
func newTree(preRan *bool) *cobra.Command {
	root := &cobra.Command{Use: "prog"}
	var n int
	leaf := &cobra.Command{
		Use:  "leaf NAME",
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			switch args[0] {
			case "refuse":
				return errors.New("leaf: the store is full")
			case "usage":
				return Usagef("leaf: --n must be even, got %d", n)
			case "expired":
				return fmt.Errorf("agent: %w", CertificateExpired(errors.New("certificate expired at 01:00")))
			}
			return nil
		},
	}
	leaf.Flags().IntVar(&n, "n", 0, "a number")
	leaf.Flags().String("need", "", "a required flag")
	_ = leaf.MarkFlagRequired("need")
	leaf.Flags().Bool("a", false, "")
	leaf.Flags().Bool("b", false, "")
	leaf.MarkFlagsMutuallyExclusive("a", "b")
	group := &cobra.Command{Use: "group"}
	group.AddCommand(&cobra.Command{
		Use:    "hook",
		PreRun: func(*cobra.Command, []string) { *preRan = true },
		Run:    func(*cobra.Command, []string) {},
	})
	root.AddCommand(leaf, group)
	return root
}

func TestRun(t *testing.T) {
	cases := []struct {
		args      []string
		code      int
		stderr    string // a substring of stderr; "" wants it empty
		wantUsage bool
	}{
		{[]string{"leaf", "--need", "x", "ok"}, ExitOK, "", false},
		{[]string{"--help"}, ExitOK, "", false},
		{[]string{}, ExitOK, "", false},
		{[]string{"group"}, ExitOK, "", false},
		{[]string{"leaf", "--need", "x", "refuse"}, ExitRefused, "prog: leaf: the store is full\n", false},
		{[]string{"leaf", "--need", "x", "usage"}, ExitUsage, "prog: leaf: --n must be even, got 0", true},
		{[]string{"leaf", "--need", "x", "expired"}, ExitCertificateExpired, "prog: agent: certificate expired at 01:00", false},
		{[]string{"leaf", "--need", "x", "--bogus", "ok"}, ExitUsage, "unknown flag: --bogus", true},
		{[]string{"leaf", "--need", "x", "--n", "two", "ok"}, ExitUsage, `invalid argument "two" for "--n"`, true},
		{[]string{"leaf", "--need", "x"}, ExitUsage, "accepts 1 arg(s), received 0", true},
		{[]string{"leaf", "--need", "x", "a", "b"}, ExitUsage, "accepts 1 arg(s), received 2", true},
		{[]string{"leaf", "ok"}, ExitUsage, `required flag(s) "need" not set`, true},
		{[]string{"leaf", "--need", "x", "--a", "--b", "ok"}, ExitUsage, "none of the others can be", true},
		{[]string{"lief"}, ExitUsage, `unknown command "lief" for "prog"`, true},
		{[]string{"group", "typo"}, ExitUsage, `unknown command "typo" for "prog group"`, true},
		{[]string{"group", "hook", "--bogus"}, ExitUsage, "unknown flag: --bogus", true},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			var preRan bool
			var stderr bytes.Buffer
			root := newTree(&preRan)
			root.SetOut(new(bytes.Buffer))
			code := Run(t.Context(), root, c.args, &stderr)
			if code != c.code {
				t.Errorf("exit code %d, want %d; stderr:\n%s", code, c.code, stderr.String())
			}
			got := stderr.String()
			if c.stderr == "" && got != "" {
				t.Errorf("stderr %q, want nothing", got)
			}
			if !strings.Contains(got, c.stderr) {
				t.Errorf("stderr %q, want it to contain %q", got, c.stderr)
			}
			if hasUsage := strings.Contains(got, "Usage:"); hasUsage != c.wantUsage {
				t.Errorf("usage printed: %v, want %v; stderr:\n%s", hasUsage, c.wantUsage, got)
			}
		})
	}
}

// TestRunKeepsPreRun checks that the required-flag check Run adds before a
// command's PreRun hook leaves the hook running.
func TestRunKeepsPreRun(t *testing.T) {
	var preRan bool
	if code := Run(t.Context(), newTree(&preRan), []string{"group", "hook"}, new(bytes.Buffer)); code != ExitOK {
		t.Fatalf("exit code %d, want 0", code)
	}
	if !preRan {
		t.Error("the command's PreRun hook did not run")
	}
}

func TestCode(t *testing.T) {
	base := errors.New("x")
	cases := []struct {
		err  error
		want int
	}{
		{nil, ExitOK},
		{base, ExitRefused},
		{Usagef("bad %d", 1), ExitUsage},
		{fmt.Errorf("wrapped: %w", Usagef("bad")), ExitUsage},
		{CertificateExpired(base), ExitCertificateExpired},
		{fmt.Errorf("agent: %w", CertificateExpired(base)), ExitCertificateExpired},
		{WithCode(3, base), 3},
		// The outermost marker decides.
		{WithCode(ExitRefused, Usagef("bad")), ExitRefused},
	}
	for _, c := range cases {
		if got := Code(c.err); got != c.want {
			t.Errorf("Code(%v) = %d, want %d", c.err, got, c.want)
		}
	}
}
