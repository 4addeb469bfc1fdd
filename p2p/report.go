package p2p

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
)

// ReportProtocol carries a machine's word on the slices placed on it to
// the coordinator: for each, whether it is loading, served, or unavailable
// and why. The coordinator folds the reports into the placements' states,
// which the signed roster carries to every member. One JSON request, an
// empty answer.
const ReportProtocol = "/svc/report/1.0.0"

// maxReport bounds a report: a few hundred slices with their reasons.
const maxReport = 256 << 10

// SliceReport is one slice's state on the reporting machine.
type SliceReport struct {
	Model    string `json:"model"`
	Manifest string `json:"manifest"`
	First    int    `json:"first"`
	Last     int    `json:"last"`
	State    string `json:"state"`
	Reason   string `json:"reason,omitempty"`
}

// Report is what a machine sends.
type Report struct {
	Slices []SliceReport `json:"slices"`
	// Memory is what the machine's configuration gives to slices (bytes;
	// 0: not configured), Available what it has free now.
	Memory    int64 `json:"memory,omitempty"`
	Available int64 `json:"available,omitempty"`
	// PromptCache is the memory each slice's node may fill with its prompt
	// cache (bytes; 0: none, or a machine that predates it), which a
	// placement counts with every slice it puts on the machine.
	PromptCache int64 `json:"prompt_cache,omitempty"`
	// KVCache is the memory each slice's node may fill with its sessions'
	// keys and values (bytes), which a placement counts with every slice
	// it puts on the machine, like PromptCache. 0 (absent) is automatic:
	// SliceCacheBytes of the slice's blocks, 2GiB or one session of the
	// model's whole context there where that is more. A machine that
	// predates the field sends none and is counted so too.
	KVCache int64 `json:"kv_cache,omitempty"`
}

// ServeReports answers ReportProtocol on h: handle receives each report
// with its sender (a Refusal is sent as it is, any other error as
// "internal"). stop removes the handler and waits for those in progress.
func ServeReports(h host.Host, handle func(ctx context.Context, from peer.ID, r *Report) error, log *slog.Logger) (stop func(), err error) {
	if handle == nil {
		return nil, errors.New("p2p: report server needs a handler")
	}
	return serveJSON(h, ReportProtocol, maxReport, log,
		func(ctx context.Context, from peer.ID, r *Report) (any, error) {
			if err := handle(ctx, from, r); err != nil {
				return nil, refusal("refused", err)
			}
			return struct{}{}, nil
		}), nil
}

// SendReport sends r to p (the coordinator).
func SendReport(ctx context.Context, h host.Host, p peer.ID, r Report) error {
	if err := exchange(ctx, h, p, ReportProtocol, r, nil, 1<<10); err != nil {
		return fmt.Errorf("p2p: report to %s: %w", p, err)
	}
	return nil
}
