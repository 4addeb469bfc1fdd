package audit

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"svc/coordinator/store"
)

// Outcomes of a record.
const (
	OK      = "ok"
	Refused = "refused"
	Failed  = "failed"
)

// Record is one entry of the trail.
type Record struct {
	Seq       uint64    `json:"seq"`
	Time      time.Time `json:"time"`
	Actor     string    `json:"actor"`
	Kind      string    `json:"kind"`
	Target    string    `json:"target,omitempty"`
	Outcome   string    `json:"outcome"`
	Reference string    `json:"reference,omitempty"`
	Detail    string    `json:"detail,omitempty"`
	Prev      string    `json:"prev"`
	Hash      string    `json:"hash"`
}

type head struct {
	Seq  uint64 `json:"seq"`
	Hash string `json:"hash"`
}

const headKey = "audit/head"

// genesis is the Prev of the first record.
const genesis = "0000000000000000000000000000000000000000000000000000000000000000"

func seqKey(n uint64) []byte {
	var k [8]byte
	binary.BigEndian.PutUint64(k[:], n)
	return k[:]
}

// hash is the sha256 of the record's JSON with Hash empty.
func (r Record) hash() string {
	r.Hash = ""
	r.Time = r.Time.UTC()
	b, _ := json.Marshal(r)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Append adds r (Seq, Prev and Hash are set here; Time defaults to now) in
// tx and returns it as stored.
func Append(tx *bolt.Tx, r Record) (Record, error) {
	var h head
	if _, err := store.Get(tx, store.Meta, headKey, &h); err != nil {
		return r, err
	}
	if h.Hash == "" {
		h.Hash = genesis
	}
	if r.Time.IsZero() {
		r.Time = time.Now()
	}
	r.Time = r.Time.UTC().Round(0)
	if r.Outcome == "" {
		r.Outcome = OK
	}
	r.Seq, r.Prev = h.Seq+1, h.Hash
	r.Hash = r.hash()
	b, err := store.Bucket(tx, store.Audit)
	if err != nil {
		return r, err
	}
	data, err := json.Marshal(r)
	if err != nil {
		return r, fmt.Errorf("audit: encode: %w", err)
	}
	if err := b.Put(seqKey(r.Seq), data); err != nil {
		return r, fmt.Errorf("audit: append: %w", err)
	}
	return r, store.Put(tx, store.Meta, headKey, head{r.Seq, r.Hash})
}

// BrokenError says where the chain breaks.
type BrokenError struct {
	Seq    uint64
	Reason string
}

func (e *BrokenError) Error() string {
	return fmt.Sprintf("audit trail broken at record %d: %s", e.Seq, e.Reason)
}

// Verify walks the whole trail and returns the number of records, or a
// *BrokenError naming the first edited or removed record.
func Verify(tx *bolt.Tx) (uint64, error) {
	var h head
	if _, err := store.Get(tx, store.Meta, headKey, &h); err != nil {
		return 0, &BrokenError{Seq: 0, Reason: "the head record is unreadable: " + err.Error()}
	}
	b := tx.Bucket([]byte(store.Audit))
	if b == nil {
		return 0, fmt.Errorf("audit: no trail")
	}
	want, prev := uint64(1), genesis
	c := b.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if len(k) != 8 {
			return 0, &BrokenError{Seq: want, Reason: fmt.Sprintf("a record with a malformed key %x was inserted", k)}
		}
		seq := binary.BigEndian.Uint64(k)
		if seq != want {
			if seq > want {
				return 0, &BrokenError{Seq: want, Reason: fmt.Sprintf("record %d was removed", want)}
			}
			return 0, &BrokenError{Seq: seq, Reason: "record is out of order"}
		}
		var r Record
		if err := json.Unmarshal(v, &r); err != nil {
			return 0, &BrokenError{Seq: seq, Reason: "record was edited (unreadable: " + err.Error() + ")"}
		}
		if r.Seq != seq || r.Hash != r.hash() {
			return 0, &BrokenError{Seq: seq, Reason: "record was edited (its content no longer matches its hash)"}
		}
		if r.Prev != prev {
			return 0, &BrokenError{Seq: seq - 1, Reason: fmt.Sprintf("record %d was edited or replaced (record %d's link no longer matches it)", seq-1, seq)}
		}
		want, prev = seq+1, r.Hash
	}
	last := want - 1
	if h.Seq > last {
		return 0, &BrokenError{Seq: last + 1, Reason: fmt.Sprintf("records %d to %d were removed (the head names record %d)", last+1, h.Seq, h.Seq)}
	}
	if h.Seq < last || (last > 0 && h.Hash != prev) {
		return 0, &BrokenError{Seq: last, Reason: fmt.Sprintf("record %d does not match the head (edited or appended outside the coordinator)", last)}
	}
	return last, nil
}

