package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/valyala/fasthttp"

	"svc/apikey"
	"svc/router"
	"svc/shards/tokenizer"
)

// errStopSequence ends a generation whose text reached a stop string.
var errStopSequence = errors.New("stop sequence reached")

// errClientGone ends a generation whose client went away.
var errClientGone = errors.New("client disconnected")

// job is one validated generation request, ready to run.
type job struct {
	chat  bool
	ref   string      // the request's reference (errors, log, journal)
	key   *apikey.Key // the caller's key (managed variant)
	id    string      // the response's id; a chat completion's is ref
	index int         // the choice's index: its prompt's in a batch
	name  string      // the field its prompt came from, for errors: prompt, prompt[i], messages
	// waves is the room-sharing of a batch's generations (nil: one
	// prompt): one refused for want of room on the nodes waits until
	// another ends.
	waves        *router.Waves
	created      int64
	model        string // the name answered in "model"
	kit          *modelKit
	prompt       []int32
	maxTokens    int
	stop         []string
	echo         string // completions' echo: the prompt's text, sent first
	echoOn       bool   // echo was asked for (its text may be empty)
	includeUsage bool
	// logprobs asks for the tokens' log-probabilities with the top most
	// likely at each position; with echo (completions), the prompt's too.
	logprobs       bool
	top            int
	promptLogprobs bool
	// noTokens (max_tokens 0 with echo): the answer is the prompt alone.
	// The backend is asked for one token, which comes from the prompt
	// step itself, and it is dropped.
	noTokens bool
	start    time.Time
}

// path is the endpoint the job came from, for the log.
func (j *job) path() string {
	if j.chat {
		return "/v1/chat/completions"
	}
	return "/v1/completions"
}

// usage is the token accounting of a response.
type usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
	// PromptTokensDetails.CachedTokens is OpenAI's count of prompt tokens
	// served from a cache: here those every node of the chain answered
	// from its prompt cache. Always present, as OpenAI sends it (0: none).
	PromptTokensDetails promptTokensDetails `json:"prompt_tokens_details"`
}

type promptTokensDetails struct {
	CachedTokens int `json:"cached_tokens"`
}

// usageOf is the usage of job j's finished generation of n tokens, whose
// cached prompt tokens it counts in the metrics.
func (s *Server) usageOf(j *job, n int, res router.GenerateResult) usage {
	cached := min(res.CachedTokens, len(j.prompt))
	s.m.cachedTokens.WithLabelValues(j.model).Add(float64(cached))
	return usage{PromptTokens: len(j.prompt), CompletionTokens: n, TotalTokens: len(j.prompt) + n,
		PromptTokensDetails: promptTokensDetails{CachedTokens: cached}}
}

// generate serves both generation endpoints. It reports whether it handed
// the response to a stream writer (which then owns the request's cleanup).
func (s *Server) generate(ctx *fasthttp.RequestCtx, chat bool, start time.Time) (streaming bool) {
	r := newRun(s.life)
	stopWatch := watchConn(ctx.Conn(), func() { r.halt(errClientGone) })
	release := func() {}
	var limit *time.Timer
	cleanup := func() {
		stopWatch()
		if limit != nil {
			limit.Stop()
		}
		r.end()
		release()
	}
	defer func() {
		if !streaming {
			cleanup()
		}
	}()
	if s.mg != nil {
		if aerr := s.rateLimit(ctx); aerr != nil {
			s.fail(ctx, aerr)
			return false
		}
	}
	freeSlot, err := s.prep.take(r.ctx, r.done, len(ctx.PostBody()))
	if err != nil {
		if r.gone() {
			ctx.SetStatusCode(499)
			return false
		}
		s.fail(ctx, serverError(fmt.Errorf("waiting to parse the request: %w", err)))
		return false
	}
	jobs, stream, aerr := s.prepare(r.ctx, ctx, chat)
	freeSlot()
	if aerr != nil {
		s.fail(ctx, aerr)
		return false
	}
	ctx.SetUserValue(servedKey{}, jobs[0].model)
	// Each prompt of a batch is a generation of its own: it holds one of
	// the API's generation slots.
	if release, aerr = s.acquire(len(jobs)); aerr != nil {
		release = func() {}
		s.fail(ctx, aerr)
		return false
	}
	if s.mg != nil && s.mg.cfg.GenerationLimit > 0 {
		limit = time.AfterFunc(s.mg.cfg.GenerationLimit, func() { r.halt(errGenerationLimit) })
	}
	var waves *router.Waves
	if len(jobs) > 1 {
		// A batch larger than the nodes hold at once runs in waves; its
		// end (a failure, the client leaving) ends the waits.
		waves = router.NewWaves(r.done)
	}
	for _, j := range jobs {
		s.m.promptTokens.WithLabelValues(j.model).Add(float64(len(j.prompt)))
		j.start, j.waves = start, waves
	}
	if !stream {
		s.answerWhole(ctx, r, jobs)
		return false
	}
	return s.answerStream(ctx, r, jobs, cleanup)
}

