#!/usr/bin/env bash
# Throughput of a 3-node swarm under concurrent requests, side by side with
# llama-server -np 8 on the same model, all on 127.0.0.1 (issue #18's
# "3-node swarm at 8 concurrent requests at least 3x one request").
#
# Usage (from the repository root):
#   bench/swarm-vs-llama.sh MODEL.gguf [LLAMA_SERVER] [ROUNDS]
#
# Each round starts three `svc node` processes (--threads 2 each, the blocks
# split as 0:8, 8:15, 15:22 for the 22 of TinyLlama-1.1B) and
# `svc serve --bootstrap`, runs `svc bench load --concurrency 1,8 --requests 16
# --max-tokens 64`, stops them, then (with LLAMA_SERVER) does the same against
# `llama-server -np 8 -t 2`; rounds alternate so both see the same minutes of
# a shared machine. The machine's load average is printed beside each figure:
# only figures from a quiet machine compare. Ports: 18931 (svc), 18940 (llama-server).
set -euo pipefail
model=${1:?usage: bench/swarm-vs-llama.sh MODEL.gguf [LLAMA_SERVER] [ROUNDS]}
llama=${2:-}
rounds=${3:-1}
work=$(mktemp -d)
svc=$work/svc
go build -o "$svc" ./cmd/svc
pids=()
stop() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
	pids=()
}
trap 'stop; rm -rf "$work"' EXIT
load() { cut -d' ' -f1-3 /proc/loadavg; }
bench() { # URL NAME
	echo "   load before: $(load)"
	"$svc" bench load --url "$1" --model "$2" --concurrency 1,8 --requests 16 --max-tokens 64 --timeout 10m 2>/dev/null
	echo "   load after:  $(load)"
}
waitfor() { # URL GREP
	for _ in $(seq 300); do
		if curl -s "$1" 2>/dev/null | grep -q "$2"; then return 0; fi
		sleep 1
	done
	echo "gave up waiting for $1" >&2
	return 1
}
name=$(basename "$model" .gguf)
blocks=$("$svc" model inspect "$model" | awk '$1 == "blocks" {print $2}')
b1=$(((blocks + 2) / 3))
b2=$((b1 + (blocks - b1 + 1) / 2))
for r in $(seq "$rounds"); do
	echo "== round $r: svc, 3 nodes (0:$b1, $b1:$b2, $b2:$blocks) + serve ($(date -u +%H:%M:%S) UTC)"
	"$svc" node --model "$model" --blocks 0:$b1 --threads 2 >"$work/n1.out" 2>"$work/n1.err" &
	pids+=($!)
	boot=
	for _ in $(seq 300); do
		boot=$(grep -m1 /p2p/ "$work/n1.out" || true)
		[ -n "$boot" ] && break
		sleep 1
	done
	[ -n "$boot" ] || { echo "node 1 did not start: $(cat "$work/n1.err")" >&2; exit 1; }
	"$svc" node --model "$model" --blocks $b1:$b2 --threads 2 --bootstrap "$boot" >/dev/null 2>"$work/n2.err" &
	pids+=($!)
	"$svc" node --model "$model" --blocks $b2:$blocks --threads 2 --bootstrap "$boot" >/dev/null 2>"$work/n3.err" &
	pids+=($!)
	"$svc" serve --bootstrap "$boot" --listen 127.0.0.1:18931 >/dev/null 2>"$work/serve.err" &
	pids+=($!)
	waitfor http://127.0.0.1:18931/v1/models "$name"
	bench http://127.0.0.1:18931/v1 "$name"
	stop
	if [ -n "$llama" ]; then
		echo "== round $r: llama-server -np 8 -t 2 ($(date -u +%H:%M:%S) UTC)"
		"$llama" -m "$model" -np 8 -t 2 -c 4096 --host 127.0.0.1 --port 18940 >"$work/llama.log" 2>&1 &
		pids+=($!)
		waitfor http://127.0.0.1:18940/health ok
		bench http://127.0.0.1:18940/v1 "$name"
		stop
	fi
done
