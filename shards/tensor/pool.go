package tensor

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Pool is a fixed set of worker goroutines that share out loop ranges. It is
// created once and reused for every matrix product: starting goroutines per
// row or per call would cost more than the work on small matrices.
//
// The caller of For always takes part in the work, so For never waits for a
// busy worker to become free, several goroutines may call For at once, and
// For still works (serially) after Close.
type Pool struct {
	threads int
	work    chan *poolJob
	// queued counts the jobs sent to work and not yet received. Idle
	// workers poll it rather than the channel: an atomic load is far
	// cheaper than a select, so a spinning worker notices a new job at
	// once and never holds the channel's lock against the sender.
	queued atomic.Int32
	free   chan *poolJob // finished jobs kept for reuse: For does not allocate
	// resting is set by Rest and cleared by For: idle workers stop polling
	// at once instead of after spinTime (see Rest).
	resting atomic.Bool
	quit    chan struct{}
	closed  atomic.Bool
	wg      sync.WaitGroup
	once    sync.Once
}

type poolJob struct {
	fn     func(lo, hi int)
	n      int
	chunk  int
	chunks int
	next   atomic.Int64
	// left counts the chunks not yet finished; the caller of For spins on
	// it before it falls back to waiting on done, which whoever finishes
	// the last chunk releases.
	left atomic.Int64
	done sync.WaitGroup
	// refs counts the holders of the job: the caller of For plus every
	// copy sent to the work queue. The last holder to let go recycles it,
	// so a worker that picks up a stale copy never sees a reused job.
	refs atomic.Int32
}

// run claims chunks until none are left. A worker may pick up a job whose
// chunks were all taken already; it then returns at once.
func (j *poolJob) run() {
	for {
		c := int(j.next.Add(1) - 1)
		if c >= j.chunks {
			return
		}
		lo := c * j.chunk
		hi := min(lo+j.chunk, j.n)
		j.fn(lo, hi)
		if j.left.Add(-1) == 0 {
			j.done.Done()
		}
	}
}

// wait returns when every chunk of j is finished. It polls first: the
// other threads are mid-chunk and finish within microseconds, while
// parking the caller and having the last worker wake it costs tens to
// hundreds of microseconds on a virtual machine, and worse, hands the
// caller's goroutine to the worker's thread, which then misses the next
// job. After waitSpin it parks, so a descheduled worker does not keep the
// caller burning its core.
func (j *poolJob) wait() {
	if j.left.Load() > 0 {
		deadline := time.Now().Add(waitSpin)
		for spins := 1; j.left.Load() > 0; spins++ {
			if spins%256 == 0 && time.Now().After(deadline) {
				break
			}
		}
	}
	j.done.Wait()
}

// NewPool starts a pool of threads workers in total (threads-1 goroutines
// plus the calling goroutine). threads <= 0 means runtime.NumCPU().
func NewPool(threads int) *Pool {
	if threads <= 0 {
		threads = runtime.NumCPU()
	}
	p := &Pool{
		threads: threads,
		work:    make(chan *poolJob, 4*threads),
		// Room for every job that can be in flight at once (a full work
		// queue, one per worker, a few concurrent callers), so that once
		// warm no job is dropped and For stops allocating.
		free: make(chan *poolJob, 8*threads+8),
		quit: make(chan struct{}),
	}
	for i := 0; i < threads-1; i++ {
		p.wg.Add(1)
		go p.worker()
	}
	return p
}

// spinTime is how long an idle worker keeps polling for the next job
// before it parks. Decoding issues a matrix product every few tens of
// microseconds and a token every few tens of milliseconds; waking a parked
// worker costs 100 µs or more on a virtual machine (measured on the CI
// machine kind: one in seven products of a decode step found the worker
// still asleep with a 50 µs poll, and the caller did the whole product
// alone). Two milliseconds covers the gaps between the products of a
// step and between steps, and still parks a pool that has gone quiet.
const spinTime = 2 * time.Millisecond

