package p2p

import (
	"context"
	"errors"
	"log/slog"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
)

// Roster protocols of a managed swarm. The roster is opaque here (signed
// JSON that coordinator/trust verifies): RosterProtocol answers the newest
// roster a member holds, so every member serves it to every other and the
// roster outlives a coordinator outage; RosterPushProtocol delivers a new
// one (the coordinator pushes each change to every connected member). Both
// are JSON request/answer exchanges (jsonmsg.go).
const (
	RosterProtocol     = "/svc/roster/1.0.0"
	RosterPushProtocol = "/svc/roster-push/1.0.0"
	maxRosterBytes     = 16 << 20
)

type rosterRequest struct{}

type rosterAnswer struct {
	Roster []byte `json:"roster"`
}

type rosterPush struct {
	Roster []byte `json:"roster"`
}

// ServeRoster answers both roster protocols on h until the returned stop:
// get returns the roster to serve (nil: none yet), put receives a pushed
// one (its error is the refusal the pusher sees).
func ServeRoster(h host.Host, log *slog.Logger, get func() []byte, put func(from peer.ID, roster []byte) error) (stop func()) {
	stopGet := serveJSON(h, RosterProtocol, 1<<10, log, func(_ context.Context, _ peer.ID, _ *rosterRequest) (any, error) {
		r := get()
		if r == nil {
			return nil, &Refusal{Code: "no_roster", Message: "this member holds no roster yet"}
		}
		return rosterAnswer{Roster: r}, nil
	})
	stopPut := serveJSON(h, RosterPushProtocol, maxRosterBytes*4/3+1024, log, func(_ context.Context, from peer.ID, req *rosterPush) (any, error) {
		if err := put(from, req.Roster); err != nil {
			return nil, refusal("roster_refused", err)
		}
		return struct{}{}, nil
	})
	return func() { stopGet(); stopPut() }
}

// FetchRoster asks p for its roster.
func FetchRoster(ctx context.Context, h host.Host, p peer.ID) ([]byte, error) {
	var a rosterAnswer
	if err := exchange(ctx, h, p, RosterProtocol, rosterRequest{}, &a, maxRosterBytes*4/3+1024); err != nil {
		return nil, err
	}
	if len(a.Roster) == 0 {
		return nil, errors.New("p2p: empty roster")
	}
	return a.Roster, nil
}

// PushRoster delivers roster to p.
func PushRoster(ctx context.Context, h host.Host, p peer.ID, roster []byte) error {
	return exchange(ctx, h, p, RosterPushProtocol, rosterPush{Roster: roster}, nil, 1<<10)
}
