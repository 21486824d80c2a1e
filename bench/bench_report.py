"""Benchmark `a320-bench report` (issue 15: 2,000 episodes in < 5 s and < 30 MB of HTML).

Writes N synthetic trajectories shaped like real ones (bench_score's generator,
plus the ECAM alert changes a real episode records) to a temp folder, then
times `a320-bench report DIR -o FILE` as a subprocess, process start included,
and reports the HTML's size and the peak RSS. As an anchor measured in the same run, it times
`a320-bench score DIR` on the same folder: the report reads what score reads.

    python bench/bench_report.py [--n 2000 10000] [--repeat 3] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_score import generate, score_command, time_score  # noqa: E402  (the same trajectories as the score benchmark)

TARGET_S = 5.0
TARGET_MB = 30.0


def add_alert_changes(folder: Path) -> None:
    """ELEC GEN 1 FAULT shown from the start, cleared by the first GEN 1 OFF (as recorded by server/alert_log.py)."""
    for path in folder.rglob("*.jsonl"):
        events = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        calls = [e for e in events if e["type"] == "tool_call"]
        calls[0]["ecam_changes"] = [{"title": "ELEC GEN 1 FAULT", "level": 2, "shown": True, "t_s": 0.0}]
        for c in calls[1:]:
            if c["name"] == "set_control" and c["arguments"] == {"control": "GEN 1", "position": "OFF"}:
                c["ecam_changes"] = [{"title": "ELEC GEN 1 FAULT", "level": 2, "shown": False,
                                      "t_s": c["sim_time_after_s"], "since_s": c["sim_time_before_s"]}]
                break
        path.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")


def timed(cmd: list[str]) -> float:
    """Seconds of one run of `cmd`, process start included."""
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr.strip()}")
    return elapsed


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, nargs="+", default=[2000, 10000], help="episode counts (default 2000 10000)")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs per count (default 3)")
    ap.add_argument("--keep", metavar="DIR", help="write the trajectories and reports here and keep them")
    args = ap.parse_args()

    root = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="a320bench-report-"))
    cmd = score_command()
    try:
        for n in sorted(args.n):
            folder = root / f"t{n}"
            generate(folder, n)
            add_alert_changes(folder)
            out = root / f"report-{n}.html"
            timed([*cmd, "report", str(folder), "-o", str(out)])  # warm the page and bytecode caches
            runs = [timed([*cmd, "report", str(folder), "-o", str(out)]) for _ in range(args.repeat)]
            anchor = min(time_score(folder, ["--json"]) for _ in range(args.repeat))
            mb = out.stat().st_size / 2**20
            # ru_maxrss of children: the largest child so far (KiB on Linux); counts run in increasing order.
            rss_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
            best = min(runs)
            verdict = ("OK" if best < TARGET_S and mb < TARGET_MB else "OVER TARGET") if n <= 2000 else "no target"
            print(f"report {n} episodes: best {best:.2f} s, median {statistics.median(runs):.2f} s over {args.repeat} runs "
                  f"(process start included; {best / anchor:.1f}x `score --json` on the same files, {anchor:.2f} s), "
                  f"HTML {mb:.1f} MB, peak RSS {rss_mb:.0f} MB (targets up to 2,000 episodes: < {TARGET_S:g} s, < {TARGET_MB:g} MB: {verdict})")
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
