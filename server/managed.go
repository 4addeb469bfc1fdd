package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/valyala/fasthttp"

	"svc/apikey"
	"svc/p2p"
	"svc/p2p/wire"
	"svc/router"
)

// Managed makes a Server the managed variant's API (SPEC.md §5, §7): the
// same endpoints and code as the local variant, plus bearer keys with scope,
// expiry and rate limit, the licence grant, the managed error table and a
// journal in which every error's reference leads to its machine and cause.
type Managed struct {
	// Keys decides each request's bearer key (an *apikey.Ring).
	Keys KeyChecker
	// Deployment is what the authority says: licence grant, placements,
	// machines.
	Deployment Deployment
	// Journal receives one JSON line per refused or failed request (nil:
	// none). Writes are serialised.
	Journal io.Writer
	// Audit receives the same records for the coordinator's audit trail
	// (nil: none). Refused must not block.
	Audit AuditSink
	// GenerationLimit bounds a generation's time (0: none); past it the
	// request ends with 504 timeout.
	GenerationLimit time.Duration
	// MaxGenerations bounds concurrent generations (0: no bound of the
	// API's own); a request beyond it gets 429 capacity at once.
	MaxGenerations int
}

// KeyChecker decides a bearer key: the key's record, or apikey.ErrInvalid,
// apikey.ErrUnavailable or an *apikey.ExpiredError.
type KeyChecker interface {
	Check(token string) (apikey.Key, error)
}

// Deployment is what the managed API learns from the deployment's
// authority (the signed roster).
type Deployment interface {
	// Licence is when the deployment's licence grant ends; ok is false
	// while no grant is known.
	Licence() (notAfter time.Time, ok bool)
	// Placement is what the authority says of a model's placement; State
	// "" when it does not place a model of that name.
	Placement(model string) Placement
	// Machine describes a member by its peer id.
	Machine(peer string) (Machine, bool)
}

// Placement is a model's state as the authority records it.
type Placement struct {
	State  string // "loading", "served", "unavailable" or ""
	Reason string // why it is unavailable (for the operator)
	// Machine is the member the state is about (the one removed or that
	// failed to load), if any.
	Machine Machine
}

// Placement states.
const (
	PlacementLoading     = "loading"
	PlacementServed      = "served"
	PlacementUnavailable = "unavailable"
)

// Machine is a member of the deployment, for the operator's records.
type Machine struct {
	Label   string `json:"machine,omitempty"`
	Peer    string `json:"peer,omitempty"`
	Address string `json:"address,omitempty"` // host:port it listens on
}

// AuditSink takes the records of refused and failed requests to the audit
// trail.
type AuditSink interface {
	Refused(Record)
}

// Record is what the operator finds under a reference: in the journal and
// on the audit trail.
type Record struct {
	Time      time.Time `json:"time"`
	Reference string    `json:"reference"`
	KeyName   string    `json:"key,omitempty"`
	KeyID     string    `json:"key_id,omitempty"`
	Model     string    `json:"model,omitempty"`
	Method    string    `json:"method"`
	Path      string    `json:"path"`
	Status    int       `json:"status"`
	Code      string    `json:"code"`
	Message   string    `json:"message"` // what the client was told
	Cause     string    `json:"cause,omitempty"`
	Machine
	Port string `json:"port,omitempty"`
	// Fix is the operator command (or action) that would cure it.
	Fix string `json:"fix,omitempty"`
}

// managedState is the managed variant's per-server state.
type managedState struct {
	cfg   Managed
	limit *limiter
	slots chan struct{} // nil: no bound
	smu   sync.Mutex    // takes a batch's slots at once

	jmu sync.Mutex
}

func newManagedState(cfg *Managed) (*managedState, error) {
	if cfg.Keys == nil || cfg.Deployment == nil {
		return nil, errors.New("server: Managed.Keys and Managed.Deployment are required")
	}
	m := &managedState{cfg: *cfg, limit: newLimiter()}
	if cfg.MaxGenerations > 0 {
		m.slots = make(chan struct{}, cfg.MaxGenerations)
	}
	return m, nil
}

// managed reports whether this is the managed variant's API.
func (s *Server) managed() bool { return s.mg != nil }

// caller is the key a managed request was admitted with.
type callerKey struct{}

func callerOf(ctx *fasthttp.RequestCtx) *apikey.Key {
	k, _ := ctx.UserValue(callerKey{}).(*apikey.Key)
	return k
}

type modelKey struct{}

