package p2p

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
)

type echoReq struct {
	Text string `json:"text"`
}

type echoAnswer struct {
	Text string  `json:"text"`
	From peer.ID `json:"from"`
}

func TestJSONExchange(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	srv := client(t, ctx, nil)
	cli := client(t, ctx, nil)
	cli.Host.Peerstore().AddAddrs(srv.ID(), srv.Host.Addrs(), time.Hour)
	const proto = "/svc/test-echo/1.0.0"
	handled := make(chan error, 16)
	srv.Host.SetStreamHandler(proto, func(s network.Stream) {
		handled <- answer(ctx, s, 1<<10, func(_ context.Context, from peer.ID, r *echoReq) (any, error) {
			switch r.Text {
			case "no":
				return nil, &Refusal{Code: "refused", Message: "said no"}
			case "fail":
				return nil, errors.New("secret detail")
			}
			return echoAnswer{Text: strings.ToUpper(r.Text), From: from}, nil
		})
	})

	var got echoAnswer
	if err := exchange(ctx, cli.Host, srv.ID(), proto, echoReq{Text: "hi"}, &got, 1<<10); err != nil {
		t.Fatal(err)
	}
	if got.Text != "HI" || got.From != cli.ID() {
		t.Fatalf("answer %+v", got)
	}
	if err := <-handled; err != nil {
		t.Fatalf("handler: %v", err)
	}

	var ref *Refusal
	err := exchange(ctx, cli.Host, srv.ID(), proto, echoReq{Text: "no"}, &got, 1<<10)
	if !errors.As(err, &ref) || ref.Code != "refused" || ref.Peer != srv.ID() {
		t.Fatalf("refusal: %v", err)
	}
	<-handled
	err = exchange(ctx, cli.Host, srv.ID(), proto, echoReq{Text: "fail"}, &got, 1<<10)
	if !errors.As(err, &ref) || ref.Code != "internal" || strings.Contains(err.Error(), "secret") {
		t.Fatalf("internal failure: %v", err)
	}
	if err := <-handled; err == nil || !strings.Contains(err.Error(), "secret") {
		t.Fatalf("handler error kept for the log: %v", err)
	}
	err = exchange(ctx, cli.Host, srv.ID(), proto, echoReq{Text: strings.Repeat("x", 2<<10)}, &got, 1<<10)
	if err == nil {
		t.Fatal("a request over the handler's limit was answered")
	}
	if err := <-handled; err == nil {
		t.Fatal("handler accepted a request over its limit")
	}
	// An answer over the caller's limit is refused by the caller.
	if err := exchange(ctx, cli.Host, srv.ID(), proto, echoReq{Text: strings.Repeat("y", 600)}, &got, 100); err == nil {
		t.Fatal("an answer over the caller's limit was read")
	}
	<-handled
}
