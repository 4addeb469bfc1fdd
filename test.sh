#!/usr/bin/env bash
# The whole test suite: vet, every package's tests (fixtures from ../shared or
# $SVC_SHARED), then a short run of every fuzz target.
set -euo pipefail
cd "$(dirname "$0")"

go vet ./...
go test -count=1 -timeout 60m ./...

# Each fuzz target for a short while: enough to catch a regression in the
# parsers, not a campaign (run longer by hand with FUZZTIME=5m).
fuzztime="${FUZZTIME:-15s}"
go list -f '{{.ImportPath}} {{.Dir}}' ./... | while read -r pkg dir; do
  for target in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u); do
    echo "fuzz $pkg $target ($fuzztime)"
    go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$pkg"
  done
done
echo "fuzzing done"
