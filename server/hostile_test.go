package server

import (
	"bytes"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"svc/internal/testenv"
)

// TestHostileNumbers sends 32 parallel requests, each with a 2 MB integer
// literal in max_tokens, max_completion_tokens or top_logprobs, again and
// again while ordinary requests are answered. Every hostile request gets
// 400 invalid_request naming its field and refused by the length bound
// (maxIntegerText), before any arithmetic on the digits: the literal used
// to cost seconds of CPU each. The ordinary requests' latencies, quiet and
// under the flood, are logged for a reader; a test asserts no timing.
func TestHostileNumbers(t *testing.T) {
	path := testenv.Path(t, "models", "stories260K.gguf")
	sw := startSwarm(t, path, [][2]int{{0, 5}})
	sw.WaitServed(t, storiesName)
	ts := startServer(t, Config{Backend: sw.Router, DefaultModel: storiesName})

	ordinary := func() time.Duration {
		t0 := time.Now()
		decodeOK(t, postJSON(t, ts.URL+"/v1/completions", `{"prompt":"Once upon a time","max_tokens":4}`))
		return time.Since(t0)
	}
	median := func(n int) time.Duration {
		var d []time.Duration
		for range n {
			d = append(d, ordinary())
		}
		slices.Sort(d)
		return d[n/2]
	}
	ordinary() // warm the kit cache
	quiet := median(7)

	digits := strings.Repeat("9", 2<<20)
	bound := fmt.Sprintf("at most %d characters", maxIntegerText)
	fieldsOf := []string{"max_tokens", "max_completion_tokens", "top_logprobs"}
	var stop atomic.Bool
	var sent atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, 32)
	for i := range 32 {
		field := fieldsOf[i%len(fieldsOf)]
		body := []byte(fmt.Sprintf(`{"prompt":"Once upon a time","%s":1%s}`, field, digits))
		wg.Go(func() {
			for !stop.Load() {
				resp, err := httpClient.Post(ts.URL+"/v1/completions", "application/json", bytes.NewReader(body))
				if err != nil {
					errs <- err
					return
				}
				var b bytes.Buffer
				_, _ = b.ReadFrom(resp.Body)
				resp.Body.Close()
				r := response{Status: resp.StatusCode, Header: resp.Header, Body: b.Bytes()}
				if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), `"code":"invalid_request"`) || !strings.Contains(string(r.Body), field) || !strings.Contains(string(r.Body), bound) {
					errs <- fmt.Errorf("%s: %d %.300s", field, r.Status, r.Body)
					return
				}
				sent.Add(1)
			}
		})
	}
	// Time the ordinary request once the flood is under way.
	for sent.Load() < 32 && len(errs) == 0 {
		time.Sleep(10 * time.Millisecond)
	}
	// Keep timing until 64 more hostile requests were refused meanwhile,
	// so that the measurements overlap the flood.
	var loadedTimes []time.Duration
	for from := sent.Load(); (sent.Load() < from+64 || len(loadedTimes) < 7) && len(errs) == 0 && len(loadedTimes) < 2000; {
		loadedTimes = append(loadedTimes, ordinary())
	}
	slices.Sort(loadedTimes)
	loaded := loadedTimes[len(loadedTimes)/2]
	stop.Store(true)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	t.Logf("ordinary request: median %s quiet, %s (max %s, %d requests) under 32 parallel 2 MB literals (%d refused)",
		quiet.Round(100*time.Microsecond), loaded.Round(100*time.Microsecond), loadedTimes[len(loadedTimes)-1].Round(time.Millisecond), len(loadedTimes), sent.Load())
}

// TestJSONInteger: integer fields are read exactly, without floating point
// or arbitrary precision.
func TestJSONInteger(t *testing.T) {
	for _, c := range []struct {
		text string
		want int64
		ok   bool
	}{
		{"512", 512, true}, {"512.0", 512, true}, {"5.12e2", 512, true}, {"5120E-1", 512, true},
		{"1E+2", 100, true}, {"0", 0, true}, {"-0", 0, true}, {"0.000", 0, true}, {"0e999999999999999999999", 0, true},
		{"120e-1", 12, true}, {"12e-1", 0, false}, {"512.5", 0, false}, {"1.0000000000000001", 0, false},
		{"1e-99999999999999999999", 0, false},
		{"9223372036854775807", math.MaxInt64, true}, {"9223372036854775808", math.MaxInt64, true},
		{"-9223372036854775808", math.MinInt64, true}, {"-9223372036854775809", math.MinInt64, true},
		{"1e19", math.MaxInt64, true}, {"1e99999999999999999999", math.MaxInt64, true}, {"-1e30", math.MinInt64, true},
		{"18446744073709551615", math.MaxInt64, true},
	} {
		got, ok := jsonInteger([]byte(c.text))
		if got != c.want || ok != c.ok {
			t.Errorf("%s: %d %v, want %d %v", c.text, got, ok, c.want, c.ok)
		}
	}
}