// Filter selects records; zero fields select everything.
type Filter struct {
	Since, Until time.Time
	// Kind matches a kind exactly or as a dotted prefix ("token" matches
	// "token.create").
	Kind      string
	Actor     string
	Reference string
	// Limit keeps the last Limit matches (0: all).
	Limit int
}

func (f Filter) match(r Record) bool {
	if !f.Since.IsZero() && r.Time.Before(f.Since) {
		return false
	}
	if !f.Until.IsZero() && !r.Time.Before(f.Until) {
		return false
	}
	if f.Kind != "" && r.Kind != f.Kind && !strings.HasPrefix(r.Kind, f.Kind+".") {
		return false
	}
	if f.Actor != "" && r.Actor != f.Actor {
		return false
	}
	if f.Reference != "" && r.Reference != f.Reference {
		return false
	}
	return true
}

// Select returns the records f matches, oldest first.
func Select(tx *bolt.Tx, f Filter) ([]Record, error) {
	var out []Record
	b := tx.Bucket([]byte(store.Audit))
	if b == nil {
		return nil, nil
	}
	err := b.ForEach(func(k, v []byte) error {
		var r Record
		if err := json.Unmarshal(v, &r); err != nil {
			return fmt.Errorf("audit: record %x unreadable (run audit verify): %w", k, err)
		}
		if f.match(r) {
			out = append(out, r)
		}
		return nil
	})
	if f.Limit > 0 && len(out) > f.Limit {
		out = out[len(out)-f.Limit:]
	}
	return out, err
}

// Formats of Export.
const (
	JSONL = "jsonl"
	CSV   = "csv"
)

// Export writes recs in format (jsonl or csv, with a header line).
func Export(w io.Writer, format string, recs []Record) error {
	switch format {
	case JSONL:
		enc := json.NewEncoder(w)
		for _, r := range recs {
			if err := enc.Encode(r); err != nil {
				return fmt.Errorf("audit: export: %w", err)
			}
		}
		return nil
	case CSV:
		cw := csv.NewWriter(w)
		_ = cw.Write([]string{"seq", "time", "actor", "kind", "target", "outcome", "reference", "detail", "prev", "hash"})
		for _, r := range recs {
			_ = cw.Write([]string{strconv.FormatUint(r.Seq, 10), r.Time.Format(time.RFC3339Nano), r.Actor, r.Kind,
				r.Target, r.Outcome, r.Reference, r.Detail, r.Prev, r.Hash})
		}
		cw.Flush()
		if err := cw.Error(); err != nil {
			return fmt.Errorf("audit: export: %w", err)
		}
		return nil
	}
	return fmt.Errorf("audit: format %q is not jsonl or csv", format)
}

// Line is a record as audit show prints it.
func (r Record) Line() string {
	s := fmt.Sprintf("%d  %s  %-8s %-20s %-7s", r.Seq, r.Time.Format(time.RFC3339), r.Actor, r.Kind, r.Outcome)
	if r.Target != "" {
		s += "  target=" + r.Target
	}
	if r.Reference != "" {
		s += "  ref=" + r.Reference
	}
	if r.Detail != "" {
		s += "  " + r.Detail
	}
	return s
}
