package bench

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
)

// WriteTable prints the report as an aligned table, one row per level.
func (r *LoadReport) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "%s  model %s  max_tokens %d\n", r.URL, r.Model, r.MaxTokens)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "conc\treqs\tok\tfailed\tTTFT p50 ms\tTTFT p95 ms\tTPOT mean ms\tTPOT p50 ms\tout tok\tout tok/s\twall s\tcached prompt\terrors\t")
	for _, lv := range r.Levels {
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%.1f\t%.1f\t%.2f\t%.2f\t%d\t%.1f\t%.2f\t%s\t%s\t\n",
			lv.Concurrency, lv.Requests, lv.Succeeded, lv.Failed, lv.TTFTP50Ms, lv.TTFTP95Ms,
			lv.TPOTMeanMs, lv.TPOTP50Ms, lv.OutputTokens, lv.OutputTokensPerS, lv.WallSeconds, cachedCell(lv), errorList(lv.Errors))
	}
	return tw.Flush()
}

// cachedCell is a level's share of prompt tokens served from the server's
// cache, or "-" when the server did not say.
func cachedCell(lv LoadLevel) string {
	share, ok := lv.CachedShare()
	if !ok {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*share)
}

func errorList(m map[string]int) string {
	if len(m) == 0 {
		return "-"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s×%d", k, m[k])
	}
	return strings.Join(parts, ", ")
}
