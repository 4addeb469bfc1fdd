package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"svc/router"
)

// Error codes of SPEC.md §7 (local variant), plus the request-level codes
// every HTTP API needs (unknown path, wrong method, body too large).
const (
	codeModelRequired    = "model_required"
	codeModelNotFound    = "model_not_found"
	codeModelIncomplete  = "model_incomplete"
	codeRouteUnavailable = "route_unavailable"
	codeInvalidRequest   = "invalid_request"
	codeEmptyMessages    = "empty_messages"
	codeNotFound         = "not_found"
	codeMethodNotAllowed = "method_not_allowed"
	codeServerError      = "server_error"
)

// apiError is an answer the client gets in SPEC's error shape.
type apiError struct {
	Status  int
	Code    string
	Message string
}

func (e *apiError) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message) }

// errorType is the OpenAI-style error class that accompanies the code.
func (e *apiError) errorType() string {
	switch {
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

func (e *apiError) body() []byte {
	b, err := json.Marshal(errorBody{Error: errorDetail{Message: e.Message, Type: e.errorType(), Code: e.Code}})
	if err != nil {
		// Marshalling three strings cannot fail; keep a valid body anyway.
		return []byte(`{"error":{"message":"internal error","type":"server_error","code":"server_error"}}`)
	}
	return b
}

func invalidf(format string, args ...any) *apiError {
	return &apiError{Status: 400, Code: codeInvalidRequest, Message: fmt.Sprintf(format, args...)}
}

// backendError maps an error from the router to SPEC's table. Errors the
// router does not classify (a hop that failed partway, a stream that broke)
// mean the route in use stopped working, hence route_unavailable.
func backendError(model string, err error) *apiError {
	var ae *apiError
	switch {
	case errors.As(err, &ae):
		return ae
	case errors.Is(err, router.ErrModelNotFound):
		return &apiError{Status: 404, Code: codeModelNotFound,
			Message: fmt.Sprintf("model %q is not served by the swarm; GET /v1/models lists what is", model)}
	case errors.Is(err, router.ErrModelLoading):
		return &apiError{Status: 503, Code: codeModelIncomplete,
			Message: fmt.Sprintf("model %q is still loading on some nodes; retry in a few seconds", model)}
	case errors.Is(err, router.ErrModelIncomplete):
		return &apiError{Status: 503, Code: codeModelIncomplete,
			Message: fmt.Sprintf("model %q is present on the swarm but some of its blocks are held by no online node", model)}
	case errors.Is(err, router.ErrRouteUnavailable):
		return &apiError{Status: 503, Code: codeRouteUnavailable,
			Message: fmt.Sprintf("no route through the swarm could be built for model %q: %v", model, err)}
	case errors.Is(err, context.DeadlineExceeded):
		return &apiError{Status: 503, Code: codeRouteUnavailable,
			Message: fmt.Sprintf("generation for model %q timed out: %v", model, err)}
	default:
		return &apiError{Status: 503, Code: codeRouteUnavailable,
			Message: fmt.Sprintf("generation for model %q failed: %v", model, err)}
	}
}
