// Package router turns the swarm into models that can be asked for text.
//
// A Router keeps a view of the swarm (every node's signed announcement,
// refreshed from the DHT every RefreshInterval), derives each model's state
// (served: a chain of online nodes covers blocks 0..L-1; loading: only with
// nodes still loading; incomplete: no chain), fetches a model's GGUF header
// from a node over the meta protocol (checked against the model digest and
// cached), and drives generations: it picks the chain with the lowest
// estimated time per token (a shortest path over block boundaries whose
// edges are the nodes' ranges, weighted by their announced ms per token and
// load, plus a per-hop penalty so that fewer hops win ties), opens one
// session per hop with a fresh id, runs model.Generate over the chain, and
// closes every session when the request ends.
//
// The decode steps of a model's concurrent generations line up at a
// barrier (barrier.go) so that they reach the first node together and each
// node computes them as one batch: a step waits until the others have
// finished theirs, at most the longest last step of any of them (and at
// most four of its own); a lone generation never waits. Generations that
// start together (the first requests, or a new wave) also take their first
// decode step together: it waits for those still in their prompt, at most
// one step's announced time. Each step tells every hop how many of the
// round's steps reach it together (wire.Step.round), so that the node
// batches them from the first round on; no more than the previous hop
// computed in one batch with the step (wire.Response.batch), so that when
// a round splits at one node the parts do not wait for each other at the
// next.
//
// When a hop fails mid-generation (stream reset, timeout, refusal), a new
// chain is opened and the request's past steps are replayed through it,
// batch for batch, so that its caches hold exactly what the old chain's held;
// the generation then goes on and yields the tokens it would have yielded
// without the failure.
//
// While a chain holds its sessions, a keeper per hop (keepalive.go) sends
// the hop a keepalive each time it has gone a quarter of its node's
// announced idle timeout without a frame (p2p.Session.KeepIdle): the hops
// idle while another hop's step waits in a long queue, or the client reads
// slowly, keep their sessions instead of failing over. Nodes that announce
// no idle timeout (older ones) are sent none (svc_router_keepalives_total
// counts those sent).
//
// A peer whose hop failed is excluded from new chains for Config.Backoff
// (1 s), doubled per failure event in a row up to MaxBackoff (1 min) and
// halved by each success; the exclusion ends at once when the peer
// announces again (a record signed after the failure, or with new
// addresses: a restart), and a chain that cannot be built without an
// excluded peer tries it anyway (a probe). A peer the host cannot reach
// where it knew it is looked up again (from the node, else the DHT),
// re-addressed with the host's dial back-off cleared, and dialled once more;
// a dial refused by that local back-off is never blamed on the peer. Nodes
// whose records expired are still asked for a while, so that one restarted
// with its key is found by renewals. A request for a model that lacks a
// chain while some holder may be back any moment waits up to RouteWait
// (2 s) for the view to change; a refusal is a RouteError naming the blocks
// without a usable holder and whether their holders are excluded, full or
// absent.
//
//	r, err := router.New(ctx, router.Config{Bootstrap: addrs})
//	defer r.Close()
//	r.Generate(ctx, router.GenerateRequest{Model: "stories260K", Prompt: ids, MaxTokens: 64}, emit)
//
// The generations of one request (a completions prompt batch) may share a
// Waves (GenerateRequest.Waves, waves.go): one the nodes refuse for want of
// room in their KV caches while others of the request hold sessions waits
// until one of them ends, then tries again (also when a hop failed and the
// nodes that could replace it are full), so that a batch larger than the
// swarm holds at once runs in waves. They try in turn, first refused first;
// one that needs more room than came free lets those behind it try
// meanwhile, up to eight, then they wait for it. The prompts also start a
// few at a time (fewer than four prompt steps in flight, or at most 4 ×
// model.MaxBatch positions with the new one): a node queues the rest of a
// large batch's prompt steps, and a step's deadline does not count its time
// in the queue. A failover's replay (its prompt and tokens so far, sent to
// the new nodes at once) waits for such a turn too, before it opens them. A
// generation longer than every holder of some blocks accepts for one session
// (wire.Served.max_length: the context, or the node's whole cache when
// smaller) is refused at once with a TooLongError, whether it shares a Waves
// or not.
//
// WaitModel (and WaitState, for any state or absence) waits for a model
// without polling: the view wakes its waiters whenever it changes.
//
// A model's LoRA adapters are listed as "<model>-<adapter>", each with the
// state of the chains through the nodes that announce it (same name and
// file digest), and a request for one is routed through such a chain only.
//
// A generation may ask for log-probabilities (GenerateRequest.Logprobs,
// TopLogprobs up to 20): every step then asks the last hop for the top
// rows of its position (wire.Step.top_k), and each emitted Token carries
// the chosen token's log-probability (greedy: the first row) and the top
// rows. With PromptLogprobs the prompt step (LOGITS_ALL, logits omitted)
// sends the last hop, and it alone, the prompt's next tokens
// (wire.Step.score): it returns each one's log-probability and the top
// rows of every position, a few numbers per position rather than a
// vocabulary-wide logits row, so a router holds O(prompt × top) for it. A
// last hop that predates scoring returns no scores and the request fails
// with an error saying so. The prompt is still computed as one batch, so
// the values and the generation are one process's. A request that asks
// for none costs nothing more.
//
// *Router implements Backend (api.go), the contract with the HTTP API.
package router
