package proctest_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"svc/internal/proctest"
)

func TestMain(m *testing.M) { proctest.Main(m) }

const prog = "./internal/proctest/testdata/prog"

func TestProc(t *testing.T) {
	bin := proctest.Build(t, prog)
	if again := proctest.Build(t, prog); again != bin {
		t.Fatalf("second Build gave %s, first %s: built twice", again, bin)
	}
	dir := t.TempDir()
	p := proctest.Start(t, proctest.Cmd{Path: bin, Name: "prog", Env: []string{"PROG_WORD=hello"}, Dir: dir, MaxLines: 50})
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()

	u, err := p.WaitURL(ctx, regexp.MustCompile(`msg="listening"`))
	if err != nil || !strings.HasPrefix(u, "http://127.0.0.1:") || !strings.HasSuffix(u, "/x") {
		t.Fatalf("WaitURL: %q %v", u, err)
	}
	if got, err := p.WaitMatch(ctx, regexp.MustCompile(`^dir (.*)$`)); err != nil || got != dir {
		t.Fatalf("working directory %q (%v), want %s", got, err, dir)
	}
	if ma, err := p.WaitMultiaddr(ctx); err != nil || ma != "/ip4/127.0.0.1/tcp/4001/p2p/12D3KooWTest" {
		t.Fatalf("WaitMultiaddr: %q %v", ma, err)
	}
	if len(p.Grep(regexp.MustCompile(`word=hello`))) != 1 {
		t.Fatalf("environment not passed:\n%s", p.Output())
	}
	// A line printed before the wait began is found too; later ones as they come.
	if _, err := p.WaitLine(ctx, regexp.MustCompile(`^tick 60$`)); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(p.Output(), "\ndir ") {
		t.Errorf("MaxLines 50 kept the first lines:\n%s", p.Tail(5))
	}

	// Paused: every thread stopped; resumed: the ticks go on.
	if err := p.Pause(ctx); err != nil {
		t.Fatal(err)
	}
	var last int
	if _, err := fmt.Sscanf(p.Tail(1), "tick %d", &last); err != nil {
		t.Fatalf("last line %q: %v", p.Tail(1), err)
	}
	if err := p.Resume(); err != nil {
		t.Fatal(err)
	}
	if _, err := p.WaitLine(ctx, regexp.MustCompile(fmt.Sprintf(`^tick %d$`, last+5))); err != nil {
		t.Fatalf("after Resume: %v", err)
	}

	// SIGTERM: the program's own shutdown, exit code 0.
	if err := p.Terminate(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	if code := p.ExitCode(); code != 0 || p.Tail(1) != "terminated" {
		t.Fatalf("exit %d, last line %q", code, p.Tail(1))
	}
	// A wait on an ended process fails at once, naming it.
	if _, err := p.WaitLine(ctx, regexp.MustCompile(`never`)); err == nil || !strings.Contains(err.Error(), "prog exited") {
		t.Fatalf("wait on an ended process: %v", err)
	}

	// Kill: a signal ends it, exit code -1; a wait bounded by a context
	// ends with the context.
	k := proctest.Start(t, proctest.Cmd{Path: bin})
	short, cancelShort := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancelShort()
	if _, err := k.WaitLine(short, regexp.MustCompile(`never`)); err == nil || !strings.Contains(err.Error(), "deadline") {
		t.Fatalf("bounded wait: %v", err)
	}
	if err := k.Kill(); err != nil || k.ExitCode() != -1 || k.Alive() {
		t.Fatalf("Kill: %v, exit %d", err, k.ExitCode())
	}
}

func TestRun(t *testing.T) {
	bin := proctest.Build(t, prog)
	res, err := proctest.Run(t.Context(), proctest.Cmd{Path: bin, Args: []string{"exit", "3"}, Env: []string{"PROG_WORD=w"}})
	if err != nil || res.Code != 3 || res.Stdout != "out: w\n" || res.Stderr != "err: exiting with 3\n" {
		t.Fatalf("Run: %+v %v", res, err)
	}
	if res := proctest.MustRun(t, proctest.Cmd{Path: bin, Args: []string{"exit", "0"}}); res.Code != 0 {
		t.Fatalf("MustRun: %+v", res)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	if _, err := proctest.Run(ctx, proctest.Cmd{Path: bin}); err == nil {
		t.Fatal("Run of a program that never ends returned no error at its deadline")
	}
	if _, err := proctest.Run(t.Context(), proctest.Cmd{Path: "/nonexistent/program"}); err == nil {
		t.Fatal("Run of a missing program returned no error")
	}
}

func TestMetricSum(t *testing.T) {
	page := "# HELP a x\nsvc_a 2\nsvc_a_total 5\nsvc_b{k=\"v\"} 1.5\nsvc_b{k=\"w\"} 2 1700000000\n"
	if v, ok := proctest.MetricSum(page, "svc_a"); !ok || v != 2 {
		t.Errorf("svc_a = %v %v", v, ok)
	}
	if v, ok := proctest.MetricSum(page, "svc_b"); !ok || v != 3.5 {
		t.Errorf("svc_b = %v %v", v, ok)
	}
	if _, ok := proctest.MetricSum(page, "svc_c"); ok {
		t.Error("svc_c found")
	}
}
