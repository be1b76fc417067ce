"""The pages of `cardmind serve` in a real browser (issue 28, point 4).

Debian's headless Chromium (/usr/bin/chromium + /usr/bin/chromedriver, never a downloaded
browser) driven by Selenium against a real `cardmind serve` started on a free port:
a whole game of each of the four games played through the Play page by clicking, the coach
panel checked against `cardmind hint` on the same position (the record downloaded from the
page), the At-the-table mode fed a short Literature game by tapping, and Review stepping a
record with the advice and the belief. The screenshots of docs/serve.md are taken here
(docs/img/serve-*.png).

Without the browser the tests are skipped, except with ``CI`` set: then they fail.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
IMG = ROOT / "docs" / "img"
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]

HAVE_SELENIUM = importlib.util.find_spec("selenium") is not None


def _require_browser() -> None:
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not os.path.exists(p)]
    if not HAVE_SELENIUM:
        missing.append("the selenium package")
    if importlib.util.find_spec("starlette") is None or importlib.util.find_spec("uvicorn") is None:
        missing.append("the web extra (starlette, uvicorn)")
    if missing:
        msg = f"browser tests need {', '.join(missing)} (README: install)"
        if os.environ.get("CI"):
            pytest.fail(msg)
        pytest.skip(msg)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


#: the save folder of the server the tests started
SAVED: dict[str, Path] = {}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The URL of a `cardmind serve` running on a free port (its save folder in a temp dir)."""
    _require_browser()
    if os.environ.get("CARDMIND_SERVE_URL"):  # a server already running (for working on the pages)
        SAVED.clear()
        yield os.environ["CARDMIND_SERVE_URL"].rstrip("/")
        return
    port = _free_port()
    save = tmp_path_factory.mktemp("saved")
    SAVED["dir"] = save
    proc = subprocess.Popen([sys.executable, "-m", "cardmind", "serve", "--port", str(port), "--save-dir", str(save)],
                            cwd=ROOT, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                break
        except OSError:
            if proc.poll() is not None:
                pytest.fail(f"cardmind serve stopped: {proc.stdout.read().decode()[-2000:]}")
            time.sleep(0.1)
    else:
        proc.kill()
        pytest.fail("cardmind serve did not listen within 30 s")
    yield url
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture(scope="module")
def browser(server):
    """A headless Chromium (Debian's) with downloads into a temp folder (``browser.downloads``)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for f in FLAGS:
        opts.add_argument(f)
    profile = tempfile.mkdtemp(prefix="cardmind-chromium-")
    downloads = tempfile.mkdtemp(prefix="cardmind-downloads-")
    opts.add_argument(f"--user-data-dir={profile}")
    opts.add_argument("--window-size=1280,1000")
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    opts.set_capability("unhandledPromptBehavior", "accept")  # leaving a game under way asks
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
    driver.downloads = Path(downloads)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)
    shutil.rmtree(downloads, ignore_errors=True)


# ---------------------------------------------------------------------------------------------
# helpers

def _wait(driver, cond, timeout=120, what="the page"):
    from selenium.webdriver.support.ui import WebDriverWait
    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda d: cond(d))
    except Exception as exc:
        errors = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        raise AssertionError(f"timed out waiting for {what}; browser errors: {errors}") from exc


def _css(driver, sel):
    from selenium.webdriver.common.by import By
    return driver.find_elements(By.CSS_SELECTOR, sel)


def _text(driver, sel) -> str:
    els = _css(driver, sel)
    return els[0].get_attribute("textContent") if els else ""


def _open(driver, url, mode):
    driver.get("about:blank")  # a fresh page (a new engine connection) for every test
    driver.get(f"{url}/#{mode}")
    _wait(driver, lambda d: d.execute_script("return document.body.dataset.ready") == "1", what="the engine's hello")


def _open_play(driver, url):
    """The Play page with its setup: a game kept from an earlier test is started over."""
    _open(driver, url, "play")
    if _css(driver, "#play-board")[0].is_displayed():
        _css(driver, "#play-new")[0].click()
        _wait(driver, lambda d: _css(d, "#play-start")[0].is_displayed(), 20, "the setup")
    assert driver.execute_script("return localStorage.getItem('cardmind.play')") is None


def _set_input(driver, el, value):
    """Set an input or select and fire its change event (as a person's edit does)."""
    if el.tag_name == "select":
        from selenium.webdriver.support.ui import Select
        Select(el).select_by_value(str(value).lower() if isinstance(value, bool) else str(value))
    else:
        el.clear()
        el.send_keys(str(value))
    driver.execute_script("arguments[0].dispatchEvent(new Event('change'))", el)


def _screenshot(driver, name: str) -> None:
    """Save the page as docs/img/NAME, unless the picture there differs only in a few pixels
    (a focus ring, anti-aliasing): the docs' pictures change only when the page does."""
    png = driver.get_screenshot_as_png()
    path = IMG / name
    if path.exists():
        try:
            import io

            from PIL import Image, ImageChops
            new, old = Image.open(io.BytesIO(png)).convert("RGB"), Image.open(path).convert("RGB")
            if new.size == old.size:
                diff = ImageChops.difference(new, old).convert("L").point(lambda v: 255 if v > 24 else 0)
                if sum(diff.histogram()[255:]) < 0.002 * new.size[0] * new.size[1]:
                    return
        except ImportError:  # no Pillow: always write
            pass
    path.write_bytes(png)


def _in_view(driver, sel) -> bool:
    """Whether the element is (at least partly) inside the window, as a person sees it."""
    return driver.execute_script(
        "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
        "return r.bottom > 0 && r.top < window.innerHeight;", sel)


def _leaving_asks(driver) -> bool:
    """Whether leaving the page would ask first (a beforeunload handler cancels the event)."""
    return driver.execute_script("const e = new Event('beforeunload', {cancelable: true});"
                                 "window.dispatchEvent(e); return e.defaultPrevented;")


def _cardmind(*args) -> str:
    out = subprocess.run([sys.executable, "-m", "cardmind", *args], cwd=ROOT, env=_env(),
                         capture_output=True, text=True, timeout=120, check=False)
    assert out.returncode == 0, out.stderr
    return out.stdout


def _download(driver, button_sel) -> Path:
    """Click a download button and return the new file."""
    before = set(driver.downloads.iterdir())
    _css(driver, button_sel)[0].click()

    def done(_):
        new = [p for p in set(driver.downloads.iterdir()) - before if p.suffix == ".jsonl"]
        return new[0] if new and new[0].read_text().endswith("\n") else False
    return _wait(driver, done, 20, "the download")


def _same_words(page: str, cli: str) -> None:
    """The page's advice is the CLI's output (trailing blanks aside)."""
    def norm(s: str) -> str:
        return "\n".join(line.rstrip() for line in s.strip().splitlines())

    assert norm(page) == norm(cli)


def _headline_first(cli: str, headline: str) -> str:
    """`cardmind hint`'s text as the pages show it: the headline (what to do, the hint's
    ``headline``) first, then the other lines in their order, the headline's line left out."""
    lines = cli.strip("\n").splitlines()
    stripped = [line.rstrip() for line in lines]
    if headline.rstrip() in stripped:   # its first line only, as the pages do
        del lines[stripped.index(headline.rstrip())]
    return "\n".join([headline, *lines])


def _same_advice(page: str, *hint_args: str) -> None:
    """The page's advice is `cardmind hint`'s words for ``hint_args`` (a record and its
    options), the headline moved to the top: its first line is ``cardmind hint --json``'s
    headline and the rest is the CLI's text without that line."""
    cli = _cardmind("hint", *hint_args)
    headline = json.loads(_cardmind("hint", *hint_args, "--json"))["headline"]
    assert headline and page.strip().splitlines()[0].rstrip() == headline.rstrip(), (page[:300], headline)
    _same_words(page, _headline_first(cli, headline))


def _engine_game(game: str, options: dict, seed: int, actions: int, seat: int) -> tuple[dict, list[dict]]:
    """A seat's record of the first ``actions`` actions of a seeded game of peer players, made
    with the engine in this process (the input the At-the-table and Review tests feed)."""
    from cardmind.core import get_game
    from cardmind.protocol.engine import Engine

    eng = Engine()

    def req(**kw):
        reply = json.loads(eng.handle(json.dumps(kw)))
        assert reply["ok"], reply
        return reply
    ref = req(cmd="new", session="ref", game=game, role="referee", seed=seed, options=options)
    n = ref["seats"]
    for s in range(n):
        seat_header = get_game(game).observer_header(ref["header"], s)
        extra = {k: v for k, v in seat_header.items() if k not in ("observer", "hand")}
        req(cmd="new", session=f"p{s}", game=game, options=ref["options"], seat=s, hand=seat_header["hand"],
            agent="peer", seed=s, check=False, **({"header": extra} if extra else {}))
    status = ref
    for _ in range(actions):
        action = req(cmd="act", session=f"p{status['to_move']}")["action"]
        status = req(cmd="apply", session="ref", action=action)
        if status["notice"] is not None:
            for s in range(n):
                req(cmd="notice", session=f"p{s}", notice=status["notice"])
        for i, ev in enumerate(status["events"]):
            for s in range(n):
                req(cmd="event", session=f"p{s}", event=(status["redacted"].get(str(s)) or status["events"])[i])
    rec = req(cmd="record", session=f"p{seat}")
    return rec["header"], rec["events"]


def _write_record(path: Path, header: dict, events: list[dict]) -> Path:
    path.write_text("".join(json.dumps(x) + "\n" for x in [header, *events]))
    return path


# ---------------------------------------------------------------------------------------------
# Play: a whole game of each game, by clicking

GAMES = {
    # game: (options, bots' agent, seats, the human turn at which the coach is checked, screenshot)
    "literature": ({}, "peer", 6, 3),
    "gofish": ({"players": 3, "ranks": 5, "hand": 4}, "peer", 3, 2),
    "carioca": ({"players": 3, "hands": 1}, "peer", 3, 2),
    "handfoot": ({"players": 2, "cutthroat": True, "hands": 1, "hand_size": 6, "decks": 1}, "peer", 2, 4),
}


@pytest.mark.parametrize("game", list(GAMES))
def test_play_a_whole_game_by_clicking(server, browser, game, tmp_path):
    options, bot, seats, coach_turn = GAMES[game]
    d = browser
    _open_play(d, server)
    _set_input(d, _css(d, "#play-game")[0], game)
    _wait(d, lambda d: d.execute_script("return window.cardmind.play.game.name") == game, what="the game")
    for key, value in options.items():
        _set_input(d, _css(d, f"#play-options [name={key}]")[0], value)
    _wait(d, lambda d: len(_css(d, "#play-seats select")) == seats, what=f"{seats} seats")
    time.sleep(0.2)  # the last probe of the seats has settled
    for s in range(1, seats):
        _set_input(d, _css(d, f"#play-seats [name=seat{s}]")[0], bot)
    _set_input(d, _css(d, "#play-delay")[0], 0)
    _set_input(d, _css(d, "#play-seed")[0], 1)
    _css(d, "#play-start")[0].click()

    turn, checked = 0, False
    clicked_cards = clicked_moves = 0
    while True:
        _wait(d, lambda d, turn=turn: _css(d, "#play-end")[0].is_displayed()
              or int(_css(d, "#play-status")[0].get_attribute("data-turn") or 0) > turn, 120, "your turn or the end")
        assert _text(d, "#play-error") == ""
        if _css(d, "#play-end")[0].is_displayed():
            break
        turn += 1
        if _css(d, "#play-status")[0].get_attribute("data-notice"):
            # a decision under way (a claim's choice of who plays next) is said in words
            status = _text(d, "#play-status")
            assert "choose" in status and "Your turn." not in status, status
        if _css(d, "#play-status")[0].get_attribute("data-mode") == "react":
            _css(d, "#play-go-on")[0].click()
            continue
        if turn == coach_turn:
            _check_coach(d, game, tmp_path)
            checked = True
            _screenshot(d, "serve-play.png" if game == "literature" else f"serve-play-{game}.png")
        # alternate: the advised move; a card of the hand and a move with it; a move without cards
        moved = False
        if turn % 3 == 1:
            cards = [c for c in _css(d, "#hand .card.playable")]
            if cards:
                card = cards[0].get_attribute("data-card")
                cards[0].click()
                buttons = _css(d, "#actions button.action")
                if buttons:
                    buttons[0].click()
                    moved, clicked_cards = True, clicked_cards + 1
                else:  # unselect: the moves need narrowing down
                    _css(d, f"#hand .card[data-card='{card}']")[0].click()
        elif turn % 3 == 2:
            buttons = _css(d, "#actions button.action")
            if buttons:
                buttons[0].click()
                moved, clicked_moves = True, clicked_moves + 1
        if not moved:
            _css(d, "#play-advised")[0].click()
    assert checked, f"the game ended before your turn {coach_turn}"
    assert clicked_cards + clicked_moves > 0
    result = _text(d, "#play-result")
    assert not _leaving_asks(d), "the game is over: leaving needs no question"
    assert "Game over." in result and "Scores:" in result
    # the result line shows the game's own points, as the table's score does
    table_scores = [el.text for el in _css(d, "#play-table .scores .pill")]
    if table_scores:
        assert [el.text for el in _css(d, "#play-result .pill")] == table_scores
    # the whole record: as many events as the history shows, and cardmind reads it
    path = _download(d, "#play-download")
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    assert header["game"] == game and header["observer"] == 0
    assert len(lines) - 1 == len(_css(d, "#history li")) > 0
    _cardmind("hint", str(path))
    # saved on the server: into its save folder, under a name the server made
    _css(d, "#play-save")[0].click()
    _wait(d, lambda d: _text(d, "#play-saved") != "", 20, "the save")
    assert _text(d, "#play-saved").startswith("Saved as "), _text(d, "#play-saved")
    name = _text(d, "#play-saved")[len("Saved as "):].split(" ")[0]
    if SAVED:
        assert (SAVED["dir"] / name).read_text() == path.read_text()


def _check_coach(d, game, tmp_path):
    """The coach panel's words are `cardmind hint`'s for the position (the downloaded record)."""
    _css(d, "#coach-ask")[0].click()
    _wait(d, lambda d: _text(d, "#coach-text") not in ("", "thinking…")
          and _css(d, "#coach-text")[0].get_attribute("data-events") is not None, 120, "the advice")
    words = _text(d, "#coach-text")
    path = _download(d, "#play-download")
    events = len(path.read_text().splitlines()) - 1
    assert str(events) == _css(d, "#coach-text")[0].get_attribute("data-events")
    _same_advice(words, str(path))


# ---------------------------------------------------------------------------------------------
# At the table: a short Literature game entered by tapping, on a phone-sized window

def test_at_the_table_on_a_phone(server, browser, tmp_path):
    d = browser
    seat = 2
    header, events = _engine_game("literature", {}, seed=4, actions=5, seat=seat)
    d.set_window_size(390, 844)
    try:
        _open(d, server, "table")
        _set_input(d, _css(d, "#table-game")[0], "literature")
        _wait(d, lambda d: len(_css(d, "#table-seat button")) == 6, what="the seats")
        _css(d, f"#table-seat button[data-seat='{seat}']")[0].click()
        for c in header["hand"]:
            _css(d, f"#table-deck [data-card='{c}']")[0].click()
        assert _text(d, "#table-hand-count") == f"{len(header['hand'])} cards"
        _css(d, "#table-start")[0].click()
        _wait(d, lambda d: _css(d, "#table-advice")[0].get_attribute("data-events") == "0"
              and _text(d, "#table-advice") != "thinking…", what="the first advice")
        # the page fits the phone's width (no sideways scrolling)
        assert d.execute_script("return document.documentElement.scrollWidth") <= 400
        for i, ev in enumerate(events):
            _css(d, f"#table-types button[data-type='{ev['type']}']")[0].click()
            for key, value in ev.items():
                if key == "type":
                    continue
                field = f"#table-fields .field[data-key='{key}']"
                if isinstance(value, str):
                    _css(d, f"{field} [data-card='{value}']")[0].click()
                else:
                    _css(d, f"{field} button[data-value='{json.dumps(value)}']")[0].click()
            _css(d, "#table-add")[0].click()
            _wait(d, lambda d, i=i: _css(d, "#table-advice")[0].get_attribute("data-events") == str(i + 1)
                  and _text(d, "#table-advice") != "thinking…", what=f"the advice after event {i + 1}")
            assert _text(d, "#table-error") == ""
            assert _in_view(d, "#table-advice"), "the new advice is off-screen"
        assert len(_css(d, "#table-history li")) == len(events)
        d.execute_script("window.scrollTo(0, 0)")
        _screenshot(d, "serve-table.png")
        record = str(_write_record(tmp_path / "table.jsonl", header, events))
        _same_advice(_text(d, "#table-advice"), record)
        # an impossible event is refused with the protocol's one-sentence error, nothing added
        _css(d, "#table-types button[data-type='pass']")[0].click()
        _css(d, "#table-fields .field[data-key='from'] button[data-value='0']")[0].click()
        _css(d, "#table-fields .field[data-key='to'] button[data-value='1']")[0].click()
        _css(d, "#table-add")[0].click()
        _wait(d, lambda d: _text(d, "#table-error") != "", what="the error")
        assert _in_view(d, "#table-error") and _in_view(d, "#table-add"), "the reason is not next to Add"
        assert len(_css(d, "#table-history li")) == len(events)
        # a claim's assignment: pick cards, then who holds each; the engine judges it
        _css(d, "#table-types button[data-type='claim']")[0].click()
        _css(d, f"#table-fields .field[data-key='claimer'] button[data-value='{seat}']")[0].click()
        set_input = _css(d, "#table-fields .field[data-key='set'] input")[0]
        set_input.send_keys("low-clubs")
        for key in ("assignment", "actual"):
            field = f"#table-fields .field[data-key='{key}']"
            _css(d, f"{field} .deck [data-card='2C']")[0].click()
            _css(d, f"{field} .card-seat[data-card='2C'] button[data-value='{seat}']")[0].click()
        _css(d, "#table-fields .field[data-key='correct'] button[data-value='true']")[0].click()
        _css(d, "#table-add")[0].click()
        # every field was read (none missing), and the engine refuses it: not this seat's turn
        _wait(d, lambda d: _text(d, "#table-error") != "", what="the claim's error")
        assert _text(d, "#table-error").startswith("illegal claim"), _text(d, "#table-error")
        assert len(_css(d, "#table-history li")) == len(events)
        # undo: the last event taken back, the advice is the one before it
        _css(d, "#table-undo")[0].click()
        _wait(d, lambda d: _css(d, "#table-advice")[0].get_attribute("data-events") == str(len(events) - 1)
              and _text(d, "#table-advice") != "thinking…", what="the advice after undo")
        assert len(_css(d, "#table-history li")) == len(events) - 1
        upto = (record, "--upto", str(len(events)))
        _same_advice(_text(d, "#table-advice"), *upto)
        # a reload keeps the game (its setup and events, in the browser's storage)
        _open(d, server, "table")
        _wait(d, lambda d: _text(d, "#table-restored") != "" and len(_css(d, "#table-history li")) == len(events) - 1
              and _css(d, "#table-advice")[0].get_attribute("data-events") == str(len(events) - 1), what="the restored game")
        assert _text(d, "#table-restored") == f"The game in progress was restored ({len(events) - 1} events)."
        _same_advice(_text(d, "#table-advice"), *upto)
        # start over: the setup again, nothing kept
        _css(d, "#table-new")[0].click()
        assert _css(d, "#table-setup")[0].is_displayed()
        assert d.execute_script("return localStorage.getItem('cardmind.table')") is None
    finally:
        d.set_window_size(1280, 1000)


def test_at_the_table_an_empty_card_list_is_a_choice(server, browser):
    """A list of cards left empty (an ask answered with no cards) is an empty list, not a field
    to fill in first; the engine takes the event."""
    d = browser
    header, _ = _engine_game("gofish", {"players": 3}, seed=3, actions=0, seat=0)
    _open(d, server, "table")
    if not _css(d, "#table-setup")[0].is_displayed():  # a game kept from before: start over
        _css(d, "#table-new")[0].click()
    _set_input(d, _css(d, "#table-game")[0], "gofish")
    _set_input(d, _css(d, "#table-options [name=players]")[0], 3)
    _wait(d, lambda d: len(_css(d, "#table-seat button")) == 3, what="the seats")
    for c in header["hand"]:
        _css(d, f"#table-deck [data-card='{c}']")[0].click()
    _css(d, "#table-start")[0].click()
    _wait(d, lambda d: _css(d, "#table-advice")[0].get_attribute("data-events") == "0", what="the first advice")
    _css(d, "#table-types button[data-type='ask']")[0].click()
    assert "no cards" in _text(d, "#table-fields .field[data-key='given']")
    _css(d, "#table-fields .field[data-key='asker'] button[data-value='0']")[0].click()
    _css(d, "#table-fields .field[data-key='target'] button[data-value='1']")[0].click()
    _css(d, f"#table-fields .field[data-key='rank'] button[data-value='\"{header['hand'][0][0]}\"']")[0].click()
    _css(d, "#table-add")[0].click()
    _wait(d, lambda d: len(_css(d, "#table-history li")) == 1 or _text(d, "#table-error"), what="the event")
    assert _text(d, "#table-error") == ""
    assert "none" in _text(d, "#table-history li")


def _pack(game: str, options: dict) -> list[str]:
    """The cards of the pack under ``options``: the engine's ``new`` reply's ``deck``."""
    from cardmind.protocol.engine import Engine

    reply = json.loads(Engine().handle(json.dumps({"cmd": "new", "game": game, "role": "referee",
                                                   "options": options})))
    assert reply["ok"], reply
    return reply["deck"]


def _shown_cards(d, sel) -> list[str]:
    """The cards the elements matching ``sel`` show, sorted (read at once: the picker may be
    drawn again meanwhile)."""
    return sorted(d.execute_script("return [...document.querySelectorAll(arguments[0])].map((e) => e.dataset.card)", sel))


def test_at_the_table_offers_only_the_pack(server, browser):
    """The card pickers (the dealt hand, an event's card, a rank) offer the cards of the pack
    under the chosen options, and follow the options as they change."""
    d = browser
    _open(d, server, "table")
    if not _css(d, "#table-setup")[0].is_displayed():  # a game kept from before: start over
        _css(d, "#table-new")[0].click()
    _set_input(d, _css(d, "#table-game")[0], "gofish")
    _set_input(d, _css(d, "#table-options [name=players]")[0], 2)
    _set_input(d, _css(d, "#table-options [name=hand]")[0], 3)
    _set_input(d, _css(d, "#table-options [name=suits]")[0], 2)
    _set_input(d, _css(d, "#table-options [name=ranks]")[0], 5)
    five = _pack("gofish", {"players": 2, "hand": 3, "suits": 2, "ranks": 5})
    assert len(five) == 10
    _wait(d, lambda d: _shown_cards(d, "#table-deck .card") == sorted(five), 20, "the 10-card pack")
    _set_input(d, _css(d, "#table-options [name=ranks]")[0], 4)
    options = {"players": 2, "suits": 2, "ranks": 4, "hand": 3}
    pack = _pack("gofish", options)
    _wait(d, lambda d: _shown_cards(d, "#table-deck .card") == sorted(pack), 20, "the 8-card pack")
    header, _ = _engine_game("gofish", options, seed=2, actions=0, seat=0)
    for c in header["hand"]:
        _css(d, f"#table-deck [data-card='{c}']")[0].click()
    _css(d, "#table-start")[0].click()
    _wait(d, lambda d: _css(d, "#table-advice")[0].get_attribute("data-events") == "0", what="the first advice")
    assert _text(d, "#table-error") == "" and _text(d, "#table-setup-error") == ""
    # an event's card field and card list, and its rank buttons: the pack's only
    _css(d, "#table-types button[data-type='draw']")[0].click()
    assert _shown_cards(d, "#table-fields .field[data-key='card'] .card") == sorted(pack)
    _css(d, "#table-types button[data-type='ask']")[0].click()
    assert _shown_cards(d, "#table-fields .field[data-key='given'] .deck .card") == sorted(pack)
    ranks = [json.loads(b.get_attribute("data-value")) for b in _css(d, "#table-fields .field[data-key='rank'] button")]
    assert ranks == ["2", "3", "4", "5"]
    # Carioca without jokers: none offered; with them: offered
    _css(d, "#table-new")[0].click()
    _set_input(d, _css(d, "#table-game")[0], "carioca")
    _wait(d, lambda d: "RJ" in _shown_cards(d, "#table-deck .card"), 20, "the jokers")
    assert len(_shown_cards(d, "#table-header .card")) == 54   # the up-card: any card of the pack
    _set_input(d, _css(d, "#table-options [name=jokers]")[0], 0)
    _wait(d, lambda d: _shown_cards(d, "#table-deck .card") == sorted(_pack("carioca", {"jokers": 0})), 20,
          "the pack without jokers")
    assert "RJ" not in _shown_cards(d, "#table-header .card")


# ---------------------------------------------------------------------------------------------
# Review: step through a record with the advice and the belief

def test_review_steps_through_a_record(server, browser, tmp_path):
    d = browser
    header, events = _engine_game("literature", {}, seed=5, actions=8, seat=1)
    path = _write_record(tmp_path / "review.jsonl", header, events)
    _open(d, server, "review")
    _css(d, "#review-file")[0].send_keys(str(path))
    _wait(d, lambda d: _css(d, "#review-advice")[0].get_attribute("data-pos") == "0", what="the record")
    assert len(_css(d, "#review-events li")) == len(events)
    for _ in range(4):
        _css(d, "#review-next")[0].click()
    _css(d, "#review-back")[0].click()
    _wait(d, lambda d: _css(d, "#review-advice")[0].get_attribute("data-pos") == "3"
          and _text(d, "#review-advice") != "thinking…", what="event 3")
    assert _text(d, "#review-pos") == f"after 3 of {len(events)} events"
    # the advice is cardmind hint's up to the third event (file line 4)
    _same_advice(_text(d, "#review-advice"), str(path), "--upto", "4")
    # the belief: a row per card not in the seat's hand, a column per seat, percentages
    rows = _css(d, "#review-belief table tr")
    assert len(rows) > 10 and "%" in rows[1].text
    assert len(_css(d, "#review-events li.current")) == 1
    # the arrow keys step as well
    from selenium.webdriver.common.keys import Keys
    _css(d, "body")[0].send_keys(Keys.ARROW_RIGHT)
    _wait(d, lambda d: _text(d, "#review-pos") == f"after 4 of {len(events)} events", what="the right arrow")
    _css(d, "body")[0].send_keys(Keys.ARROW_LEFT)
    _wait(d, lambda d: _css(d, "#review-advice")[0].get_attribute("data-pos") == "3"
          and _text(d, "#review-pos") == f"after 3 of {len(events)} events"
          and _text(d, "#review-advice") != "thinking…", what="the left arrow")
    _screenshot(d, "serve-review.png")


def test_review_draws_every_belief_as_tables(server, browser, tmp_path):
    """A contract rummy record's belief (chances per card and place, with the stock) is drawn as
    tables, never as a JSON dump."""
    d = browser
    header, events = _engine_game("carioca", {"players": 3, "hands": 1}, seed=2, actions=8, seat=0)
    path = _write_record(tmp_path / "carioca.jsonl", header, events)
    _open(d, server, "review")
    _css(d, "#review-file")[0].send_keys(str(path))
    _css(d, "#review-end")[0].click()
    _wait(d, lambda d: _css(d, "#review-advice")[0].get_attribute("data-pos") == str(len(events))
          and _text(d, "#review-advice") != "thinking…", what="the last position")
    assert _text(d, "#review-error") == ""
    assert not _css(d, "#review-belief pre"), "a JSON dump"
    captions = [c.text for c in _css(d, "#review-belief table caption")]
    assert any("at least one" in c for c in captions), captions
    rows = _css(d, "#review-belief table:not(.facts) tr")
    assert len(rows) > 10 and "%" in rows[1].text


def test_review_says_what_is_wrong_with_a_file(server, browser, tmp_path):
    """A file that is not a record gets one sentence saying what is wrong and on which line of
    the file (counting blank lines), never a JavaScript message."""
    d = browser
    header, events = _engine_game("literature", {}, seed=5, actions=3, seat=1)
    good = json.dumps(header) + "\n\n" + "".join(json.dumps(e) + "\n" for e in events)
    cases = {
        "empty.jsonl": ("\n", "empty"),
        "garbage.jsonl": ("hello world\n", "line 1 is not a JSON object"),
        "cut.jsonl": (good + '{"type": "ask", "ask', "line 6 is not a JSON object (is the file cut short?)"),
        "wrong.jsonl": ('{"format": "something-else"}\n', "line 1 is not a record header: it names no game"),
        "game.jsonl": ('{"game": "chess", "hand": []}\n', 'line 1 names the game "chess"'),
        "notype.jsonl": (good + '{"card": "2C"}\n', "line 6 is not an event"),
    }
    _open(d, server, "review")
    for name, (text, expected) in cases.items():
        path = tmp_path / name
        path.write_text(text)
        _css(d, "#review-file")[0].send_keys(str(path))
        _wait(d, lambda d, name=name: _text(d, "#review-error").startswith(f"{name}: "), 20, f"the error for {name}")
        msg = _text(d, "#review-error")
        assert expected in msg, msg
        assert "undefined" not in msg and "JSON at position" not in msg and "valid JSON" not in msg, msg
    # an event the engine refuses: the file's line of that event (blank line 2 counted)
    assert events[1]["type"] == "ask", events[1]
    bad = dict(events[1], asker=(events[1].get("asker", 0) + 3) % 6)
    path = tmp_path / "refused.jsonl"
    path.write_text(json.dumps(header) + "\n\n" + "".join(json.dumps(e) + "\n" for e in [events[0], bad, events[2]]))
    _css(d, "#review-file")[0].send_keys(str(path))
    _css(d, "#review-end")[0].click()
    _wait(d, lambda d: _text(d, "#review-error").startswith("refused.jsonl, line 4: "), 60, "the refused event's line")
    # the review stops before the refused line: the end is the position after the one good event
    _wait(d, lambda d: _text(d, "#review-pos") == "after 1 of 3 events", 60, "the position before the refused line")
    assert _text(d, "#review-error").endswith("The review stops before that line.")
    _css(d, "#review-next")[0].click()
    _css(d, "#review-end")[0].click()
    assert _text(d, "#review-pos") == "after 1 of 3 events"
    # a file that cannot be read leaves no earlier record on screen
    (tmp_path / "after.jsonl").write_text("hello world\n")
    _css(d, "#review-file")[0].send_keys(str(tmp_path / "after.jsonl"))
    _wait(d, lambda d: _text(d, "#review-error").startswith("after.jsonl: "), 20, "the error for after.jsonl")
    assert not _css(d, "#review-body")[0].is_displayed()


def test_play_out_of_turn_claims(server, browser):
    """Under claim_any_time you may claim while another seat is on turn: the page stops for you
    with the claims you may make and a button to let play go on. (With the coach always on.)"""
    d = browser
    _open_play(d, server)
    _set_input(d, _css(d, "#play-game")[0], "literature")
    _wait(d, lambda d: d.execute_script("return window.cardmind.play.game.name") == "literature", what="the game")
    _set_input(d, _css(d, "#play-options [name=claim_any_time]")[0], True)
    _wait(d, lambda d: len(_css(d, "#play-seats select")) == 6, what="the seats")
    _set_input(d, _css(d, "#play-delay")[0], 0)
    _css(d, "#play-start")[0].click()
    def mode(d):
        return _css(d, "#play-status")[0].get_attribute("data-mode")

    def turn(d):
        return int(_css(d, "#play-status")[0].get_attribute("data-turn") or 0)

    _wait(d, lambda d: mode(d) == "turn", what="your turn")
    _css(d, "#coach-always")[0].click()  # the coach on every turn, unasked
    _wait(d, lambda d: _css(d, "#coach-text")[0].get_attribute("data-events") == "0", what="the coach, unasked")
    # what to do comes first (the hint's headline), the heading of the position after it
    lines = _text(d, "#coach-text").splitlines()
    assert lines[0].startswith("Ask seat ") and lines[1].startswith("Literature: seat 0's view"), lines[:2]
    while mode(d) == "turn":  # your asks until one fails and another seat is on turn
        seen = turn(d)
        _css(d, "#play-advised")[0].click()
        _wait(d, lambda d, seen=seen: turn(d) > seen, what="your next decision")
        if mode(d) == "turn":  # the coach has the new position's advice without being asked
            _wait(d, lambda d: _css(d, "#coach-text")[0].get_attribute("data-events")
                  == str(len(_css(d, "#history li"))), what="the coach's new advice")
    assert _css(d, "#play-go-on")[0].is_displayed()
    assert _css(d, "#play-advised")[0].get_attribute("disabled") is not None
    claims = _css(d, "#actions .action-group[data-type='claim']")
    assert claims and "claim (" in claims[0].text
    events = len(_css(d, "#history li"))
    _css(d, "#play-go-on")[0].click()
    _wait(d, lambda d: len(_css(d, "#history li")) > events, what="play going on")
    assert _text(d, "#play-error") == ""
    # a new game in the middle of this one: the old one stops, the new one starts afresh
    _css(d, "#play-setup summary")[0].click()
    _set_input(d, _css(d, "#play-options [name=claim_any_time]")[0], False)
    _wait(d, lambda d: len(_css(d, "#play-seats select")) == 6, what="the seats")
    _css(d, "#play-start")[0].click()
    _wait(d, lambda d: mode(d) == "turn" and turn(d) == 1 and len(_css(d, "#history li")) == 0, what="the new game")
    _css(d, "#play-advised")[0].click()
    _wait(d, lambda d: len(_css(d, "#history li")) > 0, what="the new game's first move")
    assert _text(d, "#play-error") == ""
    # the game under way is kept in the browser: leaving the page needs no question
    assert not _leaving_asks(d)


def _play_position(d) -> dict:
    """What the Play page shows of the game: the history, your hand, the table, whose turn."""
    return d.execute_script("""
        const all = (sel, f) => [...document.querySelectorAll(sel)].map(f);
        return {history: all("#history li", (e) => e.textContent), hand: all("#hand .card", (e) => e.dataset.card),
                table: document.querySelector("#play-table").textContent,
                status: document.querySelector("#play-status").textContent,
                moves: all("#actions button.action", (e) => e.dataset.action).sort()};""")


def test_play_a_reload_restores_the_game(server, browser, tmp_path):
    """A Play game survives a reload: the moves kept in the browser are replayed into fresh
    engine sessions, and the same position and history show; the record is the same; play
    goes on; Start over forgets it."""
    d = browser
    _open_play(d, server)
    _set_input(d, _css(d, "#play-game")[0], "gofish")
    _wait(d, lambda d: d.execute_script("return window.cardmind.play.game.name") == "gofish", what="the game")
    for key, value in {"players": 3, "ranks": 5, "hand": 4}.items():
        _set_input(d, _css(d, f"#play-options [name={key}]")[0], value)
    _wait(d, lambda d: len(_css(d, "#play-seats select")) == 3, what="3 seats")
    time.sleep(0.2)
    for s in (1, 2):
        _set_input(d, _css(d, f"#play-seats [name=seat{s}]")[0], "peer")
    _set_input(d, _css(d, "#play-delay")[0], 0)
    _set_input(d, _css(d, "#play-seed")[0], 5)
    _css(d, "#play-start")[0].click()

    def status(d, what):
        return _css(d, "#play-status")[0].get_attribute(what)
    # at least three of your moves (the advised one), the bots' in between, up to a turn of
    # yours with no decision under way (a card to hand over is not in the record the CLI reads)
    for turn in range(1, 30):
        _wait(d, lambda d, turn=turn: status(d, "data-mode") == "turn" and int(status(d, "data-turn") or 0) >= turn,
              what=f"your turn {turn}")
        if turn >= 4 and not status(d, "data-notice"):
            break
        _css(d, "#play-advised")[0].click()
    before = _play_position(d)
    assert len(before["history"]) >= 3 and before["hand"]
    record = _download(d, "#play-download").read_text()
    kept = json.loads(d.execute_script("return localStorage.getItem('cardmind.play')"))
    assert kept["game"] == "gofish" and kept["seats"] == [None, "peer", "peer"] and kept["seed"] == 5
    assert kept["options"]["ranks"] == 5 and len(kept["actions"]) >= 3
    # reload: the same position and history, restored
    _open(d, server, "play")
    _wait(d, lambda d: _text(d, "#play-restored") != "" and len(_css(d, "#history li")) == len(before["history"])
          and status(d, "data-mode") == "turn", what="the restored game")
    assert _text(d, "#play-restored") == f"The game in progress was restored ({len(kept['actions'])} moves)."
    assert _play_position(d) == before
    assert _text(d, "#play-error") == ""
    # the record is the same one, and the coach advises on the restored position
    again = _download(d, "#play-download").read_text()
    assert again == record
    path = tmp_path / "restored.jsonl"
    path.write_text(again)
    _css(d, "#coach-ask")[0].click()
    _wait(d, lambda d: _css(d, "#coach-text")[0].get_attribute("data-events") == str(len(before["history"]))
          and _text(d, "#coach-text") not in ("", "thinking…"), what="the advice")
    _same_advice(_text(d, "#coach-text"), str(path))
    # play goes on from there
    _css(d, "#play-advised")[0].click()
    _wait(d, lambda d: len(_css(d, "#history li")) > len(before["history"]), what="the next move")
    assert _text(d, "#play-error") == ""
    # start over: the setup again, nothing kept
    _css(d, "#play-new")[0].click()
    _wait(d, lambda d: _css(d, "#play-start")[0].is_displayed(), 20, "the setup")
    assert d.execute_script("return localStorage.getItem('cardmind.play')") is None
    _open(d, server, "play")
    assert _css(d, "#play-start")[0].is_displayed() and not _css(d, "#play-board")[0].is_displayed()



def test_no_browser_fails_under_ci_and_skips_otherwise(monkeypatch):
    """Without Chromium the browser tests fail when CI is set (so CI cannot pass them by
    skipping) and are skipped otherwise."""
    monkeypatch.setattr(sys.modules[__name__], "CHROMIUM", "/nonexistent/chromium")
    monkeypatch.setenv("CI", "1")
    with pytest.raises(pytest.fail.Exception, match="/nonexistent/chromium"):
        _require_browser()
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception, match="/nonexistent/chromium"):
        _require_browser()
