package proctest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Cmd describes a program to run.
type Cmd struct {
	// Path is the program (from Build, or any executable).
	Path string
	Args []string
	// Env is added to the test's own environment (later entries win).
	Env []string
	// Dir is the working directory (default: the test's).
	Dir string
	// Name labels the process in messages (default: the program's base
	// name and first argument).
	Name string
	// MaxLines bounds the output kept (default 20,000; the oldest lines go
	// first), so that a long-running chatty process cannot grow without
	// bound.
	MaxLines int
	// Grace is how long the cleanup waits after SIGTERM before SIGKILL
	// (default 15 s).
	Grace time.Duration
}

func (c Cmd) name() string {
	if c.Name != "" {
		return c.Name
	}
	n := filepath.Base(c.Path)
	if len(c.Args) > 0 {
		n += " " + c.Args[0]
	}
	return n
}

func (c Cmd) command(ctx context.Context) *exec.Cmd {
	var cmd *exec.Cmd
	if ctx != nil {
		cmd = exec.CommandContext(ctx, c.Path, c.Args...)
	} else {
		cmd = exec.Command(c.Path, c.Args...)
	}
	cmd.Dir = c.Dir
	if len(c.Env) > 0 {
		cmd.Env = append(os.Environ(), c.Env...)
	}
	return cmd
}

// Proc is a running program whose output is collected line by line.
type Proc struct {
	name    string
	cmd     *exec.Cmd
	started time.Time
	max     int

	mu    sync.Mutex
	lines []string
	base  int           // lines dropped from the front of lines
	wake  chan struct{} // poked (capacity 1) on every new line
	// exited is closed once the process is reaped and its output read.
	exited chan struct{}
}

