package swarm_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
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

	"svc/internal/testenv"
)

// buildSvc compiles cmd/svc into the test's temporary directory, so that
// the processes run the tree under test rather than an installed binary.
func buildSvc(t *testing.T) string {
	t.Helper()
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatalf("repository root: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	bin := filepath.Join(t.TempDir(), "svc")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/svc")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/svc: %v\n%s", err, out)
	}
	return bin
}

// maxLines bounds what a process's log keeps (the oldest lines go first):
// a gateway logs a line per request, and the soak makes many.
const maxLines = 20000

// proc is one svc process whose stdout and stderr lines are collected.
type proc struct {
	name    string
	cmd     *exec.Cmd
	started time.Time

	mu    sync.Mutex
	lines []string
	base  int           // lines dropped from the front of lines
	wake  chan struct{} // poked (capacity 1) on every new line
	// exited is closed once the process is reaped and its output read.
	exited chan struct{}

	// Set once the process is ready.
	addr    string // a node's multiaddr, ending in /p2p/<id>
	metrics string // a node's Prometheus URL
	api     string // a gateway's base URL (without /v1)
	blocks  string // a node's A:B
}

// spawn starts bin with args. The returned process is owned by the caller,
// which must end it (terminate or kill); its reader goroutines end with it.
func spawn(bin, name string, args ...string) (*proc, error) {
	cmd := exec.Command(bin, args...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("%s: stdout: %w", name, err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, fmt.Errorf("%s: stderr: %w", name, err)
	}
	p := &proc{name: name, cmd: cmd, wake: make(chan struct{}, 1), exited: make(chan struct{})}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	p.started = time.Now()
	var readers sync.WaitGroup
	for _, r := range []io.Reader{stdout, stderr} {
		readers.Add(1)
		go func() {
			defer readers.Done()
			p.collect(r)
		}()
	}
	go func() {
		// Wait only after the pipes are drained (os/exec's rule).
		readers.Wait()
		_ = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

func (p *proc) collect(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		p.mu.Lock()
		p.lines = append(p.lines, sc.Text())
		if len(p.lines) > maxLines {
			drop := len(p.lines) - maxLines
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

func (p *proc) pid() int { return p.cmd.Process.Pid }

// waitLine waits until an output line matches re and returns its submatches.
func (p *proc) waitLine(ctx context.Context, re *regexp.Regexp) ([]string, error) {
	next := 0 // absolute line number
	for {
		p.mu.Lock()
		if next < p.base {
			next = p.base
		}
		lines := p.lines[next-p.base:]
		next = p.base + len(p.lines)
		p.mu.Unlock()
		for _, l := range lines {
			if m := re.FindStringSubmatch(l); m != nil {
				return m, nil
			}
		}
		select {
		case <-p.wake:
		case <-p.exited:
			// Lines written just before exit may still be unread: one more pass.
			p.mu.Lock()
			rest := p.lines[max(next-p.base, 0):]
			p.mu.Unlock()
			for _, l := range rest {
				if m := re.FindStringSubmatch(l); m != nil {
					return m, nil
				}
			}
			return nil, fmt.Errorf("%s exited (%v) before printing %s:\n%s", p.name, p.cmd.ProcessState, re, p.tail(30))
		case <-ctx.Done():
			return nil, fmt.Errorf("%s did not print %s: %w:\n%s", p.name, re, ctx.Err(), p.tail(30))
		}
	}
}

// grep returns the output lines that match re.
func (p *proc) grep(re *regexp.Regexp) []string {
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

// tail returns the last n output lines.
func (p *proc) tail(n int) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.lines[max(len(p.lines)-n, 0):], "\n")
}

func (p *proc) alive() bool {
	select {
	case <-p.exited:
		return false
	default:
		return true
	}
}

// pause freezes the process (SIGSTOP); resume lets it go on (SIGCONT).
func (p *proc) pause() error {
	if err := p.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		return fmt.Errorf("SIGSTOP %s: %w", p.name, err)
	}
	return nil
}

func (p *proc) resume() error {
	if err := p.cmd.Process.Signal(syscall.SIGCONT); err != nil {
		return fmt.Errorf("SIGCONT %s: %w", p.name, err)
	}
	return nil
}

// kill ends the process at once, as a crash or a pulled plug would, and
// waits until it is reaped.
func (p *proc) kill() error {
	if !p.alive() {
		return nil
	}
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	select {
	case <-p.exited:
		return nil
	case <-time.After(30 * time.Second):
		return fmt.Errorf("%s (pid %d) not reaped 30s after SIGKILL", p.name, p.pid())
	}
}

// terminate asks the process to stop (SIGTERM) and waits up to grace for
// it; a process that does not stop in time is killed, and that is an error.
func (p *proc) terminate(grace time.Duration) error {
	if !p.alive() {
		return nil
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	_ = p.cmd.Process.Signal(syscall.SIGCONT) // a paused process must run to see SIGTERM
	select {
	case <-p.exited:
		return nil
	case <-time.After(grace):
	}
	if err := p.kill(); err != nil {
		return err
	}
	return fmt.Errorf("%s ignored SIGTERM for %s and was killed", p.name, grace)
}

// exitCode is the process's exit status once it has exited (-1 for a signal).
func (p *proc) exitCode() int {
	<-p.exited
	return p.cmd.ProcessState.ExitCode()
}

var (
	addrLine    = regexp.MustCompile(`^(/ip4/127\.0\.0\.1/tcp/\d+/p2p/\w+)$`)
	metricsLine = regexp.MustCompile(`msg="metrics listening".*url=(http://\S+/metrics)`)
	apiLine     = regexp.MustCompile(`msg="API listening".*url=(http://\S+)/v1`)
)

// cluster owns every process a test starts and ends them all when the test
// ends, failed or not.
type cluster struct {
	t     *testing.T
	bin   string
	model string // GGUF path
	ttl   time.Duration

	mu    sync.Mutex
	procs []*proc
	seq   int
}

func newCluster(t *testing.T, bin, model string, ttl time.Duration) *cluster {
	c := &cluster{t: t, bin: bin, model: model, ttl: ttl}
	t.Cleanup(c.shutdown)
	return c
}

func (c *cluster) add(p *proc) {
	c.mu.Lock()
	c.procs = append(c.procs, p)
	c.mu.Unlock()
}

// shutdown stops every process still running, in parallel, and on failure
// shows the end of each one's output.
func (c *cluster) shutdown() {
	c.mu.Lock()
	procs := append([]*proc(nil), c.procs...)
	c.mu.Unlock()
	var wg sync.WaitGroup
	for _, p := range procs {
		wg.Go(func() {
			if err := p.terminate(15 * time.Second); err != nil {
				c.t.Errorf("shutdown: %v", err)
			}
		})
	}
	wg.Wait()
	if c.t.Failed() {
		for _, p := range procs {
			c.t.Logf("---- last output of %s (pid %d):\n%s", p.name, p.pid(), p.tail(25))
		}
	}
}

// node starts `svc node` for blocks (A:B), with extra flags, and waits
// until it is online: it logs its metrics URL, then prints its multiaddr on
// stdout.
func (c *cluster) node(ctx context.Context, label, blocks string, boot []string, extra ...string) (*proc, error) {
	args := []string{"node", "--model", c.model, "--blocks", blocks,
		"--listen", "/ip4/127.0.0.1/tcp/0", "--metrics", "127.0.0.1:0", "--threads", "1",
		"--record-ttl", c.ttl.String()}
	for _, b := range boot {
		args = append(args, "--bootstrap", b)
	}
	args = append(args, extra...)
	c.mu.Lock()
	c.seq++
	name := fmt.Sprintf("node %s#%d [%s]", label, c.seq, blocks)
	c.mu.Unlock()
	p, err := spawn(c.bin, name, args...)
	if err != nil {
		return nil, err
	}
	c.add(p)
	p.blocks = blocks
	ctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	m, err := p.waitLine(ctx, metricsLine)
	if err != nil {
		return nil, err
	}
	p.metrics = m[1]
	if m, err = p.waitLine(ctx, addrLine); err != nil {
		return nil, err
	}
	p.addr = m[1]
	return p, nil
}

// gateway starts `svc serve --bootstrap` and waits for its API.
func (c *cluster) gateway(ctx context.Context, boot []string) (*proc, error) {
	args := []string{"serve", "--listen", "127.0.0.1:0"}
	for _, b := range boot {
		args = append(args, "--bootstrap", b)
	}
	p, err := spawn(c.bin, "gateway", args...)
	if err != nil {
		return nil, err
	}
	c.add(p)
	ctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	m, err := p.waitLine(ctx, apiLine)
	if err != nil {
		return nil, err
	}
	p.api = m[1]
	return p, nil
}

// httpc has a timeout of its own, so that a scrape of a frozen process
// cannot hang a test whose context is long.
var httpc = &http.Client{Timeout: 10 * time.Second}

// scrape fetches a Prometheus text page.
func scrape(ctx context.Context, url string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return "", fmt.Errorf("scrape %s: %w", url, err)
	}
	resp, err := httpc.Do(req)
	if err != nil {
		return "", fmt.Errorf("scrape %s: %w", url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", fmt.Errorf("scrape %s: %w", url, err)
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("scrape %s: status %d", url, resp.StatusCode)
	}
	return string(b), nil
}

// metricSum adds up every series of one metric name in a Prometheus page;
// ok is false when the page has no such series.
func metricSum(page, name string) (sum float64, ok bool) {
	for _, l := range strings.Split(page, "\n") {
		if !strings.HasPrefix(l, name) {
			continue
		}
		rest := l[len(name):]
		if rest == "" || (rest[0] != ' ' && rest[0] != '{') {
			continue // a longer name with this prefix
		}
		if rest[0] == '{' {
			rest = rest[strings.LastIndexByte(rest, '}')+1:]
		}
		f := strings.Fields(rest) // value [timestamp]
		if len(f) == 0 {
			continue
		}
		v, err := strconv.ParseFloat(f[0], 64)
		if err != nil {
			continue
		}
		sum += v
		ok = true
	}
	return sum, ok
}

// sessionsOpen is a node's svc_node_sessions_open.
func (p *proc) sessionsOpen(ctx context.Context) (int, error) {
	page, err := scrape(ctx, p.metrics)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", p.name, err)
	}
	v, ok := metricSum(page, "svc_node_sessions_open")
	if !ok {
		return 0, fmt.Errorf("%s exposes no svc_node_sessions_open", p.name)
	}
	return int(v), nil
}

// steps is a node's svc_node_steps_total.
func (p *proc) steps(ctx context.Context) (int, error) {
	page, err := scrape(ctx, p.metrics)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", p.name, err)
	}
	v, ok := metricSum(page, "svc_node_steps_total")
	if !ok {
		return 0, fmt.Errorf("%s exposes no svc_node_steps_total", p.name)
	}
	return int(v), nil
}

// waitNoSessions polls the nodes until none has a session open.
func waitNoSessions(ctx context.Context, nodes []*proc, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		var open []string
		var errs []error
		for _, n := range nodes {
			k, err := n.sessionsOpen(ctx)
			if err != nil {
				errs = append(errs, err)
			} else if k > 0 {
				open = append(open, fmt.Sprintf("%s: %d", n.name, k))
			}
		}
		if len(open) == 0 && len(errs) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("after %s, sessions still open: %v; scrape errors: %w", limit, open, errors.Join(errs...))
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for sessions to close: %w", ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// waitGatewayIdle polls the gateway's /metrics until it holds no session on
// any node (svc_router_sessions_open) and runs no request
// (svc_api_requests_in_flight).
func waitGatewayIdle(ctx context.Context, gw *proc, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		page, err := scrape(ctx, gw.api+"/metrics")
		if err == nil {
			sessions, ok1 := metricSum(page, "svc_router_sessions_open")
			inFlight, ok2 := metricSum(page, "svc_api_requests_in_flight")
			switch {
			case !ok1 || !ok2:
				err = fmt.Errorf("the gateway's /metrics lacks svc_router_sessions_open (%v) or svc_api_requests_in_flight (%v)", ok1, ok2)
			case sessions == 0 && inFlight == 0:
				return nil
			default:
				err = fmt.Errorf("the gateway holds %v sessions and runs %v requests", sessions, inFlight)
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("after %s: %w", limit, err)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for the gateway to be idle: %w", ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// rssBytes reads a process's resident set size from /proc.
func rssBytes(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, fmt.Errorf("rss of %d: %w", pid, err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			f := strings.Fields(rest) // "12345 kB"
			if len(f) == 2 && f[1] == "kB" {
				kb, err := strconv.ParseInt(f[0], 10, 64)
				if err != nil {
					return 0, fmt.Errorf("rss of %d: %w", pid, err)
				}
				return kb << 10, nil
			}
		}
	}
	return 0, fmt.Errorf("rss of %d: no VmRSS line", pid)
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }

// waitStopped waits until a SIGSTOPped process is really stopped, every
// thread of it: the signal is delivered asynchronously, and a test that
// freezes a process to hold a generation still must not race its last
// instructions.
func waitStopped(ctx context.Context, pid int) error {
	deadline := time.Now().Add(5 * time.Second)
	for {
		running, err := runningThreads(pid)
		if err != nil {
			return err
		}
		if running == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("process %d: %d threads still not stopped 5s after SIGSTOP", pid, running)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %d to stop: %w", pid, ctx.Err())
		case <-time.After(time.Millisecond):
		}
	}
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
