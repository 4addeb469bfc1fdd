package p2p

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"google.golang.org/protobuf/proto"

	"svc/p2p/wire"
)

func testKey(t *testing.T) (crypto.PrivKey, peer.ID) {
	t.Helper()
	k, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	id, err := peer.IDFromPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return k, id
}

func testAnnouncement(now time.Time, seq uint64) *wire.Announcement {
	return &wire.Announcement{
		Seq: seq, ExpiresUnixMs: now.Add(30 * time.Second).UnixMilli(),
		Models: []*wire.Served{{
			Digest: strings.Repeat("ab", 32), Name: "stories260K", First: 0, Last: 2, TotalBlocks: 5,
			State: wire.ServeState_STATE_ONLINE, MsPerToken: 0.3, FreeCacheTokens: 2048,
		}},
	}
}

func TestValidatorAcceptsSignedRecord(t *testing.T) {
	now := time.Now()
	v := Validator{Now: func() time.Time { return now }}
	k, id := testKey(t)
	val, err := SignAnnouncement(k, testAnnouncement(now, 1))
	if err != nil {
		t.Fatal(err)
	}
	if err := v.Validate(RecordKey(id), val); err != nil {
		t.Fatalf("valid record rejected: %v", err)
	}
	a, got, err := OpenRecord(RecordKey(id), val, now, time.Minute)
	if err != nil || got != id || a.Models[0].Name != "stories260K" {
		t.Fatalf("OpenRecord = %v, %v, %v", a, got, err)
	}
}

func TestValidatorRejects(t *testing.T) {
	now := time.Now()
	v := Validator{Now: func() time.Time { return now }}
	k, id := testKey(t)
	other, otherID := testKey(t)
	good, err := SignAnnouncement(k, testAnnouncement(now, 1))
	if err != nil {
		t.Fatal(err)
	}
	var sr wire.SignedRecord
	if err := proto.Unmarshal(good, &sr); err != nil {
		t.Fatal(err)
	}
	reencode := func(f func(*wire.SignedRecord)) []byte {
		c := proto.Clone(&sr).(*wire.SignedRecord)
		f(c)
		b, err := proto.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	// A record whose announcement claims id but is signed by another key
	// that is shipped along.
	forgedBody := func() []byte {
		a := testAnnouncement(now, 2)
		a.PeerId = []byte(id)
		b, _ := proto.Marshal(a)
		return b
	}()
	forgedSig, _ := other.Sign(append([]byte(signDomain), forgedBody...))
	otherPub, _ := crypto.MarshalPublicKey(other.GetPublic())
	forged, _ := proto.Marshal(&wire.SignedRecord{Announcement: forgedBody, Signature: forgedSig, PublicKey: otherPub})
	// The right key, with the signature of another body.
	forgedSig2, _ := other.Sign(append([]byte(signDomain), forgedBody...))
	wrongSig := reencode(func(r *wire.SignedRecord) { r.Signature = forgedSig2 })

	tampered := reencode(func(r *wire.SignedRecord) {
		var a wire.Announcement
		_ = proto.Unmarshal(r.Announcement, &a)
		a.Models[0].Last = 5 // claim more blocks
		r.Announcement, _ = proto.Marshal(&a)
	})
	flipped := reencode(func(r *wire.SignedRecord) { r.Announcement[len(r.Announcement)-1] ^= 1 })
	expired, _ := SignAnnouncement(k, func() *wire.Announcement {
		a := testAnnouncement(now, 3)
		a.ExpiresUnixMs = now.Add(-time.Second).UnixMilli()
		return a
	}())
	tooLong, _ := SignAnnouncement(k, func() *wire.Announcement {
		a := testAnnouncement(now, 4)
		a.ExpiresUnixMs = now.Add(24 * time.Hour).UnixMilli()
		return a
	}())
	badRange, _ := SignAnnouncement(k, func() *wire.Announcement {
		a := testAnnouncement(now, 5)
		a.Models[0].First, a.Models[0].Last = 3, 3
		return a
	}())
	// Another peer's honest record copied under id's key.
	othersRecord, _ := SignAnnouncement(other, testAnnouncement(now, 6))

	cases := []struct {
		name, key string
		val       []byte
	}{
		{"forged signer", RecordKey(id), forged},
		{"wrong signature", RecordKey(id), wrongSig},
		{"tampered", RecordKey(id), tampered},
		{"flipped byte", RecordKey(id), flipped},
		{"expired", RecordKey(id), expired},
		{"expiry too far", RecordKey(id), tooLong},
		{"bad range", RecordKey(id), badRange},
		{"stored under another peer", RecordKey(id), othersRecord},
		{"valid record, wrong key", RecordKey(otherID), good},
		{"other namespace", "/pk/" + id.String(), good},
		{"bad peer id", "/svc/notapeer", good},
		{"garbage", RecordKey(id), []byte{0xff, 0x01, 0x02}},
		{"empty", RecordKey(id), nil},
		{"huge", RecordKey(id), make([]byte, maxRecordBytes+1)},
	}
	for _, c := range cases {
		err := v.Validate(c.key, c.val)
		if err == nil {
			t.Errorf("%s: accepted", c.name)
		} else if !errors.Is(err, ErrRecord) {
			t.Errorf("%s: error %v does not wrap ErrRecord", c.name, err)
		}
	}
	// The same record is valid now and expired later.
	later := Validator{Now: func() time.Time { return now.Add(31 * time.Second) }}
	if err := later.Validate(RecordKey(id), good); err == nil {
		t.Error("record accepted after its expiry")
	}
}

func TestValidatorSelectsNewest(t *testing.T) {
	now := time.Now()
	v := Validator{Now: func() time.Time { return now }}
	k, id := testKey(t)
	rec := func(seq uint64) []byte {
		b, err := SignAnnouncement(k, testAnnouncement(now, seq))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	other, _ := testKey(t)
	forgedNewer, _ := SignAnnouncement(other, testAnnouncement(now, 99))
	i, err := v.Select(RecordKey(id), [][]byte{rec(5), rec(7), forgedNewer, rec(6), []byte("junk")})
	if err != nil || i != 1 {
		t.Fatalf("Select = %d, %v; want 1", i, err)
	}
	if _, err := v.Select(RecordKey(id), [][]byte{forgedNewer, nil}); err == nil {
		t.Fatal("Select found a record among invalid ones")
	}
}

func TestChooseRange(t *testing.T) {
	cases := []struct {
		total, size int
		held        [][2]int
		f, l        int
	}{
		{5, 0, nil, 0, 5},
		{5, 0, [][2]int{{0, 2}}, 2, 5},
		{5, 0, [][2]int{{0, 2}, {4, 5}}, 2, 4},
		{6, 0, [][2]int{{1, 2}, {4, 5}}, 2, 4},
		{5, 0, [][2]int{{0, 5}}, 0, 5},
		{5, 2, [][2]int{{0, 5}, {0, 2}}, 2, 4},
		{5, 2, [][2]int{{0, 3}}, 3, 5},
		{4, 9, nil, 0, 4},
	}
	for _, c := range cases {
		f, l := ChooseRange(c.total, c.held, c.size)
		if f != c.f || l != c.l {
			t.Errorf("ChooseRange(%d, %v, %d) = [%d,%d), want [%d,%d)", c.total, c.held, c.size, f, l, c.f, c.l)
		}
	}
}
