package p2p

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/netip"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/control"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"
)

// EnrolProtocol is how a machine joins a managed deployment, on the
// coordinator's separate enrolment host (closed unless the operator opened
// it). One stream:
//
//	machine → EnrolHello     token id, wanted label and role, memory
//	coord   → EnrolChallenge a one-time nonce, the CA and coordinator certificates
//	machine → EnrolProof     an Ed25519 signature over nonce | machine peer |
//	                         coordinator peer with the token's key (EnrolSigner),
//	                         or Abort with the reason it gives up (a wrong pin)
//	coord   → EnrolResult    the machine's certificate and the roster, or the refusal
//
// The machine checks the CA against its pin and the coordinator's
// certificate against the connection's peer id before it proves anything,
// so a false coordinator learns nothing it could replay; the coordinator
// issues the certificate for the public key the connection authenticated.
// The coordinator stores only the token key's public half (EnrolVerifier),
// so its state file does not hold what a proof needs. Messages are
// length-prefixed JSON.
const EnrolProtocol = "/svc/enrol/1.0.0"

const (
	maxEnrolMsg  = 16 << 20 // a result carries the roster
	enrolTimeout = 30 * time.Second
	enrolDomain  = "svc-enrol-v1\n"
	enrolSigDom  = "svc-enrol-sig-v1\n"
)

// EnrolHello opens an enrolment.
type EnrolHello struct {
	TokenID string `json:"token_id"`
	Label   string `json:"label,omitempty"`
	Role    string `json:"role"`
	// Memory is what the machine can give to model slices, in bytes.
	Memory int64 `json:"memory,omitempty"`
}

// EnrolChallenge is the coordinator's answer to a hello.
type EnrolChallenge struct {
	Nonce       []byte `json:"nonce"`
	CA          []byte `json:"ca"`          // DER
	Coordinator []byte `json:"coordinator"` // DER
}

// EnrolProof proves possession of the token, or abandons.
type EnrolProof struct {
	// Sig is EnrolSign's signature: what coordinators check.
	Sig []byte `json:"sig,omitempty"`
	// MAC is the proof of the first protocol version (EnrolMAC), still
	// sent for coordinators that predate Sig, and checked by newer ones
	// only for tokens they stored before it.
	MAC   []byte `json:"mac,omitempty"`
	Abort string `json:"abort,omitempty"`
}

// EnrolResult ends an enrolment.
type EnrolResult struct {
	Error       string   `json:"error,omitempty"`
	Certificate []byte   `json:"certificate,omitempty"` // DER
	Roster      []byte   `json:"roster,omitempty"`
	Swarm       []string `json:"swarm,omitempty"` // the coordinator's swarm multiaddrs
}

// EnrolSigner is the Ed25519 key a token's secret gives for the proof:
// its seed is a hash of the secret.
func EnrolSigner(secret string) ed25519.PrivateKey {
	seed := sha256.Sum256([]byte("svc-token-v2\n" + secret))
	return ed25519.NewKeyFromSeed(seed[:])
}

// EnrolVerifier is what the coordinator stores of a token's secret: the
// public half of EnrolSigner's key, which checks a proof but cannot make
// one.
func EnrolVerifier(secret string) ed25519.PublicKey {
	return EnrolSigner(secret).Public().(ed25519.PublicKey)
}

// enrolSigned is the message a proof signs: the challenge's nonce and
// both peers, each length-prefixed.
func enrolSigned(nonce []byte, machine, coordinator peer.ID) []byte {
	b := []byte(enrolSigDom)
	for _, f := range [][]byte{nonce, []byte(machine), []byte(coordinator)} {
		b = binary.BigEndian.AppendUint32(b, uint32(len(f)))
		b = append(b, f...)
	}
	return b
}

// EnrolSign is the possession proof over a challenge.
func EnrolSign(key ed25519.PrivateKey, nonce []byte, machine, coordinator peer.ID) []byte {
	return ed25519.Sign(key, enrolSigned(nonce, machine, coordinator))
}

// EnrolVerify checks EnrolSign's proof against a token's verifier.
func EnrolVerify(verifier ed25519.PublicKey, nonce []byte, machine, coordinator peer.ID, sig []byte) bool {
	return len(verifier) == ed25519.PublicKeySize && ed25519.Verify(verifier, enrolSigned(nonce, machine, coordinator), sig)
}

// EnrolKey is the key of the first protocol version's proof (EnrolMAC):
// a hash of the token's secret, which coordinators of that version stored.
func EnrolKey(secret string) []byte {
	sum := sha256.Sum256([]byte("svc-token-v1\n" + secret))
	return sum[:]
}

