package router

import (
	"context"
	"errors"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
)

// HoldersOf counts the unexpired announcements of a model in r's view, for
// the external tests.
func HoldersOf(r *Router, digest string) int { return len(r.snapshot()[digest]) }

// Exclude excludes p as a failure of one of its hops would.
func Exclude(r *Router, p peer.ID) {
	r.blame(context.Background(), p, errors.New("stream reset (test)"), time.Now())
}

// Excluded reports whether p is left out of new chains now.
func Excluded(r *Router, p peer.ID) bool { return r.excluded(p) }