// waitSpin bounds how long the caller of For polls for the other threads
// to finish their chunks before it parks (see poolJob.wait). The largest
// chunks of a decode step (an eighth of a 70 MB output head) take a few
// hundred microseconds.
const waitSpin = time.Millisecond

func (p *Pool) worker() {
	defer p.wg.Done()
	for {
		select {
		case <-p.quit:
			return
		case j := <-p.work:
			p.queued.Add(-1)
			j.run()
			p.release(j)
			if !p.poll() {
				return
			}
		}
	}
}

// poll runs jobs that arrive within spinTime of the last one. It returns
// false when the pool is closing.
func (p *Pool) poll() bool {
	deadline := time.Now().Add(spinTime)
	for spins := 1; ; spins++ {
		if p.queued.Load() > 0 {
			select {
			case j := <-p.work:
				p.queued.Add(-1)
				j.run()
				p.release(j)
				deadline = time.Now().Add(spinTime)
				continue
			default:
				// Another worker took it between the load and the select.
			}
		}
		if spins%1024 == 0 {
			if p.closed.Load() {
				return false
			}
			if p.resting.Load() || time.Now().After(deadline) {
				return true
			}
			// Let other goroutines of this thread's P run now and then.
			runtime.Gosched()
		}
	}
}

// Rest tells the pool that no For call is coming soon: idle workers park
// now instead of polling for spinTime. A caller that knows its burst of
// products is over (a node that finished a batch and has no other step
// queued) calls it so that the spinning does not take a core from the
// processes that compute meanwhile: the next node of a chain on the same
// machine, or the network stack carrying the batch's answers. The next For
// ends the rest; its first job pays one wake-up of the workers. Rest never
// changes results, only which thread computes which chunk.
func (p *Pool) Rest() {
	if p != nil {
		p.resting.Store(true)
	}
}

// Threads is the number of goroutines (the caller included) that For uses.
func (p *Pool) Threads() int { return p.threads }

// For calls fn on consecutive sub-ranges that together cover [0,n) exactly
// once, spread over the pool's workers, and returns when all are done. The
// split depends on n and the thread count; callers that need results
// independent of the split must make fn's per-index work independent of
// lo/hi (MatMul does).
func (p *Pool) For(n int, fn func(lo, hi int)) {
	if n <= 0 {
		return
	}
	if p == nil || p.threads <= 1 || n == 1 {
		fn(0, n)
		return
	}
	if p.resting.Load() {
		p.resting.Store(false)
	}
	chunks := min(n, 4*p.threads)
	chunk := (n + chunks - 1) / chunks
	chunks = (n + chunk - 1) / chunk
	var j *poolJob
	select {
	case j = <-p.free:
	default:
		j = &poolJob{}
	}
	j.fn, j.n, j.chunk, j.chunks = fn, n, chunk, chunks
	j.next.Store(0)
	j.done.Add(1)
	j.left.Store(int64(chunks))
	helpers := min(p.threads-1, chunks-1)
	j.refs.Store(int32(1 + helpers))
	for i := 0; i < helpers; i++ {
		select {
		case p.work <- j:
			p.queued.Add(1)
		default:
			// Queue full (workers busy with other callers): do more ourselves.
			j.refs.Add(-1)
		}
	}
	j.run()
	j.wait()
	p.release(j)
}

// release drops one holder's reference to j; the last one puts the job on
// the free list (or leaves it to the garbage collector if the list is full).
func (p *Pool) release(j *poolJob) {
	if j.refs.Add(-1) != 0 {
		return
	}
	j.fn = nil // do not keep the caller's closure alive
	select {
	case p.free <- j:
	default:
	}
}

// Close stops the workers and waits for them. For keeps working afterwards,
// on the calling goroutine only.
func (p *Pool) Close() {
	if p == nil {
		return
	}
	p.once.Do(func() {
		p.closed.Store(true)
		close(p.quit)
		p.wg.Wait()
	})
}
