"""Playing through the real API and watching through real websockets, and checking what survived.

* :class:`Api`: token-authenticated JSON over HTTP (``http.client``, short
  timeouts: a hang counts as a failure, not a wait).
* :class:`Player`: plays random legal moves of its seat and keeps a
  :class:`Ledger` of every move it sent and what the server answered
  (201, 409, 503, no answer).
* :class:`Watcher`: a websocket client on ``/ws/matches/<id>/`` (a minimal
  RFC 6455 client on a plain socket) that records the ``data-seq`` of every
  fragment pushed to it, and reconnects by itself as htmx's websocket
  extension does, trying the web ports in turn (as a load balancer would).
* :func:`check_matches`: the invariants after a fault: no acknowledged move
  missing (lost), no move stored more often than it was sent and no seat
  acting twice in a row (doubled), and ``manage.py verify_match`` for every
  match touched.
"""

from __future__ import annotations

import base64
import http.client
import json
import os
import random
import re
import socket
import struct
import threading
import time
from dataclasses import dataclass, field
from typing import Any

HOST = "127.0.0.1"


@dataclass
class Answer:
    status: int  # 0: no answer (refused, reset, timed out)
    body: Any
    headers: dict[str, str]
    seconds: float

    @property
    def message(self) -> str:
        if isinstance(self.body, dict) and "error" in self.body:
            return f"{self.body['error'].get('code')}: {self.body['error'].get('message')}"
        return str(self.body)[:200]


class Api:
    def __init__(self, ports: list[int], token: str | None = None, timeout: float = 15) -> None:
        self.ports = ports
        self.token = token
        self.timeout = timeout
        self.username = ""
        self.turn = 0

    def request(self, method: str, path: str, body: Any = None, *, port: int | None = None) -> Answer:
        start = time.monotonic()
        headers = {"Accept": "application/json"}
        if body is not None:
            headers["Content-Type"] = "application/json"
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        port = port or self.ports[self.turn % len(self.ports)]
        conn = http.client.HTTPConnection(HOST, port, timeout=self.timeout)
        try:
            conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
            response = conn.getresponse()
            raw = response.read()
            try:
                parsed: Any = json.loads(raw) if raw else None
            except ValueError:
                parsed = raw.decode("utf-8", "replace")
            return Answer(response.status, parsed, {k.lower(): v for k, v in response.getheaders()},
                          time.monotonic() - start)
        except (OSError, http.client.HTTPException) as exc:
            self.turn += 1  # no answer from this web process: the next request tries the next (a balancer's failover)
            return Answer(0, f"{type(exc).__name__}: {exc}", {}, time.monotonic() - start)
        finally:
            conn.close()

    def ok(self, method: str, path: str, body: Any = None, *, want: tuple[int, ...] = (200, 201)) -> Any:
        answer = self.request(method, path, body)
        for _ in range(len(self.ports) - 1):  # no answer: the next web process (request() moved on)
            if answer.status != 0:
                break
            answer = self.request(method, path, body)
        if answer.status not in want:
            raise RuntimeError(f"{method} {path}: {answer.status} {answer.message}")
        return answer.body


def register(ports: list[int], username: str) -> Api:
    api = Api(ports)
    body = api.ok("POST", "/api/auth/register", {"username": username, "password": "fault-harness-pass-1"})
    client = Api(ports, body["token"])
    client.username = username
    return client


def unique(prefix: str) -> str:
    return f"{prefix}{os.getpid() % 10000}{random.randrange(10**6)}"


# ---------------------------------------------------------------------- moves and their ledger


@dataclass
class Sent:
    match: int
    expected_seq: int
    seat: int
    action: Any
    status: int
    message: str
    seconds: float
    at: float