// run is one generation's control. A generation is ended between two
// tokens (halt: the emit callback returns the cause at its next call)
// rather than by cancelling its context mid-step, so the sessions are idle
// and intact when the backend closes them; only if the backend does not
// return within haltGrace, or the server's grace period ends, is the
// context cancelled.
type run struct {
	ctx    context.Context
	cancel context.CancelCauseFunc

	once  sync.Once
	done  chan struct{}
	cause error
	mu    sync.Mutex
	timer *time.Timer
}

const haltGrace = 5 * time.Second

func newRun(parent context.Context) *run {
	r := &run{done: make(chan struct{})}
	r.ctx, r.cancel = context.WithCancelCause(parent)
	return r
}

// halt asks the generation to end at its next token.
func (r *run) halt(cause error) {
	r.once.Do(func() {
		r.cause = cause
		close(r.done)
		r.mu.Lock()
		r.timer = time.AfterFunc(haltGrace, func() { r.cancel(cause) })
		r.mu.Unlock()
	})
}

// halted returns the halt cause, or nil.
func (r *run) halted() error {
	select {
	case <-r.done:
		return r.cause
	default:
		return nil
	}
}

// end releases the run once the generation has returned.
func (r *run) end() {
	r.mu.Lock()
	if r.timer != nil {
		r.timer.Stop()
	}
	r.mu.Unlock()
	r.cancel(nil)
}

// why adds the halt cause to a generation's error when the run was halted
// for a reason of the server's (the time limit): the backend's error then
// says only that its emit callback or context ended.
func (r *run) why(err error) error {
	if h := r.halted(); h != nil && !errors.Is(err, h) && errors.Is(h, errGenerationLimit) {
		return fmt.Errorf("%w: %w", h, err)
	}
	return err
}

// genErr maps job j's generation error in the variant at hand; a
// generation longer than the nodes accept is the request's fault, named
// by its prompt.
func (s *Server) genErr(j *job, err error, started bool) *apiError {
	var tl *router.TooLongError
	if errors.As(err, &tl) {
		asked := j.maxTokens
		if j.noTokens {
			asked = 0 // echo alone: the backend is asked for one token
		}
		return invalidf("%s: its %d tokens and max_tokens %d need %d positions of the nodes' KV cache, but those serving model %q accept at most %d for one generation; lower max_tokens or shorten the prompt",
			j.name, len(j.prompt), asked, tl.Need, j.model, tl.Max).because(err)
	}
	return s.backendErr(j.model, err, started)
}

// backendErr maps a backend error in the variant at hand.
func (s *Server) backendErr(model string, err error, started bool) *apiError {
	if s.mg != nil {
		return s.managedBackendError(model, err, started)
	}
	return backendError(model, err)
}

// gone reports whether the client left (so nobody reads an answer).
func (r *run) gone() bool {
	return errors.Is(r.halted(), errClientGone) || errors.Is(context.Cause(r.ctx), errClientGone)
}

// prepare validates a request and turns it into its jobs: one per prompt
// (a chat request, and a completions request of one prompt, have one).
func (s *Server) prepare(ctx context.Context, rc *fasthttp.RequestCtx, chat bool) ([]*job, bool, *apiError) {
	body, ref, key := rc.PostBody(), requestRef(rc), callerOf(rc)
	var common commonRequest
	var chatReq *chatRequest
	var compReq *completionRequest
	var aerr *apiError
	if chat {
		chatReq, aerr = parseChat(body)
		if aerr == nil {
			common = chatReq.commonRequest
		}
	} else {
		compReq, aerr = parseCompletion(body)
		if aerr == nil {
			common = compReq.commonRequest
		}
	}
	if aerr != nil {
		return nil, false, aerr
	}
	name := common.Model
	if s.mg != nil {
		// The managed variant has no default model: a key's scope
		// decides what a request may name.
		rc.SetUserValue(modelKey{}, name)
		if aerr := s.admitModel(key, name); aerr != nil {
			return nil, false, aerr
		}
	} else if name == "" {
		name = s.cfg.DefaultModel
	}
	if name == "" {
		return nil, false, &apiError{Status: 400, Code: codeModelRequired,
			Message: "the request names no model and this server has no default; set \"model\" (GET /v1/models lists them)"}
	}
	info, err := s.cfg.Backend.Model(ctx, name)
	if err != nil {
		return nil, false, s.backendErr(name, err, false)
	}
	kit, err := s.kits.get(ctx, info)
	if err != nil {
		return nil, false, serverError(fmt.Errorf("model %s: %w", info.Name, err))
	}
	now := s.cfg.Now()
	base := job{chat: chat, ref: ref, key: key, created: now.Unix(), model: info.Name, kit: kit,
		stop: common.Stop, includeUsage: common.IncludeUsage, logprobs: common.Logprobs, top: common.TopLogprobs}
	if chat {
		j := &base
		j.id, j.name = ref, "messages"
		text, err := kit.renderChat(chatReq.Messages, s.cfg.Now)
		var te errTemplate
		if errors.As(err, &te) {
			return nil, false, serverError(fmt.Errorf("model %s: %w", info.Name, err))
		}
		if err != nil {
			return nil, false, invalidf("messages: the model's chat template refused this conversation: %v", err)
		}
		if j.prompt, err = kit.encode(text); err != nil {
			return nil, false, invalidf("messages: cannot tokenize the rendered conversation: %v", err)
		}
		if len(j.prompt) == 0 {
			return nil, false, invalidf("the prompt is empty: it gives no tokens to continue from")
		}
		if j.maxTokens, aerr = fitMaxTokens(common.MaxTokens, len(j.prompt), kit.ctxLen); aerr != nil {
			return nil, false, aerr
		}
		return []*job{j}, common.Stream, nil
	}
	base.id = "cmpl-" + strings.TrimPrefix(ref, "chatcmpl-")
	jobs := make([]*job, len(compReq.Prompts))
	for i, p := range compReq.Prompts {
		j := base
		j.index, j.name = i, p.name
		if aerr := j.completionPrompt(p, compReq.Echo, common); aerr != nil {
			return nil, false, aerr
		}
		jobs[i] = &j
	}
	if aerr := scoredWithin(jobs); aerr != nil {
		return nil, false, aerr
	}
	return jobs, common.Stream, nil
}

