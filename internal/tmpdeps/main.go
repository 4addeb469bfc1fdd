//go:build tools

// Package tmpdeps pins the modules the rooms will import, so that go.mod
// keeps them while the packages that use them are being written.
package tmpdeps

import (
	_ "github.com/dlclark/regexp2"
	_ "github.com/ipfs/go-datastore"
	_ "github.com/libp2p/go-libp2p"
	_ "github.com/libp2p/go-libp2p-kad-dht"
	_ "github.com/nikolalohinski/gonja/v2"
	_ "github.com/openai/openai-go"
	_ "github.com/prometheus/client_golang/prometheus"
	_ "github.com/schollz/progressbar/v3"
	_ "github.com/spf13/cobra"
	_ "github.com/valyala/fasthttp"
	_ "golang.org/x/sys/unix"
	_ "google.golang.org/protobuf/proto"
)