// admit checks a managed request's key and the licence; it returns nil
// when the request may go on.
func (s *Server) admit(ctx *fasthttp.RequestCtx) *apiError {
	auth := strings.TrimSpace(string(ctx.Request.Header.Peek("Authorization")))
	token, ok := strings.CutPrefix(auth, "Bearer ")
	if !ok {
		token, ok = strings.CutPrefix(auth, "bearer ")
	}
	if !ok || strings.TrimSpace(token) == "" {
		return &apiError{Status: 401, Code: codeInvalidAPIKey,
			Message: "No API key was sent; send it as Authorization: Bearer <key>"}
	}
	k, err := s.mg.cfg.Keys.Check(strings.TrimSpace(token))
	var ee *apikey.ExpiredError
	switch {
	case errors.As(err, &ee):
		// Known, so the journal and the metrics name it.
		ctx.SetUserValue(callerKey{}, &ee.Key)
		return (&apiError{Status: 401, Code: codeAPIKeyExpired,
			Message: "The API key expired on " + ee.Key.Expires.UTC().Format("2006-01-02 15:04:05 UTC") + "; ask the operator for a new one"}).because(err)
	case errors.Is(err, apikey.ErrUnavailable):
		return (&apiError{Status: 503, Code: codeCoordinatorUnavailable,
			Message: "The API cannot check this key without its coordinator, which it cannot reach; retry in a few seconds"}).because(err)
	case err != nil:
		return (&apiError{Status: 401, Code: codeInvalidAPIKey,
			Message: "The API key is not recognised; check the key or ask the operator for one"}).because(err)
	}
	ctx.SetUserValue(callerKey{}, &k)
	notAfter, known := s.mg.cfg.Deployment.Licence()
	switch {
	case !known:
		return &apiError{Status: 503, Code: codeCoordinatorUnavailable,
			Message: "The API has not yet received the deployment's licence grant from its coordinator; retry in a few seconds"}
	case !s.cfg.Now().Before(notAfter):
		return &apiError{Status: 403, Code: codeLicenceExpired,
			Message: "The deployment's licence expired on " + notAfter.UTC().Format("2006-01-02 15:04:05 UTC") + "; the operator must renew it"}
	}
	return nil
}

// rateLimit counts a generation request against its key's rate.
func (s *Server) rateLimit(ctx *fasthttp.RequestCtx) *apiError {
	k := callerOf(ctx)
	ok, wait := s.mg.limit.allow(k.ID, k.Rate, s.cfg.Now())
	if ok {
		return nil
	}
	secs := int(math.Ceil(wait.Seconds()))
	ctx.Response.Header.Set("Retry-After", strconv.Itoa(secs))
	return &apiError{Status: 429, Code: codeRateLimitExceeded,
		Message: fmt.Sprintf("This API key may make %d requests per minute; retry in %d seconds", k.Rate, secs)}
}

// admitModel checks a model name against the caller's scope and the
// authority's placement, before the swarm is asked.
func (s *Server) admitModel(k *apikey.Key, name string) *apiError {
	if name == "" {
		return invalidf("model is required: a name that GET /v1/models lists")
	}
	if k != nil && !k.Permits(name) {
		return &apiError{Status: 403, Code: codeModelNotPermitted,
			Message: fmt.Sprintf("This API key may not use model %q; re-sending does not help", name)}
	}
	switch p := s.mg.cfg.Deployment.Placement(name); p.State {
	case PlacementUnavailable:
		return (&apiError{Status: 503, Code: codeModelUnavailable,
			Message: fmt.Sprintf("Model %q is not served until the operator acts; retrying does not help", name)}).because(placementError{p})
	case PlacementLoading:
		return (&apiError{Status: 503, Code: codeModelLoading,
			Message: fmt.Sprintf("Model %q is still loading; retry in a few seconds", name)}).because(placementError{p})
	}
	return nil
}

// placementError carries the authority's placement into a cause.
type placementError struct{ p Placement }

func (e placementError) Error() string {
	s := "placement " + e.p.State
	if e.p.Reason != "" {
		s += ": " + e.p.Reason
	}
	if e.p.Machine.Label != "" {
		s += " (machine " + e.p.Machine.Label + ")"
	}
	return s
}

// errGenerationLimit ends a generation that ran past the deployment's limit.
var errGenerationLimit = errors.New("generation ran past the deployment's time limit")

// acquire takes n generation slots (a request's prompts), all or none,
// without waiting: a batch holds as many of the API's generations as it
// runs. One of more prompts than the bound could never be served: 400
// naming prompt (retrying does not help); one that finds fewer slots free
// than it needs gets 429 capacity, as a single generation does.
func (s *Server) acquire(n int) (release func(), aerr *apiError) {
	if s.mg == nil || s.mg.slots == nil {
		return func() {}, nil
	}
	if n > cap(s.mg.slots) {
		return nil, invalidf("prompt holds %d prompts; this API runs at most %d generations at once, so at most %d prompts fit in one request",
			n, cap(s.mg.slots), cap(s.mg.slots))
	}
	s.mg.smu.Lock()
	free := cap(s.mg.slots) - len(s.mg.slots)
	if free >= n {
		for range n {
			s.mg.slots <- struct{}{}
		}
	}
	s.mg.smu.Unlock()
	if free < n {
		return nil, (&apiError{Status: 429, Code: codeCapacity,
			Message: "Every machine of the deployment is busy; retry in a few seconds"}).because(
			fmt.Errorf("%d generations in flight, the API's limit of %d leaves %d, the request needs %d", cap(s.mg.slots)-free, cap(s.mg.slots), free, n))
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			for range n {
				<-s.mg.slots
			}
		})
	}, nil
}