// Start starts c and ends it at the test's cleanup (SIGTERM, then SIGKILL
// after c.Grace); when the test failed, the cleanup logs the process's last
// output lines. It fails the test if the program cannot be started.
func Start(tb testing.TB, c Cmd) *Proc {
	tb.Helper()
	p, err := Spawn(tb, c)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// Spawn is Start returning its error, for use outside the test's goroutine.
func Spawn(tb testing.TB, c Cmd) (*Proc, error) {
	p, err := start(c)
	if err != nil {
		return nil, err
	}
	grace := c.Grace
	if grace <= 0 {
		grace = 15 * time.Second
	}
	tb.Cleanup(func() {
		if err := p.Terminate(grace); err != nil {
			tb.Errorf("cleanup: %v", err)
		}
		if tb.Failed() {
			tb.Logf("---- last output of %s (pid %d, %s):\n%s", p.name, p.Pid(), p.state(), p.Tail(40))
		}
		if dir := os.Getenv(LogDirEnv); dir != "" {
			if err := p.saveLog(dir, tb.Name()); err != nil {
				tb.Errorf("save the output of %s: %v", p.name, err)
			}
		}
	})
	return p, nil
}

// LogDirEnv names an environment variable: when it is set to a directory,
// the whole kept output of every process is written there at cleanup, one
// file per process (test name, process name and pid).
const LogDirEnv = "SVC_TEST_LOGDIR"

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

func (p *Proc) saveLog(dir, test string) error {
	name := unsafeName.ReplaceAllString(fmt.Sprintf("%s-%s-%d.log", test, p.name, p.Pid()), "_")
	return os.WriteFile(filepath.Join(dir, name), []byte(p.Output()+"\n"), 0o644)
}

func start(c Cmd) (*Proc, error) {
	cmd := c.command(nil)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("%s: stdout: %w", c.name(), err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, fmt.Errorf("%s: stderr: %w", c.name(), err)
	}
	p := &Proc{name: c.name(), cmd: cmd, max: c.MaxLines, wake: make(chan struct{}, 1), exited: make(chan struct{})}
	if p.max <= 0 {
		p.max = 20000
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", p.name, err)
	}
	p.started = time.Now()
	var readers sync.WaitGroup
	for _, r := range []io.Reader{stdout, stderr} {
		readers.Go(func() { p.collect(r) })
	}
	go func() {
		// Wait only after the pipes are drained (os/exec's rule).
		readers.Wait()
		_ = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

func (p *Proc) collect(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		p.mu.Lock()
		p.lines = append(p.lines, sc.Text())
		if len(p.lines) > p.max {
			drop := len(p.lines) - p.max
			p.lines = append(p.lines[:0:0], p.lines[drop:]...)
			p.base += drop
		}
		p.mu.Unlock()
		select {
		case p.wake <- struct{}{}:
		default:
		}
	}
	// A line longer than the buffer ends the scan; keep the pipe drained so
	// the process never blocks on a full pipe.
	_, _ = io.Copy(io.Discard, r)
}

// Name is the process's label.
func (p *Proc) Name() string { return p.name }

// Pid is the process id.
func (p *Proc) Pid() int { return p.cmd.Process.Pid }

// Started is when the process was started.
func (p *Proc) Started() time.Time { return p.started }

// Exited is closed once the process has ended and its output is read.
func (p *Proc) Exited() <-chan struct{} { return p.exited }

// Alive reports whether the process has not ended yet.
func (p *Proc) Alive() bool {
	select {
	case <-p.exited:
		return false
	default:
		return true
	}
}

// ExitCode waits for the process to end and returns its exit status (-1
// when a signal ended it).
func (p *Proc) ExitCode() int {
	<-p.exited
	return p.cmd.ProcessState.ExitCode()
}

// Wait waits for the process to end, at most until ctx ends, and returns
// its exit code.
func (p *Proc) Wait(ctx context.Context) (int, error) {
	select {
	case <-p.exited:
		return p.cmd.ProcessState.ExitCode(), nil
	case <-ctx.Done():
		return 0, fmt.Errorf("waiting for %s to exit: %w", p.name, ctx.Err())
	}
}

func (p *Proc) state() string {
	if p.Alive() {
		return "running"
	}
	return p.cmd.ProcessState.String()
}

// WaitLine waits until an output line (since the start) matches re and
// returns its submatches. It fails when the process exits first or ctx ends,
// with the process's last lines in the error.
func (p *Proc) WaitLine(ctx context.Context, re *regexp.Regexp) ([]string, error) {
	return p.waitFunc(ctx, re.String(), re.FindStringSubmatch)
}

// waitFunc waits until match returns non-nil for an output line.
func (p *Proc) waitFunc(ctx context.Context, what string, match func(string) []string) ([]string, error) {
	next := 0 // absolute line number
	scan := func() []string {
		p.mu.Lock()
		next = max(next, p.base)
		lines := p.lines[next-p.base:]
		next = p.base + len(p.lines)
		p.mu.Unlock()
		for _, l := range lines {
			if m := match(l); m != nil {
				return m
			}
		}
		return nil
	}
	for {
		if m := scan(); m != nil {
			return m, nil
		}
		select {
		case <-p.wake:
		case <-p.exited:
			// Lines written just before exit may still be unread: one more pass.
			if m := scan(); m != nil {
				return m, nil
			}
			return nil, fmt.Errorf("%s exited (%s) before printing %s:\n%s", p.name, p.cmd.ProcessState, what, p.Tail(30))
		case <-ctx.Done():
			return nil, fmt.Errorf("%s did not print %s: %w:\n%s", p.name, what, ctx.Err(), p.Tail(30))
		}
	}
}

// WaitMatch waits for a line matching re and returns its first submatch
// (the whole match when re has no group).
func (p *Proc) WaitMatch(ctx context.Context, re *regexp.Regexp) (string, error) {
	m, err := p.WaitLine(ctx, re)
	if err != nil {
		return "", err
	}
	if len(m) > 1 {
		return m[1], nil
	}
	return m[0], nil
}

// multiaddrLine is a line holding one full multiaddr with a peer id, as
// libp2p programs print their listening address.
var multiaddrLine = regexp.MustCompile(`^\s*(/(?:ip4|ip6|dns|dns4|dns6)/\S+/p2p/\w+)\s*$`)

// WaitMultiaddr waits for a line that is a full multiaddr ending in
// /p2p/<peer id> and returns it.
func (p *Proc) WaitMultiaddr(ctx context.Context) (string, error) {
	m, err := p.WaitLine(ctx, multiaddrLine)
	if err != nil {
		return "", err
	}
	return m[1], nil
}

// urlLine finds an http(s) URL on a line.
var urlLine = regexp.MustCompile(`(https?://[^\s"]+)`)

// WaitURL waits for a line matching re that holds an http(s) URL and
// returns the URL (the first one on the line), e.g. a server's
// `msg="API listening" url=http://127.0.0.1:41234/v1`.
func (p *Proc) WaitURL(ctx context.Context, re *regexp.Regexp) (string, error) {
	m, err := p.waitFunc(ctx, re.String()+" with a URL", func(l string) []string {
		if !re.MatchString(l) {
			return nil
		}
		if u := urlLine.FindString(l); u != "" {
			return []string{u}
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	return m[0], nil
}

// Grep returns the kept output lines that match re.
func (p *Proc) Grep(re *regexp.Regexp) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for _, l := range p.lines {
		if re.MatchString(l) {
			out = append(out, l)
		}
	}
	return out
}

// Output returns every kept output line.
func (p *Proc) Output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.lines, "\n")
}

// Tail returns the last n output lines.
func (p *Proc) Tail(n int) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.lines[max(len(p.lines)-n, 0):], "\n")
}

