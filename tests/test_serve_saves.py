"""The save folder of ``cardmind serve``: records saved under names the server makes, read
back only by a listed name; paths from requests (``../``, absolute, encoded) are refused;
bad records and oversized bodies are refused; a POST from another site is refused."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.extras import require_module

require_module("starlette", "web")
require_module("httpx", "web")

from starlette.testclient import TestClient  # noqa: E402

from cardmind.serve.app import ServerSettings, create_app  # noqa: E402
from cardmind.serve.saves import NAME, SaveError, SaveFolder  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


@pytest.fixture
def client(tmp_path):
    app = create_app(ServerSettings(save_dir=tmp_path / "saves", max_record_bytes=200_000))
    with TestClient(app, base_url="http://127.0.0.1:8765") as c:
        yield c


@pytest.mark.parametrize("example", ["literature-6p-complete.jsonl", "gofish-4p.jsonl", "handfoot-4p-short-complete.jsonl",
                                     "carioca-short-complete.jsonl"])
def test_save_list_and_read_back(client, tmp_path, example):
    text = (EXAMPLES / example).read_text(encoding="utf-8")
    r = client.post("/api/games", content=text.encode())
    assert r.status_code == 201, r.text
    saved = r.json()
    game = json.loads(text.splitlines()[0])["game"]
    assert saved["ok"] and saved["game"] == game and NAME.match(saved["name"])
    assert saved["name"].startswith(game + "-")
    assert saved["events"] == len(text.strip().splitlines()) - 1
    files = list((tmp_path / "saves").iterdir())
    assert [f.name for f in files] == [saved["name"]]
    assert files[0].read_text(encoding="utf-8") == text
    listing = client.get("/api/games").json()
    assert listing["folder"] == str((tmp_path / "saves").resolve())
    assert [(g["name"], g["game"], g["bytes"]) for g in listing["games"]] == [(saved["name"], game, len(text.encode()))]
    back = client.get(f"/api/games/{saved['name']}")
    assert back.status_code == 200 and back.text == text


def test_every_save_gets_a_new_name(client, tmp_path):
    text = (EXAMPLES / "literature-6p.jsonl").read_bytes()
    names = {client.post("/api/games", content=text).json()["name"] for _ in range(5)}
    assert len(names) == 5
    assert sorted(p.name for p in (tmp_path / "saves").iterdir()) == sorted(names)


def test_paths_from_requests_never_reach_the_file_system(client, tmp_path):
    secret = tmp_path / "secret.jsonl"
    secret.write_text('{"secret": "SECRET"}\n')
    saves = tmp_path / "saves"
    text = (EXAMPLES / "literature-6p.jsonl").read_bytes()
    name = client.post("/api/games", content=text).json()["name"]
    (saves / "notes.jsonl").write_text("{}\n")   # a file the server did not name: never served
    os.symlink(secret, saves / "literature-20260101-000000-abcdef.jsonl")   # nor a link out
    for bad in ("../secret.jsonl", "..%2Fsecret.jsonl", "%2E%2E%2Fsecret.jsonl", "..%5Csecret.jsonl",
                str(secret), "%2F" + str(secret).lstrip("/").replace("/", "%2F"), "notes.jsonl",
                name.replace(".jsonl", ".json"), name + "%00", "literature-20260101-000000-abcdef.jsonl"):
        r = client.get(f"/api/games/{bad}")
        assert r.status_code in (400, 404), (bad, r.status_code)
        assert "SECRET" not in r.text
        if "/" not in bad.replace("%2F", "/").replace("%2f", "/"):   # else no route matches: 404
            assert r.json()["ok"] is False
    listed = [g["name"] for g in client.get("/api/games").json()["games"]]
    assert listed == [name]
    folder = SaveFolder(saves)
    for bad in ("../secret.jsonl", str(secret), "/etc/passwd", "", "a/b.jsonl"):
        with pytest.raises(SaveError) as exc:
            folder.read(bad)
        assert exc.value.status == 400


def test_bad_records_and_big_bodies_are_refused(client, tmp_path):
    lines = (EXAMPLES / "literature-6p-complete.jsonl").read_text(encoding="utf-8").splitlines()
    bad_event = lines[:3] + [json.dumps({"type": "ask", "asker": 9, "target": 1, "card": "2C", "success": False})]
    for body, words in ((b"", "record"), (b"\xff\xfe", "not UTF-8"), (b"not json\n", "record:1"),
                        (json.dumps({"format": "other"}).encode(), "record:1"),
                        ("\n".join(bad_event).encode(), "record:4")):
        r = client.post("/api/games", content=body)
        assert r.status_code == 400, (body[:40], r.text)
        assert r.json()["ok"] is False and words in r.json()["error"]
    big = "\n".join(lines).encode() + b" " * 200_001
    r = client.post("/api/games", content=big)
    assert r.status_code == 413 and "200000 bytes" in r.json()["error"]

    def chunks():   # no content-length: the limit holds while reading
        for _ in range(30):
            yield b"x" * 10_000

    assert client.post("/api/games", content=chunks()).status_code == 413
    assert not (tmp_path / "saves").exists() or list((tmp_path / "saves").iterdir()) == []


def test_other_sites_and_hosts_are_refused(client, tmp_path):
    text = (EXAMPLES / "literature-6p.jsonl").read_bytes()
    r = client.post("/api/games", content=text, headers={"Origin": "http://evil.example"})
    assert r.status_code == 403 and not (tmp_path / "saves").exists()
    assert client.post("/api/games", content=text, headers={"Origin": "http://127.0.0.1:8765"}).status_code == 201
    assert client.get("/api/games", headers={"Host": "evil.example"}).status_code == 403
    open_app = create_app(ServerSettings(save_dir=tmp_path / "saves", local_only=False))
    with TestClient(open_app, base_url="http://cards.example") as c:   # bound to a public address
        assert c.get("/api/games").status_code == 200
        assert c.post("/api/games", content=text, headers={"Origin": "http://evil.example"}).status_code == 403