// managedBackendError maps the router's error for a managed request.
// started says whether the generation had produced a token.
func (s *Server) managedBackendError(model string, err error, started bool) *apiError {
	var ae *apiError
	var re *p2p.RemoteError
	var routeErr *router.RouteError
	_, hopFailed := router.FailedPeer(err)
	var e *apiError
	switch {
	case errors.As(err, &ae):
		return ae
	case errors.Is(err, errGenerationLimit):
		e = &apiError{Status: 504, Code: codeTimeout,
			Message: fmt.Sprintf("The generation for model %q ran past the deployment's time limit of %s; ask for fewer tokens", model, s.mg.cfg.GenerationLimit)}
	case errors.Is(err, router.ErrModelLoading):
		e = &apiError{Status: 503, Code: codeModelLoading,
			Message: fmt.Sprintf("Model %q is still loading; retry in a few seconds", model)}
	case errors.Is(err, router.ErrModelNotFound) && s.mg.cfg.Deployment.Placement(model).State == "":
		e = &apiError{Status: 404, Code: codeModelNotFound,
			Message: fmt.Sprintf("Model %q is not served; GET /v1/models lists what is", model)}
	case started || hopFailed:
		e = &apiError{Status: 502, Code: codeGenerationInterrupted,
			Message: fmt.Sprintf("The generation for model %q stopped partway because a machine failed and none could take over; retry the request", model)}
	case errors.As(err, &re) && re.Code == wire.Code_NO_CAPACITY,
		errors.As(err, &routeErr) && routeErr.Busy > 0 && routeErr.Excluded == 0:
		// Every machine that holds the missing blocks is full: not a
		// fault, and the request is not queued.
		e = &apiError{Status: 429, Code: codeCapacity,
			Message: "Every machine that serves this model is busy; retry in a few seconds"}
	case errors.Is(err, router.ErrModelIncomplete), errors.Is(err, router.ErrRouteUnavailable), errors.Is(err, router.ErrModelNotFound):
		e = &apiError{Status: 503, Code: codeNodeUnavailable,
			Message: fmt.Sprintf("A machine that model %q needs is away, restarting or unreachable; retry in a few seconds", model)}
	default:
		return serverError(err)
	}
	return e.because(err)
}

// reqInfo is what the journal needs of a request.
type reqInfo struct {
	ref, method, path, model string
	key                      *apikey.Key
}

func infoOf(ctx *fasthttp.RequestCtx) reqInfo {
	model, _ := ctx.UserValue(modelKey{}).(string)
	return reqInfo{ref: requestRef(ctx), method: string(ctx.Method()), path: string(ctx.Path()),
		model: model, key: callerOf(ctx)}
}

// journal files a refused or failed managed request: in the journal, on
// the audit trail, and in the per-key metrics.
func (s *Server) journal(info reqInfo, aerr *apiError) {
	rec := Record{
		Time: s.cfg.Now().UTC(), Reference: info.ref, Model: info.model,
		Method: info.method, Path: info.path, Status: aerr.Status, Code: aerr.code(true),
		Message: aerr.publicMessage(info.ref, true),
	}
	if info.key != nil {
		rec.KeyName, rec.KeyID = info.key.Name, info.key.ID
	}
	if aerr.Cause != nil {
		rec.Cause = aerr.Cause.Error()
	}
	if p, ok := router.FailedPeer(aerr.Cause); ok {
		rec.Machine = Machine{Peer: p.String()}
		if m, ok := s.mg.cfg.Deployment.Machine(p.String()); ok {
			rec.Machine = m
		}
	}
	var pe placementError
	if errors.As(aerr.Cause, &pe) && pe.p.Machine != (Machine{}) {
		rec.Machine = pe.p.Machine
	}
	if rec.Machine == (Machine{}) && info.model != "" && aerr.Status >= 500 {
		// The router did not name a machine (a range held by nobody
		// online): the authority's placement may know which one is away.
		if m := s.mg.cfg.Deployment.Placement(info.model).Machine; m != (Machine{}) {
			rec.Machine = m
		}
	}
	if i := strings.LastIndex(rec.Address, ":"); i >= 0 {
		rec.Port = rec.Address[i+1:]
	}
	rec.Fix = fixFor(rec)
	if s.mg.cfg.Journal != nil {
		b, err := json.Marshal(rec)
		if err == nil {
			s.mg.jmu.Lock()
			_, err = s.mg.cfg.Journal.Write(append(b, '\n'))
			s.mg.jmu.Unlock()
		}
		if err != nil {
			s.log.Error("cannot write the API journal", "reference", info.ref, "err", err)
		}
	}
	if s.mg.cfg.Audit != nil {
		s.mg.cfg.Audit.Refused(rec)
	}
}

