package server

import (
	"testing"

	"svc/internal/swarmtest"
	"svc/shards/chattmpl"
	"svc/shards/tokenizer"
)

// startSwarm starts a real swarm in this process: one libp2p node per range,
// sharing one opened model, and a router that joined them over the DHT.
func startSwarm(t *testing.T, path string, ranges [][2]int) *swarmtest.Swarm {
	t.Helper()
	return swarmtest.Start(t, swarmtest.Config{Model: path, Shared: true, Ranges: ranges})
}

func swarmTokenizer(t *testing.T, sw *swarmtest.Swarm) *tokenizer.Tokenizer {
	t.Helper()
	tok, err := tokenizer.FromGGUF(sw.Model.File())
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// swarmChatPrompt renders and tokenizes a chat as the API does.
func swarmChatPrompt(t *testing.T, sw *swarmtest.Swarm, msgs []map[string]string) (string, []int32) {
	t.Helper()
	var cm []chattmpl.Message
	for _, m := range msgs {
		cm = append(cm, chattmpl.Message{Role: m["role"], Content: m["content"]})
	}
	text, ids, err := ChatPrompt(sw.Model.File(), cm, nil)
	if err != nil {
		t.Fatal(err)
	}
	return text, ids
}
