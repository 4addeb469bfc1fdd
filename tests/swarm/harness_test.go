package swarm_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"sync"
	"testing"
	"time"

	"svc/internal/proctest"
)

func TestMain(m *testing.M) { proctest.Main(m) }

// proc is one svc process of a cluster, with what it printed once ready.
type proc struct {
	*proctest.Proc
	name    string
	addr    string // a node's multiaddr, ending in /p2p/<id>
	metrics string // a node's Prometheus URL
	api     string // a gateway's base URL (without /v1)
	blocks  string // a node's A:B
}

var (
	metricsLine = regexp.MustCompile(`msg="metrics listening"`)
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

// spawn starts one svc process of the cluster (safe from any goroutine).
func (c *cluster) spawn(name string, args []string) (*proc, error) {
	pp, err := proctest.Spawn(c.t, proctest.Cmd{Path: c.bin, Name: name, Args: args})
	if err != nil {
		return nil, err
	}
	p := &proc{Proc: pp, name: name}
	c.mu.Lock()
	c.procs = append(c.procs, p)
	c.mu.Unlock()
	return p, nil
}

// shutdown stops every process still running, in parallel (the kit's own
// cleanups would stop them one by one) and on failure shows the end of each
// one's output.
func (c *cluster) shutdown() {
	c.mu.Lock()
	procs := append([]*proc(nil), c.procs...)
	c.mu.Unlock()
	var wg sync.WaitGroup
	for _, p := range procs {
		wg.Go(func() {
			if err := p.Terminate(15 * time.Second); err != nil {
				c.t.Errorf("shutdown: %v", err)
			}
		})
	}
	wg.Wait()
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
	p, err := c.spawn(name, args)
	if err != nil {
		return nil, err
	}
	p.blocks = blocks
	ctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	if p.metrics, err = p.WaitURL(ctx, metricsLine); err != nil {
		return nil, err
	}
	if p.addr, err = p.WaitMultiaddr(ctx); err != nil {
		return nil, err
	}
	return p, nil
}

// gateway starts `svc serve --bootstrap` and waits for its API.
func (c *cluster) gateway(ctx context.Context, boot []string) (*proc, error) {
	args := []string{"serve", "--listen", "127.0.0.1:0"}
	for _, b := range boot {
		args = append(args, "--bootstrap", b)
	}
	p, err := c.spawn("gateway", args)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	if p.api, err = p.WaitMatch(ctx, apiLine); err != nil {
		return nil, err
	}
	return p, nil
}

// sessionsOpen is a node's svc_node_sessions_open.
func (p *proc) sessionsOpen(ctx context.Context) (int, error) {
	v, err := proctest.Metric(ctx, p.metrics, "svc_node_sessions_open")
	if err != nil {
		return 0, fmt.Errorf("%s: %w", p.name, err)
	}
	return int(v), nil
}

// steps is a node's svc_node_steps_total.
func (p *proc) steps(ctx context.Context) (int, error) {
	v, err := proctest.Metric(ctx, p.metrics, "svc_node_steps_total")
	if err != nil {
		return 0, fmt.Errorf("%s: %w", p.name, err)
	}
	return int(v), nil
}

// httpc has a timeout of its own, so that a request to a frozen process
// cannot hang a test whose context is long.
var httpc = &http.Client{Timeout: 10 * time.Second}

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
		page, err := proctest.Scrape(ctx, gw.api+"/metrics")
		if err == nil {
			sessions, ok1 := proctest.MetricSum(page, "svc_router_sessions_open")
			inFlight, ok2 := proctest.MetricSum(page, "svc_api_requests_in_flight")
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

func mib(b int64) float64 { return float64(b) / (1 << 20) }
