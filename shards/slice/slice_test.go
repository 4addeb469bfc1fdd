package slice

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"svc/internal/testenv"
	"svc/shards/model"
)

// fixtures are a Llama with an untied head and a Qwen2 (biases, tied
// head or not as the file says).
var fixtures = []string{"stories260K.gguf", "mini-llama-q4_k_m.gguf", "mini-qwen2-q8_0.gguf"}

func build(t *testing.T, name string) (string, *Manifest) {
	t.Helper()
	path := testenv.Path(t, "models", name)
	m, err := Build(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, m
}

// fromFile fetches tensors from the whole file, as the coordinator does.
func fromFile(t *testing.T, path string, m *Manifest) Fetch {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return func(ctx context.Context, tn Tensor, w io.Writer) error {
		_, err := ReadTensor(f, m, tn, w)
		return err
	}
}

func TestDigestMatchesModel(t *testing.T) {
	for _, name := range fixtures {
		path, m := build(t, name)
		mo, err := model.Open(path, model.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if m.Digest != mo.Digest() {
			t.Errorf("%s: manifest digest %s, model digest %s", name, m.Digest, mo.Digest())
		}
		if m.Blocks() != mo.Config().Blocks {
			t.Errorf("%s: %d blocks, model %d", name, m.Blocks(), mo.Config().Blocks)
		}
		_ = mo.Close()
	}
}

func TestManifestEncoding(t *testing.T) {
	_, m := build(t, "stories260K.gguf")
	b, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	again, err := Parse(b, m.Hash())
	if err != nil {
		t.Fatal(err)
	}
	if again.Hash() != m.Hash() || again.Digest != m.Digest || again.Blocks() != m.Blocks() {
		t.Fatalf("round trip changed the manifest: %s/%s", again.Hash(), m.Hash())
	}
	if _, err := Parse(b, "sha256:"+strings.Repeat("0", 64)); !errors.Is(err, ErrManifest) {
		t.Fatalf("wrong hash accepted: %v", err)
	}
	// A changed tensor hash changes the manifest's hash, and a digest
	// that header and samples do not give is refused outright.
	alt := *m
	alt.Tensors = append([]Tensor(nil), m.Tensors...)
	alt.Tensors[0].SHA256 = strings.Repeat("a", 64)
	if alt.Hash() == m.Hash() {
		t.Fatal("a changed tensor hash left the manifest's hash unchanged")
	}
	alt = *m
	alt.Digest = strings.Repeat("b", 64)
	bad, _ := alt.Marshal()
	if _, err := Parse(bad, ""); !errors.Is(err, ErrManifest) || !strings.Contains(err.Error(), "digest") {
		t.Fatalf("wrong digest accepted: %v", err)
	}
	alt = *m
	alt.Tensors = m.Tensors[1:]
	bad, _ = alt.Marshal()
	if _, err := Parse(bad, ""); !errors.Is(err, ErrManifest) {
		t.Fatalf("missing tensor accepted: %v", err)
	}
	if _, err := Parse([]byte(`{"version":1,"extra":1}`), ""); !errors.Is(err, ErrManifest) {
		t.Fatalf("unknown field accepted: %v", err)
	}
}

func TestNeed(t *testing.T) {
	for _, name := range fixtures {
		_, m := build(t, name)
		all, err := m.Need(0, m.Blocks())
		if err != nil {
			t.Fatal(err)
		}
		if len(all) != len(m.Tensors) {
			t.Errorf("%s: the whole range needs %d of %d tensors", name, len(all), len(m.Tensors))
		}
		seen := map[string]bool{}
		for b := 0; b < m.Blocks(); b++ {
			ts, err := m.Need(b, b+1)
			if err != nil {
				t.Fatal(err)
			}
			for _, tn := range ts {
				if blk, ok := blockOf(tn.Name); ok && blk != b {
					t.Errorf("%s: range %d:%d needs %s", name, b, b+1, tn.Name)
				}
				if tn.Name == "token_embd.weight" && b != 0 && !(b == m.Blocks()-1 && m.Config().TiedHead) {
					t.Errorf("%s: range %d:%d needs the token embedding", name, b, b+1)
				}
				seen[tn.Name] = true
			}
		}
		if len(seen) != len(m.Tensors) {
			t.Errorf("%s: one-block ranges need %d of %d tensors together", name, len(seen), len(m.Tensors))
		}
		for _, r := range [][2]int{{-1, 1}, {0, 0}, {1, m.Blocks() + 1}} {
			if _, err := m.Need(r[0], r[1]); err == nil {
				t.Errorf("%s: range %v accepted", name, r)
			}
		}
	}
}

// TestSparseGeneration writes one sparse slice per range, loads each
// range's shard from its own slice under the model's identity, and checks
// that a generation through them equals one through the whole file; each
// slice occupies about its share on disk.
func TestSparseGeneration(t *testing.T) {
	for _, name := range fixtures {
		t.Run(name, func(t *testing.T) {
			path, m := build(t, name)
			full, err := model.Open(path, model.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer full.Close()
			ranges, err := model.EvenSplit(m.Blocks(), min(3, m.Blocks()))
			if err != nil {
				t.Fatal(err)
			}
			want := generate(t, []*model.Model{full}, ranges)

			dir := t.TempDir()
			fetch := fromFile(t, path, m)
			var parts []*model.Model
			for _, r := range ranges {
				ts, err := m.Need(r[0], r[1])
				if err != nil {
					t.Fatal(err)
				}
				sp := filepath.Join(dir, fmt.Sprintf("%d-%d.gguf", r[0], r[1]))
				st, err := Write(t.Context(), sp, m, ts, 0, fetch)
				if err != nil {
					t.Fatal(err)
				}
				if st.Fetched != len(ts) || st.Bytes != Bytes(ts) {
					t.Fatalf("stats %+v for %d tensors of %d bytes", st, len(ts), Bytes(ts))
				}
				share, _ := m.RangeBytes(r[0], r[1])
				used := diskUsage(t, sp)
				// Each tensor may round up to whole file-system blocks at
				// both ends.
				slack := uint64(len(ts)+1) * 2 * 4096
				if used > share+slack {
					t.Errorf("range %v: %d bytes on disk for a share of %d (whole file %d)", r, used, share, m.Size)
				}
				t.Logf("range %v: %d KiB on disk, share %d KiB, whole %d KiB", r, used>>10, share>>10, m.Size>>10)
				mo, err := model.Open(sp, model.Options{Digest: m.Digest})
				if err != nil {
					t.Fatal(err)
				}
				defer mo.Close()
				if mo.Digest() != full.Digest() {
					t.Fatalf("sparse model digest %s, whole %s", mo.Digest(), full.Digest())
				}
				parts = append(parts, mo)
			}
			got := generate(t, parts, ranges)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("sparse slices generate %v, the whole file %v", got, want)
			}
		})
	}
}

// generate runs a greedy generation through one shard per range, shard i
// of models[i] (or of models[0] for all).
func generate(t *testing.T, models []*model.Model, ranges [][2]int) []int32 {
	t.Helper()
	var hops []model.Hop
	for i, r := range ranges {
		mo := models[0]
		if len(models) > 1 {
			mo = models[i]
		}
		sh, err := mo.NewShard(r[0], r[1], model.ShardOptions{Threads: 2, CacheTokens: 64})
		if err != nil {
			t.Fatal(err)
		}
		defer sh.Close()
		if err := sh.OpenSession("s", 64); err != nil {
			t.Fatal(err)
		}
		hops = append(hops, model.SessionHop{Shard: sh, ID: "s"})
	}
	res, err := model.Generate(t.Context(), hops, []int32{1, 2, 3, 4, 5}, model.GenOptions{MaxTokens: 16}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Completion
}

func diskUsage(t *testing.T, path string) uint64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return uint64(fi.Sys().(*syscall.Stat_t).Blocks) * 512
}

func TestWriteRefusesBadBytes(t *testing.T) {
	path, m := build(t, "stories260K.gguf")
	good := fromFile(t, path, m)
	ts, _ := m.Need(0, 1)
	cases := map[string]Fetch{
		"flipped": func(ctx context.Context, tn Tensor, w io.Writer) error {
			var b bytes.Buffer
			if err := good(ctx, tn, &b); err != nil {
				return err
			}
			b.Bytes()[0] ^= 1
			_, err := w.Write(b.Bytes())
			return err
		},
		"short": func(ctx context.Context, tn Tensor, w io.Writer) error {
			_, err := w.Write(make([]byte, tn.Size-1))
			return err
		},
		"long": func(ctx context.Context, tn Tensor, w io.Writer) error {
			_, err := w.Write(make([]byte, tn.Size+1))
			return err
		},
		"refused": func(ctx context.Context, tn Tensor, w io.Writer) error {
			return errors.New("not yours")
		},
	}
	for name, fetch := range cases {
		sp := filepath.Join(t.TempDir(), "s.gguf")
		if _, err := Write(t.Context(), sp, m, ts, 2, fetch); err == nil || !strings.Contains(err.Error(), "tensor ") {
			t.Errorf("%s: %v", name, err)
		}
		if _, err := os.Stat(sp); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: an incomplete slice is in place: %v", name, err)
		}
	}
}

// TestWriteResumes: a write that fails keeps what it verified, and the next
// one fetches only the rest; a complete slice is not fetched again, and a
// damaged one is repaired.
func TestWriteResumes(t *testing.T) {
	path, m := build(t, "stories260K.gguf")
	good := fromFile(t, path, m)
	ts, _ := m.Need(0, m.Blocks())
	sp := filepath.Join(t.TempDir(), "s.gguf")
	bad := ts[len(ts)/2].Name
	_, err := Write(t.Context(), sp, m, ts, 1, func(ctx context.Context, tn Tensor, w io.Writer) error {
		if tn.Name == bad {
			return errors.New("unreachable")
		}
		return good(ctx, tn, w)
	})
	if err == nil {
		t.Fatal("a failed fetch went unnoticed")
	}
	st, err := Write(t.Context(), sp, m, ts, 0, good)
	if err != nil {
		t.Fatal(err)
	}
	if st.Reused == 0 || st.Fetched == 0 || st.Reused+st.Fetched != len(ts) {
		t.Fatalf("resumed write: %+v of %d tensors", st, len(ts))
	}
	if st, err = Write(t.Context(), sp, m, ts, 0, good); err != nil || st.Fetched != 0 {
		t.Fatalf("complete slice fetched again: %+v, %v", st, err)
	}
	// Damage one tensor in place: only it is fetched again.
	f, err := os.OpenFile(sp, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	tn := ts[0]
	if _, err := f.WriteAt([]byte{0xff, 0xfe}, int64(m.DataOffset()+tn.Offset)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := Check(sp, m, ts); err == nil {
		t.Fatal("damaged slice checks")
	}
	if st, err = Write(t.Context(), sp, m, ts, 0, good); err != nil || st.Fetched != 1 {
		t.Fatalf("repair: %+v, %v", st, err)
	}
	if err := Check(sp, m, ts); err != nil {
		t.Fatal(err)
	}
}
