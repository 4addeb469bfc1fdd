package tokenizer

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// ParseIDs reads a list of token ids as people type them on a command
// line: comma-separated ("1,403, 407") or a JSON array ("[1, 403, 407]").
// An empty string is an empty list. It checks the form only; whether an id
// is in a vocabulary is the caller's question.
func ParseIDs(s string) ([]int32, error) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "[") {
		var raw []int64
		if err := json.Unmarshal([]byte(s), &raw); err != nil {
			return nil, fmt.Errorf("%q is not a JSON array of integers: %w", s, err)
		}
		out := make([]int32, len(raw))
		for i, v := range raw {
			if v < -1<<31 || v > 1<<31-1 {
				return nil, fmt.Errorf("token id %d is out of range", v)
			}
			out[i] = int32(v)
		}
		return out, nil
	}
	if s == "" {
		return []int32{}, nil
	}
	parts := strings.Split(s, ",")
	out := make([]int32, 0, len(parts))
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if p == "" {
			return nil, fmt.Errorf("empty id in %q", s)
		}
		v, err := strconv.ParseInt(p, 10, 32)
		if err != nil {
			return nil, fmt.Errorf("%q is not a token id", p)
		}
		out = append(out, int32(v))
	}
	return out, nil
}