// scoredWithin bounds the prompt tokens a batch asks to score (echo with
// logprobs) together by what one prompt may hold, so that a request holds
// no more log-probabilities (in the router's replies, the answer being
// built and its body) than the largest single prompt does, however many
// prompts it carries.
func scoredWithin(jobs []*job) *apiError {
	if len(jobs) < 2 || !jobs[0].promptLogprobs {
		return nil
	}
	total := 0
	for _, j := range jobs {
		total += len(j.prompt)
	}
	if limit := router.MaxPromptLogprobs(jobs[0].top); total > limit {
		return invalidf("echo with logprobs: the %d prompts hold %d tokens together; with logprobs %d the log-probabilities of at most %d prompt tokens can be returned by one request; send fewer prompts per request", len(jobs), total, jobs[0].top, limit)
	}
	return nil
}

// completionPrompt sets a completions job's prompt (tokenized, checked
// against the vocabulary and the context) and its echo; errors name the
// prompt ("prompt", or "prompt[i]" in a batch).
func (j *job) completionPrompt(p promptItem, echo bool, common commonRequest) *apiError {
	kit := j.kit
	batch := p.name != "prompt"
	named := func(aerr *apiError) *apiError {
		if batch {
			aerr.Message = p.name + ": " + aerr.Message
		}
		return aerr
	}
	if p.IDs != nil {
		for i, id := range p.IDs {
			if kit.vocab > 0 && int(id) >= kit.vocab {
				return invalidf("%s[%d]: token id %d is outside the vocabulary of %d tokens", p.name, i, id, kit.vocab)
			}
		}
		j.prompt = p.IDs
		if echo {
			asm := newTextAssembler(kit.tok, nil)
			var b strings.Builder
			for _, id := range j.prompt {
				out, _ := asm.push(id)
				b.WriteString(out)
			}
			out, _ := asm.flush()
			j.echo = b.String() + out
		}
	} else {
		var err error
		if j.prompt, err = kit.encode(p.Text); err != nil {
			return invalidf("%s: cannot tokenize: %v", p.name, err)
		}
		if echo {
			j.echo = p.Text
		}
	}
	if len(j.prompt) == 0 {
		if batch {
			return invalidf("%s is empty: it gives no tokens to continue from", p.name)
		}
		return invalidf("the prompt is empty: it gives no tokens to continue from")
	}
	if echo {
		j.echoOn = true
		j.promptLogprobs = j.logprobs
		// Every prompt position's score and top rows come back from the
		// last node in one reply: far more positions than most contexts.
		if limit := router.MaxPromptLogprobs(j.top); j.promptLogprobs && len(j.prompt) > limit {
			return named(invalidf("echo with logprobs: the prompt has %d tokens; with logprobs %d the log-probabilities of at most %d can be returned", len(j.prompt), j.top, limit))
		}
	}
	asked := common.MaxTokens
	if common.NoTokens {
		j.noTokens, asked = true, 1
	}
	var aerr *apiError
	if j.maxTokens, aerr = fitMaxTokens(asked, len(j.prompt), kit.ctxLen); aerr != nil {
		return named(aerr)
	}
	return nil
}

// fitMaxTokens checks the completion budget against the model's context:
// an explicit max_tokens that does not fit is refused (as OpenAI does), the
// default shrinks to what fits.
func fitMaxTokens(asked, promptLen, ctxLen int) (int, *apiError) {
	room := ctxLen - promptLen
	if ctxLen > 0 && room < 1 {
		return 0, invalidf("the prompt has %d tokens, which leaves no room in the model's context of %d tokens", promptLen, ctxLen)
	}
	if asked == 0 {
		if ctxLen > 0 && room < DefaultMaxTokens {
			return room, nil
		}
		return DefaultMaxTokens, nil
	}
	if ctxLen > 0 && asked > room {
		return 0, invalidf("max_tokens is %d, but the model's context is %d tokens and the prompt uses %d; at most %d can be generated",
			asked, ctxLen, promptLen, room)
	}
	return asked, nil
}

