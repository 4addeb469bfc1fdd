package coordinator

import (
	"encoding/json"
	"strings"
	"testing"

	"svc/apikey"
)

func TestAPIKeyCommands(t *testing.T) {
	d, sock := testDaemon(t)
	out, err := send(t, sock, "apikey.create", APIKeyCreateArgs{Name: "app", Models: "stories260K,llama", Expires: "30d", Rate: "5/min"})
	if err != nil {
		t.Fatalf("apikey create: %v\n%s", err, out)
	}
	token := strings.SplitN(out, "\n", 2)[0]
	id, ok := apikey.ParseID(token)
	if !ok {
		t.Fatalf("apikey create printed %q first", token)
	}
	set, err := d.APIKeySet()
	if err != nil || len(set.Keys) != 1 || set.Version != 1 {
		t.Fatalf("key set %+v %v", set, err)
	}
	k := set.Keys[0]
	if k.ID != id || !k.Matches(token) || k.Name != "app" || k.Rate != 5 || !k.Permits("llama") || k.Permits("other") {
		t.Errorf("stored key %+v", k)
	}
	// Only the hash is stored: the secret is nowhere in the database.
	var dump strings.Builder
	if _, err := d.Store().Backup(&dump); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(dump.String(), token[13:]) {
		t.Error("the key's secret is in the state database")
	}
	for _, bad := range []APIKeyCreateArgs{
		{Name: "app", Models: "*", Expires: "1d", Rate: "1/min"}, // name taken
		{Models: "", Expires: "1d", Rate: "1/min"},
		{Models: "*", Expires: "yesterday", Rate: "1/min"},
		{Models: "*", Expires: "2020-01-01", Rate: "1/min"},
		{Models: "*", Expires: "1d", Rate: "0/min"},
		{Models: "*,a", Expires: "1d", Rate: "1/min"},
		{Name: "two words", Models: "*", Expires: "1d", Rate: "1/min"},
	} {
		if out, err := send(t, sock, "apikey.create", bad); err == nil {
			t.Errorf("apikey create %+v accepted: %s", bad, out)
		}
	}
	out, err = send(t, sock, "apikey.create", APIKeyCreateArgs{Models: "*", Expires: "2h", Rate: "60"})
	if err != nil {
		t.Fatal(err)
	}
	out, err = send(t, sock, "apikey.list", nil)
	if err != nil || !strings.Contains(out, "app") || !strings.Contains(out, "key-") || strings.Count(out, "valid") != 2 || !strings.Contains(out, "version 2") {
		t.Fatalf("apikey list: %v\n%s", err, out)
	}
	if strings.Contains(out, token) {
		t.Error("apikey list shows a key")
	}
	if _, err := send(t, sock, "apikey.revoke", IDArgs{ID: "app"}); err != nil {
		t.Fatal(err)
	}
	if _, err := send(t, sock, "apikey.revoke", IDArgs{ID: id}); err == nil {
		t.Error("a revoked key revoked again")
	}
	set, _ = d.APIKeySet()
	if set.Version != 3 {
		t.Errorf("version after revoke: %d", set.Version)
	}
	for _, k := range set.Keys {
		if k.ID == id && !k.Revoked {
			t.Error("revoke did not mark the key")
		}
	}
	// The trail holds the commands, never the key.
	out, err = send(t, sock, "audit.show", AuditArgs{Kind: "apikey"})
	if err != nil || strings.Count(out, "\n") < 10 || strings.Contains(out, token[13:]) {
		t.Fatalf("audit show --kind apikey: %v\n%s", err, out)
	}

	// What an API member refused is found by its reference.
	ev, _ := json.Marshal(APIEvent{Reference: "chatcmpl-abcdefghijklmnopqrstuvwx", Status: 502, Code: "generation_interrupted",
		Model: "stories260K", Machine: "gpu-1", Peer: "12D3KooWabc", Port: "7400", Cause: "stream reset", Fix: "svc-coordinator node list"})
	if err := d.RecordAPIEvents("api:api-1", []json.RawMessage{ev}); err != nil {
		t.Fatal(err)
	}
	if err := d.RecordAPIEvents("api:api-1", []json.RawMessage{json.RawMessage(`{"code":"x"}`)}); err == nil {
		t.Error("an event without a reference accepted")
	}
	out, err = send(t, sock, "audit.show", AuditArgs{Reference: "chatcmpl-abcdefghijklmnopqrstuvwx"})
	if err != nil || !strings.Contains(out, "machine=gpu-1") || !strings.Contains(out, "port=7400") || !strings.Contains(out, "cause=stream reset") || !strings.Contains(out, "api.error") {
		t.Fatalf("audit show --reference: %v\n%s", err, out)
	}
}