// Signal sends sig to the process.
func (p *Proc) Signal(sig os.Signal) error {
	if err := p.cmd.Process.Signal(sig); err != nil {
		return fmt.Errorf("signal %v to %s: %w", sig, p.name, err)
	}
	return nil
}

// Pause freezes the process (SIGSTOP) and waits, at most until ctx ends,
// until every one of its threads is stopped.
func (p *Proc) Pause(ctx context.Context) error {
	if err := p.Signal(syscall.SIGSTOP); err != nil {
		return err
	}
	for {
		running, err := runningThreads(p.Pid())
		if err != nil {
			return fmt.Errorf("%s: %w", p.name, err)
		}
		if running == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s to stop (%d threads running): %w", p.name, running, ctx.Err())
		case <-p.exited:
			return fmt.Errorf("%s exited while being paused", p.name)
		case <-time.After(time.Millisecond):
		}
	}
}

// Resume lets a paused process go on (SIGCONT).
func (p *Proc) Resume() error { return p.Signal(syscall.SIGCONT) }

// killWait bounds the wait for a SIGKILLed process to be reaped.
const killWait = 30 * time.Second

// Kill ends the process at once (SIGKILL), as a crash or a pulled plug
// would, and waits until it is reaped.
func (p *Proc) Kill() error {
	if !p.Alive() {
		return nil
	}
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	select {
	case <-p.exited:
		return nil
	case <-time.After(killWait):
		return fmt.Errorf("%s (pid %d) not reaped %s after SIGKILL", p.name, p.Pid(), killWait)
	}
}

// Terminate asks the process to stop (SIGTERM, and SIGCONT so that a paused
// one sees it) and waits up to grace; a process that does not stop in time
// is killed, and that is an error.
func (p *Proc) Terminate(grace time.Duration) error {
	if !p.Alive() {
		return nil
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	_ = p.cmd.Process.Signal(syscall.SIGCONT)
	select {
	case <-p.exited:
		return nil
	case <-time.After(grace):
	}
	if err := p.Kill(); err != nil {
		return err
	}
	return fmt.Errorf("%s ignored SIGTERM for %s and was killed", p.name, grace)
}

// RSS is the process's resident set size, from /proc.
func (p *Proc) RSS() (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.Pid()))
	if err != nil {
		return 0, fmt.Errorf("rss of %s: %w", p.name, err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			f := strings.Fields(rest) // "12345 kB"
			if len(f) == 2 && f[1] == "kB" {
				kb, err := strconv.ParseInt(f[0], 10, 64)
				if err != nil {
					return 0, fmt.Errorf("rss of %s: %w", p.name, err)
				}
				return kb << 10, nil
			}
		}
	}
	return 0, fmt.Errorf("rss of %s: no VmRSS line", p.name)
}

// runningThreads counts the threads of pid that are not in the stopped
// state (T) according to /proc.
func runningThreads(pid int) (int, error) {
	dir := fmt.Sprintf("/proc/%d/task", pid)
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return 0, fmt.Errorf("threads of %d: %w", pid, err)
	}
	n := 0
	for _, task := range tasks {
		b, err := os.ReadFile(filepath.Join(dir, task.Name(), "stat"))
		if err != nil {
			continue // the thread ended
		}
		// "tid (comm) state …"; comm may hold spaces, so look after the last ')'.
		s := string(b)
		if i := strings.LastIndexByte(s, ')'); i < 0 || i+2 >= len(s) || s[i+2] != 'T' {
			n++
		}
	}
	return n, nil
}

// Result is what a one-shot command did.
type Result struct {
	Code           int // exit code; -1 when a signal ended it
	Stdout, Stderr string
}

// Run runs c to its end, at most until ctx ends (then the program is
// killed), and returns its exit code and output. The error is only for a
// program that could not start or did not end in time; a non-zero exit is
// a Result.
func Run(ctx context.Context, c Cmd) (Result, error) {
	cmd := c.command(ctx)
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	res := Result{Stdout: stdout.String(), Stderr: stderr.String()}
	if cmd.ProcessState != nil {
		res.Code = cmd.ProcessState.ExitCode()
	}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return res, fmt.Errorf("%s: %w (stderr: %s)", c.name(), ctx.Err(), tail(res.Stderr, 20))
	case errors.As(err, &ee):
	default:
		return res, fmt.Errorf("%s: %w", c.name(), err)
	}
	return res, nil
}

// MustRun is Run failing the test when the command cannot run or exits
// with a code other than 0.
func MustRun(tb testing.TB, c Cmd) Result {
	tb.Helper()
	res, err := Run(tb.Context(), c)
	if err != nil {
		tb.Fatal(err)
	}
	if res.Code != 0 {
		tb.Fatalf("%s exited with %d:\n%s", c.name(), res.Code, tail(res.Stderr, 30))
	}
	return res
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(len(lines)-n, 0):], "\n")
}
