package p2p

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"svc/internal/testenv"
	"svc/p2p/wire"
	"svc/shards/model"
	"svc/shards/tensor"
)

// TestRecordAdapters: announcements with hostile adapter entries are
// rejected, naming the entry.
func TestRecordAdapters(t *testing.T) {
	now := time.Now()
	k, id := testKey(t)
	good := strings.Repeat("cd", 32)
	for _, c := range []struct {
		as   []*wire.Adapter
		want string // "" accepted
	}{
		{[]*wire.Adapter{{Name: "ad", Digest: good}, {Name: "v2.1_x", Digest: good}}, ""},
		{[]*wire.Adapter{{Name: "", Digest: good}}, "adapter name"},
		{[]*wire.Adapter{{Name: "a-b", Digest: good}}, "adapter name"},
		{[]*wire.Adapter{{Name: strings.Repeat("a", 65), Digest: good}}, "adapter name"},
		{[]*wire.Adapter{{Name: "ad", Digest: "xyz"}}, "adapter ad: digest"},
		{[]*wire.Adapter{{Name: "ad", Digest: good[:62]}}, "adapter ad: digest"},
		{make([]*wire.Adapter, maxAdapters+1), "adapters"},
	} {
		a := testAnnouncement(now, 1)
		a.Models[0].Adapters = c.as
		v, err := SignAnnouncement(k, a)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = OpenRecord(RecordKey(id), v, now, time.Minute)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%v: %v", c.as, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%d adapters: error %v, want one about %q", len(c.as), err, c.want)
		}
	}
}

// TestNodeAdapterSessions: a node serving an adapter opens sessions for it
// only with the same file digest, and refuses unknown adapters; a bad
// adapter file stops the node from starting, with the reason.
func TestNodeAdapterSessions(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	path := testenv.Path(t, "models", "stories260K.gguf")
	m, err := model.Open(path, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	dir := t.TempDir()
	ad := filepath.Join(dir, "ad.gguf")
	if err := m.SynthAdapter(ad, model.SynthAdapterOptions{Rank: 4, Type: tensor.F32, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	digest, err := FileDigest(ad)
	if err != nil {
		t.Fatal(err)
	}
	n, err := NewNode(ctx, NodeConfig{Model: m, First: 2, Last: 5, Listen: []string{"/ip4/127.0.0.1/tcp/0"}, Threads: 1,
		Adapters: []AdapterSpec{{Name: "ad", Path: ad}}})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	if got := n.record(false).Models[0].Adapters; len(got) != 1 || got[0].Name != "ad" || got[0].Digest != digest {
		t.Fatalf("announced adapters %v", got)
	}
	c := client(t, ctx, n.Addrs())
	open := func(id, name, dg string) error {
		s, err := OpenSession(ctx, c.Host, n.ID(), SessionOptions{ID: id, Digest: n.Digest(), First: 2, Last: 5, MaxLength: 8, Dim: 64, Adapter: name, AdapterDigest: dg})
		if err == nil {
			s.Close()
		}
		return err
	}
	if err := open("s1", "ad", digest); err != nil {
		t.Fatal(err)
	}
	if err := open("s2", "ad", strings.Repeat("0", 64)); err == nil || !strings.Contains(err.Error(), "digest") {
		t.Fatalf("wrong digest: %v", err)
	}
	if err := open("s3", "other", digest); err == nil || !strings.Contains(err.Error(), `"other"`) {
		t.Fatalf("unknown adapter: %v", err)
	}

	// Adapters that cannot be served stop the node before it goes online.
	q, err := model.Open(testenv.Path(t, "models", "mini-llama-q8_0.gguf"), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	wrong := filepath.Join(dir, "wrong.gguf")
	if err := q.SynthAdapter(wrong, model.SynthAdapterOptions{Rank: 4, Type: tensor.F32, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		spec AdapterSpec
		want string
	}{
		{AdapterSpec{Name: "w", Path: wrong}, "blk."},
		{AdapterSpec{Name: "bad-name", Path: ad}, "adapter name"},
		{AdapterSpec{Name: "gone", Path: filepath.Join(dir, "none.gguf")}, "none.gguf"},
		{AdapterSpec{Name: "model", Path: path}, "general.type"},
	} {
		_, err := NewNode(ctx, NodeConfig{Model: m, First: 0, Last: 5, Listen: []string{"/ip4/127.0.0.1/tcp/0"}, Threads: 1, Adapters: []AdapterSpec{c.spec}})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("adapter %s (%s): %v, want an error naming %q", c.spec.Name, c.spec.Path, err, c.want)
		}
	}
}
