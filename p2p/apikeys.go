package p2p

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"

	"svc/apikey"
)

// APIKeysProtocol carries the managed variant's API key set from the
// coordinator to the API members: the member says which version it holds,
// the coordinator answers with the set when it has a newer one. Only the
// records travel (hashes, scope, expiry, rate, revocation), never a key.
const APIKeysProtocol = "/svc/apikeys/1.0.0"

// Bounds of the API key protocol.
const (
	maxAPIKeysRequest = 1 << 10
	// maxAPIKeysAnswer holds some 50,000 key records.
	maxAPIKeysAnswer = 16 << 20
)

type apiKeysRequest struct {
	Have uint64 `json:"have"`
}

type apiKeysAnswer struct {
	Changed bool        `json:"changed"`
	Set     *apikey.Set `json:"set,omitempty"`
}

// APIKeysSource is what the coordinator serves: the current key set, and
// who may have it (API members; a Refusal is sent as it is, any other
// error as "internal").
type APIKeysSource struct {
	Keys      func() (apikey.Set, error)
	Authorize func(p peer.ID) error
	Logger    *slog.Logger
}

// ServeAPIKeys answers APIKeysProtocol on h until the returned stop is
// called (which waits for the answers in progress).
func ServeAPIKeys(h host.Host, src APIKeysSource) (stop func(), err error) {
	if src.Keys == nil || src.Authorize == nil {
		return nil, errors.New("p2p: API key server needs Keys and Authorize")
	}
	return serveJSON(h, APIKeysProtocol, maxAPIKeysRequest, src.Logger,
		func(_ context.Context, from peer.ID, req *apiKeysRequest) (any, error) {
			if err := src.Authorize(from); err != nil {
				return nil, refusal("not_permitted", err)
			}
			set, err := src.Keys()
			if err != nil {
				return nil, err
			}
			if set.Version <= req.Have {
				return apiKeysAnswer{}, nil
			}
			return apiKeysAnswer{Changed: true, Set: &set}, nil
		}), nil
}

// FetchAPIKeys asks peer p (the coordinator) for the key set newer than
// version have; changed is false when there is none.
func FetchAPIKeys(ctx context.Context, h host.Host, p peer.ID, have uint64) (set apikey.Set, changed bool, err error) {
	var ans apiKeysAnswer
	if err := exchange(ctx, h, p, APIKeysProtocol, apiKeysRequest{Have: have}, &ans, maxAPIKeysAnswer); err != nil {
		return apikey.Set{}, false, err
	}
	if !ans.Changed {
		return apikey.Set{}, false, nil
	}
	if ans.Set == nil {
		return apikey.Set{}, false, fmt.Errorf("p2p: %s answered a change without a key set", p)
	}
	for i := range ans.Set.Keys {
		if err := ans.Set.Keys[i].Validate(); err != nil {
			return apikey.Set{}, false, fmt.Errorf("p2p: key set from %s: %w", p, err)
		}
	}
	return *ans.Set, true, nil
}
