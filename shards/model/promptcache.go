package model

import (
	"container/list"
	"crypto/sha256"
	"encoding/binary"
	"math"
	"slices"
	"sync"
)

// The prompt cache keeps the result of a session's first step (a session
// that holds no positions yet) so that the same first step in another
// session is answered by copying, not computing: the keys and values the
// step wrote into every block's cache and the step's Output. "Regenerate"
// in a chat, a client's retry and a batch job's shared prompt all send a
// first step that was computed before, and on a swarm every node of the
// chain prefills it again.
//
// Exactness: a first step's result depends only on its input (token ids or
// hidden-state bits), its Logits, TopK, OmitLogits and Score, the session's adapter
// and the shard, and the engine is deterministic, so a hit gives exactly
// the bits the computation would. The key is a sha256 over all of those
// plus a caller-given scope (a router keeps one tenant's prompts from being
// matched by another's, whose faster first token would tell that someone
// sent the same prompt). Only whole first steps are reused, never a prefix
// of a longer step or a later step: positions computed in other batches
// may take another attention order (see batch.go and maxBatch), so a
// prefix computed as part of one step is not provably the bits of it
// computed alone.
//
// In a ForwardBatch, identical first steps of several sessions are computed
// once: the first is computed, the others copy it as from the cache (if
// its context ends first, they compute themselves).

// DefaultPromptCacheBytes is the prompt cache's budget for a shard when
// ShardOptions.PromptCacheBytes is 0.
const DefaultPromptCacheBytes = 64 << 20

// PromptCacheStats describe a shard's prompt cache.
type PromptCacheStats struct {
	Hits, Misses uint64 // first steps answered from the cache, and not
	Entries      int    // first steps held
	Bytes        int64  // their keys, values and outputs
	Budget       int64  // the most Bytes may reach (0: disabled)
}

// promptKey identifies a first step's result (see the top of this file).
type promptKey [sha256.Size]byte

// promptEntry is one first step's result, owned by the cache: the n
// positions' keys and values of every block (n×KVDim f16 each) and a deep
// copy of the Output.
type promptEntry struct {
	key   promptKey
	n     int
	k, v  [][]uint16
	out   Output
	bytes int64
}

// promptCache is a shard's least-recently-used store of first steps,
// bounded by budget bytes. Safe for concurrent use.
type promptCache struct {
	budget int64 // <= 0: disabled

	mu           sync.Mutex
	used         int64
	entries      map[promptKey]*list.Element // of *promptEntry
	lru          list.List                   // front: most recently used
	hits, misses uint64
}

func newPromptCache(budget int64) *promptCache {
	switch {
	case budget == 0:
		budget = DefaultPromptCacheBytes
	case budget < 0:
		budget = 0
	}
	return &promptCache{budget: budget, entries: map[promptKey]*list.Element{}}
}

func (pc *promptCache) enabled() bool { return pc.budget > 0 }

// key hashes what a session's first step computes from. Variable-length
// parts are length-prefixed so that no two different steps share a byte
// stream.
func (pc *promptCache) key(ss *session, in Input) promptKey {
	h := sha256.New()
	var b [8]byte
	num := func(v uint64) {
		binary.LittleEndian.PutUint64(b[:], v)
		h.Write(b[:])
	}
	str := func(s []byte) {
		num(uint64(len(s)))
		h.Write(s)
	}
	h.Write([]byte("svc prompt cache v1"))
	adapter := ""
	if ss.adapter != nil {
		adapter = ss.adapter.name
	}
	str([]byte(adapter))
	str(ss.scope)
	num(uint64(in.Logits))
	num(uint64(in.TopK))
	if in.OmitLogits {
		num(1)
	} else {
		num(0)
	}
	// The input as little-endian 32-bit words, through a small buffer.
	var buf [4096]byte
	words := func(n int, word func(i int) uint32) {
		num(uint64(n))
		for i := 0; i < n; {
			j := 0
			for ; j+4 <= len(buf) && i < n; i, j = i+1, j+4 {
				binary.LittleEndian.PutUint32(buf[j:], word(i))
			}
			h.Write(buf[:j])
		}
	}
	words(len(in.Score), func(i int) uint32 { return uint32(in.Score[i]) })
	if in.Tokens != nil {
		num(0)
		words(len(in.Tokens), func(i int) uint32 { return uint32(in.Tokens[i]) })
	} else {
		num(1)
		words(len(in.Hidden), func(i int) uint32 { return math.Float32bits(in.Hidden[i]) })
	}
	var k promptKey
	h.Sum(k[:0])
	return k
}

