package coordinator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
	bolt "go.etcd.io/bbolt"

	"svc/apikey"
	"svc/coordinator/audit"
	"svc/coordinator/ca"
	"svc/coordinator/store"
	"svc/p2p"
)

// API keys (package apikey): the coordinator issues them, stores only
// their hashes in the APIKeys bucket, counts every change in the
// "apikeys" version counter, and hands the set to the API members
// (APIKeySet, served over p2p/apikeys.go). The API members send back what
// they refused (RecordAPIEvents), which goes on the audit trail under the
// request's reference.

// APIKeys is the bucket of API key records by id.
const APIKeys = "apikeys"

// apiKeyCounter is the key set's version counter (in store.Meta).
const apiKeyCounter = "apikeys"

func (d *Daemon) registerAPIKeys() {
	d.Handle("apikey.create", d.cmdAPIKeyCreate)
	d.Handle("apikey.list", d.cmdAPIKeyList)
	d.Handle("apikey.revoke", d.cmdAPIKeyRevoke)
}

// APIKeyCreateArgs are apikey create's arguments, as the operator wrote
// them; the daemon parses them (one clock, one set of rules).
type APIKeyCreateArgs struct {
	Name    string `json:"name,omitempty"`
	Models  string `json:"models"`
	Expires string `json:"expires"`
	Rate    string `json:"rate"`
}

func (d *Daemon) cmdAPIKeyCreate(_ context.Context, c *Call) error {
	var a APIKeyCreateArgs
	if err := c.Args(&a); err != nil {
		return err
	}
	now := d.Now()
	models, err := apikey.ParseModels(a.Models)
	if err != nil {
		return fmt.Errorf("--%w", err)
	}
	expires, err := apikey.ParseExpiry(a.Expires, now)
	if err != nil {
		return fmt.Errorf("--%w", err)
	}
	if !expires.After(now) {
		return fmt.Errorf("--expires %s is in the past", a.Expires)
	}
	rate, err := apikey.ParseRate(a.Rate)
	if err != nil {
		return fmt.Errorf("--%w", err)
	}
	name := strings.TrimSpace(a.Name)
	if strings.ContainsAny(name, " \t\n\"'") || len(name) > 64 {
		return fmt.Errorf("--name %q: at most 64 characters, no spaces or quotes", a.Name)
	}
	token, k := apikey.Generate(now)
	if name == "" {
		name = "key-" + k.ID
	}
	k.Name, k.Models, k.Expires, k.Rate = name, models, expires, rate
	if err := k.Validate(); err != nil {
		return err
	}
	c.Target(k.ID)
	err = c.Commit(func(tx *bolt.Tx) error {
		taken := false
		if err := store.Each(tx, APIKeys, func(_ string, o apikey.Key) error {
			if o.Name == name && !o.Revoked && !o.Expired(now) {
				taken = true
			}
			return nil
		}); err != nil {
			return err
		}
		if taken {
			return fmt.Errorf("--name %s: a valid key of that name exists (apikey revoke it first, or choose another name)", name)
		}
		if err := store.Put(tx, APIKeys, k.ID, k); err != nil {
			return err
		}
		_, err := store.Counter(tx, apiKeyCounter)
		return err
	}, audit.Record{Detail: fmt.Sprintf("name=%s models=%s expires=%s rate=%d/min", name,
		strings.Join(models, ","), expires.Format(time.RFC3339), rate)})
	if err != nil {
		return err
	}
	c.Printf("%s\n\nThis is the API key; it is shown only now (the coordinator keeps its hash).\n", token)
	c.Printf("id       %s\nname     %s\nmodels   %s\nexpires  %s\nrate     %d/min\n",
		k.ID, name, strings.Join(models, ","), expires.Format("2006-01-02 15:04:05 UTC"), rate)
	return nil
}