@dataclass
class Ledger:
    sent: list[Sent] = field(default_factory=list)

    def add(self, item: Sent) -> None:
        self.sent.append(item)

    def by_status(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for item in self.sent:
            counts[str(item.status)] = counts.get(str(item.status), 0) + 1
        return counts


class Player:
    """One seat of one match, playing random legal moves through the API."""

    def __init__(self, api: Api, match_id: int, seat: int, ledger: Ledger, rng: random.Random) -> None:
        self.api, self.match_id, self.seat, self.ledger, self.rng = api, match_id, seat, ledger, rng
        self.last_reason = ""

    def view(self) -> Answer:
        return self.api.request("GET", f"/api/matches/{self.match_id}/")

    def try_move(self) -> Sent | None:
        """If it is this seat's turn, send one random legal move; the ledger entry (None: not our turn)."""
        view = self.view()
        if view.status != 200:
            self.last_reason = f"GET {view.status} {view.message}"
            return None
        body = view.body
        if body["status"] != "active" or self.seat not in body["to_move"] or not body["legal_actions"]:
            self.last_reason = f"{body['status']}, to move {body['to_move']}, seq {body['seq']}"
            return None
        action = self.rng.choice(body["legal_actions"])
        answer = self.api.request("POST", f"/api/matches/{self.match_id}/actions/",
                                  {"action": action, "expected_seq": body["seq"]})
        item = Sent(self.match_id, body["seq"], self.seat, action, answer.status, answer.message, answer.seconds,
                    time.time())
        self.ledger.add(item)
        return item


# ---------------------------------------------------------------------- websocket watchers

SEQ = re.compile(r'id="match-live"[^>]*data-seq="(\d+)"|data-seq="(\d+)"[^>]*id="match-live"')


class Watcher(threading.Thread):
    """An open match page: a websocket that records every pushed seq and reconnects by itself."""

    def __init__(self, ports: list[int], match_id: int, *, reconnect_delay: float = 1.0) -> None:
        super().__init__(daemon=True, name=f"watch-{match_id}")
        self.ports = list(ports)
        self.match_id = match_id
        self.reconnect_delay = reconnect_delay
        self.seen = 0  # the newest data-seq pushed
        self.pushes = 0
        self.connects = 0
        self.closes = 0
        self.history: list[tuple[float, int]] = []
        self.stopping = threading.Event()
        self.sock: socket.socket | None = None
        self.port_index = 0

    def run(self) -> None:
        while not self.stopping.is_set():
            port = self.ports[self.port_index % len(self.ports)]
            try:
                self._session(port)
            except OSError:
                pass
            finally:
                if self.sock is not None:
                    try:
                        self.sock.close()
                    except OSError:
                        pass
                    self.sock = None
            if self.stopping.is_set():
                break
            self.closes += 1
            self.port_index += 1  # the next try goes to the next web process, as a balancer would
            self.stopping.wait(self.reconnect_delay)

    def _session(self, port: int) -> None:
        sock = socket.create_connection((HOST, port), timeout=5)
        self.sock = sock
        key = base64.b64encode(os.urandom(16)).decode()
        path = f"/ws/matches/{self.match_id}/?seq={self.seen}"
        sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                      f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nOrigin: http://{HOST}:{port}\r\n\r\n")
                     .encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = sock.recv(4096)
            if not chunk:
                raise OSError("closed during the handshake")
            head += chunk
        status_line = head.split(b"\r\n", 1)[0]
        if b" 101 " not in status_line + b" ":
            raise OSError(f"handshake refused: {status_line!r}")
        buffer = head.split(b"\r\n\r\n", 1)[1]
        self.connects += 1
        sock.settimeout(1.0)
        message = b""
        while not self.stopping.is_set():
            while True:
                frame = _parse_frame(buffer)
                if frame is None:
                    break
                opcode, fin, payload, used = frame
                buffer = buffer[used:]
                if opcode == 8:
                    return
                if opcode == 9:  # ping -> pong
                    sock.sendall(_client_frame(10, payload))
                    continue
                if opcode in (0, 1, 2):
                    message += payload
                    if fin:
                        self._pushed(message.decode("utf-8", "replace"))
                        message = b""
            try:
                chunk = sock.recv(65536)
            except TimeoutError:
                continue
            if not chunk:
                return
            buffer += chunk

    def _pushed(self, text: str) -> None:
        found = SEQ.search(text)
        if not found:
            return
        seq = int(found.group(1) or found.group(2))
        self.pushes += 1
        self.history.append((time.monotonic(), seq))
        self.seen = max(self.seen, seq)

    def stop(self) -> None:
        self.stopping.set()
        if self.sock is not None:
            try:
                self.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self.join(timeout=5)


def _parse_frame(data: bytes) -> tuple[int, bool, bytes, int] | None:
    if len(data) < 2:
        return None
    fin, opcode = bool(data[0] & 0x80), data[0] & 0x0F
    length, offset = data[1] & 0x7F, 2
    if length == 126:
        if len(data) < 4:
            return None
        length, offset = struct.unpack(">H", data[2:4])[0], 4
    elif length == 127:
        if len(data) < 10:
            return None
        length, offset = struct.unpack(">Q", data[2:10])[0], 10
    if data[1] & 0x80:
        offset += 4  # (a server never masks)
    if len(data) < offset + length:
        return None
    return opcode, fin, data[offset:offset + length], offset + length


def _client_frame(opcode: int, payload: bytes) -> bytes:
    mask = os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + masked


def wait_caught_up(watchers: list[Watcher], seqs: dict[int, int], timeout: float) -> float | None:
    """Seconds until every watcher has seen its match's ``seqs`` (None: not within ``timeout``)."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if all(w.seen >= seqs[w.match_id] for w in watchers):
            return time.monotonic() - start
        time.sleep(0.05)
    return None


# ---------------------------------------------------------------------- invariants


def events(api: Api, match_id: int) -> list[dict]:
    return api.ok("GET", f"/api/matches/{match_id}/events/?after=0")["events"]


def check_matches(stack: Any, api: Api, ledger: Ledger, match_ids: list[int],
                  before: dict[int, int]) -> dict[str, Any]:
    """Lost / doubled moves and ``manage.py verify_match`` over every match touched."""
    logs = {match_id: events(api, match_id) for match_id in match_ids}
    lost, doubled, stored_unknown = [], [], 0
    for item in ledger.sent:
        log = logs[item.match]
        at = [e for e in log if e["seq"] == item.expected_seq + 1]
        stored = bool(at) and at[0]["type"] == "action" and at[0]["payload"]["player"] == item.seat \
            and at[0]["payload"]["action"] == item.action
        if item.status == 201 and not stored:
            lost.append({"match": item.match, "expected_seq": item.expected_seq})
        if item.status != 201 and stored:
            stored_unknown += 1  # the answer was lost, the move was not: a re-send would be refused as stale
    for match_id, log in logs.items():
        seqs = [e["seq"] for e in log]
        if seqs != list(range(1, len(seqs) + 1)):
            doubled.append({"match": match_id, "problem": "seq gap or duplicate"})
        actions = [e for e in log if e["type"] == "action"]
        for a, b in zip(actions, actions[1:]):
            # Mountain Goats: seats alternate; the same seat twice in a row is a doubled turn
            if a["payload"]["player"] == b["payload"]["player"] and not any(
                    e["type"] in ("seat_replaced", "resigned", "timed_out") for e in log if a["seq"] < e["seq"] < b["seq"]):
                doubled.append({"match": match_id, "seqs": [a["seq"], b["seq"]]})
        human = {e["seq"] for e in actions if e["actor"].startswith("user:")}
        sent_at = {(s.expected_seq + 1) for s in ledger.sent if s.match == match_id}
        for seq in human - sent_at:
            if seq > before.get(match_id, 0):
                doubled.append({"match": match_id, "seq": seq, "problem": "a stored move nobody sent"})
    verify = stack.manage("verify_match", *map(str, match_ids), check=False)
    return {
        "events_before": sum(before.values()),
        "events_after": sum(len(log) for log in logs.values()),
        "moves_sent": len(ledger.sent),
        "answers": ledger.by_status(),
        "moves_lost": len(lost),
        "moves_doubled": len(doubled),
        "stored_without_answer": stored_unknown,
        "lost_detail": lost[:5],
        "doubled_detail": doubled[:5],
        "verify_match": "pass" if verify.returncode == 0 else "FAIL",
        "verify_output": verify.stdout.strip().splitlines()[-len(match_ids):] if verify.returncode else [],
        "matches": match_ids,
    }


# ---------------------------------------------------------------------- a browser's session (pages and htmx)


class Browser:
    """Cookies, CSRF and the htmx header, over ``http.client``: what a match page sends."""

    def __init__(self, port: int, timeout: float = 15) -> None:
        self.port, self.timeout = port, timeout
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, form: dict[str, str] | None = None, *, htmx: bool = False) -> Answer:
        from urllib.parse import urlencode

        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
                   "Referer": f"http://{HOST}:{self.port}/", "Origin": f"http://{HOST}:{self.port}"}
        if "csrftoken" in self.cookies:
            headers["X-CSRFToken"] = self.cookies["csrftoken"]
        if htmx:
            headers["HX-Request"] = "true"
        body = None
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        start = time.monotonic()
        conn = http.client.HTTPConnection(HOST, self.port, timeout=self.timeout)
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            raw = response.read().decode("utf-8", "replace")
            for name, value in response.getheaders():
                if name.lower() == "set-cookie":
                    key, _, rest = value.partition("=")
                    self.cookies[key.strip()] = rest.split(";", 1)[0]
            return Answer(response.status, raw, {k.lower(): v for k, v in response.getheaders()},
                          time.monotonic() - start)
        except (OSError, http.client.HTTPException) as exc:
            return Answer(0, f"{type(exc).__name__}: {exc}", {}, time.monotonic() - start)
        finally:
            conn.close()

    def login(self, username: str, password: str = "fault-harness-pass-1") -> None:
        page = self.request("GET", "/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', str(page.body))
        assert token, f"no CSRF token on the login page ({page.status})"
        answer = self.request("POST", "/login/", {"username": username, "password": password,
                                                  "csrfmiddlewaretoken": token.group(1)})
        assert answer.status == 302 and "sessionid" in self.cookies, f"login failed: {answer.status}"
