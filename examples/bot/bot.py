#!/usr/bin/env python3
"""A Cairn bot that plays random legal moves, using only the public API and Python's standard library.

    CAIRN_TOKEN=cairn_... python3 bot.py --server https://cairn.example --games mountain-goats

It follows the account stream (``GET /api/stream/event``), accepts the challenges for the games it is
told to play (any game, by default: it plays whatever ``legal_actions`` it is given), and plays each
match through its match stream (``GET /api/stream/match/{id}``), posting a random legal action
(``POST /api/matches/{id}/actions/``) whenever its seat is to move.  When a connection drops it
reconnects, and a match stream resumes with ``?after=<the last seq it got>``: no event is missed or
seen twice.  ``--log FILE`` appends every event it receives, one JSON object a line.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import sys
import threading
import time
import urllib.parse
from collections.abc import Iterator
from typing import Any

RETRY_SECONDS = (0.5, 1, 2, 4, 8)


class Api:
    def __init__(self, server: str, token: str) -> None:
        url = urllib.parse.urlsplit(server)
        self.scheme, self.host = url.scheme, url.netloc
        self.headers = {"Authorization": f"Bearer {token}", "Accept": "application/json"}

    def _connection(self, timeout: float) -> http.client.HTTPConnection:
        cls = http.client.HTTPSConnection if self.scheme == "https" else http.client.HTTPConnection
        return cls(self.host, timeout=timeout)

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        connection = self._connection(30)
        try:
            headers = dict(self.headers)
            data = None
            if body is not None:
                data = json.dumps(body).encode()
                headers["Content-Type"] = "application/json"
            connection.request(method, path, body=data, headers=headers)
            answer = connection.getresponse()
            text = answer.read()
            return answer.status, json.loads(text) if text else None
        finally:
            connection.close()

    def stream(self, path: str, read_timeout: float) -> Iterator[dict[str, Any]]:
        """The NDJSON lines of ``path`` (keep-alive lines skipped); ends when the server ends the stream."""
        connection = self._connection(read_timeout)  # a silent connection (no keep-alive) counts as dropped
        try:
            connection.request("GET", path, headers=self.headers)
            answer = connection.getresponse()
            if answer.status != 200:
                raise RuntimeError(f"GET {path}: {answer.status} {answer.read()[:300]!r}")
            while True:
                line = answer.readline()
                if not line:
                    return
                if line.strip():
                    yield json.loads(line)
        finally:
            connection.close()


def log(*parts: Any) -> None:
    print(time.strftime("%H:%M:%S"), *parts, file=sys.stderr, flush=True)


class Bot:
    def __init__(self, api: Api, games: set[str], events_log: str | None, seed: int | None) -> None:
        self.api = api
        self.games = games
        self.events_log = events_log
        self.rng = random.Random(seed)
        self.playing: set[int] = set()
        self.moved: dict[int, int] = {}  # match -> the seq this bot last moved in (only its match's thread writes it)
        self.lock = threading.Lock()

    # ------------------------------------------------------------ the account stream

    def run(self) -> None:
        failures = 0
        while True:
            try:
                for event in self.api.stream("/api/stream/event", read_timeout=60):
                    failures = 0
                    self.on_event(event)
                log("the event stream ended; reconnecting")
            except (OSError, http.client.HTTPException, RuntimeError, ValueError) as exc:
                log("the event stream dropped:", exc)
            time.sleep(RETRY_SECONDS[min(failures, len(RETRY_SECONDS) - 1)])
            failures += 1

    def on_event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "challenge_received":
            challenge = event["challenge"]
            verdict = "accept" if not self.games or challenge["game"] in self.games else "decline"
            status, _ = self.api.request("POST", f"/api/ranking/challenges/{challenge['id']}/{verdict}")
            log(f"challenge {challenge['id']} from {challenge['from']} ({challenge['game']}): {verdict} -> {status}")
        elif kind in ("match_started", "your_turn"):
            self.play_in_background(event["match"])

    def play_in_background(self, match_id: int) -> None:
        with self.lock:
            if match_id in self.playing:
                return
            self.playing.add(match_id)
        threading.Thread(target=self.play, args=(match_id,), daemon=True).start()

    # ------------------------------------------------------------ one match

    def play(self, match_id: int) -> None:
        last = 0  # the seq reached: every event up to it has been received
        failures = 0
        state: dict[str, Any] = {}
        try:
            while True:
                try:
                    for line in self.api.stream(f"/api/stream/match/{match_id}?after={last}", read_timeout=60):
                        failures = 0
                        if "events" not in line:  # the first line: the match as this seat sees it
                            state = line
                            if state["status"] == "finished":  # ended while this stream was away
                                log(f"match {match_id} finished: {state.get('result')}")
                                return
                            # Resumed at the seq it had reached, with nothing new since: the first line is
                            # all there is to act on, and it may be this seat's turn.
                            self.maybe_move(match_id, state)
                            continue
                        self.record(match_id, line["events"])
                        last = line["seq"]
                        state = {**state, **line}
                        if state["status"] == "finished":
                            log(f"match {match_id} finished: {state.get('result')}")
                            return
                        self.maybe_move(match_id, state)
                    if state.get("status") == "finished":
                        return
                except (OSError, http.client.HTTPException, RuntimeError, ValueError) as exc:
                    log(f"match {match_id}: the stream dropped ({exc}); resuming after seq {last}")
                time.sleep(RETRY_SECONDS[min(failures, len(RETRY_SECONDS) - 1)])
                failures += 1
        finally:
            with self.lock:
                self.playing.discard(match_id)

    def maybe_move(self, match_id: int, state: dict[str, Any]) -> None:
        if state.get("my_seat") not in state.get("to_move", []) or not state.get("legal_actions"):
            return
        if self.moved.get(match_id) == state["seq"]:
            return  # one move per position: the first line and a catch-up line can name the same seq
        action = self.rng.choice(state["legal_actions"])
        status, body = self.api.request("POST", f"/api/matches/{match_id}/actions/",
                                        {"action": action, "expected_seq": state["seq"]})
        self.moved[match_id] = state["seq"]  # answered (a dropped connection raises: tried again on resuming)
        if status != 201:  # e.g. 409 stale_seq: the stream brings the newer position
            log(f"match {match_id}: move refused {status} {body}")

    def record(self, match_id: int, events: list[dict[str, Any]]) -> None:
        if not self.events_log:
            return
        with self.lock, open(self.events_log, "a", encoding="utf-8") as out:
            for event in events:
                out.write(json.dumps({"match": match_id, **event}) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default=os.environ.get("CAIRN_SERVER", "http://127.0.0.1:8000"))
    parser.add_argument("--games", default="", help="comma-separated game ids to accept (default: any)")
    parser.add_argument("--log", help="append every event received to this file (JSON lines)")
    parser.add_argument("--seed", type=int, help="seed the random choices")
    args = parser.parse_args()
    token = os.environ.get("CAIRN_TOKEN")
    if not token:
        parser.error("set CAIRN_TOKEN to an access token with the read, play, challenge and bot scopes")
    games = {g for g in args.games.split(",") if g}
    Bot(Api(args.server, token), games, args.log, args.seed).run()


if __name__ == "__main__":
    main()
