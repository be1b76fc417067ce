"""The engine protocol over WebSocket (``cardmind serve``'s ``/engine``): the same tests as the
stdin/stdout engine (tests/test_engine.py ``WIRE_TESTS``) against a real uvicorn server, the
line limit, ``quit``, one engine per connection, the connection limit, a slow agent not
holding up other connections, refused origins and hosts, and the ``cardmind serve`` process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading

import pytest

from tests.extras import require_module

require_module("starlette", "web")
require_module("uvicorn", "web")
require_module("websockets", "web")

import httpx  # noqa: E402  (starlette's test client needs it; the test extra has it)
from websockets.exceptions import ConnectionClosed, InvalidStatus  # noqa: E402

from cardmind.agents import base as agents_base  # noqa: E402
from cardmind.games.literature.agents.base import RandomAgent  # noqa: E402
from cardmind.protocol.engine import MAX_LINE  # noqa: E402
from cardmind.serve.app import MAX_MESSAGE, ServerSettings  # noqa: E402
from tests import test_engine  # noqa: E402
from tests.serve_helpers import WsEngine, running_server  # noqa: E402


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    """``servers(max_sessions=..., max_connections=...)``: the base URL of a running server
    with those limits (one per pair, started on first use, stopped after the module)."""
    stack: dict[tuple, str] = {}
    exits = []

    def get(max_sessions: int = 1000, max_connections: int = 64) -> str:
        key = (max_sessions, max_connections)
        if key not in stack:
            cm = running_server(ServerSettings(save_dir=tmp_path_factory.mktemp("saves"),
                                               max_sessions=max_sessions, max_connections=max_connections))
            stack[key] = cm.__enter__()
            exits.append(cm)
        return stack[key]

    yield get
    for cm in exits:
        cm.__exit__(None, None, None)


def _wire_cases():
    out = []
    for fn in test_engine.WIRE_TESTS:
        marks = {m.name: m for m in getattr(fn, "pytestmark", [])}
        skip = marks.get("skipif")
        if skip is not None and skip.args and skip.args[0] is True:
            continue
        if "parametrize" in marks:
            names, values = marks["parametrize"].args[:2]
            out.extend(pytest.param(fn, dict(zip(names.split(","), v, strict=True)), id=f"{fn.__name__}-{'-'.join(map(str, v))}")
                       for v in values)
        else:
            out.append(pytest.param(fn, {}, id=fn.__name__))
    return out


@pytest.mark.parametrize("test,kwargs", _wire_cases())
def test_the_engine_tests_pass_over_websocket(test, kwargs, servers, monkeypatch):
    """Each engine test that talks only in request and reply lines, with every line sent over
    a WebSocket to a real server (each engine the test makes is a new connection)."""
    opened: list[WsEngine] = []

    def ws_engine(max_sessions: int = 1000) -> WsEngine:
        e = WsEngine(servers(max_sessions=max_sessions))
        opened.append(e)
        return e

    monkeypatch.setattr(test_engine, "wire_engine", ws_engine)
    try:
        test(**kwargs)
    finally:
        for e in opened:
            e.close()
    assert opened   # the test did go through the WebSocket


def test_line_limit_binary_messages_and_quit(servers):
    """A message of exactly MAX_LINE bytes is read, one byte more gets line_too_long (the
    connection stays open), bad UTF-8 gets bad_json, and quit closes the connection."""
    e = WsEngine(servers())

    def line(n: int) -> str:
        s = '{"cmd":"hello","id":"' + "a" * (n - len('{"cmd":"hello","id":""}')) + '"}'
        assert len(s) == n
        return s

    codes = [json.loads(e.handle(x)).get("error", {}).get("code")
             for x in (line(MAX_LINE), line(MAX_LINE + 1), line(MAX_LINE + 1).encode(), b"\xff\xfe{}",
                       '{"cmd":"sessions"}\r\n', b'{"cmd":"sessions"}')]
    assert codes == [None, "line_too_long", "line_too_long", "bad_json", None, None]
    assert json.loads(e.handle('{"cmd":"quit","id":"bye"}')) == {"ok": True, "cmd": "quit", "id": "bye"}
    with pytest.raises(ConnectionClosed) as exc:
        e.ws.recv(timeout=30)
    assert exc.value.rcvd.code == 1000
    # past what the server reads at all, the connection is closed (1009: message too big)
    e = WsEngine(servers())
    with pytest.raises(ConnectionClosed) as exc:
        e.ws.send("x" * (MAX_MESSAGE + 1))
        e.ws.recv(timeout=30)
    # (the close frame may be lost when the server closes while the client is still sending)
    assert exc.value.rcvd is None or exc.value.rcvd.code == 1009
    e = WsEngine(servers())   # and the server goes on
    assert json.loads(e.handle('{"cmd":"sessions"}'))["ok"] is True
    e.close()


def test_one_engine_per_connection(servers):
    a, b = WsEngine(servers()), WsEngine(servers())
    r = json.loads(a.handle('{"cmd":"new","session":"x","game":"literature","role":"referee","seed":1}'))
    assert r["ok"] and r["session"] == "x"
    assert json.loads(b.handle('{"cmd":"sessions"}'))["sessions"] == []
    assert json.loads(b.handle('{"cmd":"status","session":"x"}'))["error"]["code"] == "no_session"
    assert [s["session"] for s in json.loads(a.handle('{"cmd":"sessions"}'))["sessions"]] == ["x"]
    a.close()
    b.close()


def test_connection_limit(servers):
    url = servers(max_sessions=5, max_connections=2)
    a, b = WsEngine(url), WsEngine(url)
    c = WsEngine(url)
    r = json.loads(c.ws.recv(timeout=30))
    assert r["ok"] is False and r["error"]["code"] == "too_many_connections"
    with pytest.raises(ConnectionClosed) as exc:
        c.ws.recv(timeout=30)
    assert exc.value.rcvd.code == 1013
    a.close()
    for _ in range(200):   # the server notices the closed connection
        d = WsEngine(url)
        r = json.loads(d.handle('{"cmd":"hello"}'))
        d.close()
        if r["ok"]:
            break
        threading.Event().wait(0.05)
    assert r["ok"] and r["limits"]["max_sessions"] == 5
    b.close()


class WaitingAgent(RandomAgent):
    """Acts only once :attr:`release` is set (or after 60 s): a slow agent."""

    name = "waiting-test"
    release = threading.Event()
    released_in_time: list[bool] = []

    def act(self, rng):
        self.released_in_time.append(self.release.wait(60))
        return super().act(rng)


def test_a_slow_agent_does_not_hold_up_other_connections(servers, monkeypatch):
    """Connection A's agent waits until connection B has been answered: if A's request ran
    on the server's event loop, B's reply could not come and the agent would time out."""
    monkeypatch.setitem(agents_base._AGENTS, ("waiting-test", "literature"), WaitingAgent)
    WaitingAgent.release.clear()
    WaitingAgent.released_in_time.clear()
    url = servers()
    a, b = WsEngine(url), WsEngine(url)
    ref = json.loads(a.handle('{"cmd":"new","session":"r","game":"literature","role":"referee","seed":2}'))
    hand = ref["header"]["hands"][0]
    r = json.loads(a.handle(json.dumps({"cmd": "new", "session": "p", "game": "literature", "seat": 0,
                                        "hand": hand, "agent": "waiting-test"})))
    assert r["ok"], r
    a.ws.send('{"cmd":"act","session":"p","id":"slow"}')
    assert json.loads(b.handle('{"cmd":"hello","id":"quick"}'))["id"] == "quick"
    WaitingAgent.release.set()
    r = json.loads(a.ws.recv(timeout=120))
    assert r["id"] == "slow" and r["ok"] and r["action"]["asker"] == 0
    assert WaitingAgent.released_in_time == [True]
    a.close()
    b.close()


def test_other_origins_and_hosts_are_refused(servers):
    url = servers()
    with pytest.raises(InvalidStatus) as exc:
        WsEngine(url, origin="http://evil.example")
    assert exc.value.response.status_code == 403
    port = url.rsplit(":", 1)[1]
    e = WsEngine(url, origin=f"http://127.0.0.1:{port}")   # the server's own pages
    assert json.loads(e.handle('{"cmd":"sessions"}'))["ok"]
    e.close()
    with pytest.raises(InvalidStatus):   # DNS rebinding: a foreign name for 127.0.0.1
        WsEngine(url, additional_headers={"Host": "evil.example"})
    assert httpx.get(url + "/", headers={"Host": f"evil.example:{port}"}).status_code == 403
    page = httpx.get(url + "/")
    assert page.status_code == 200 and "<html" in page.text
    assert httpx.get(url + "/index.html").text == page.text
    assert httpx.get(url + "/../pyproject.toml").status_code == 404


def test_cardmind_serve_process(tmp_path):
    """``cardmind serve --port 0`` prints its URL, serves the pages and the engine, and stops
    on SIGINT; without the web extra it says how to get it."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    p = subprocess.Popen([sys.executable, "-m", "cardmind", "serve", "--port", "0", "--save-dir", str(tmp_path)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        first = p.stdout.readline()
        assert first.startswith("cardmind serve: open http://127.0.0.1:"), first + p.stderr.read()
        url = first.split()[3].rstrip("/")
        assert "<html" in httpx.get(url + "/").text
        e = WsEngine(url)
        assert json.loads(e.handle('{"cmd":"hello"}'))["protocol"] == "cardmind-engine/1"
        e.close()
        port = url.rsplit(":", 1)[1]
        taken = subprocess.run([sys.executable, "-m", "cardmind", "serve", "--port", port], capture_output=True,
                               text=True, timeout=120)   # the port is in use: one line, status 2
        assert taken.returncode == 2 and taken.stdout == ""
        assert taken.stderr.startswith(f"cardmind: error: cannot listen on 127.0.0.1:{port}: ")
        assert taken.stderr.count("\n") == 1
    finally:
        p.send_signal(2)
        out, err = p.communicate(timeout=60)
    assert "Traceback" not in err, err

    code = ("import sys; sys.modules['starlette'] = None; from cardmind.cli import main; "
            "sys.exit(main(['serve']))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == "cardmind: error: cardmind serve needs the web extra: pip install 'cardmind[web]'\n"


def test_a_non_local_host_is_warned_about(monkeypatch, capsys):
    from cardmind import cli
    from cardmind.serve import app

    seen = {}
    monkeypatch.setattr(app, "run", lambda **kw: seen.update(kw) or 0)
    assert cli.main(["serve", "--host", "0.0.0.0", "--port", "9"]) == 0
    assert seen["host"] == "0.0.0.0" and seen["port"] == 9
    err = capsys.readouterr().err
    assert err.startswith("cardmind: warning: listening on 0.0.0.0: other machines can reach") and err.count("\n") == 1
    assert cli.main(["serve", "--host", "localhost"]) == 0
    assert capsys.readouterr().err == ""
    assert cli.main(["serve", "--port", "70000"]) == 2
    assert capsys.readouterr().err == "cardmind: error: --port must be 0 to 65535, not 70000\n"
