#!/usr/bin/env bash
# Static throughput of kernel inner loops by llvm-mca, per CPU model: for
# judging AVX-512 (or any) kernels on a machine that cannot run them.
# Nothing here is measured; llvm-mca predicts steady-state throughput of a
# loop body whose data are in L1 (no cache misses, no memory bandwidth).
#
# Usage (from the repository root):
#   bench/kernel-mca.sh [-b BINARY] [-m MODEL,...] [-P] [-l] [-v] SPEC...
#
# SPEC is SYMBOL[@LOOP][/UNITS]:
#   SYMBOL  a function: a Go assembly name of ./shards/tensor (q80xVec16
#           means svc/shards/tensor.q80xVec16.abi0), an exact symbol of
#           BINARY, or a substring naming one text symbol of BINARY;
#   LOOP    which loop (1, 2, ... in address order of the loops -l lists);
#           default the innermost loop with the most instructions;
#   UNITS   work units per iteration of that loop (e.g. 32 for two Q8_0
#           blocks of 16 rows): adds a cycles-per-unit column.
# -b BINARY  an executable or object file (default: `go test -c` of
#            ./shards/tensor, built into a temporary directory; a C or C++
#            file compiled with -c works too, e.g. llama.cpp's kernels built
#            with `clang-19 -O3 -march=sapphirerapids -c`).
# -m MODELS  llvm-mca -mcpu models, comma-separated
#            (default icelake-server,sapphirerapids,znver4).
# -P         leave out prefetch instructions (for kernels whose prefetch
#            block is skipped at run time, e.g. q80xVec16 with pf = 0).
# -l         list the loops of each SYMBOL and stop.
# -v         also print the extracted loop and llvm-mca's full report.
# MCA_FLAGS  more llvm-mca flags (e.g. -bottleneck-analysis, -timeline with -v).
# LLVM_MCA   the llvm-mca to run (default llvm-mca-19 if installed, else
#            llvm-mca; Debian 12: apt-get install llvm-19 — LLVM 17+ has
#            Sapphire Rapids and Zen 4 scheduling models, LLVM 14 has not).
#
# Columns: insns in the loop body; uops and cycles per iteration as
# simulated (100 iterations); RThru, llvm-mca's static throughput bound;
# cyc/unit; the resource with the highest pressure per iteration and its
# cycles (the bottleneck when it is close to cyc/iter).
set -euo pipefail

bin=
models=icelake-server,sapphirerapids,znver4
noprefetch=0
list=0
verbose=0
while getopts "b:m:Plv" o; do
	case $o in
	b) bin=$OPTARG ;;
	m) models=$OPTARG ;;
	P) noprefetch=1 ;;
	l) list=1 ;;
	v) verbose=1 ;;
	*) sed -n '2,/^set -e/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -eq 0 ]; then
	echo "usage: bench/kernel-mca.sh [-b BINARY] [-m MODEL,...] [-P] [-l] [-v] SYMBOL[@LOOP][/UNITS]..." >&2
	exit 2
fi
mca=${LLVM_MCA:-}
if [ -z "$mca" ]; then
	if command -v llvm-mca-19 >/dev/null; then mca=llvm-mca-19; else mca=llvm-mca; fi
fi
command -v "$mca" >/dev/null || { echo "kernel-mca: $mca not found (apt-get install llvm-19)" >&2; exit 77; }
command -v objdump >/dev/null || { echo "kernel-mca: GNU objdump not found (binutils)" >&2; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "$bin" ]; then
	bin=$tmp/tensor.test
	go test -c -o "$bin" ./shards/tensor
fi
[ -r "$bin" ] || { echo "kernel-mca: -b $bin: no such file" >&2; exit 2; }
nm "$bin" 2>/dev/null | awk '$2 ~ /^[TtWw]$/ { print $3 }' | sort -u >"$tmp/syms"

# resolve SYMBOL: exact, Go assembly name, or a unique substring.
resolve() {
	local s=$1 m
	if grep -qxF -- "$s" "$tmp/syms"; then echo "$s"; return; fi
	if grep -qxF -- "svc/shards/tensor.$s.abi0" "$tmp/syms"; then echo "svc/shards/tensor.$s.abi0"; return; fi
	m=$(grep -F -- "$s" "$tmp/syms" || true)
	case $(printf '%s' "$m" | grep -c '^' || true) in
	1) echo "$m" ;;
	0) echo "kernel-mca: no symbol matches $s in $bin" >&2; return 1 ;;
	*) echo "kernel-mca: $s matches several symbols of $bin:" >&2; printf '%s\n' "$m" | head -20 >&2; return 1 ;;
	esac
}

