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
# only figures from a quiet machine compare.
#
# Every request sends the same prompt, as `svc bench load` does by default:
# svc's nodes (prompt cache) and llama-server (slot cache) answer it from
# their caches after the first time. DISTINCT=1 runs each level a second
# time with --distinct-prompts, where every prompt is computed.
# Ports: SVC_PORT (18931) and LLAMA_PORT (18940); both must be free.
# SVC=/path/to/svc uses that binary instead of building ./cmd/svc (to
# alternate two builds); PROFILE=DIR writes each node's CPU profile there
# (n1.pprof… per round; profiling costs a little speed).
set -euo pipefail
model=${1:?usage: bench/swarm-vs-llama.sh MODEL.gguf [LLAMA_SERVER] [ROUNDS]}
llama=${2:-}
rounds=${3:-1}
svc_port=${SVC_PORT:-18931}
llama_port=${LLAMA_PORT:-18940}
distinct=${DISTINCT:-0}
for p in "$svc_port" "$llama_port"; do
	if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
		echo "port $p on 127.0.0.1 is in use: set SVC_PORT / LLAMA_PORT" >&2
		exit 1
	fi
done
work=$(mktemp -d)
svc=${SVC:-}
if [ -z "$svc" ]; then
	svc=$work/svc
	go build -o "$svc" ./cmd/svc
fi
profile=${PROFILE:-}
prof() { # NAME: the node's --cpuprofile flag, when PROFILE is set
	[ -n "$profile" ] && echo "--cpuprofile=$profile/$1.pprof"
	return 0
}
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
	if [ "$distinct" = 1 ]; then
		echo "   distinct prompts:"
		"$svc" bench load --url "$1" --model "$2" --concurrency 1,8 --requests 16 --max-tokens 64 --timeout 10m --distinct-prompts 2>/dev/null
		echo "   load after:  $(load)"
	fi
}
waitfor() { # URL GREP PID: until URL answers GREP, while PID (the server) lives
	for _ in $(seq 300); do
		kill -0 "$3" 2>/dev/null || { echo "the server for $1 exited" >&2; return 1; }
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
	"$svc" node --model "$model" --blocks 0:$b1 --threads 2 $(prof "r$r-n1") >"$work/n1.out" 2>"$work/n1.err" &
	pids+=($!)
	boot=
	for _ in $(seq 300); do
		boot=$(grep -m1 /p2p/ "$work/n1.out" || true)
		[ -n "$boot" ] && break
		sleep 1
	done
	[ -n "$boot" ] || { echo "node 1 did not start: $(cat "$work/n1.err")" >&2; exit 1; }
	"$svc" node --model "$model" --blocks $b1:$b2 --threads 2 $(prof "r$r-n2") --bootstrap "$boot" >/dev/null 2>"$work/n2.err" &
	pids+=($!)
	"$svc" node --model "$model" --blocks $b2:$blocks --threads 2 $(prof "r$r-n3") --bootstrap "$boot" >/dev/null 2>"$work/n3.err" &
	pids+=($!)
	"$svc" serve --bootstrap "$boot" --listen "127.0.0.1:$svc_port" >/dev/null 2>"$work/serve.err" &
	pids+=($!)
	waitfor "http://127.0.0.1:$svc_port/v1/models" "$name" $! || { cat "$work/serve.err" >&2; exit 1; }
	bench "http://127.0.0.1:$svc_port/v1" "$name"
	stop
	if [ -n "$llama" ]; then
		echo "== round $r: llama-server -np 8 -t 2 ($(date -u +%H:%M:%S) UTC)"
		"$llama" -m "$model" -np 8 -t 2 -c 4096 --host 127.0.0.1 --port "$llama_port" >"$work/llama.log" 2>&1 &
		pids+=($!)
		waitfor "http://127.0.0.1:$llama_port/health" ok $! || { tail "$work/llama.log" >&2; exit 1; }
		bench "http://127.0.0.1:$llama_port/v1" "$name"
		stop
	fi
done
