package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/valyala/fasthttp"
	"github.com/valyala/fasthttp/fasthttpadaptor"

	"svc/apikey"
	"svc/router"
)

// Defaults of Config.
const (
	DefaultOwnedBy         = "svc"
	DefaultMaxBodyBytes    = 4 << 20
	DefaultMaxTokens       = 512 // SPEC.md §8, local variant
	DefaultShutdownTimeout = 10 * time.Second
)

// Config configures a Server.
type Config struct {
	// Backend answers model look-ups and runs generations (the router).
	Backend router.Backend
	// DefaultModel is used when a request names no model ("" = none:
	// such requests get 400 model_required).
	DefaultModel string
	// OwnedBy is the owned_by label of every model entry (default "svc").
	OwnedBy string
	// MaxBodyBytes bounds request bodies (default 4 MiB); larger ones get 413.
	MaxBodyBytes int
	// ShutdownTimeout is how long Serve lets running requests finish after
	// its context ends before it cancels their generations (default 10s).
	ShutdownTimeout time.Duration
	// Registerer receives the API's Prometheus metrics, and Gatherer is
	// what /metrics shows. Both nil: a registry of the server's own, with
	// the Go and process collectors.
	Registerer prometheus.Registerer
	Gatherer   prometheus.Gatherer
	// Logger receives one line per failed request and lifecycle messages
	// (default slog.Default()).
	Logger *slog.Logger
	// Now is the clock for created timestamps and strftime_now in chat
	// templates (default time.Now).
	Now func() time.Time
	// Managed, when set, makes this the managed variant's API: keys,
	// licence, the managed error table, the journal. /metrics is then not
	// served here (its series name keys): serve Gatherer on a listener of
	// its own.
	Managed *Managed
}

// Server is the /v1 API. Create it with New, run it with Serve (once).
type Server struct {
	cfg     Config
	log     *slog.Logger
	kits    *kitCache
	m       *metrics
	mg      *managedState // nil: local variant
	metrics fasthttp.RequestHandler
	http    *fasthttp.Server
	prep    prepSlots // large bodies are parsed a few at a time

	// life is the parent of every generation's context; Serve cancels it
	// when the grace period after shutdown is over.
	life    context.Context
	endLife context.CancelFunc
}

// New builds a Server. It does not listen yet.
func New(cfg Config) (*Server, error) {
	if cfg.Backend == nil {
		return nil, errors.New("server: Config.Backend is required")
	}
	if cfg.OwnedBy == "" {
		cfg.OwnedBy = DefaultOwnedBy
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if cfg.ShutdownTimeout <= 0 {
		cfg.ShutdownTimeout = DefaultShutdownTimeout
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	reg, gath := cfg.Registerer, cfg.Gatherer
	if reg == nil && gath == nil {
		r := prometheus.NewRegistry()
		r.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
		reg, gath = r, r
	} else if reg == nil || gath == nil {
		return nil, errors.New("server: set both Config.Registerer and Config.Gatherer, or neither")
	}
	m, err := newMetrics(reg)
	if err != nil {
		return nil, fmt.Errorf("server: metrics: %w", err)
	}
	var mg *managedState
	if cfg.Managed != nil {
		if mg, err = newManagedState(cfg.Managed); err != nil {
			return nil, err
		}
	}
	s := &Server{
		mg:      mg,
		cfg:     cfg,
		log:     cfg.Logger,
		kits:    newKitCache(),
		prep:    newPrepSlots(),
		m:       m,
		metrics: fasthttpadaptor.NewFastHTTPHandler(promhttp.HandlerFor(gath, promhttp.HandlerOpts{})),
	}
	s.life, s.endLife = context.WithCancel(context.Background())
	s.http = &fasthttp.Server{
		Handler:               s.handle,
		ErrorHandler:          s.handleTransportError,
		Name:                  "svc",
		MaxRequestBodySize:    readLimit(cfg.MaxBodyBytes),
		ReadTimeout:           60 * time.Second,
		IdleTimeout:           60 * time.Second,
		CloseOnShutdown:       true,
		NoDefaultServerHeader: true,
		Logger:                fasthttpLogger{cfg.Logger},
	}
	return s, nil
}

// readLimit is how much body fasthttp reads before giving up on a request.
// It is above the API's own limit so that a body somewhat over the limit is
// read and answered with a clean 413 (checked in the handler); refusing it
// unread would reset the connection while the client is still sending, and
// the client would see a broken pipe instead of the answer.
func readLimit(limit int) int { return 2*limit + 1<<20 }

// Serve answers requests on ln until ctx ends, then shuts down gracefully:
// it stops accepting, lets running requests finish for up to
// ShutdownTimeout, then cancels what remains (closing its sessions).
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	errc := make(chan error, 1)
	go func() { errc <- s.http.Serve(ln) }()
	select {
	case err := <-errc:
		s.endLife()
		if err != nil {
			return fmt.Errorf("server: %w", err)
		}
		return nil
	case <-ctx.Done():
	}
	grace, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownTimeout)
	defer cancel()
	shutdownErr := s.http.ShutdownWithContext(grace)
	// Whatever is still generating now is cut off; its sessions close.
	s.endLife()
	if shutdownErr != nil {
		// Give cut-off streams a moment to write their error event.
		last, cancelLast := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancelLast()
		_ = s.http.ShutdownWithContext(last)
	}
	if err := <-errc; err != nil {
		return fmt.Errorf("server: %w", err)
	}
	return nil
}