func (d *Daemon) cmdAPIKeyList(_ context.Context, c *Call) error {
	set, err := d.APIKeySet()
	if err != nil {
		return err
	}
	now := d.Now()
	sort.Slice(set.Keys, func(i, j int) bool { return set.Keys[i].Created.Before(set.Keys[j].Created) })
	tw := tabwriter.NewWriter(&c.text, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tMODELS\tEXPIRES\tRATE\tSTATE")
	for _, k := range set.Keys {
		state := "valid"
		switch {
		case k.Revoked:
			state = "revoked"
		case k.Expired(now):
			state = "expired"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d/min\t%s\n", k.ID, k.Name, strings.Join(k.Models, ","),
			k.Expires.UTC().Format("2006-01-02 15:04:05"), k.Rate, state)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	c.Printf("key set version %d\n", set.Version)
	return nil
}

func (d *Daemon) cmdAPIKeyRevoke(_ context.Context, c *Call) error {
	var a IDArgs
	if err := c.Args(&a); err != nil {
		return err
	}
	want := strings.TrimSpace(a.ID)
	if want == "" {
		return errors.New("name the key to revoke: its ID or NAME (apikey list)")
	}
	var k apikey.Key
	c.Target(want)
	err := c.Commit(func(tx *bolt.Tx) error {
		var found []apikey.Key
		if err := store.Each(tx, APIKeys, func(_ string, o apikey.Key) error {
			if (o.ID == want || o.Name == want) && !o.Revoked {
				found = append(found, o)
			}
			return nil
		}); err != nil {
			return err
		}
		switch len(found) {
		case 0:
			return fmt.Errorf("no unrevoked API key has the ID or name %q (apikey list)", want)
		case 1:
		default:
			return fmt.Errorf("%d keys are named %q; revoke one by its ID (apikey list)", len(found), want)
		}
		k = found[0]
		k.Revoked = true
		if err := store.Put(tx, APIKeys, k.ID, k); err != nil {
			return err
		}
		_, err := store.Counter(tx, apiKeyCounter)
		return err
	}, audit.Record{})
	if err != nil {
		return err
	}
	c.Printf("API key %s (%s) revoked; the API refuses it from its next key refresh (within seconds)\n", k.ID, k.Name)
	return nil
}

// APIKeySet is the key set at its current version.
func (d *Daemon) APIKeySet() (apikey.Set, error) {
	var set apikey.Set
	err := d.st.View(func(tx *bolt.Tx) error {
		if _, err := store.Get(tx, store.Meta, "counter/"+apiKeyCounter, &set.Version); err != nil {
			return err
		}
		return store.Each(tx, APIKeys, func(_ string, k apikey.Key) error {
			set.Keys = append(set.Keys, k)
			return nil
		})
	})
	if err != nil {
		return apikey.Set{}, fmt.Errorf("API keys: %w", err)
	}
	return set, nil
}

// APIEvent is what an API member reports of a request it refused or that
// failed (the fields of the API's journal record the audit trail keeps).
type APIEvent struct {
	Time      time.Time `json:"time"`
	Reference string    `json:"reference"`
	KeyName   string    `json:"key,omitempty"`
	Model     string    `json:"model,omitempty"`
	Status    int       `json:"status"`
	Code      string    `json:"code"`
	Cause     string    `json:"cause,omitempty"`
	Machine   string    `json:"machine,omitempty"`
	Peer      string    `json:"peer,omitempty"`
	Port      string    `json:"port,omitempty"`
	Fix       string    `json:"fix,omitempty"`
}

// RecordAPIEvents puts what an API member refused on the audit trail, one
// record each, under the request's reference. actor names the API member.
func (d *Daemon) RecordAPIEvents(actor string, raw []json.RawMessage) error {
	recs := make([]audit.Record, 0, len(raw))
	for i, r := range raw {
		var ev APIEvent
		if err := json.Unmarshal(r, &ev); err != nil {
			return fmt.Errorf("API event %d: %w", i, err)
		}
		if !strings.HasPrefix(ev.Reference, "chatcmpl-") || ev.Code == "" {
			return fmt.Errorf("API event %d: no reference or code", i)
		}
		var detail []string
		for _, kv := range [][2]string{{"status", fmt.Sprint(ev.Status)}, {"key", ev.KeyName}, {"model", ev.Model},
			{"machine", ev.Machine}, {"peer", ev.Peer}, {"port", ev.Port}, {"cause", ev.Cause}, {"fix", ev.Fix}} {
			if kv[1] != "" {
				detail = append(detail, kv[0]+"="+kv[1])
			}
		}
		outcome := audit.Refused
		if ev.Status >= 500 {
			outcome = audit.Failed
		}
		recs = append(recs, audit.Record{Actor: actor, Kind: "api.error", Target: ev.Code, Outcome: outcome,
			Reference: ev.Reference, Detail: strings.Join(detail, " ")})
	}
	err := d.st.Update(func(tx *bolt.Tx) error {
		for _, rec := range recs {
			if _, err := audit.Append(tx, rec); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("audit API events: %w", err)
	}
	return nil
}

// apiMember returns the roster's api-role member p, or a refusal.
func (d *Daemon) apiMember(p peer.ID) (*ca.Member, error) {
	m, ok := d.trust.View().Member(p)
	if !ok || m.Role != ca.RoleAPI {
		return nil, &p2p.Refusal{Code: "not_permitted", Message: "only the deployment's API members may ask this"}
	}
	return m, nil
}

// serveAPIMembers answers the API members on the swarm host: the key set,
// their TLS certificates, their refused-request events. stop ends all
// three.
func (d *Daemon) serveAPIMembers(h host.Host) (stop func(), err error) {
	stopKeys, err := p2p.ServeAPIKeys(h, p2p.APIKeysSource{
		Keys:      d.APIKeySet,
		Authorize: func(p peer.ID) error { _, err := d.apiMember(p); return err },
		Logger:    d.Log,
	})
	if err != nil {
		return nil, err
	}
	stopTLS, err := p2p.ServeAPITLS(h, p2p.APITLSIssuer{
		Issue: func(_ context.Context, from peer.ID, csr []byte) ([]byte, error) {
			m, err := d.apiMember(from)
			if err != nil {
				return nil, err
			}
			// The TLS certificate lives as long as the member's own.
			der, err := d.ca.IssueServer(d.Now(), m.Label, csr, m.NotAfter)
			if err != nil {
				d.Record(audit.Record{Actor: "api:" + m.Label, Kind: "certificate.tls", Target: m.Label, Outcome: audit.Refused, Detail: err.Error()})
				return nil, &p2p.Refusal{Code: "bad_request", Message: err.Error()}
			}
			d.Record(audit.Record{Actor: "api:" + m.Label, Kind: "certificate.tls", Target: m.Label,
				Detail: "TLS server certificate issued until " + m.NotAfter.UTC().Format(time.RFC3339)})
			return der, nil
		},
		Logger: d.Log,
	})
	if err != nil {
		stopKeys()
		return nil, err
	}
	stopEvents, err := p2p.ServeAPIEvents(h, p2p.APIEventsSink{
		Accept: func(_ context.Context, from peer.ID, evs []json.RawMessage) error {
			m, err := d.apiMember(from)
			if err != nil {
				return err
			}
			return d.RecordAPIEvents("api:"+m.Label, evs)
		},
		Logger: d.Log,
	})
	if err != nil {
		stopKeys()
		stopTLS()
		return nil, err
	}
	return func() { stopKeys(); stopTLS(); stopEvents() }, nil
}
