"""The ../shared helpers of conftest: skip outside CI when the folder is absent, fail under CI."""

from __future__ import annotations

import pytest

from . import conftest


def test_missing_shared_folder_skips_outside_ci_and_fails_under_ci(monkeypatch, tmp_path):
    monkeypatch.setattr(conftest, "SHARED", tmp_path / "no-such-shared")
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception):
        conftest.shared_path("records")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI must provide"):
        conftest.shared_path("records")
    assert conftest.shared_files("*.jsonl", "cases") == []


def test_present_shared_folder_is_found(monkeypatch, tmp_path):
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "a.jsonl").write_text("{}\n")
    monkeypatch.setattr(conftest, "SHARED", tmp_path)
    monkeypatch.setenv("CI", "true")
    assert conftest.shared_path("cases", "a.jsonl") == tmp_path / "cases" / "a.jsonl"
    assert conftest.shared_files("*.jsonl", "cases") == [tmp_path / "cases" / "a.jsonl"]
