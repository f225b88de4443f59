"""The bundled Redis that ``scripts/run`` starts when ``REDIS_URL`` is unset."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

from config.bundled_redis import _answers, _free_port, start


def _wait(predicate, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


def _runner(port: int) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "config.bundled_redis", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_sigterm_stops_the_server_with_the_runner_so_no_orphan_keeps_the_port():
    port = _free_port()
    runner = _runner(port)
    try:
        assert _wait(lambda: _answers(port)), "the bundled Redis did not start"
        runner.send_signal(signal.SIGTERM)
        runner.wait(timeout=10)
        assert _wait(lambda: not _answers(port)), "the Redis server outlived its runner"
    finally:
        runner.kill()


def test_a_runner_finding_a_redis_on_its_port_uses_it_and_stays_in_the_foreground():
    process, _url = start(_free_port())
    port = int(_url.rsplit(":", 1)[1].split("/")[0])
    runner = _runner(port)
    try:
        assert _wait(lambda: runner.stdout is not None and "already running" in runner.stdout.readline())
        time.sleep(0.5)
        assert runner.poll() is None, "the runner exited, which would stop scripts/run"
        runner.send_signal(signal.SIGTERM)
        assert runner.wait(timeout=10) == 0
        assert _answers(port), "the runner stopped a server it had not started"
    finally:
        runner.kill()
        process.terminate()
        process.wait(timeout=10)
