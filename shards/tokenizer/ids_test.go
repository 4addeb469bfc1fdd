package tokenizer

import (
	"slices"
	"testing"
)

func TestParseIDs(t *testing.T) {
	good := map[string][]int32{
		"1,403,407":       {1, 403, 407},
		" 1, 403 ,407 ":   {1, 403, 407},
		"[1, 403, 407]":   {1, 403, 407},
		"[]":              {},
		"":                {},
		"-1":              {-1},
		"2147483647":      {2147483647},
		"[2147483647,-2]": {2147483647, -2},
	}
	for in, want := range good {
		got, err := ParseIDs(in)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("ParseIDs(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"1,,2", "1,x", "1.5", "2147483648", "[1,", "[1.5]", "[2147483648]", ",", "1;2"} {
		if got, err := ParseIDs(in); err == nil {
			t.Errorf("ParseIDs(%q) = %v, want an error", in, got)
		}
	}
}
