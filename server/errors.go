package server

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"svc/router"
)

// Error codes of SPEC.md §7, plus the request-level codes every HTTP API
// needs (unknown path, wrong method, body too large).
const (
	// Local variant.
	codeModelRequired    = "model_required"
	codeModelIncomplete  = "model_incomplete"
	codeRouteUnavailable = "route_unavailable"
	// Both variants.
	codeModelNotFound    = "model_not_found"
	codeInvalidRequest   = "invalid_request"
	codeEmptyMessages    = "empty_messages"
	codeNotFound         = "not_found"
	codeMethodNotAllowed = "method_not_allowed"
	codeServerError      = "server_error"
	// Managed variant.
	codeUnsupportedParameter   = "unsupported_parameter"
	codeInvalidAPIKey          = "invalid_api_key"
	codeAPIKeyExpired          = "api_key_expired"
	codeModelNotPermitted      = "model_not_permitted"
	codeLicenceExpired         = "licence_expired"
	codeRateLimitExceeded      = "rate_limit_exceeded"
	codeCapacity               = "capacity"
	codeGenerationInterrupted  = "generation_interrupted"
	codeModelLoading           = "model_loading"
	codeNodeUnavailable        = "node_unavailable"
	codeModelUnavailable       = "model_unavailable"
	codeCoordinatorUnavailable = "coordinator_unavailable"
	codeTimeout                = "timeout"
)

// apiError is an answer the client gets in SPEC's error shape. It keeps
// apart what may be shown and what may not:
//
//   - Message is public: fixed text, plus values the request itself carried
//     (a field name, the model it asked for, a number it sent). Never an
//     error's text from below the API, which may name peers and addresses.
//   - Cause is the detail for the operator: it goes to the log (and, in the
//     managed variant, to the journal and the audit trail) under the same
//     reference, never into a response.
//
// The managed variant's rule — no message names a machine, an address, a
// port, a peer id or a command, and every message ends with "Reference:
// chatcmpl-…" — is applied where the body is written (publicMessage), so no
// call site can break it.
type apiError struct {
	Status  int
	Code    string
	Message string
	// Param names the request field the error is about ("" if none).
	Param string
	// Cause is why, for the operator; nil for refusals of the request
	// itself, where Message says everything.
	Cause error
	// unsupported marks a field refused because this server cannot honour
	// it: invalid_request in the local variant, unsupported_parameter in
	// the managed one.
	unsupported bool
}

func (e *apiError) Error() string {
	s := fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message)
	if e.Cause != nil {
		s += ": " + e.Cause.Error()
	}
	return s
}

func (e *apiError) Unwrap() error { return e.Cause }

// because attaches the operator's detail to an error.
func (e *apiError) because(cause error) *apiError {
	e.Cause = cause
	return e
}

// code is the code the client sees in the given variant.
func (e *apiError) code(managed bool) string {
	if managed && e.unsupported {
		return codeUnsupportedParameter
	}
	return e.Code
}

// errorType is the OpenAI-style error class that accompanies the code.
func (e *apiError) errorType() string {
	switch {
	case e.Status == 401:
		return "authentication_error"
	case e.Status == 403:
		return "permission_error"
	case e.Status == 429:
		return "rate_limit_error"
	case e.Status == 503:
		return "service_unavailable"
	case e.Status >= 500:
		return "server_error"
	case e.Status == 404 && e.Code == codeNotFound:
		return "not_found_error"
	default:
		return "invalid_request_error"
	}
}

type errorBody struct {
	Error errorDetail `json:"error"`
}

type errorDetail struct {
	Message string `json:"message"`
	Type    string `json:"type"`
	Code    string `json:"code"`
}

// body is the error's JSON body for the given reference and variant.
func (e *apiError) body(ref string, managed bool) []byte {
	b, err := json.Marshal(errorBody{Error: errorDetail{
		Message: e.publicMessage(ref, managed), Type: e.errorType(), Code: e.code(managed)}})
	if err != nil {
		// Marshalling three strings cannot fail; keep a valid body anyway.
		return []byte(`{"error":{"message":"internal error","type":"server_error","code":"server_error"}}`)
	}
	return b
}

// publicMessage is the message as the client sees it. In the managed
// variant it ends with the reference, and a message that looks as if it
// names a machine, an address, a port, a peer id or a command (a request
// can carry such text, and a call site can get it wrong) is replaced by its
// code's fixed text; the log keeps the original under the reference.
func (e *apiError) publicMessage(ref string, managed bool) string {
	msg := e.Message
	if !managed {
		return msg
	}
	if msg == "" || revealing(msg) {
		msg = fixedText(e.code(true))
	}
	msg = strings.TrimRight(msg, " ")
	if !strings.HasSuffix(msg, ".") {
		msg += "."
	}
	return msg + " Reference: " + ref
}

// What a public message must not contain in the managed variant.
var revealingPatterns = []*regexp.Regexp{
	regexp.MustCompile(`\b(12D3KooW|Qm|16Uiu2)[1-9A-HJ-NP-Za-km-z]{30,}`),                // libp2p peer ids
	regexp.MustCompile(`/(ip4|ip6|dns|dns4|dns6|tcp|udp|quic|quic-v1|p2p)/`),             // multiaddrs
	regexp.MustCompile(`\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b`),                         // IPv4
	regexp.MustCompile(`\[[0-9a-fA-F:]*:[0-9a-fA-F:]*\]`),                                // [IPv6]
	regexp.MustCompile(`(?i)\blocalhost\b`),                                              // the usual host
	regexp.MustCompile(`(\b[A-Za-z][A-Za-z0-9-]*(\.[A-Za-z0-9-]+)*|\]):\d{2,5}\b`),       // host:port
	regexp.MustCompile(`\bsvc(-coordinator|-node-agent|-api)?\s+[a-z]+`),                 // a command
	regexp.MustCompile(`(?i)\b(machine|node|host|peer)\s+["']?[A-Za-z0-9_.-]*\d[\w.-]*`), // "machine m1", "node n2"
}

