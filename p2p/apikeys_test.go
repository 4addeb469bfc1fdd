package p2p

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"svc/apikey"
)

func TestAPIKeysAndEvents(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	coord := client(t, ctx, nil)
	api := client(t, ctx, nil)
	stranger := client(t, ctx, nil)
	for _, c := range []*Endpoint{api, stranger} {
		c.Host.Peerstore().AddAddrs(coord.ID(), coord.Host.Addrs(), time.Hour)
	}
	now := time.Now()
	_, k := apikey.Generate(now)
	k.Name, k.Models, k.Rate, k.Expires = "app", []string{"*"}, 5, now.Add(time.Hour)
	set := apikey.Set{Version: 7, Keys: []apikey.Key{k}}
	onlyAPI := func(p peer.ID) error {
		if p != api.ID() {
			return fmt.Errorf("%s is not an API member", p)
		}
		return nil
	}
	stop, err := ServeAPIKeys(coord.Host, APIKeysSource{Keys: func() (apikey.Set, error) { return set, nil }, Authorize: onlyAPI})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()

	got, changed, err := FetchAPIKeys(ctx, api.Host, coord.ID(), 0)
	if err != nil || !changed || got.Version != 7 || len(got.Keys) != 1 || got.Keys[0].Hash != k.Hash {
		t.Fatalf("fetch: %+v %v %v", got, changed, err)
	}
	if _, changed, err := FetchAPIKeys(ctx, api.Host, coord.ID(), 7); err != nil || changed {
		t.Fatalf("fetch at the current version: changed=%v %v", changed, err)
	}
	var ref *Refusal
	if _, _, err := FetchAPIKeys(ctx, stranger.Host, coord.ID(), 0); !errors.As(err, &ref) || ref.Code != "not_permitted" {
		t.Fatalf("a peer that is not an API member: %v", err)
	}

	var mu sync.Mutex
	var received []json.RawMessage
	stopEv, err := ServeAPIEvents(coord.Host, APIEventsSink{Accept: func(_ context.Context, from peer.ID, evs []json.RawMessage) error {
		if err := onlyAPI(from); err != nil {
			return &Refusal{Code: "not_permitted", Message: err.Error()}
		}
		mu.Lock()
		received = append(received, evs...)
		mu.Unlock()
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer stopEv()
	batch := []json.RawMessage{json.RawMessage(`{"reference":"chatcmpl-a","code":"capacity"}`), json.RawMessage(`{"reference":"chatcmpl-b","code":"timeout"}`)}
	if err := SendAPIEvents(ctx, api.Host, coord.ID(), batch); err != nil {
		t.Fatal(err)
	}
	if err := SendAPIEvents(ctx, stranger.Host, coord.ID(), batch); !errors.As(err, &ref) {
		t.Fatalf("events from a stranger: %v", err)
	}
	if err := SendAPIEvents(ctx, api.Host, coord.ID(), make([]json.RawMessage, 257)); err == nil {
		t.Fatal("a batch of 257 events was sent")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(received) != 2 || string(received[1]) != string(batch[1]) {
		t.Fatalf("received %s", received)
	}
}

func TestAPITLS(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	coord := client(t, ctx, nil)
	api := client(t, ctx, nil)
	api.Host.Peerstore().AddAddrs(coord.ID(), coord.Host.Addrs(), time.Hour)
	stop, err := ServeAPITLS(coord.Host, APITLSIssuer{Issue: func(_ context.Context, from peer.ID, csr []byte) ([]byte, error) {
		if string(csr) == "bad" {
			return nil, &Refusal{Code: "bad_request", Message: "unreadable request"}
		}
		return append([]byte(from.String()+":"), csr...), nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	got, err := RequestAPITLS(ctx, api.Host, coord.ID(), []byte("csr"))
	if err != nil || string(got) != api.ID().String()+":csr" {
		t.Fatalf("answer %q %v", got, err)
	}
	var ref *Refusal
	if _, err := RequestAPITLS(ctx, api.Host, coord.ID(), []byte("bad")); !errors.As(err, &ref) || ref.Code != "bad_request" {
		t.Fatalf("refusal: %v", err)
	}
}