// EnrolMAC is the first protocol version's possession proof.
func EnrolMAC(key, nonce []byte, machine, coordinator peer.ID) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(enrolDomain))
	m.Write(nonce)
	m.Write([]byte(machine))
	m.Write([]byte(coordinator))
	return m.Sum(nil)
}

// EnrolAuthority is the coordinator's side of enrolment.
type EnrolAuthority interface {
	// Challenge returns the certificates sent with the nonce.
	Challenge() (ca, coordinator []byte)
	// Complete checks the proof and issues the certificate for key. Its
	// error is the refusal the machine sees.
	Complete(ctx context.Context, p peer.ID, key crypto.PubKey, remote string, hello EnrolHello, nonce []byte, proof EnrolProof) (*EnrolResult, error)
	// Abandoned is told when a machine gives up (a wrong pin) or the
	// exchange breaks after the hello.
	Abandoned(p peer.ID, remote string, hello EnrolHello, reason string)
}

// EnrolGate decides which remote addresses may connect to the enrolment
// host, before any handshake.
type EnrolGate func(remote netip.Addr) bool

// EnrolHost is the coordinator's enrolment host.
type EnrolHost struct {
	Host host.Host
	auth EnrolAuthority
	log  *slog.Logger
}

// NewEnrolHost starts the enrolment host on listen with key (the
// coordinator's identity): its gater admits only addresses gate allows.
func NewEnrolHost(key crypto.PrivKey, listen []string, gate EnrolGate, auth EnrolAuthority, log *slog.Logger) (*EnrolHost, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	h, err := libp2p.New(
		libp2p.Identity(key),
		libp2p.ListenAddrStrings(listen...),
		libp2p.ConnectionGater(enrolGater{gate: gate}),
		libp2p.DisableRelay(),
	)
	if err != nil {
		return nil, fmt.Errorf("p2p: enrolment host on %v: %w", listen, err)
	}
	e := &EnrolHost{Host: h, auth: auth, log: log}
	h.SetStreamHandler(protocol.ID(EnrolProtocol), e.handle)
	return e, nil
}

// Close stops the host.
func (e *EnrolHost) Close() error { return e.Host.Close() }

// Port is the TCP port the host listens on (0 when none).
func (e *EnrolHost) Port() int {
	for _, a := range e.Host.Addrs() {
		if p, err := a.ValueForProtocol(ma.P_TCP); err == nil {
			var n int
			fmt.Sscan(p, &n)
			return n
		}
	}
	return 0
}

func (e *EnrolHost) handle(st network.Stream) {
	defer st.Close()
	_ = st.SetDeadline(time.Now().Add(enrolTimeout))
	p := st.Conn().RemotePeer()
	remote := st.Conn().RemoteMultiaddr().String()
	var hello EnrolHello
	if err := readEnrolMsg(st, &hello); err != nil {
		e.log.Warn("enrolment: unreadable hello", "peer", p, "remote", remote, "err", err)
		_ = st.Reset()
		return
	}
	caDER, coordDER := e.auth.Challenge()
	nonce := make([]byte, 32)
	if _, err := rand.Read(nonce); err != nil {
		_ = st.Reset()
		return
	}
	if err := writeEnrolMsg(st, EnrolChallenge{Nonce: nonce, CA: caDER, Coordinator: coordDER}); err != nil {
		e.auth.Abandoned(p, remote, hello, "the challenge was not delivered: "+err.Error())
		return
	}
	var proof EnrolProof
	if err := readEnrolMsg(st, &proof); err != nil {
		e.auth.Abandoned(p, remote, hello, "no proof: "+err.Error())
		return
	}
	if proof.Abort != "" {
		e.auth.Abandoned(p, remote, hello, proof.Abort)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), enrolTimeout)
	defer cancel()
	res, err := e.auth.Complete(ctx, p, st.Conn().RemotePublicKey(), remote, hello, nonce, proof)
	if err != nil {
		res = &EnrolResult{Error: err.Error()}
	}
	if err := writeEnrolMsg(st, res); err != nil {
		e.log.Warn("enrolment: result not delivered", "peer", p, "err", err)
	}
}

// EnrolRequest is the machine's side of an enrolment.
type EnrolRequest struct {
	Coordinator peer.AddrInfo
	TokenID     string
	// Secret is the token's secret.
	Secret string
	Hello  EnrolHello
	// Check verifies the CA against the pin and the coordinator's
	// certificate against the CA and peer id; its error aborts.
	Check func(ca, coordinator []byte, coordinatorPeer peer.ID) error
}

// EnrolRefused is the coordinator's refusal.
type EnrolRefused struct{ Reason string }

