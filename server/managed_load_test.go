package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"svc/internal/testenv"
)

// TestManagedLoad: many keys, each sending more concurrent streams than
// its rate allows, for several windows. Each key gets exactly its rate per
// window (the clock stands still inside a window, so "within one request"
// is exact here), every accepted stream ends with [DONE], and afterwards
// the goroutines are back to where they were and the heap has not grown.
func TestManagedLoad(t *testing.T) {
	const (
		keys    = 16
		perKey  = 6
		rate    = 4
		windows = 3
	)
	path := testenv.Path(t, "models", "stories260K.gguf")
	sw := startSwarm(t, path, [][2]int{{0, 2}, {2, 5}})
	sw.WaitServed(t, storiesName)
	k := newManagedKit(t, sw, sw.Router, nil)
	tokens := make([]string, keys)
	for i := range tokens {
		tokens[i] = k.key(t, fmt.Sprintf("load-%02d", i), []string{"*"}, rate, 24*time.Hour)
	}
	client := &http.Client{Timeout: 120 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: keys * perKey}}
	defer client.CloseIdleConnections()
	stream := func(key string) (int, string, bool) {
		req, _ := http.NewRequest("POST", k.ts.URL+"/v1/chat/completions",
			strings.NewReader(`{"model":"stories260K","stream":true,"max_tokens":16,"messages":[{"role":"user","content":"hi"}]}`))
		req.Header.Set("Authorization", "Bearer "+key)
		resp, err := client.Do(req)
		if err != nil {
			t.Errorf("stream: %v", err)
			return 0, "", false
		}
		defer resp.Body.Close()
		if resp.StatusCode != 200 {
			var eb errorBody
			_ = json.NewDecoder(resp.Body).Decode(&eb)
			return resp.StatusCode, eb.Error.Code, false
		}
		events := readSSE(t, resp.Body)
		return 200, "", len(events) > 0 && events[len(events)-1].Data == "[DONE]"
	}
	// Warm up, then take the baseline.
	if st, code, _ := stream(tokens[0]); st != 200 {
		t.Fatalf("warm-up: %d %s", st, code)
	}
	k.clock.advance(time.Minute)
	client.CloseIdleConnections()
	base, baseHeap := settle()

	for w := range windows {
		var mu sync.Mutex
		ok, limited := make([]int, keys), make([]int, keys)
		var wg sync.WaitGroup
		for i := range keys {
			for range perKey {
				wg.Go(func() {
					st, code, done := stream(tokens[i])
					mu.Lock()
					defer mu.Unlock()
					switch {
					case st == 200 && done:
						ok[i]++
					case st == 429 && code == codeRateLimitExceeded:
						limited[i]++
					default:
						t.Errorf("window %d key %d: %d %s (stream complete: %v)", w, i, st, code, done)
					}
				})
			}
		}
		wg.Wait()
		for i := range keys {
			if ok[i] != rate || limited[i] != perKey-rate {
				t.Errorf("window %d key %d: %d served, %d rate-limited; want %d and %d", w, i, ok[i], limited[i], rate, perKey-rate)
			}
		}
		k.clock.advance(time.Minute)
	}
	client.CloseIdleConnections()
	deadline := time.Now().Add(30 * time.Second)
	var n int
	var heap uint64
	for {
		n, heap = settle()
		if n <= base+2 || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("goroutines %d → %d, heap %d → %d KiB after %d streams", base, n, baseHeap>>10, heap>>10, keys*perKey*windows)
	if n > base+2 {
		t.Errorf("%d goroutines after the load, %d before", n, base)
	}
	if heap > baseHeap+32<<20 {
		t.Errorf("heap grew from %d to %d KiB", baseHeap>>10, heap>>10)
	}
	if sw.Sessions() != 0 {
		t.Errorf("%d sessions left open on the nodes", sw.Sessions())
	}
}

// settle collects garbage and reads the goroutine count and live heap.
func settle() (int, uint64) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return runtime.NumGoroutine(), ms.HeapAlloc
}
