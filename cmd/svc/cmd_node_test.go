package main

import "testing"

// TestParsePromptCache checks the values --prompt-cache takes.
func TestParsePromptCache(t *testing.T) {
	for in, want := range map[string]int64{"": 0, "0": 0, "off": -1, "OFF": -1, "256MiB": 256 << 20, "1GiB": 1 << 30, "4096": 4096} {
		if got, err := parsePromptCache(in); err != nil || got != want {
			t.Errorf("parsePromptCache(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"lots", "-1", "1.5GiB", "on"} {
		if got, err := parsePromptCache(in); err == nil {
			t.Errorf("parsePromptCache(%q) = %d, want an error", in, got)
		}
	}
}