func (s *Server) backendRequest(j *job) router.GenerateRequest {
	r := router.GenerateRequest{
		Model:     j.model,
		Prompt:    j.prompt,
		MaxTokens: j.maxTokens,
		Stop:      j.kit.tok.IsEOG,
		Logprobs:  j.logprobs,
		Waves:     j.waves,
	}
	if j.logprobs {
		r.TopLogprobs = j.top
	}
	if j.key != nil {
		// A managed deployment's tenant is its API key: one key's cached
		// prompts are not matched for another's.
		r.PromptCacheScope = []byte("apikey:" + j.key.ID)
	}
	return r
}

// finishOf decides finish_reason when the backend did not say; an answer
// of no tokens (max_tokens 0 with echo) is cut by its length.
func finishOf(res router.GenerateResult, stopped bool, n int, j *job) router.FinishReason {
	switch {
	case j.noTokens:
		return router.FinishLength
	case stopped:
		return router.FinishStop
	case res.Finish != "":
		return res.Finish
	case n >= j.maxTokens:
		return router.FinishLength
	default:
		return router.FinishStop
	}
}

// errBatchFailed ends the other generations of a batch one of whose
// prompts failed: the request fails as a whole.
var errBatchFailed = errors.New("another prompt of the request failed")

// blamed is the prompt whose error a failed batch answers with, given
// each prompt's (first: the first to fail): the lowest index of a prompt
// too long for the nodes, the request's own fault, else the first to
// fail. Every such prompt is found before its generation starts (the
// router's check comes before any wait, and halting the others does not
// skip it), so the answer names the same prompt however the generations
// raced; which failed first is chance.
func blamed(errs []error, first int) int {
	for i, err := range errs {
		var tl *router.TooLongError
		if errors.As(err, &tl) {
			return i
		}
	}
	return first
}

// wholeChoice is one finished generation of a whole answer.
type wholeChoice struct {
	text     string
	finish   string
	n        int
	res      router.GenerateResult
	released []placed
	promptLP []router.Token
	// logprobs is a completions choice's log-probabilities as JSON,
	// encoded when its generation ends (encErr: why that failed), so that
	// a batch holds its finished choices' numbers as the body's bytes
	// rather than as tokens and the structures that write them.
	logprobs json.RawMessage
	encErr   error
	err      error
}

// releaser turns job j's generated tokens into the text they release, with
// their log-probabilities when asked for, and finds its stop strings: what
// a whole answer and a stream's generation both do with each token.
type releaser struct {
	j     *job
	asm   *textAssembler
	track *tokenTrack
	n     int // tokens generated (none counted for echo alone)
}

func newReleaser(j *job) *releaser {
	return &releaser{j: j, asm: newTextAssembler(j.kit.tok, j.stop), track: newTokenTrack(j.kit, utf8.RuneCountInString(j.echo))}
}

// token takes one generated token: the text it releases, their
// log-probabilities, and whether a stop string matched (the generation
// ends there).
func (rl *releaser) token(tk router.Token) (text string, ps []placed, matched bool) {
	if rl.j.noTokens {
		return "", nil, false
	}
	rl.n++
	text, matched = rl.asm.push(tk.ID)
	if rl.j.logprobs {
		ps = rl.track.token(tk, text, matched)
	}
	return text, ps, matched
}

// flush releases the text held back when the generation ended without a
// stop string, and whether a stop string is found in it.
func (rl *releaser) flush() (text string, ps []placed, matched bool) {
	text, matched = rl.asm.flush()
	if rl.j.logprobs {
		ps = rl.track.out(text, true, matched)
	}
	return text, ps, matched
}

// generateWhole runs job j's generation to its end.
func (s *Server) generateWhole(r *run, j *job) wholeChoice {
	rl := newReleaser(j)
	var c wholeChoice
	var text strings.Builder
	text.WriteString(j.echo)
	stopped := false
	req := s.backendRequest(j)
	if j.promptLogprobs {
		req.PromptLogprobs = func(p []router.Token) error { c.promptLP = p; return nil }
	}
	res, err := s.cfg.Backend.Generate(r.ctx, req, func(tk router.Token) error {
		if err := r.halted(); err != nil {
			return err
		}
		out, ps, matched := rl.token(tk)
		text.WriteString(out)
		c.released = append(c.released, ps...)
		if matched {
			stopped = true
			return errStopSequence
		}
		return nil
	})
	c.n = rl.n
	s.countTokens(j, c.n)
	if err != nil && !stopped {
		c.err = err
		return c
	}
	if !stopped {
		tail, ps, matched := rl.flush()
		text.WriteString(tail)
		stopped = matched
		c.released = append(c.released, ps...)
	}
	c.text, c.res = text.String(), res
	c.finish = string(finishOf(res, stopped, c.n, j))
	s.logDone(j, c.n, c.finish, false)
	if j.logprobs && !j.chat {
		lp := newTextLogprobs()
		if j.promptLogprobs {
			j.kit.textAppend(lp, promptPlaced(j.kit, j.prompt, c.promptLP, j.echo), j.top)
		}
		j.kit.textAppend(lp, c.released, j.top)
		c.logprobs, c.encErr = json.Marshal(lp)
		c.promptLP, c.released = nil, nil
	}
	return c
}