// load answers a first step of session ss (empty, its semaphore held) from
// the cache if it holds the key (see promptEntry.apply). It does not
// advance ss.n.
func (pc *promptCache) load(key promptKey, ss *session, kvDim int, out *Output) bool {
	pc.mu.Lock()
	el := pc.entries[key]
	if el == nil {
		pc.misses++
		pc.mu.Unlock()
		return false
	}
	pc.hits++
	pc.lru.MoveToFront(el)
	e := el.Value.(*promptEntry)
	// An entry is never modified once stored (eviction only drops it), so
	// it can be read after the lock is released.
	pc.mu.Unlock()
	e.apply(ss, kvDim, out)
	return true
}

// count adds a first step answered (hit) or computed (not) without a
// lookup: ForwardBatch's copies of an identical step of the same batch.
func (pc *promptCache) count(hit bool) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if hit {
		pc.hits++
	} else {
		pc.misses++
	}
}

// apply copies the entry's keys and values into the blocks of session ss
// (empty, its semaphore held) and its Output into out, as ForwardInto fills
// it: Hidden reuses out's memory, Logits are fresh.
func (e *promptEntry) apply(ss *session, kvDim int, out *Output) {
	need := e.n * kvDim
	for l := range ss.layers {
		lc := &ss.layers[l]
		// Exactly what a computed first step leaves (layerCache.store
		// grows an empty cache to what it needs).
		lc.k, lc.v = make([]uint16, need), make([]uint16, need)
		copy(lc.k, e.k[l])
		copy(lc.v, e.v[l])
	}
	*out = Output{Argmax: out.Argmax[:0], Top: out.Top[:0], Scores: out.Scores[:0], Hidden: out.Hidden}
	if e.out.Hidden != nil {
		out.Hidden = growTo(out.Hidden, len(e.out.Hidden))
		copy(out.Hidden, e.out.Hidden)
	} else {
		out.Hidden = nil
	}
	if e.out.Logits != nil {
		out.Logits = slices.Clone(e.out.Logits)
	}
	out.Argmax = append(out.Argmax, e.out.Argmax...)
	out.Scores = append(out.Scores, e.out.Scores...)
	for _, t := range e.out.Top {
		out.Top = append(out.Top, slices.Clone(t))
	}
}

// newPromptEntry copies a computed first step of n positions: session ss's
// keys and values (its semaphore is held) and out.
func newPromptEntry(key promptKey, ss *session, n, kvDim int, out *Output) *promptEntry {
	e := &promptEntry{key: key, n: n, k: make([][]uint16, len(ss.layers)), v: make([][]uint16, len(ss.layers)), bytes: entryBytes(n, kvDim, len(ss.layers), out)}
	for l := range ss.layers {
		e.k[l] = slices.Clone(ss.layers[l].k[:n*kvDim])
		e.v[l] = slices.Clone(ss.layers[l].v[:n*kvDim])
	}
	e.out.Hidden = slices.Clone(out.Hidden)
	e.out.Logits = slices.Clone(out.Logits)
	e.out.Argmax = slices.Clone(out.Argmax)
	e.out.Scores = slices.Clone(out.Scores)
	for _, t := range out.Top {
		e.out.Top = append(e.out.Top, slices.Clone(t))
	}
	return e
}

// entryBytes is what an entry of a first step of n positions holds.
func entryBytes(n, kvDim, layers int, out *Output) int64 {
	size := int64(2 * 2 * n * kvDim * layers)
	size += int64(4 * (len(out.Hidden) + len(out.Logits) + len(out.Argmax) + len(out.Scores)))
	for _, t := range out.Top {
		size += int64(8 * len(t))
	}
	return size
}

// store keeps a copy of a computed first step of n positions (see
// newPromptEntry) and returns it, or nil when the cache already holds the
// key or the step is larger than the whole budget. Others entries are
// evicted, least recently used first, until it fits.
func (pc *promptCache) store(key promptKey, ss *session, n, kvDim int, out *Output) *promptEntry {
	if entryBytes(n, kvDim, len(ss.layers), out) > pc.budget {
		return nil
	}
	pc.mu.Lock()
	_, held := pc.entries[key]
	pc.mu.Unlock()
	if held {
		return nil // an identical step computed at the same time got there first
	}
	// Copy outside the lock: other sessions' lookups go on meanwhile.
	e := newPromptEntry(key, ss, n, kvDim, out)
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if _, held := pc.entries[key]; held {
		return e
	}
	for pc.used+e.bytes > pc.budget {
		old := pc.lru.Back()
		oe := old.Value.(*promptEntry)
		pc.lru.Remove(old)
		delete(pc.entries, oe.key)
		pc.used -= oe.bytes
	}
	pc.entries[key] = pc.lru.PushFront(e)
	pc.used += e.bytes
	return e
}

func (pc *promptCache) stats() PromptCacheStats {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	return PromptCacheStats{Hits: pc.hits, Misses: pc.misses, Entries: len(pc.entries), Bytes: pc.used, Budget: pc.budget}
}

// PromptCacheStats returns the counters and size of the shard's prompt
// cache.
func (s *Shard) PromptCacheStats() PromptCacheStats { return s.pcache.stats() }