// fixFor is the operator's way out of a record's condition.
func fixFor(r Record) string {
	key := r.KeyName
	if key == "" {
		key = "NAME"
	}
	model := r.Model
	if model == "" {
		model = "MODEL"
	}
	machine := r.Label
	if machine == "" {
		machine = "LABEL"
	}
	switch r.Code {
	case codeInvalidAPIKey:
		return "svc-coordinator apikey list  (issue a key: svc-coordinator apikey create --models " + model + " --expires 30d --rate 60/min --name NAME)"
	case codeAPIKeyExpired:
		return "svc-coordinator apikey create --name " + key + " --models " + model + " --expires 30d --rate 60/min"
	case codeModelNotPermitted:
		return "svc-coordinator apikey create --name " + key + " --models " + model + " --expires 30d --rate 60/min  (a key's scope is fixed)"
	case codeLicenceExpired:
		return "svc-coordinator licence install FILE  (a renewed licence from the vendor)"
	case codeRateLimitExceeded:
		return "svc-coordinator apikey create --name " + key + " --models " + model + " --rate N/min  (a key with a higher rate)"
	case codeCapacity:
		return "add a machine (svc-coordinator token create, then svc-node-agent enroll) or raise SVC_API_MAX_GENERATIONS in /etc/svc/api.env (a completions batch takes one per prompt)"
	case codeGenerationInterrupted, codeNodeUnavailable:
		return "svc-coordinator node list; on machine " + machine + ": systemctl restart svc-node-agent"
	case codeModelLoading:
		return "svc-coordinator model list  (wait for " + model + " to be served)"
	case codeModelUnavailable:
		return "svc-coordinator model serve " + model
	case codeCoordinatorUnavailable:
		return "systemctl start svc-coordinator  (on the coordinator's machine)"
	case codeTimeout:
		return "raise SVC_API_GENERATION_LIMIT in /etc/svc/api.env, or add machines"
	case codeModelNotFound:
		return "svc-coordinator model list; svc-coordinator model serve " + model
	case codeServerError:
		return "journalctl -u svc-api  (the cause above)"
	default:
		return ""
	}
}

// limiter is the per-key sliding-window rate limit: a key may make Rate
// requests in any 60 seconds. A refused request is told when the oldest
// request of its window leaves it, which is exactly when the next one is
// accepted.
type limiter struct {
	mu   sync.Mutex
	keys map[string][]time.Time // accepted requests of the last minute, oldest first
	seen int                    // calls since the last sweep
}

const rateWindow = time.Minute

func newLimiter() *limiter { return &limiter{keys: map[string][]time.Time{}} }

func (l *limiter) allow(id string, rate int, now time.Time) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seen++
	if l.seen >= 1024 {
		// Forget keys whose window is empty, so the map holds only keys
		// in use.
		l.seen = 0
		for k, ts := range l.keys {
			if len(ts) == 0 || now.Sub(ts[len(ts)-1]) >= rateWindow {
				delete(l.keys, k)
			}
		}
	}
	ts := l.keys[id]
	i := 0
	for i < len(ts) && now.Sub(ts[i]) >= rateWindow {
		i++
	}
	ts = ts[i:]
	if len(ts) >= rate {
		l.keys[id] = ts
		// The request is accepted once all but rate-1 of the window's
		// requests have left it.
		return false, ts[len(ts)-rate].Add(rateWindow).Sub(now)
	}
	l.keys[id] = append(ts, now)
	return true, 0
}

// servedKey is the request's user value naming the model it was served
// with (set once the model is resolved), for the per-key metrics.
type servedKey struct{}

// observeKey counts a managed request by key, model and status.
func (s *Server) observeKey(ctx *fasthttp.RequestCtx) {
	k := callerOf(ctx)
	if k == nil {
		return
	}
	model, _ := ctx.UserValue(servedKey{}).(string)
	s.m.keyRequests.WithLabelValues(k.Name, model, statusLabel(ctx.Response.StatusCode())).Inc()
}

// countTokens adds a generation's tokens to its key's series.
func (s *Server) countTokens(j *job, n int) {
	s.m.tokens.WithLabelValues(j.model).Add(float64(n))
	if s.mg != nil && j.key != nil {
		s.m.keyTokens.WithLabelValues(j.key.Name, j.model).Add(float64(n))
	}
}