// revealing reports whether text names something the managed variant's
// messages must not.
func revealing(text string) bool {
	for _, re := range revealingPatterns {
		if re.MatchString(text) {
			return true
		}
	}
	return false
}

// fixedText is each code's message when nothing more may be said; it tells
// a developer what to do.
func fixedText(code string) string {
	switch code {
	case codeInvalidAPIKey:
		return "The API key is missing or not recognised; send a valid key as Authorization: Bearer <key>"
	case codeAPIKeyExpired:
		return "The API key has expired; ask the operator for a new one"
	case codeModelNotPermitted:
		return "This API key may not use the requested model; re-sending does not help"
	case codeLicenceExpired:
		return "The deployment's licence has expired; the operator must renew it"
	case codeRateLimitExceeded:
		return "This API key's rate limit is reached; retry after the time the Retry-After header gives"
	case codeCapacity:
		return "Every machine of the deployment is busy; retry in a few seconds"
	case codeGenerationInterrupted:
		return "The generation stopped partway because a machine failed; retry the request"
	case codeModelLoading:
		return "The model is still loading; retry in a few seconds"
	case codeNodeUnavailable:
		return "A machine the model needs is unavailable; retry in a few seconds"
	case codeModelUnavailable:
		return "The model is not served until the operator acts; retrying does not help"
	case codeCoordinatorUnavailable:
		return "The API cannot reach its coordinator; retry in a few seconds"
	case codeTimeout:
		return "The generation ran past the deployment's time limit; ask for fewer tokens or retry"
	case codeModelNotFound:
		return "No model of that name is served; GET /v1/models lists what is"
	case codeUnsupportedParameter:
		return "The request uses a parameter this deployment does not support"
	case codeInvalidRequest, codeEmptyMessages:
		return "The request is malformed"
	case codeNotFound:
		return "No such endpoint"
	case codeMethodNotAllowed:
		return "This method is not allowed on this endpoint"
	default:
		return "A fault on the service side; the operator can trace it with the reference"
	}
}

// newReference is the reference of a request: every error message of the
// managed variant ends with it, the log and the journal file the cause
// under it, and a chat completion's id is the same string.
func newReference() string { return "chatcmpl-" + randomID() }

// randomID is the random part of a reference or response id.
func randomID() string {
	const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	var b [24]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go ≥ 1.24)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b[:])
}

func invalidf(format string, args ...any) *apiError {
	return &apiError{Status: 400, Code: codeInvalidRequest, Message: fmt.Sprintf(format, args...)}
}

// unsupportedf refuses a field the server cannot honour, naming it.
func unsupportedf(param, format string, args ...any) *apiError {
	return &apiError{Status: 400, Code: codeInvalidRequest, Param: param, unsupported: true,
		Message: fmt.Sprintf(format, args...)}
}

// serverError is a fault on the service side: the client learns only that.
func serverError(cause error) *apiError {
	return (&apiError{Status: 500, Code: codeServerError,
		Message: "A fault on the service side; the operator can trace it with the reference"}).because(cause)
}

// backendError maps an error from the router to SPEC's table (local
// variant). The message says what happened to the request's model; the
// router's error, which names peers and addresses, is the cause. Errors the
// router does not classify (a hop that failed partway, a stream that broke)
// mean the route in use stopped working, hence route_unavailable.
func backendError(model string, err error) *apiError {
	var ae *apiError
	var e *apiError
	var routeErr *router.RouteError
	switch {
	case errors.As(err, &ae):
		return ae
	case errors.Is(err, router.ErrModelNotFound):
		e = &apiError{Status: 404, Code: codeModelNotFound,
			Message: fmt.Sprintf("model %q is not served by the swarm; GET /v1/models lists what is", model)}
	case errors.Is(err, router.ErrModelLoading):
		e = &apiError{Status: 503, Code: codeModelIncomplete,
			Message: fmt.Sprintf("model %q is still loading on some nodes; retry in a few seconds", model)}
	case errors.Is(err, router.ErrModelIncomplete):
		e = &apiError{Status: 503, Code: codeModelIncomplete,
			Message: fmt.Sprintf("model %q is present on the swarm but some of its blocks are held by no online node", model)}
	case errors.As(err, &routeErr):
		e = &apiError{Status: 503, Code: codeRouteUnavailable,
			Message: fmt.Sprintf("no route through the swarm could be built for model %q: %s", model, routeErr.Reason())}
	case errors.Is(err, router.ErrRouteUnavailable):
		e = &apiError{Status: 503, Code: codeRouteUnavailable,
			Message: fmt.Sprintf("no route through the swarm could be built for model %q; the server log has the reason under the request's reference", model)}
	case errors.Is(err, context.DeadlineExceeded):
		e = &apiError{Status: 503, Code: codeRouteUnavailable,
			Message: fmt.Sprintf("generation for model %q timed out", model)}
	default:
		e = &apiError{Status: 503, Code: codeRouteUnavailable,
			Message: fmt.Sprintf("generation for model %q failed; the server log has the reason under the request's reference", model)}
	}
	return e.because(err)
}
