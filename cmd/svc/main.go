package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// usageError marks a command-line mistake: exit code 2 and the usage text.
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }
func (u usageError) Unwrap() error { return u.err }

func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:])
	stop()
	os.Exit(code)
}

// run executes the command line and returns the process exit code: 0 on
// success, 2 for a wrong command line, 1 for any other refusal.
func run(ctx context.Context, args []string) int {
	root := newRootCmd()
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return 0
	}
	fmt.Fprintf(os.Stderr, "svc: %v\n", err)
	var ue usageError
	if errors.As(err, &ue) || isFlagError(err) {
		if cmd != nil {
			fmt.Fprintln(os.Stderr)
			fmt.Fprint(os.Stderr, cmd.UsageString())
		}
		return 2
	}
	return 1
}
