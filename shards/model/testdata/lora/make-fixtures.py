#!/usr/bin/env python3
"""Record llama.cpp's log-probabilities for base models run with LoRA adapters.

For every fixture below this script makes a seeded random adapter with
`svc model synth-adapter`, runs llama.cpp's llama-server on the base model
with `--lora ADAPTER` (CPU, 1 thread, greedy), asks for a completion of each
prompt of ../shared/reference/<model>.json with the top-5 log-probabilities
at every generated position, and writes <fixture>.json here. The adapters are
not kept: the Go test (TestLoRAReferenceTeacherForced) makes each one again
from the options recorded in the JSON and checks its sha256 before comparing.

Usage (build llama.cpp b4748 = commit c392e509 outside this repository, e.g.
cmake -DGGML_NATIVE=ON -DCMAKE_BUILD_TYPE=Release -DLLAMA_CURL=OFF, target
llama-server; build svc with `go build -o /tmp/svc ./cmd/svc`):

    python3 make-fixtures.py --llama-server /path/to/bin/llama-server \
        --svc /tmp/svc [--shared ../../../../../shared] [--only NAME]

Only the Python standard library is used.
"""

import argparse
import hashlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

# name, base model, adapter options, user scale, generated tokens
FIXTURES = [
    ("stories260K-r8-f32", "stories260K.gguf",
     dict(rank=8, alpha=16, type="f32", seed=11, std=0.03), 1.0, 32),
    ("stories260K-r4-bf16-noalpha", "stories260K.gguf",
     dict(rank=4, alpha=0, type="bf16", seed=12, std=0.1, targets="attn_q,attn_v,ffn_up,ffn_down"), 0.5, 32),
    ("stories260K-r32-q8_0-attn", "stories260K.gguf",
     dict(rank=32, alpha=16, type="q8_0", seed=13, std=0.05, targets="attn_q,attn_k,attn_v,attn_output"), 1.0, 32),
    ("mini-llama-f32-r8-f16", "mini-llama-f32.gguf",
     dict(rank=8, alpha=16, type="f16", seed=21, std=0.02), 1.0, 32),
    ("mini-llama-f16-r16-bf16-scaled", "mini-llama-f16.gguf",
     dict(rank=16, alpha=8, type="bf16", seed=22, std=0.02), 2.0, 32),
    ("mini-llama-q8_0-r4-f32", "mini-llama-q8_0.gguf",
     dict(rank=4, alpha=8, type="f32", seed=23, std=0.03), 1.0, 32),
    ("mini-qwen2-q8_0-r32-q8_0", "mini-qwen2-q8_0.gguf",
     dict(rank=32, alpha=32, type="q8_0", seed=31, std=0.02), 1.0, 32),
    # The model's ends: the token embedding's pair (lora_a [r, n_vocab]) and
    # the output head's, alone and with block matrices.
    ("stories260K-r4-f16-ends", "stories260K.gguf",
     dict(rank=4, alpha=8, type="f16", seed=14, std=0.1, targets="token_embd,output"), 1.0, 32),
    ("mini-llama-f32-r8-f32-ends", "mini-llama-f32.gguf",
     dict(rank=8, alpha=16, type="f32", seed=24, std=0.05, targets="token_embd,output,attn_q,ffn_down"), 1.0, 32),
    ("mini-llama-q8_0-r32-q8_0-ends", "mini-llama-q8_0.gguf",
     dict(rank=32, alpha=16, type="q8_0", seed=25, std=0.03, targets="token_embd,output"), 1.0, 32),
]


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def post(port, path, body, timeout=300):
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return json.load(r)


def wait_ready(port, proc, timeout=120):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"llama-server exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=5) as r:
                if r.status == 200:
                    return
        except Exception:
            pass
        time.sleep(0.3)
    raise SystemExit("llama-server did not become ready")