header=1
for spec in "$@"; do
	units=${spec##*/}
	[ "$units" = "$spec" ] && units=
	s=${spec%%/*}
	loop=${s##*@}
	[ "$loop" = "$s" ] && loop=
	s=${s%%@*}
	sym=$(resolve "$s")
	objdump -d --no-show-raw-insn --disassemble="$sym" "$bin" >"$tmp/dis"
	# The loops: backward branches inside the function, as
	# "index start end insns innermost".
	awk '
		/^ *[0-9a-f]+:\t/ {
			a = $1; sub(":", "", a); addr[n] = strtonum_hex(a); n++
			line = $0; sub(/^ *[0-9a-f]+:\t/, "", line)
			op = line; sub(/[ \t].*/, "", op)
			if (op ~ /^j/ && match(line, /[ \t][0-9a-f]+ </)) {
				t = substr(line, RSTART + 1, RLENGTH - 3)
				tgt[n-1] = strtonum_hex(t)
			}
		}
		function strtonum_hex(h,   i, v, c) {
			v = 0
			for (i = 1; i <= length(h); i++) {
				c = index("0123456789abcdef", substr(h, i, 1)) - 1
				v = v * 16 + c
			}
			return v
		}
		END {
			m = 0
			for (i = 0; i < n; i++) {
				if (!(i in tgt) || tgt[i] > addr[i] || tgt[i] < addr[0]) continue
				for (j = 0; j <= i; j++) if (addr[j] == tgt[i]) break
				if (j > i) continue
				ls[m] = j; le[m] = i; m++
			}
			# sort by start
			for (i = 0; i < m; i++) for (j = i + 1; j < m; j++) if (ls[j] < ls[i]) {
				t = ls[i]; ls[i] = ls[j]; ls[j] = t; t = le[i]; le[i] = le[j]; le[j] = t
			}
			for (i = 0; i < m; i++) {
				inner = 1
				for (j = 0; j < m; j++) if (j != i && ls[j] >= ls[i] && le[j] <= le[i] && (ls[j] != ls[i] || le[j] != le[i])) inner = 0
				printf "%d %d %d %d %d\n", i + 1, ls[i], le[i], le[i] - ls[i] + 1, inner
			}
		}' "$tmp/dis" >"$tmp/loops"
	if [ ! -s "$tmp/loops" ]; then
		echo "kernel-mca: $sym has no loop" >&2
		exit 1
	fi
	if [ $list = 1 ]; then
		echo "$sym:"
		awk '{ printf "  loop %d: instructions %d..%d (%d)%s\n", $1, $2, $3, $4, $5 ? ", innermost" : "" }' "$tmp/loops"
		continue
	fi
	if [ -z "$loop" ]; then
		loop=$(awk '$5 && $4 > best { best = $4; l = $1 } END { print l }' "$tmp/loops")
	fi
	read -r _ lo hi _ _ < <(awk -v l="$loop" '$1 == l' "$tmp/loops") || { echo "kernel-mca: $sym has no loop $loop" >&2; exit 1; }
	# The body as AT&T assembly for llvm-mca: every branch goes to one label
	# (llvm-mca ignores control flow), objdump's annotations dropped.
	awk -v lo="$lo" -v hi="$hi" -v np="$noprefetch" '
		/^ *[0-9a-f]+:\t/ {
			if (n >= lo && n <= hi) {
				line = $0; sub(/^ *[0-9a-f]+:\t/, "", line)
				sub(/[ \t]*#.*$/, "", line); sub(/^(cs|ds|data16|notrack|bnd) +/, "", line)
				if (np && line ~ /^prefetch/) { n++; next }
				if (line ~ /^j[a-z]* /) { split(line, f, /[ \t]+/); line = f[1] " .Lmca" }
				print "\t" line
			}
			n++
		}
		BEGIN { print ".Lmca:" }' "$tmp/dis" >"$tmp/loop.s"
	insns=$(grep -c '^	' "$tmp/loop.s")
	if [ $verbose = 1 ]; then
		echo "== $sym loop $loop"
		cat "$tmp/loop.s"
	fi
	if [ $header = 1 ]; then
		printf '%-28s %-4s %-15s %5s %8s %8s %7s %8s  %s\n' kernel loop model insns uops/it cyc/it RThru cyc/unit "bottleneck (cycles/it)"
		header=0
	fi
	IFS=, read -ra ms <<<"$models"
	for model in "${ms[@]}"; do
		"$mca" -mcpu="$model" -iterations=100 ${MCA_FLAGS:-} "$tmp/loop.s" >"$tmp/mca.out" 2>"$tmp/mca.err" || {
			echo "kernel-mca: $mca -mcpu=$model failed on $sym:" >&2; head -5 "$tmp/mca.err" >&2; exit 1
		}
		[ $verbose = 1 ] && cat "$tmp/mca.out"
		awk -v k="$s" -v lp="$loop" -v model="$model" -v insns="$insns" -v units="$units" '
			/^Iterations:/ { it = $2 }
			/^Total Cycles:/ { cyc = $3 }
			/^Total uOps:/ { uops = $3 }
			/^Block RThroughput:/ { rt = $3 }
			/^Resources:/ { inres = 1; next }
			inres && /^\[/ { id = $1; gsub(/[\[\]]/, "", id); name[id] = $3; next }
			inres && /^$/ { inres = 0 }
			/^Resource pressure per iteration:/ { getline hdr; getline vals; nh = split(hdr, h, /[ \t]+/); split(vals, v, /[ \t]+/)
				best = -1
				for (i = 1; i <= nh; i++) { id = h[i]; gsub(/[\[\]]/, "", id); if (id == "") continue
					x = v[i] + 0; if (v[i] != "-" && x > best) { best = x; bn = name[id] } }
			}
			END {
				c = cyc / it
				per = units != "" ? sprintf("%.3f", c / units) : "-"
				printf "%-28s %-4s %-15s %5d %8.1f %8.2f %7.2f %8s  %s (%.2f)\n", k, lp, model, insns, uops / it, c, rt, per, bn, best
			}' "$tmp/mca.out"
	done
done
