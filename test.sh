#!/usr/bin/env bash
# The whole test suite, deterministic: vet, then every package's tests
# (fixtures from ../shared or $SVC_SHARED). Fuzz targets run over their seeds
# and committed corpus as ordinary tests; fuzzing for a time budget is
# ./fuzz.sh, a separate step.
set -euo pipefail
cd "$(dirname "$0")"

go vet ./...
go test -count=1 -timeout 60m ./...