def complete(port, tokens, n, scale):
    r = post(port, "/completion", {
        "prompt": tokens, "n_predict": n, "n_probs": 5, "temperature": 0,
        "cache_prompt": False, "return_tokens": True, "seed": 0,
        "lora": [{"id": 0, "scale": scale}],
    })
    tops = [[{"id": t["id"], "logprob": t["logprob"]} for t in p["top_logprobs"]]
            for p in r["completion_probabilities"]]
    return r["tokens"], tops, r.get("stop_type") == "eos"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--llama-server", required=True, help="llama-server of llama.cpp b4748")
    ap.add_argument("--svc", required=True, help="an svc binary (go build -o /tmp/svc ./cmd/svc)")
    ap.add_argument("--shared", default=os.path.join(here, *[".."] * 5, "shared"), help="the shared fixtures directory")
    ap.add_argument("--only", help="make this fixture only")
    args = ap.parse_args()
    for name, model, opts, scale, n in FIXTURES:
        if args.only and name != args.only:
            continue
        model_path = os.path.join(args.shared, "models", model)
        ref = json.load(open(os.path.join(args.shared, "reference", model.replace(".gguf", ".json"))))
        with tempfile.TemporaryDirectory() as tmp:
            adapter = os.path.join(tmp, name + ".gguf")
            cmd = [args.svc, "model", "synth-adapter", "--base", model_path, "--out", adapter,
                   "--rank", str(opts["rank"]), "--alpha", str(opts["alpha"]), "--type", opts["type"],
                   "--seed", str(opts["seed"]), "--std", str(opts["std"])]
            if "targets" in opts:
                cmd += ["--targets", opts["targets"]]
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
            port = free_port()
            log = open(os.path.join(tmp, "server.log"), "w")
            proc = subprocess.Popen([args.llama_server, "-m", model_path, "--lora", adapter, "-t", "1", "-tb", "1",
                                     "-c", "512", "-np", "1", "--host", "127.0.0.1", "--port", str(port)],
                                    stdout=log, stderr=subprocess.STDOUT)
            try:
                wait_ready(port, proc)
                # Scale 0 must reproduce the base model's reference (the same
                # prompt handling and batching as the shared references); the
                # largest log-probability difference from it measures how far
                # this build's kernels are from the reference machine's.
                base_delta = 0.0
                for c in ref["cases"]:
                    toks, tops, _ = complete(port, c["prompt_tokens"], n, 0.0)
                    if toks != c["completion_tokens"][:n]:
                        raise SystemExit(f"{name}: without the adapter llama-server does not reproduce {model}'s reference")
                    for mine, theirs in zip(tops, c["top_logprobs"]):
                        lp = {t["id"]: t["logprob"] for t in mine}
                        for t in theirs:
                            if t["id"] in lp:
                                base_delta = max(base_delta, abs(lp[t["id"]] - t["logprob"]))
                cases = []
                differ = 0
                for c in ref["cases"]:
                    toks, tops, eos = complete(port, c["prompt_tokens"], n, scale)
                    differ += toks != c["completion_tokens"][:len(toks)]
                    cases.append({"prompt": c["prompt"], "prompt_tokens": c["prompt_tokens"],
                                  "completion_tokens": toks, "stopped_by_eos": eos, "top_logprobs": tops})
            finally:
                proc.terminate()
                proc.wait(timeout=30)
            out = {
                "model": model, "model_sha256": sha256(model_path),
                "adapter": dict(opts, sha256=sha256(adapter), bytes=os.path.getsize(adapter)),
                "scale": scale,
                "base_vs_reference_max_delta": round(base_delta, 6),
                "producer": "llama.cpp llama-server b4748 (commit c392e509), CPU, 1 thread, --lora, greedy; make-fixtures.py",
                "cases": cases,
            }
        with open(os.path.join(here, name + ".json"), "w") as f:
            json.dump(out, f, separators=(",", ":"))
            f.write("\n")
        print(f"{name}: {len(cases)} cases, {differ} differ from the base model's greedy completion; "
              f"without the adapter this build is within {base_delta:.4f} nats of the shared reference", file=sys.stderr)


if __name__ == "__main__":
    main()
