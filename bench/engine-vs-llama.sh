#!/usr/bin/env bash
# Decode and prefill of svc's engine side by side with llama-bench on any
# GGUF files (../shared/tools/speed-vs-llama does the same on the synthetic
# TinyLlama files only). Real checkpoints and other shapes, e.g. the head
# size 128 of `svc model synth --shape llama-3.2-3b`, compare here.
#
# Usage (from the repository root):
#   bench/engine-vs-llama.sh LLAMA_BENCH MODEL.gguf...
#
# Each round runs, for every model in turn, `svc bench engine --json`
# (128-token prefill, 64-token decode) and then `llama-bench -p 128 -n 64
# -r 2`, so that both see the same minutes of a shared machine; the table
# gives the means over the rounds and the load average before the first.
# Environment: ROUNDS (2), THREADS (2), SVC=/path/to/svc to use that binary
# instead of building ./cmd/svc (to alternate two builds).
set -euo pipefail
llama=${1:?usage: bench/engine-vs-llama.sh LLAMA_BENCH MODEL.gguf...}
shift
[ $# -gt 0 ] || { echo "usage: bench/engine-vs-llama.sh LLAMA_BENCH MODEL.gguf..." >&2; exit 2; }
[ -x "$llama" ] || { echo "$llama: not an executable llama-bench" >&2; exit 2; }
for m in "$@"; do
	[ -r "$m" ] || { echo "$m: no such model file" >&2; exit 2; }
done
rounds=${ROUNDS:-2}
threads=${THREADS:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
svc=${SVC:-}
if [ -z "$svc" ]; then
	svc=$work/svc
	go build -o "$svc" ./cmd/svc
fi
flags=$(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -x -E 'avx2|avx512f|avx512_vnni|avx512vbmi|gfni|amx_int8' | tr '\n' ' ')
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-) [${flags% }]  threads $threads  rounds $rounds  load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$rounds"); do
	for i in $(seq $#); do
		m=${!i}
		"$svc" bench engine --model "$m" --threads "$threads" --json 2>/dev/null | tail -1 >"$work/svc.$i.$r"
		"$llama" -m "$m" -t "$threads" -p 128 -n 64 -r 2 -o json 2>/dev/null >"$work/llama.$i.$r"
	done
done
python3 - "$work" "$rounds" "$@" <<'EOF'
import json, os, sys
work, rounds, models = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
print(f'{"model":28} {"kernels":8} {"decode svc":>10} {"llama":>7} {"ratio":>6}   {"prefill svc":>11} {"llama":>7} {"ratio":>6}')
for i, m in enumerate(models, 1):
    s_tg = s_pp = l_tg = l_pp = 0.0
    for r in range(1, rounds + 1):
        d = json.load(open(os.path.join(work, f'svc.{i}.{r}')))
        s_tg += d['decode_tokens_per_s']; s_pp += d['prefill_tokens_per_s']
        rows = json.load(open(os.path.join(work, f'llama.{i}.{r}')))
        l_tg += next(x['avg_ts'] for x in rows if x['n_gen'] > 0)
        l_pp += next(x['avg_ts'] for x in rows if x['n_prompt'] > 0)
    n = rounds
    print(f'{os.path.basename(m)[:28]:28} {d["kernels"]:8} {s_tg/n:10.1f} {l_tg/n:7.1f} {s_tg/l_tg:6.2f}   {s_pp/n:11.0f} {l_pp/n:7.0f} {s_pp/l_pp:6.2f}')
EOF
