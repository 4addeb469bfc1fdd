package proctest

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// scrapeTimeout bounds one scrape, so that a frozen process cannot hang a
// test whose context is long.
const scrapeTimeout = 10 * time.Second

// Scrape fetches a Prometheus text page (or any page) with GET.
func Scrape(ctx context.Context, url string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, scrapeTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return "", fmt.Errorf("scrape %s: %w", url, err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", fmt.Errorf("scrape %s: %w", url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", fmt.Errorf("scrape %s: %w", url, err)
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("scrape %s: status %d", url, resp.StatusCode)
	}
	return string(b), nil
}

// MetricSum adds up every series of one metric name in a Prometheus text
// page; ok is false when the page has no such series.
func MetricSum(page, name string) (sum float64, ok bool) {
	for _, l := range strings.Split(page, "\n") {
		rest, found := strings.CutPrefix(l, name)
		if !found || rest == "" || (rest[0] != ' ' && rest[0] != '{') {
			continue // another metric, or a longer name with this prefix
		}
		if rest[0] == '{' {
			rest = rest[strings.LastIndexByte(rest, '}')+1:]
		}
		f := strings.Fields(rest) // value [timestamp]
		if len(f) == 0 {
			continue
		}
		v, err := strconv.ParseFloat(f[0], 64)
		if err != nil {
			continue
		}
		sum += v
		ok = true
	}
	return sum, ok
}

// Metric scrapes url and returns the sum of the named metric's series.
func Metric(ctx context.Context, url, name string) (float64, error) {
	page, err := Scrape(ctx, url)
	if err != nil {
		return 0, err
	}
	v, ok := MetricSum(page, name)
	if !ok {
		return 0, fmt.Errorf("%s exposes no %s", url, name)
	}
	return v, nil
}
