// Package p2p is svc's swarm layer: libp2p hosts, the Kademlia DHT under the
// private protocol prefix /svc, signed announcement records, and the stream
// protocols that carry a session's activations between machines.
//
// A Node holds blocks [first,last) of one GGUF model, announces them and
// answers forward requests:
//
//	n, err := p2p.NewNode(ctx, p2p.NodeConfig{
//		ModelPath: "stories260K.gguf",
//		First: 0, Last: 2,             // Last 0: choose the least-covered range
//		Listen:    []string{"/ip4/127.0.0.1/tcp/0"},
//		Bootstrap: []string{"/ip4/127.0.0.1/tcp/4001/p2p/12D3Koo..."},
//	})
//	defer n.Close()
//	fmt.Println(n.Addrs()) // full multiaddrs ending in /p2p/<id>
//
// NewNode returns once the blocks are loaded and the node is online (it is
// announced as loading meanwhile). NodeConfig.Model lets several nodes of
// one process share an opened model; Name overrides the announced name;
// Threads, CacheTokens (or CacheBytes, a KV-cache budget in bytes that
// must hold one session of the whole context), IdleTimeout and
// PromptCacheBytes go to the shard;
// RecordTTL (30 s) and RefreshInterval (TTL/3) time the announcements.
// n.Sessions() counts open sessions; n.Registry() holds its Prometheus
// metrics (svc_node_sessions_open, svc_node_cache_tokens_free, steps,
// positions, step compute time, stream errors by code, keepalives
// received, batch sizes in steps
// and in positions, queue wait, prompt cache hits, misses, entries and
// bytes). n.Close() withdraws the announcement, resets every
// stream (closing its session), and stops.
//
// Batching. The steps of all streams go through one scheduler per node:
// whenever the shard is free it takes every step waiting (up to
// NodeConfig.BatchPositions positions, model.MaxBatch by default) and
// computes them with one model.Shard.ForwardBatch, so that concurrent
// sessions share each read of the weights; each stream still gets exactly
// the bits its step gives alone. A step that finds the shard idle starts at
// once, unless sessions computed in the same batch as its previous step
// have not yet sent theirs: it then waits for them, at most half that
// batch's compute time (20 ms at most), so that batches stay together along
// the chain; a lone stream never waits. A step whose caller says it sent
// others at the same time (wire.Step.round, which the router's barrier
// sets) likewise waits, at most 20 ms, until that many steps are queued, so
// that such a group is one batch from its first step on; each reply says
// how many steps its batch held (wire.Response.batch). A stream that ends or is cancelled
// drops its step without touching the others'. A scheduler whose queue
// runs empty after a batch parks its shard's pool workers at once
// (model.Shard.Rest) instead of letting them spin for the next product:
// the next step is a network round trip away, and on a machine shared by
// several nodes of a chain the core is wanted by the node computing now.
//
// Scoring. A step to the last hop with LOGITS_ALL may carry token ids to
// score (wire.Step.score, at most one per position: a prompt's next
// tokens); the node answers with their log-probabilities
// (wire.Response.scores, model.Logprob's bits), computed chunk by chunk
// where the logits are, so that a prompt's log-probabilities cost a few
// bytes per position on the wire instead of a vocabulary-wide logits row.
// Ids outside the vocabulary, more ids than positions, ids without
// LOGITS_ALL or sent to a node without the last block are a BAD_REQUEST.
// So is a LOGITS_ALL step whose reply could not be framed or read — more
// positions than wire.MaxReplyPositions(top-k), or logits rows beyond
// wire.DefaultMaxPayload — refused before any work, with the bound.
//
// Prompt cache. A session's first step that the node computed before (same
// tokens or hidden-state bits, logits options, adapter, and the
// wire.Open.prompt_cache_scope the caller gave, SessionOptions.
// PromptCacheScope) is answered from the shard's prompt cache with the same
// bits, without computing (model's promptcache.go): a regenerated answer,
// a retry or many requests sharing a prompt then pay the prefill once on
// every node of the chain, since identical bits reach the next node too.
// The reply says so (wire.Response.cached: the step's positions, or 0;
// model.Output.Cached on the caller's side), which the router folds into
// the API's cached prompt tokens; a node that predates the field sends
// none, read as 0.
//
// Keepalives. A node ends a session that gets no frame for
// NodeConfig.IdleTimeout (its step waiting in the node's queue is not
// idleness). A chain's caller steps one hop at a time, so while one hop's
// step waits in a long queue the others get no frame: the node announces
// its idle timeout with its blocks (wire.Served.idle_timeout_ms, which also
// says it takes keepalives), and Session.KeepIdle sends a wire.KeepAlive
// (nothing computed, answered OK) once the session has gone KeepAliveEvery
// (a quarter of that timeout) without a frame, never while a request of
// the session is under way. A node announcing none (older ones, which
// refuse the request as of no known kind and end the stream) is never
// sent one. Keepalives keep a session at most NodeConfig.KeepAliveLimit
// (30 minutes) after its last step: then the node refuses them, so that no
// peer holds a session's cache forever without using it.
//
// An Endpoint (NewEndpoint) is the host and DHT alone; the router uses one
// in DHT client mode. Endpoint.Members and Endpoint.Lookup give the swarm
// view; OpenSession and FetchHeader are the caller's side of the protocols.
//
// Discovery. Every node Provides the CID SwarmCID ("svc/swarm/v1") on the
// DHT and puts a signed record (wire.Announcement inside wire.SignedRecord)
// under "/svc/<peer id>": its peer id, a sequence number, an expiry (RecordTTL,
// 30 s by default, refreshed every 10 s), its addresses and, per model it
// serves, the digest, name, blocks, total blocks, state (loading, online),
// measured ms per token, free cache tokens and open sessions. Validator
// rejects records that are forged, tampered with, stored under another
// peer's key or expired, and selects the newest. Endpoint.Members finds the
// providers of SwarmCID and fetches each one's record; since provider records
// outlive nodes, it is the record's short expiry that makes a dead node vanish.
// A stopping node overwrites its record with a withdrawn one.
//
// Protocols. Each stream protocol lives in one file that holds its id, its
// handler, its client and the one pair of conversions between the model's
// types and the wire's (package wire has the protobuf messages and the
// frame format):
//
//   - forward.go: ForwardProtocol, one stream per session: Open, then Steps
//     (token ids for the first hop, raw little-endian float32 hidden states
//     otherwise), then Close or end of stream, which frees the session;
//     Session is the client (a model.Hop).
//   - meta.go: MetaProtocol returns a model's GGUF header bytes plus the hash
//     of its tensor samples, so that a machine without the weights can check
//     them against the digest and build the tokenizer and chat template
//     (FetchHeader).
//   - record.go: RecordProtocol returns a node's current signed record
//     straight from the node (LookupDirect); signing, checking and the DHT
//     Validator.
//   - jsonmsg.go: exchange and answer, the two sides of the JSON
//     request/answer protocols of the managed variant, bounded in size and
//     time.
//   - slice.go: SliceProtocol carries a model's manifest and single tensors
//     from the coordinator to the machines a placement names (ServeSlices
//     with an Authorize callback; FetchManifest, FetchTensor, SliceFetch
//     for package slice's sparse files); report.go: ReportProtocol carries a
//     machine's slice states (and memory) to the coordinator.
//   - shared.go: several models on one host and peer id. Nodes made with
//     NodeConfig.Endpoint share it; the endpoint dispatches each forward or
//     meta stream to the node its first frame names and announces all of
//     their models in one record. NodeConfig.Identity serves a sparse slice
//     file under the whole model's digest.
//   - streams.go: what every stream shares. Each stream joins a libp2p
//     resource-manager service (ServiceForward, ServiceMeta, ServiceRecord,
//     ServiceControl, SliceService) whose memory EndpointConfig.StreamMemory bounds; a frame
//     reserves memory from the stream's scope as its bytes arrive, into
//     pooled buffers, so a peer that declares large frames and sends little
//     costs little, and a stream whose next frame does not fit is reset.
//     Stream counts are not limited: memory is. A stream must deliver its
//     first complete frame within 10 s.
//
// Admission (admission.go) is how a managed swarm keeps strangers out: an
// interface that p2p defines and the coordinator's packages implement (p2p
// never imports them). Set in EndpointConfig (or NodeConfig), it gates
// connections and checks the credential that every record's signer
// attaches (wire.SignedRecord.credential); without it (the local variant)
// every peer and every validly signed record is admitted.
//
// LoRA adapters (adapter.go): a node given NodeConfig.Adapters loads the
// pairs of its own blocks (and of the token embedding or output head at
// either end), announces each adapter's name and file digest
// with its blocks (wire.Served.adapters), and opens a session with an
// adapter only for a requester naming the same file (wire.Open.adapter).
package p2p
