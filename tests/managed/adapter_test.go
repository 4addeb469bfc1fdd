package managed

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"svc/internal/testenv"
	"svc/p2p"
	"svc/shards/slice"
)

// TestManagedAdapter: stories260K served with a LoRA adapter on two
// machines; each machine holds only its blocks' adapter pairs (a sparse
// file; the token embedding's on the first machine, the output head's on
// the last) and serves the model with them, so that the managed API answers
// stories260K-tales exactly as svc generate --adapter does, and the base as
// svc generate does.
func TestManagedAdapter(t *testing.T) {
	d := newDeployment(t)
	d.svc("licence", "issue", "--key", d.path("vendor.key"), "--licensee", "ACME", "--expires", "8760h",
		"--machines", "5", "--models", "2", "--features", "api", "--out", d.path("acme.licence"))
	d.mustCo("licence", "install", d.path("acme.licence"))
	d.mustCo("firewall", "open", "--from", "127.0.0.0/8", "--for", "1h")
	for _, m := range []string{"m1", "m2"} {
		if r := d.enroll(m, d.token("--label", m)); r.Code != 0 {
			t.Fatalf("enroll %s: %d\n%s", m, r.Code, r.Stderr)
		}
		d.startAgent(m)
	}
	waitFor(t, "two machines online", func() bool {
		return strings.Count(d.mustCo("node", "list"), " online ") == 2
	})

	stories := testenv.Path(t, "models", "stories260K.gguf")
	adapter := d.path("tales.gguf")
	// Every block matrix and both ends: the first machine must hold the
	// token embedding's pair, the last the output head's.
	d.svc("model", "synth-adapter", "--base", stories, "--out", adapter, "--rank", "8", "--alpha", "16", "--std", "0.03", "--seed", "9",
		"--targets", "attn_q,attn_k,attn_v,attn_output,ffn_gate,ffn_up,ffn_down,token_embd,output")
	refused(t, "an adapter of another model", d.co("model", "serve", stories, "--adapter",
		"x="+testenv.Path(t, "models", "mini-qwen2-q8_0.gguf")), "adapter x")
	refused(t, "an adapter name with a dash", d.co("model", "serve", stories, "--adapter", "a-b="+adapter), "adapter name")
	d.mustCo("model", "serve", stories, "--adapter", "tales="+adapter)
	waitFor(t, "stories260K served", func() bool {
		return regexp.MustCompile(`(?m)^stories260K\s+served\s`).MatchString(d.mustCo("model", "list"))
	})
	list := d.mustCo("model", "list")
	if !regexp.MustCompile(`(?m)^stories260K-tales\s+served\s+5\s+adapter on stories260K's slices`).MatchString(list) {
		t.Fatalf("model list does not show the adapter:\n%s", list)
	}
	t.Logf("model list:\n%s", list)

	// Each machine's adapter file is a sparse copy that holds the pairs of
	// its blocks, checked, and nothing of the others.
	man, err := slice.BuildAdapter(adapter)
	if err != nil {
		t.Fatal(err)
	}
	rangeOf := regexp.MustCompile(`-(\d+)-(\d+)-a[0-9a-f]+\.tales-[0-9a-f]+\.gguf$`)
	for _, m := range []string{"m1", "m2"} {
		files, _ := filepath.Glob(filepath.Join(d.path(m), "slices", "*.tales-*.gguf"))
		if len(files) != 1 || !rangeOf.MatchString(files[0]) {
			t.Fatalf("%s holds adapter files %v", m, files)
		}
		sub := rangeOf.FindStringSubmatch(files[0])
		first, _ := strconv.Atoi(sub[1])
		last, _ := strconv.Atoi(sub[2])
		need, err := man.NeedBlocks(first, last, 5)
		if err != nil {
			t.Fatal(err)
		}
		if err := slice.Check(files[0], man, need); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		b, err := os.ReadFile(files[0])
		if err != nil {
			t.Fatal(err)
		}
		held := 0
		for _, tn := range man.Tensors {
			if slices.Contains(need, tn) {
				held++
				continue
			}
			off := man.DataOffset() + tn.Offset
			if strings.Trim(string(b[off:off+tn.Size]), "\x00") != "" {
				t.Fatalf("%s (blocks %d:%d) holds bytes of %s", m, first, last, tn.Name)
			}
		}
		if first == 0 && last == 5 {
			t.Fatalf("%s holds every block: the model was not split", m)
		}
		for _, end := range []struct {
			name string
			want bool
		}{{"token_embd.weight.lora_a", first == 0}, {"output.weight.lora_b", last == 5}} {
			if got := slices.ContainsFunc(need, func(tn slice.Tensor) bool { return tn.Name == end.name }); got != end.want {
				t.Fatalf("%s (blocks %d:%d) holds %s: %v, want %v", m, first, last, end.name, got, end.want)
			}
		}
		t.Logf("%s: blocks %d:%d, %d of the adapter's %d tensors", m, first, last, held, len(man.Tensors))
	}

	api := d.startAPI("api-1")
	key := api.key(t, "--models", "*", "--expires", "1d", "--rate", "1000/min", "--name", "web")
	texts := map[string]string{}
	for _, c := range []struct{ model, flags string }{{"stories260K-tales", "--adapter=" + adapter}, {"stories260K", ""}} {
		args := []string{"generate", "--model", stories, "--prompt", "Once upon a time", "-n", "24", "--json"}
		if c.flags != "" {
			args = append(args, c.flags)
		}
		var want struct {
			Text   string  `json:"text"`
			Tokens []int32 `json:"completion_tokens"`
		}
		out := d.svc(args...)
		if err := json.Unmarshal([]byte(out), &want); err != nil {
			t.Fatalf("svc generate --json: %v\n%s", err, out)
		}
		body := fmt.Sprintf(`{"model":%q,"prompt":"Once upon a time","max_tokens":24}`, c.model)
		var r apiAnswer
		waitFor(t, "the API serves "+c.model, func() bool {
			r = api.call(t, "POST", "/v1/completions", key, body)
			return r.status == 200
		})
		var got struct {
			Choices []struct {
				Text string `json:"text"`
			} `json:"choices"`
			Usage struct {
				Completion int `json:"completion_tokens"`
			} `json:"usage"`
		}
		if err := json.Unmarshal(r.body, &got); err != nil || len(got.Choices) != 1 {
			t.Fatalf("completion of %s: %v\n%s", c.model, err, r.body)
		}
		if got.Choices[0].Text != want.Text || got.Usage.Completion != len(want.Tokens) {
			t.Fatalf("%s through the managed API: %q (%d tokens), svc generate %s %q (%d)", c.model, got.Choices[0].Text, got.Usage.Completion, c.flags, want.Text, len(want.Tokens))
		}
		texts[c.model] = want.Text
		t.Logf("%s through the managed API equals svc generate %s: %q", c.model, c.flags, want.Text)
	}
	if texts["stories260K-tales"] == texts["stories260K"] {
		t.Fatal("the adapter does not change the text")
	}

	// The API member holds no slice: the coordinator gives it no part of
	// the adapter.
	member := d.member(t, "api2")
	coord := member.t.View().Coord.Peer
	pl, _ := member.t.View().Placement("stories260K")
	as := pl.Adapters()
	if len(as) != 1 || as[0].Name != "tales" {
		t.Fatalf("the roster's placement carries adapters %+v", as)
	}
	if digest, _ := p2p.FileDigest(adapter); as[0].Digest != digest {
		t.Fatalf("the roster says adapter digest %s, the file's is %s", as[0].Digest, digest)
	}
	if _, err := p2p.FetchManifest(d.ctx(), member.ep.Host, coord, as[0].Manifest); err == nil || !strings.Contains(err.Error(), "no slice") {
		t.Fatalf("an API member got the adapter's manifest: %v", err)
	}
}