func (e *EnrolRefused) Error() string { return "the coordinator refused the enrolment: " + e.Reason }

// Enrol runs the machine's side on h (whose key the certificate will
// carry).
func Enrol(ctx context.Context, h host.Host, r EnrolRequest) (*EnrolResult, error) {
	ctx, cancel := context.WithTimeout(ctx, enrolTimeout)
	defer cancel()
	if err := h.Connect(ctx, r.Coordinator); err != nil {
		return nil, fmt.Errorf("reach the coordinator's enrolment port (is it open? svc-coordinator firewall open): %w", err)
	}
	st, err := h.NewStream(ctx, r.Coordinator.ID, protocol.ID(EnrolProtocol))
	if err != nil {
		return nil, fmt.Errorf("open an enrolment stream (is the enrolment port open? svc-coordinator firewall open): %w", err)
	}
	defer st.Close()
	if dl, ok := ctx.Deadline(); ok {
		_ = st.SetDeadline(dl)
	}
	r.Hello.TokenID = r.TokenID
	if err := writeEnrolMsg(st, r.Hello); err != nil {
		return nil, fmt.Errorf("enrolment: send hello: %w", err)
	}
	var ch EnrolChallenge
	if err := readEnrolMsg(st, &ch); err != nil {
		return nil, fmt.Errorf("enrolment: read challenge: %w", err)
	}
	if len(ch.Nonce) < 16 {
		return nil, fmt.Errorf("enrolment: the coordinator sent a %d-byte nonce", len(ch.Nonce))
	}
	if err := r.Check(ch.CA, ch.Coordinator, st.Conn().RemotePeer()); err != nil {
		_ = writeEnrolMsg(st, EnrolProof{Abort: err.Error()})
		_ = st.CloseWrite()
		return nil, err
	}
	coord := st.Conn().RemotePeer()
	proof := EnrolProof{
		Sig: EnrolSign(EnrolSigner(r.Secret), ch.Nonce, h.ID(), coord),
		MAC: EnrolMAC(EnrolKey(r.Secret), ch.Nonce, h.ID(), coord),
	}
	if err := writeEnrolMsg(st, proof); err != nil {
		return nil, fmt.Errorf("enrolment: send proof: %w", err)
	}
	var res EnrolResult
	if err := readEnrolMsg(st, &res); err != nil {
		return nil, fmt.Errorf("enrolment: read result: %w", err)
	}
	if res.Error != "" {
		return nil, &EnrolRefused{Reason: res.Error}
	}
	return &res, nil
}

// enrolGater refuses connections from addresses the gate does not allow,
// at accept time (before the security handshake).
type enrolGater struct{ gate EnrolGate }

func (g enrolGater) InterceptPeerDial(peer.ID) bool               { return false }
func (g enrolGater) InterceptAddrDial(peer.ID, ma.Multiaddr) bool { return false }
func (g enrolGater) InterceptAccept(c network.ConnMultiaddrs) bool {
	ip, err := manet.ToIP(c.RemoteMultiaddr())
	if err != nil {
		return false
	}
	a, ok := netip.AddrFromSlice(ip)
	return ok && g.gate(a.Unmap())
}
func (g enrolGater) InterceptSecured(network.Direction, peer.ID, network.ConnMultiaddrs) bool {
	return true
}
func (g enrolGater) InterceptUpgraded(network.Conn) (bool, control.DisconnectReason) {
	return true, 0
}

func writeEnrolMsg(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode: %w", err)
	}
	if len(b) > maxEnrolMsg {
		return fmt.Errorf("message of %d bytes exceeds %d", len(b), maxEnrolMsg)
	}
	buf := binary.AppendUvarint(make([]byte, 0, len(b)+binary.MaxVarintLen64), uint64(len(b)))
	_, err = w.Write(append(buf, b...))
	return err
}

// byteReader reads one byte at a time without buffering ahead, so that a
// raw payload after a uvarint-prefixed message stays in the stream (the
// enrolment protocol's framing).
type byteReader struct {
	r   io.Reader
	one [1]byte
}

func (b *byteReader) ReadByte() (byte, error) {
	_, err := io.ReadFull(b.r, b.one[:])
	return b.one[0], err
}

func readEnrolMsg(r io.Reader, v any) error {
	n, err := binary.ReadUvarint(&byteReader{r: r})
	if err != nil {
		return fmt.Errorf("read message length: %w", err)
	}
	if n > maxEnrolMsg {
		return fmt.Errorf("message of %d bytes exceeds %d", n, maxEnrolMsg)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return fmt.Errorf("read message: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("decode message: %w", err)
	}
	return nil
}
