#!/usr/bin/env bash
# Each fuzz target for a time budget (FUZZTIME, default 15s; FUZZPARALLEL
# workers, default all cores): enough to catch a regression in the parsers,
# not a campaign (run longer by hand, e.g. FUZZTIME=10m).
set -euo pipefail
cd "$(dirname "$0")"

fuzztime="${FUZZTIME:-15s}"
parallel=()
[ -n "${FUZZPARALLEL:-}" ] && parallel=(-parallel "$FUZZPARALLEL")
go list -f '{{.ImportPath}} {{.Dir}}' ./... | while read -r pkg dir; do
  for target in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u); do
    echo "fuzz $pkg $target ($fuzztime)"
    go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "${parallel[@]}" "$pkg"
  done
done
echo "fuzzing done"