// route is the metrics label of a path: a fixed set keeps cardinality low.
func route(path string) string {
	switch path {
	case "/v1/models", "/v1/chat/completions", "/v1/completions", "/metrics", "/health":
		return path
	}
	if strings.HasPrefix(path, "/v1/models/") {
		return "/v1/models/{id}"
	}
	return "other"
}

func (s *Server) handle(ctx *fasthttp.RequestCtx) {
	path := string(ctx.Path())
	r := route(path)
	start := time.Now()
	ctx.SetUserValue(refKey{}, newReference())
	// In flight counts API requests; scrapes and health checks are not.
	counted := strings.HasPrefix(path, "/v1/")
	if counted {
		s.m.inFlight.Inc()
	}
	streaming := false
	defer func() {
		if counted && !streaming {
			s.m.inFlight.Dec()
		}
		s.m.observe(r, ctx.Response.StatusCode(), time.Since(start))
	}()
	method := string(ctx.Method())
	get := method == fasthttp.MethodGet || method == fasthttp.MethodHead
	post := method == fasthttp.MethodPost
	if s.mg != nil {
		defer func() { s.observeKey(ctx) }()
		if strings.HasPrefix(path, "/v1/") {
			if aerr := s.admit(ctx); aerr != nil {
				s.fail(ctx, aerr)
				return
			}
		}
		if r == "/metrics" {
			r = "other"
		}
	}
	switch {
	case r == "/v1/models" || r == "/v1/models/{id}" || r == "/metrics" || r == "/health":
		if !get {
			s.methodNotAllowed(ctx, "GET, HEAD")
			return
		}
		switch r {
		case "/v1/models":
			s.listModels(ctx)
		case "/v1/models/{id}":
			s.getModel(ctx, strings.TrimPrefix(path, "/v1/models/"))
		case "/metrics":
			s.metrics(ctx)
		default:
			s.writeJSON(ctx, 200, map[string]string{"status": "ok"})
		}
	case r == "/v1/chat/completions" || r == "/v1/completions":
		if !post {
			s.methodNotAllowed(ctx, "POST")
			return
		}
		if aerr := checkContentType(ctx); aerr != nil {
			s.fail(ctx, aerr)
			return
		}
		if n := len(ctx.PostBody()); n > s.cfg.MaxBodyBytes {
			s.fail(ctx, tooLarge(s.cfg.MaxBodyBytes))
			return
		}
		streaming = s.generate(ctx, r == "/v1/chat/completions", start)
	default:
		s.fail(ctx, &apiError{Status: 404, Code: codeNotFound,
			Message: fmt.Sprintf("no such endpoint: %s %s", method, path)})
	}
}

// checkContentType accepts JSON bodies whatever they are labelled: curl's
// -d labels them as a form, and llama-server and OpenAI's API read the body
// as JSON all the same. Only a multipart upload is refused here, since its
// body can never be a JSON request; anything else that is not JSON gets
// invalid_request from the parser, naming the problem.
func checkContentType(ctx *fasthttp.RequestCtx) *apiError {
	ct := strings.ToLower(strings.TrimSpace(string(ctx.Request.Header.ContentType())))
	mt := strings.TrimSpace(strings.SplitN(ct, ";", 2)[0])
	if strings.HasPrefix(mt, "multipart/") {
		return &apiError{Status: 415, Code: codeInvalidRequest,
			Message: fmt.Sprintf("Content-Type %q: the body must be a JSON request", mt)}
	}
	return nil
}

func (s *Server) methodNotAllowed(ctx *fasthttp.RequestCtx, allow string) {
	ctx.Response.Header.Set("Allow", allow)
	s.fail(ctx, &apiError{Status: 405, Code: codeMethodNotAllowed,
		Message: fmt.Sprintf("method %s is not allowed on %s; use %s", ctx.Method(), ctx.Path(), allow)})
}

