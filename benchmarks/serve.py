"""Benchmark of issue 24: photos in, how fast a warm `printgen serve` answers and how many sheets need a person out.

Run from a checkout: python benchmarks/serve.py [--photos 40] [--seed 2026]
Starts `printgen serve --port 0` on a temporary data folder (a real process, over HTTP) and measures:
1. seconds from upload to answer for the demo photo on the warm server (median of 7), beside `printgen
   score demo.jpg --json` as a process (median of 3, start-up included) in the same run;
2. twenty uploads at once: how many were answered (200), the 95th percentile, the server's peak memory;
3. the share of sheets flagged for a person (an uncertain field, or not legal) on held-out simulator photos
   (seeds as `benchmarks/scan.py --seed 2026` makes them), uploaded one after the other.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the checkout: tests.scan.simulator, printgen

LAYOUTS = ("qwixx-standard", "qwixx-big-points", "qwixx-gemixxt-a", "qwixx-gemixxt-b", "qwixx-bonus-a",
           "qwixx-bonus-b", "qwixx-cards")
PHONES = 20


def post(address: str, photo: bytes, player: str) -> tuple[int, float, dict]:  # type: ignore[type-arg]
    """Upload `photo` as a phone's form does, each time to a game of its own (the same photo twice in one game
    is refused as a duplicate): status, seconds, answer."""
    boundary = uuid.uuid4().hex
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
             for name, value in (("game", f"Bench {boundary[:8]}"), ("player", player))]
    parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="photo"; filename="p.jpg"\r\n'
                 f"Content-Type: image/jpeg\r\n\r\n".encode() + photo + b"\r\n")
    body = b"".join(parts) + f"--{boundary}--\r\n".encode()
    request = urllib.request.Request(f"{address}api/score", body, method="POST",
                                     headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})
    began = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=600) as answer:
            return answer.status, time.perf_counter() - began, json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        return refused.code, time.perf_counter() - began, json.loads(refused.read())


def peak_memory(pid: int) -> int:
    """The process's peak resident memory in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) // 1024
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=40, help="held-out photos for the flagged share")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    from printgen import layouts
    from printgen.demo.photo import demo_photo
    from tests.scan.simulator.synthetic import sample

    demo = demo_photo().jpeg
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "demo.jpg").write_bytes(demo)
        cli = []
        for _ in range(3):
            began = time.perf_counter()
            subprocess.run([sys.executable, "-m", "printgen", "score", str(Path(folder) / "demo.jpg"), "--json"],
                           check=True, capture_output=True, cwd=ROOT)
            cli.append(time.perf_counter() - began)
        server = subprocess.Popen([sys.executable, "-m", "printgen", "serve", "--port", "0", "--data",
                                   str(Path(folder) / "data")], cwd=ROOT, text=True, stdout=subprocess.PIPE,
                                  env={**os.environ, "PYTHONPATH": str(ROOT)})
        try:
            assert server.stdout is not None
            address = server.stdout.readline().split("open ", 1)[1].split()[0]
            post(address, demo, "warm-up")
            warm = []
            for _ in range(7):
                status, seconds, answer = post(address, demo, "Anna")
                if status != 200:
                    raise SystemExit(f"the warm server answered {status}: {answer}")
                warm.append(seconds)
            print(f"upload to answer, warm server: median {statistics.median(warm):.2f} s (target <= 0.6 s); "
                  f"printgen score as a process: median {statistics.median(cli):.2f} s; "
                  f"ratio {statistics.median(cli) / statistics.median(warm):.1f}x")
            with ThreadPoolExecutor(PHONES) as pool:
                answers = list(pool.map(lambda n: post(address, demo, f"Phone {n}"), range(PHONES)))
            times = sorted(seconds for _, seconds, _ in answers)
            answered = sum(status == 200 for status, _, _ in answers)
            print(f"{PHONES} uploads at once: {answered} answered 200; p95 {times[int(0.95 * (PHONES - 1))]:.1f} s, "
                  f"slowest {times[-1]:.1f} s; server peak memory {peak_memory(server.pid)} MB")
            loaded = [layouts.load(name) for name in LAYOUTS]
            sheets = flagged = unread = 0
            for index in range(args.photos):
                picture = sample(loaded, args.seed * 1_000_003 + index)  # type: ignore[arg-type]
                status, _, answer = post(address, picture.jpeg, f"Held-out {index}")
                if status != 200:
                    unread += len(picture.truths)
                    continue
                for sheet in answer["sheets"]:
                    sheets += 1
                    flagged += bool(sheet["uncertain"]) or not sheet["legal"]
            print(f"held-out photos (seed {args.seed}, {args.photos} photos): {flagged} of {sheets} sheets flagged "
                  f"for a person ({100 * flagged / max(sheets, 1):.0f} %), {unread} sheets unread")
        finally:
            server.terminate()
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