// answerWhole runs the generations, all at once, and answers with one JSON
// body of a choice per job. If one fails, the others are halted and the
// request fails with its error.
func (s *Server) answerWhole(ctx *fasthttp.RequestCtx, r *run, jobs []*job) {
	cs := make([]wholeChoice, len(jobs))
	failed := -1
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i, j := range jobs {
		wg.Go(func() {
			c := s.generateWhole(r, j)
			cs[i] = c
			if c.err != nil {
				mu.Lock()
				if failed < 0 {
					failed = i
					r.halt(errBatchFailed)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	j0 := jobs[0]
	if failed >= 0 {
		if r.gone() {
			// Nobody is listening; 499 (client closed request) is for the metrics.
			ctx.SetStatusCode(499)
			return
		}
		errs := make([]error, len(cs))
		for i, c := range cs {
			errs[i] = c.err
		}
		failed = blamed(errs, failed)
		s.fail(ctx, s.genErr(jobs[failed], r.why(cs[failed].err), cs[failed].n > 0))
		return
	}
	for _, c := range cs {
		if c.encErr != nil {
			s.fail(ctx, serverError(fmt.Errorf("encoding the response: %w", c.encErr)))
			return
		}
	}
	var u usage
	for i, j := range jobs {
		u.add(s.usageOf(j, cs[i].n, cs[i].res))
	}
	if j0.chat {
		c := cs[0]
		ch := chatChoice{Index: 0, Message: chatMessage{Role: "assistant", Content: c.text}, FinishReason: c.finish}
		if j0.logprobs {
			ch.Logprobs = &chatLogprobs{Content: j0.kit.chatContent([]chatTokenLogprob{}, c.released)}
		}
		s.writeJSON(ctx, 200, chatCompletion{
			ID: j0.id, Object: "chat.completion", Created: j0.created, Model: j0.model,
			Choices: []chatChoice{ch}, Usage: u,
		})
		return
	}
	choices := make([]textChoice, len(jobs))
	for i, j := range jobs {
		c := cs[i]
		choices[i] = textChoice{Index: j.index, Text: c.text, FinishReason: &c.finish}
		if j.logprobs {
			choices[i].Logprobs = c.logprobs
		}
	}
	s.writeJSON(ctx, 200, textCompletion{
		ID: j0.id, Object: "text_completion", Created: j0.created, Model: j0.model,
		Choices: choices, Usage: &u,
	})
}

// add sums usages (a batch's choices).
func (u *usage) add(v usage) {
	u.PromptTokens += v.PromptTokens
	u.CompletionTokens += v.CompletionTokens
	u.TotalTokens += v.TotalTokens
	u.PromptTokensDetails.CachedTokens += v.PromptTokensDetails.CachedTokens
}

// outcome is how a generation ended.
type outcome struct {
	res router.GenerateResult
	err error
}

// streamEvent is a token of one of a stream's choices, as the text it
// releases (text, and ps its log-probabilities; both may be empty: held
// back), or, done, how its generation ended (its last event): the text
// held back until then, the tokens generated (n) and whether a stop
// string ended it.
type streamEvent struct {
	choice  int
	text    string
	ps      []placed
	done    bool
	out     outcome
	n       int
	stopped bool
	// waiting says the generation waits for room on the nodes (a batch
	// in waves): the stream need not wait for its first token.
	waiting bool
}

// streamChoice is one generation of a stream: its job and what the writer
// made of it so far.
type streamChoice struct {
	j *job
	// promptLP is set before the choice's first event is sent.
	promptLP []router.Token
	tokens   bool // a token of it was received
	begun    bool // its first event was written (after its echo)
}

// streamBatch is a stream's generations and the one channel their events
// come on, interleaved as they progress.
type streamBatch struct {
	cs      []*streamChoice
	events  chan streamEvent
	running int // generations whose last event has not been received
}

// startBatch runs the generations, each in a goroutine of its own that sends
// its tokens' text and then its end on b.events. Each goroutine applies its
// stop strings itself, so that a generation ends at its stop string however
// far the writer is behind (before the stream begins, it waits for the
// slowest prompt's first token).
func (s *Server) startBatch(r *run, jobs []*job) *streamBatch {
	b := &streamBatch{events: make(chan streamEvent, 64), running: len(jobs)}
	for i, j := range jobs {
		c := &streamChoice{j: j}
		b.cs = append(b.cs, c)
		req := s.backendRequest(j)
		if j.promptLogprobs {
			req.PromptLogprobs = func(p []router.Token) error { c.promptLP = p; return nil }
		}
		req.Waiting = func() {
			select {
			case b.events <- streamEvent{choice: i, waiting: true}:
			case <-r.done:
			}
		}
		go func() {
			rl := newReleaser(j)
			stopped := false
			res, err := s.cfg.Backend.Generate(r.ctx, req, func(tk router.Token) error {
				if err := r.halted(); err != nil {
					return err
				}
				ev := streamEvent{choice: i}
				var matched bool
				ev.text, ev.ps, matched = rl.token(tk)
				select {
				case b.events <- ev:
				case <-r.done:
					return r.cause
				case <-r.ctx.Done():
					return context.Cause(r.ctx)
				}
				if matched {
					stopped = true
					return errStopSequence
				}
				return nil
			})
			end := streamEvent{choice: i, done: true, out: outcome{res, err}, n: rl.n, stopped: stopped}
			if err == nil && !stopped {
				end.text, end.ps, end.stopped = rl.flush()
			}
			// Never blocks for long: whoever holds the batch receives
			// until every generation has ended.
			b.events <- end
		}()
	}
	return b
}

// recv receives the next event.
func (b *streamBatch) recv() streamEvent {
	ev := <-b.events
	switch {
	case ev.done:
		b.running--
	case !ev.waiting:
		b.cs[ev.choice].tokens = true
	}
	return ev
}

// drain receives events until every generation has returned and closed
// its sessions (the request is not over before), keeping in errs how
// each that failed ended.
func (b *streamBatch) drain(errs []error) {
	for b.running > 0 {
		if ev := b.recv(); ev.done && !ev.stopped {
			errs[ev.choice] = ev.out.err
		}
	}
}

// answerStream starts the generations and waits until each has given its
// first token (or ended, or begun to wait for room: a batch in waves)
// before answering, so that a request the swarm cannot serve at all still
// gets an HTTP error status; if one fails by then, the others are halted
// and the request fails. Then the stream writer takes over.
func (s *Server) answerStream(ctx *fasthttp.RequestCtx, r *run, jobs []*job, cleanup func()) bool {
	b := s.startBatch(r, jobs)
	var pending []streamEvent
	heard := make([]bool, len(jobs))
	for left := len(jobs); left > 0; {
		ev := b.recv()
		pending = append(pending, ev)
		if !heard[ev.choice] {
			heard[ev.choice] = true
			left--
		}
		if ev.done && ev.out.err != nil && !ev.stopped {
			r.halt(errBatchFailed)
			errs := make([]error, len(jobs))
			errs[ev.choice] = ev.out.err
			b.drain(errs)
			if r.gone() {
				ctx.SetStatusCode(499)
				return false
			}
			i := blamed(errs, ev.choice)
			s.fail(ctx, s.genErr(jobs[i], r.why(errs[i]), b.cs[i].tokens))
			return false
		}
	}
	ctx.SetStatusCode(200)
	ctx.SetContentType("text/event-stream")
	ctx.Response.Header.Set("Cache-Control", "no-cache")
	ctx.Response.Header.Set("X-Accel-Buffering", "no")
	if !ctx.Request.Header.IsHTTP11() {
		// HTTP/1.0 has no chunked encoding, which is all fasthttp streams
		// with: the body goes out as is on the connection, which closes
		// at its end (what net/http does).
		head := unchunkedHead(&ctx.Response.Header)
		ctx.HijackSetNoResponse(true)
		ctx.Hijack(func(c net.Conn) {
			defer s.m.inFlight.Dec()
			defer cleanup()
			w := bufio.NewWriter(c)
			_, _ = w.Write(head) // an error stays in w and ends the stream
			s.stream(w, r, b, pending)
		})
		return true
	}
	ctx.SetBodyStreamWriter(func(w *bufio.Writer) {
		defer s.m.inFlight.Dec()
		defer cleanup()
		s.stream(w, r, b, pending)
	})
	return true
}

// unchunkedHead is the status line and headers of a 200 whose body ends
// when the connection closes.
func unchunkedHead(h *fasthttp.ResponseHeader) []byte {
	var b bytes.Buffer
	b.WriteString("HTTP/1.1 200 OK\r\n")
	h.VisitAll(func(k, v []byte) {
		switch strings.ToLower(string(k)) {
		case "content-length", "transfer-encoding", "connection":
			return
		}
		b.Write(k)
		b.WriteString(": ")
		b.Write(v)
		b.WriteString("\r\n")
	})
	b.WriteString("Connection: close\r\n\r\n")
	return b.Bytes()
}

// stream writes the SSE events of a stream's generations: a role chunk
// (chat); then, interleaved as the generations progress, each choice's
// echo (completions), a chunk per text piece and a final chunk with its
// finish_reason, each carrying the choice's index; an optional usage
// chunk with the sums; then [DONE]. A failure after the stream began is
// sent as an event in SPEC's error shape, the other generations are
// halted, and the stream ends there.
func (s *Server) stream(w *bufio.Writer, r *run, b *streamBatch, pending []streamEvent) {
	j0 := b.cs[0].j
	sse := &sseWriter{w: w, failed: func() { r.halt(errClientGone) }}
	if j0.chat {
		sse.chunk(j0, delta{Role: "assistant"}, "", nil)
	}
	failed := false
	var total usage
	handle := func(ev streamEvent) {
		c := b.cs[ev.choice]
		j := c.j
		if ev.done {
			s.countTokens(j, ev.n)
		}
		if ev.waiting || failed || sse.err != nil || r.gone() {
			return
		}
		if !c.begun {
			c.begun = true
			if !j.chat && (j.echo != "" || j.promptLogprobs) {
				var ps []placed
				if j.promptLogprobs {
					ps = promptPlaced(j.kit, j.prompt, c.promptLP, j.echo)
				}
				sse.piece(j, j.echo, ps)
			}
		}
		if ev.text != "" || len(ev.ps) > 0 {
			sse.piece(j, ev.text, ev.ps)
		}
		if !ev.done {
			return
		}
		o := ev.out
		if o.err != nil && !ev.stopped {
			aerr := s.genErr(j, r.why(o.err), c.tokens)
			s.logRefusal(j.ref, "POST", j.path(), aerr)
			if s.mg != nil {
				s.journal(reqInfo{ref: j.ref, method: "POST", path: j.path(), model: j.model, key: j.key}, aerr)
			}
			sse.event(aerr.body(j.ref, s.managed()))
			failed = true
			r.halt(errBatchFailed)
			return
		}
		finish := string(finishOf(o.res, ev.stopped, ev.n, j))
		s.logDone(j, ev.n, finish, true)
		total.add(s.usageOf(j, ev.n, o.res))
		if j.chat {
			// SPEC §4: a chat stream's final chunk says "stop", also when
			// max_tokens ended it (the log above keeps the real reason);
			// non-streamed answers and legacy completions, on which SPEC is
			// silent, say "length" as OpenAI does.
			sse.chunk(j, delta{}, string(router.FinishStop), nil)
		} else {
			sse.textChunk(j, "", &finish)
		}
	}
	for _, ev := range pending {
		handle(ev)
	}
	for b.running > 0 {
		handle(b.recv())
	}
	if failed || sse.err != nil || r.gone() {
		return
	}
	if j0.includeUsage {
		sse.usageChunk(j0, total)
	}
	sse.raw("[DONE]")
}

// logDone writes the access line of a finished generation.
func (s *Server) logDone(j *job, n int, finish string, stream bool) {
	d := time.Since(j.start)
	s.log.Info("generation done", "id", j.id, "choice", j.index, "model", j.model, "stream", stream,
		"prompt_tokens", len(j.prompt), "completion_tokens", n, "finish", finish,
		"seconds", fmt.Sprintf("%.3f", d.Seconds()))
}

// sseWriter frames events; after the first write error it writes nothing
// more, keeps the error and calls failed once (the stream's generations
// then end: nobody reads them). Each chunk is a choice's: its job's index.
type sseWriter struct {
	w      *bufio.Writer
	err    error
	failed func()
}

// fail keeps the first error and reports it.
func (s *sseWriter) fail(err error) {
	if err == nil || s.err != nil {
		return
	}
	s.err = err
	if s.failed != nil {
		s.failed()
	}
}

func (s *sseWriter) raw(data string) {
	if s.err != nil {
		return
	}
	if _, err := s.w.WriteString("data: " + data + "\n\n"); err != nil {
		s.fail(err)
		return
	}
	s.fail(s.w.Flush())
}

func (s *sseWriter) event(v any) {
	var b []byte
	switch t := v.(type) {
	case []byte:
		b = t
	default:
		var err error
		if b, err = json.Marshal(v); err != nil {
			s.fail(fmt.Errorf("encoding an event: %w", err))
			return
		}
	}
	s.raw(string(b))
}

// piece sends a piece of job j's text with the log-probabilities of the
// tokens it releases (ps; the echoed prompt's for the echo), when they
// were asked for.
func (s *sseWriter) piece(j *job, text string, ps []placed) {
	if j.chat {
		c := chatChunkOf(j, delta{Content: &text}, "", nil)
		if j.logprobs {
			c.Choices[0].Logprobs = &chatLogprobs{Content: j.kit.chatContent([]chatTokenLogprob{}, ps)}
		}
		s.event(c)
		return
	}
	c := textChunkOf(j, text, nil)
	if j.logprobs {
		lp := newTextLogprobs()
		j.kit.textAppend(lp, ps, j.top)
		c.Choices[0].Logprobs = lp
	}
	s.event(c)
}

func (s *sseWriter) chunk(j *job, d delta, finish string, u *usage) {
	s.event(chatChunkOf(j, d, finish, u))
}

func chatChunkOf(j *job, d delta, finish string, u *usage) chatChunk {
	c := chatChunk{ID: j.id, Object: "chat.completion.chunk", Created: j.created, Model: j.model,
		Choices: []chunkChoice{{Index: j.index, Delta: d}}, Usage: u}
	if finish != "" {
		c.Choices[0].FinishReason = &finish
	}
	return c
}

func (s *sseWriter) textChunk(j *job, text string, finish *string) {
	s.event(textChunkOf(j, text, finish))
}

func textChunkOf(j *job, text string, finish *string) textCompletion {
	return textCompletion{ID: j.id, Object: "text_completion", Created: j.created, Model: j.model,
		Choices: []textChoice{{Index: j.index, Text: text, FinishReason: finish}}}
}

// usageChunk is OpenAI's stream_options.include_usage event: no choices,
// only the usage (of every choice).
func (s *sseWriter) usageChunk(j *job, u usage) {
	if j.chat {
		s.event(chatChunk{ID: j.id, Object: "chat.completion.chunk", Created: j.created, Model: j.model,
			Choices: []chunkChoice{}, Usage: &u})
		return
	}
	s.event(textCompletion{ID: j.id, Object: "text_completion", Created: j.created, Model: j.model,
		Choices: []textChoice{}, Usage: &u})
}

// Response shapes (SPEC.md §2).
type chatCompletion struct {
	ID      string       `json:"id"`
	Object  string       `json:"object"`
	Created int64        `json:"created"`
	Model   string       `json:"model"`
	Choices []chatChoice `json:"choices"`
	Usage   usage        `json:"usage"`
}

type chatChoice struct {
	Index        int           `json:"index"`
	Message      chatMessage   `json:"message"`
	Logprobs     *chatLogprobs `json:"logprobs"`
	FinishReason string        `json:"finish_reason"`
}

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type chatChunk struct {
	ID      string        `json:"id"`
	Object  string        `json:"object"`
	Created int64         `json:"created"`
	Model   string        `json:"model"`
	Choices []chunkChoice `json:"choices"`
	Usage   *usage        `json:"usage,omitempty"`
}

type chunkChoice struct {
	Index        int           `json:"index"`
	Delta        delta         `json:"delta"`
	Logprobs     *chatLogprobs `json:"logprobs"`
	FinishReason *string       `json:"finish_reason"`
}

type delta struct {
	Role    string  `json:"role,omitempty"`
	Content *string `json:"content,omitempty"`
}

type textCompletion struct {
	ID      string       `json:"id"`
	Object  string       `json:"object"`
	Created int64        `json:"created"`
	Model   string       `json:"model"`
	Choices []textChoice `json:"choices"`
	Usage   *usage       `json:"usage,omitempty"`
}

type textChoice struct {
	Index int    `json:"index"`
	Text  string `json:"text"`
	// Logprobs is nil (null), a *textLogprobs (a stream's chunk) or its
	// JSON (a whole answer's choice, encoded when it finished).
	Logprobs     any     `json:"logprobs"`
	FinishReason *string `json:"finish_reason"`
}

// textAssembler turns generated tokens into text pieces that are valid
// UTF-8 (the stream decoder holds back partial characters) and applies the
// request's stop strings: text that might be the start of a stop string is
// held back until it is clear either way.
type textAssembler struct {
	dec   *tokenizer.StreamDecoder
	stops []string
	held  string
}

// The text of a completion is the plain concatenation of its tokens' pieces,
// control tokens rendered as nothing: what llama.cpp's server sends. (A
// whole-text Decode would drop the first token's leading space, which
// belongs to a continuation.)
func newTextAssembler(tok *tokenizer.Tokenizer, stops []string) *textAssembler {
	dec := tok.NewStreamDecoderWith(tokenizer.StreamOptions{Raw: true, DecodeOptions: tokenizer.DecodeOptions{SkipSpecial: true}})
	return &textAssembler{dec: dec, stops: stops}
}

// push adds a token; it returns the text that can be sent now and whether
// a stop string was reached (the text before it is returned, the stop
// string and anything after it are dropped).
func (a *textAssembler) push(id int32) (string, bool) {
	return a.take(a.held+a.dec.Add(id), false)
}

// flush ends the text: whatever the decoder and the stop check held back.
func (a *textAssembler) flush() (string, bool) {
	return a.take(a.held+a.dec.Flush(), true)
}

func (a *textAssembler) take(buf string, final bool) (string, bool) {
	a.held = ""
	if len(a.stops) == 0 {
		return buf, false
	}
	cut := -1
	for _, s := range a.stops {
		if i := strings.Index(buf, s); i >= 0 && (cut < 0 || i < cut) {
			cut = i
		}
	}
	if cut >= 0 {
		return buf[:cut], true
	}
	if final {
		return buf, false
	}
	// Hold back the longest tail of buf that begins some stop string.
	keep := 0
	for _, s := range a.stops {
		for k := min(len(s)-1, len(buf)); k > keep; k-- {
			if strings.HasSuffix(buf, s[:k]) {
				keep = k
				break
			}
		}
	}
	a.held = buf[len(buf)-keep:]
	return buf[:len(buf)-keep], false
}
