package p2p

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
)

// APIEventsProtocol carries what an API member refused or failed to serve
// to the coordinator's audit trail: a batch of records (the API's journal
// records, as JSON), each under its request's reference.
const APIEventsProtocol = "/svc/apievents/1.0.0"

// maxAPIEvents bounds a batch (records are a few hundred bytes).
const (
	maxAPIEventsBatch   = 256
	maxAPIEventsRequest = 1 << 20
)

type apiEventsRequest struct {
	Events []json.RawMessage `json:"events"`
}

// APIEventsSink is what the coordinator does with a batch: Accept checks
// the sender and records the events (a Refusal is sent as it is).
type APIEventsSink struct {
	Accept func(ctx context.Context, from peer.ID, events []json.RawMessage) error
	Logger *slog.Logger
}

// ServeAPIEvents answers APIEventsProtocol on h until stop is called.
func ServeAPIEvents(h host.Host, sink APIEventsSink) (stop func(), err error) {
	if sink.Accept == nil {
		return nil, errors.New("p2p: API event sink needs Accept")
	}
	return serveJSON(h, APIEventsProtocol, maxAPIEventsRequest, sink.Logger,
		func(ctx context.Context, from peer.ID, req *apiEventsRequest) (any, error) {
			if len(req.Events) > maxAPIEventsBatch {
				return nil, &Refusal{Code: "bad_request", Message: fmt.Sprintf("%d events in one batch; at most %d", len(req.Events), maxAPIEventsBatch)}
			}
			if err := sink.Accept(ctx, from, req.Events); err != nil {
				return nil, err
			}
			return struct{}{}, nil
		}), nil
}

// SendAPIEvents sends a batch of at most 256 events to peer p (the
// coordinator).
func SendAPIEvents(ctx context.Context, h host.Host, p peer.ID, events []json.RawMessage) error {
	if len(events) > maxAPIEventsBatch {
		return fmt.Errorf("p2p: %d API events in one batch; at most %d", len(events), maxAPIEventsBatch)
	}
	return exchange(ctx, h, p, APIEventsProtocol, apiEventsRequest{Events: events}, nil, 1<<10)
}