// handleTransportError answers requests fasthttp could not even read: a
// body over the limit, a malformed request line or header, a timeout.
func (s *Server) handleTransportError(ctx *fasthttp.RequestCtx, err error) {
	var aerr *apiError
	switch {
	case errors.Is(err, fasthttp.ErrBodyTooLarge):
		aerr = tooLarge(s.cfg.MaxBodyBytes)
	case isTimeout(err):
		aerr = &apiError{Status: 408, Code: codeInvalidRequest, Message: "timed out reading the request"}
	default:
		aerr = (&apiError{Status: 400, Code: codeInvalidRequest, Message: "malformed HTTP request"}).because(err)
	}
	s.m.observe("other", aerr.Status, 0)
	ctx.SetUserValue(refKey{}, newReference())
	s.fail(ctx, aerr)
}

func tooLarge(limit int) *apiError {
	return &apiError{Status: 413, Code: codeInvalidRequest,
		Message: fmt.Sprintf("request body is larger than the limit of %d bytes", limit)}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// refKey is the request's user value holding its reference.
type refKey struct{}

// requestRef is the request's reference (set when handling begins).
func requestRef(ctx *fasthttp.RequestCtx) string {
	if ref, ok := ctx.UserValue(refKey{}).(string); ok {
		return ref
	}
	ref := newReference()
	ctx.SetUserValue(refKey{}, ref)
	return ref
}

// fail writes an error answer and logs it, the cause included, under the
// request's reference.
func (s *Server) fail(ctx *fasthttp.RequestCtx, aerr *apiError) {
	ref := requestRef(ctx)
	s.logRefusal(ref, string(ctx.Method()), string(ctx.Path()), aerr)
	if s.mg != nil {
		s.journal(infoOf(ctx), aerr)
	}
	ctx.SetStatusCode(aerr.Status)
	ctx.SetContentType("application/json")
	ctx.SetBody(aerr.body(ref, s.managed()))
}

// logRefusal writes the operator's line of a refused or failed request.
func (s *Server) logRefusal(ref, method, path string, aerr *apiError) {
	lvl := slog.LevelInfo
	if aerr.Status >= 500 {
		lvl = slog.LevelWarn
	}
	attrs := []any{"reference", ref, "method", method, "path", path, "status", aerr.Status,
		"code", aerr.code(s.managed()), "message", aerr.Message}
	if aerr.Cause != nil {
		attrs = append(attrs, "cause", aerr.Cause.Error())
	}
	s.log.Log(context.Background(), lvl, "request refused", attrs...)
}

func (s *Server) writeJSON(ctx *fasthttp.RequestCtx, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		s.fail(ctx, serverError(fmt.Errorf("encoding the response: %w", err)))
		return
	}
	ctx.SetStatusCode(status)
	ctx.SetContentType("application/json")
	ctx.SetBody(b)
}

// modelEntry is one item of the model list (SPEC.md §2).
type modelEntry struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Created int64  `json:"created"`
	OwnedBy string `json:"owned_by"`
}

type modelList struct {
	Object string       `json:"object"`
	Data   []modelEntry `json:"data"`
}

// servedModels lists, in the backend's order, the models every block of
// which an online node holds; SPEC hides the others. With a key (managed
// variant), only those in its scope.
func (s *Server) servedModels(ctx context.Context, k *apikey.Key) []modelEntry {
	out := []modelEntry{}
	seen := map[string]bool{}
	for _, st := range s.cfg.Backend.Models(ctx) {
		if st.State != router.StateServed || seen[st.Name] || (k != nil && !k.Permits(st.Name)) {
			continue
		}
		seen[st.Name] = true
		created := st.Created
		if created.IsZero() {
			created = s.cfg.Now()
		}
		out = append(out, modelEntry{ID: st.Name, Object: "model", Created: created.Unix(), OwnedBy: s.cfg.OwnedBy})
	}
	return out
}

func (s *Server) listModels(ctx *fasthttp.RequestCtx) {
	rctx, cancel := context.WithTimeout(s.life, 10*time.Second)
	defer cancel()
	s.writeJSON(ctx, 200, modelList{Object: "list", Data: s.servedModels(rctx, callerOf(ctx))})
}

func (s *Server) getModel(ctx *fasthttp.RequestCtx, id string) {
	rctx, cancel := context.WithTimeout(s.life, 10*time.Second)
	defer cancel()
	for _, e := range s.servedModels(rctx, callerOf(ctx)) {
		if e.ID == id {
			s.writeJSON(ctx, 200, e)
			return
		}
	}
	s.fail(ctx, &apiError{Status: 404, Code: codeModelNotFound,
		Message: fmt.Sprintf("model %q is not served; GET /v1/models lists what is", id)})
}

// fasthttpLogger sends fasthttp's own messages to slog.
type fasthttpLogger struct{ l *slog.Logger }

func (f fasthttpLogger) Printf(format string, args ...any) {
	f.l.Warn("http: " + fmt.Sprintf(format, args...))
}

// statusLabel keeps the code label of the request counter short.
func statusLabel(code int) string { return strconv.Itoa(code) }
