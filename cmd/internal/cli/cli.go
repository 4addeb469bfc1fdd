package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
)

// The exit codes of every svc program.
const (
	ExitOK                 = 0
	ExitRefused            = 1
	ExitUsage              = 2
	ExitCertificateExpired = 77
)

// UsageError marks a wrong command line: exit code 2, with the usage of the
// command printed after the reason.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// Usagef returns a UsageError with a formatted reason; %w wraps as usual.
func Usagef(format string, args ...any) error {
	return &UsageError{Err: fmt.Errorf(format, args...)}
}

// ExitError makes the program exit with Code after printing Err.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string { return e.Err.Error() }
func (e *ExitError) Unwrap() error { return e.Err }

// WithCode returns err carrying the exit code code.
func WithCode(code int, err error) error { return &ExitError{Code: code, Err: err} }

// CertificateExpired marks err as the end of a member's certificate: exit
// code 77, which tells the service manager not to restart the program.
func CertificateExpired(err error) error { return WithCode(ExitCertificateExpired, err) }

// Code is the exit code err stands for: 0 for nil, 2 for a UsageError, an
// ExitError's code, else 1. The outermost marker wins.
func Code(err error) int {
	if err == nil {
		return ExitOK
	}
	for e := err; e != nil; e = errors.Unwrap(e) {
		switch m := e.(type) {
		case *UsageError:
			return ExitUsage
		case *ExitError:
			return m.Code
		}
	}
	return ExitRefused
}

// Main runs root with the process's arguments, cancelling its context on
// SIGINT or SIGTERM, and exits with the code of the outcome.
func Main(root *cobra.Command) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := Run(ctx, root, os.Args[1:], os.Stderr)
	stop()
	os.Exit(code)
}

// Run executes root with args and returns the exit code. A failure is
// printed to stderr as "PROGRAM: reason", followed by the failing command's
// usage when the command line was wrong. Build the whole tree before
// calling Run: it adapts every command of it (see prepare).
func Run(ctx context.Context, root *cobra.Command, args []string, stderr io.Writer) int {
	prepare(root)
	root.SetArgs(args)
	root.SetErr(stderr)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return ExitOK
	}
	fmt.Fprintf(stderr, "%s: %v\n", root.Name(), err)
	code := Code(err)
	if code == ExitUsage && cmd != nil {
		fmt.Fprintf(stderr, "\n%s", cmd.UsageString())
	}
	return code
}

// prepare makes cobra's own command-line errors UsageErrors, since cobra
// does not type them: flag errors through the flag error function,
// argument errors by wrapping each command's Args validator, and missing
// required flags by checking them before the command's PreRunE (cobra
// checks them again afterwards, and then they pass). Cobra prints nothing
// itself; Run does.
func prepare(root *cobra.Command) {
	root.SilenceErrors, root.SilenceUsage = true, true
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &UsageError{Err: err} })
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		wrapArgs(c)
		if c.Runnable() {
			wrapRequired(c)
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// wrapArgs types c's argument errors. A command that only groups others
// becomes runnable, to refuse any argument as an unknown command and
// otherwise print its help (cobra checks no arguments of a command that
// cannot run, so "svc model typo" would print the help and succeed).
func wrapArgs(c *cobra.Command) {
	check := c.Args
	if check == nil && !c.Runnable() && c.HasSubCommands() {
		check = func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return fmt.Errorf("unknown command %q for %q", args[0], cmd.CommandPath())
			}
			return nil
		}
		c.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
	}
	if check == nil {
		return // cobra accepts any arguments here
	}
	c.Args = func(cmd *cobra.Command, args []string) error {
		err := check(cmd, args)
		if err != nil && !errors.As(err, new(*UsageError)) {
			return &UsageError{Err: err}
		}
		return err
	}
}

func wrapRequired(c *cobra.Command) {
	preE, pre := c.PreRunE, c.PreRun
	c.PreRun = nil
	c.PreRunE = func(cmd *cobra.Command, args []string) error {
		if err := cmd.ValidateRequiredFlags(); err != nil {
			return &UsageError{Err: err}
		}
		if err := cmd.ValidateFlagGroups(); err != nil {
			return &UsageError{Err: err}
		}
		switch {
		case preE != nil:
			return preE(cmd, args)
		case pre != nil:
			pre(cmd, args)
		}
		return nil
	}
}
