"""Run every fault script in turn: ``.venv/bin/python benchmarks/faults/run_all.py [--runs N]``.

Each script starts (and removes) its own stack on ports from FAULTS_PORT_BASE
(default 8400), so they run one after the other.  Their JSON reports go to
stdout; the exit code is 1 if any run failed.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPTS = [
    "fault_worker_kill.py",
    "fault_redis_restart.py",
    "fault_postgres_restart.py",
    "fault_web_kill.py",
    "fault_clock_restart.py",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--only", nargs="*", default=None, help="script names (default: all)")
    args = parser.parse_args()
    failed = []
    for script in SCRIPTS:
        if args.only and script not in args.only:
            continue
        try:
            result = subprocess.run([sys.executable, str(HERE / script), "--runs", str(args.runs)],
                                    timeout=300 * args.runs + 60)
            code = result.returncode
        except subprocess.TimeoutExpired:  # the child's own time limit should have stopped it first
            code = 2
        if code:
            failed.append(script)
    print(f"failed: {', '.join(failed)}" if failed else "every fault script passed", file=sys.stderr)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
