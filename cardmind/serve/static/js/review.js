// Review: open a record (.jsonl) and step through it; at every event the advice (`hint`, the
// words of `cardmind hint`) and the belief (`belief`) of the record's seat.
import { hello, advice } from "./engine.js";
import { h, describe, beliefEl, showAdvice } from "./widgets.js";

export class Review {
  constructor(engine, root) {
    this.engine = engine;
    this.root = root;
  }

  async init() {
    this.hello = await hello(this.engine);
    const r = this.root;
    r.querySelector("#review-file").addEventListener("change", (ev) => this.open(ev.target.files[0]));
    r.querySelector("#review-back").addEventListener("click", () => this.go(this.pos - 1));
    r.querySelector("#review-next").addEventListener("click", () => this.go(this.pos + 1));
    r.querySelector("#review-start").addEventListener("click", () => this.go(0));
    r.querySelector("#review-end").addEventListener("click", () => this.go(this.events.length));
    // the arrow keys step too, while Review is shown
    document.addEventListener("keydown", (ev) => {
      if (r.hidden || !this.events || ev.target.tagName === "INPUT") return;
      if (ev.key === "ArrowRight") this.go(this.pos + 1);
      else if (ev.key === "ArrowLeft") this.go(this.pos - 1);
    });
  }

  error(msg) { this.root.querySelector("#review-error").textContent = msg; }

  async open(file) {
    if (!file) return;
    this.error("");
    // a file that cannot be read leaves no earlier record on screen
    const fail = (msg) => {
      this.error(`${file.name}: ${msg}`);
      this.events = null;
      this.root.querySelector("#review-body").hidden = true;
    };
    // the file's lines with their numbers (blank lines skipped, but counted)
    const lines = (await file.text()).split(/\r?\n/).map((text, i) => ({ text, line: i + 1 })).filter((l) => l.text.trim());
    if (!lines.length) { fail("the file is empty; a record is a header line, then one event per line."); return; }
    const parsed = [];
    for (const l of lines) {
      try { parsed.push(JSON.parse(l.text)); } catch {
        fail(`line ${l.line} is not a JSON object${l === lines[lines.length - 1] ? " (is the file cut short?)" : ""}; a record has one JSON object per line.`);
        return;
      }
      if (!parsed[parsed.length - 1] || typeof parsed[parsed.length - 1] !== "object" || Array.isArray(parsed[parsed.length - 1])) {
        fail(`line ${l.line} is not a JSON object; a record has one JSON object per line.`);
        return;
      }
    }
    const [header, ...events] = parsed;
    if (typeof header.game !== "string") {
      fail(`line 1 is not a record header: it names no game (a cardmind-record/1 header has "game", "options" and the seat's "hand").`);
      return;
    }
    const game = this.hello.games.find((g) => g.name === header.game);
    if (!game) { fail(`line 1 names the game "${header.game}", which this engine does not have (it has ${this.hello.games.map((g) => g.name).join(", ")}).`); return; }
    const bad = events.findIndex((e) => typeof e.type !== "string");
    if (bad >= 0) { fail(`line ${lines[bad + 1].line} is not an event: it has no "type".`); return; }
    if (header.hand === undefined && !Array.isArray(header.hands)) { fail(`line 1 has no "hand" (the cards of the record's seat).`); return; }
    this.lineOf = lines.slice(1).map((l) => l.line);
    this.fileName = file.name;
    this.game = game;
    this.header = header;
    this.events = events;
    this.seat = header.observer ?? 0;
    const players = header.options && header.options.players;
    const n = Array.isArray(header.hands) ? header.hands.length : Number.isInteger(players) ? players : game.seats;
    this.names = [...Array(n).keys()].map((s) => (s === this.seat ? `seat ${s} (you)` : `seat ${s}`));
    const list = this.root.querySelector("#review-events");
    list.replaceChildren(...events.map((e, i) => {
      const li = h("li", { "data-index": String(i) }, describe(e, game, this.names));
      li.addEventListener("click", () => this.go(i + 1));
      return li;
    }));
    this.root.querySelector("#review-title").textContent = `${game.title}: ${events.length} events, seen from seat ${this.seat}`;
    this.root.querySelector("#review-body").hidden = false;
    this.sessionAt = -1;
    this.stop = null;   // {at, msg}: the first event the engine refuses stops the review there
    if (this.session) await this.engine.request("close", { session: this.session }).catch(() => {});
    this.session = undefined;
    await this.go(0);
  }

  // A player session of the record's seat after the first k events.
  async sessionAfter(k) {
    if (this.session === undefined || k < this.sessionAt) {
      if (this.session) await this.engine.request("close", { session: this.session }).catch(() => {});
      const hd = this.header;
      const extra = {};
      for (const [key, v] of Object.entries(hd)) {
        if (!["format", "game", "options", "observer", "hand", "hands"].includes(key)) extra[key] = v;
      }
      const hand = hd.hand ?? hd.hands[this.seat];
      const fields = { game: hd.game, options: hd.options || {}, seat: this.seat, hand, agent: null, check: false };
      if (Object.keys(extra).length && hd.observer !== undefined) fields.header = extra;
      else if (hd.observer === undefined) {
        const keep = {};
        for (const [key, kind] of Object.entries(this.game.header_keys)) if (!kind.startsWith("?") && key in hd) keep[key] = hd[key];
        if (Object.keys(keep).length) fields.header = keep;
      }
      const r = await this.engine.request("new", fields);
      this.session = r.session;
      this.sessionAt = 0;
    }
    while (this.sessionAt < k) {
      const ev = this.events[this.sessionAt];
      try {
        await this.engine.request("event", { session: this.session, event: ev });
      } catch (e) {
        e.line = this.lineOf[this.sessionAt];
        throw e;
      }
      this.sessionAt++;
    }
    return this.session;
  }

  // Step to the position after k events; steps are taken one after another, and a step
  // overtaken by a later click is skipped.
  go(k) {
    if (!this.events) return Promise.resolve();
    k = Math.max(0, Math.min(this.stop ? this.stop.at : this.events.length, k));
    this.pos = k;
    this.root.querySelector("#review-pos").textContent = `after ${k} of ${this.events.length} events`;
    this.chain = (this.chain || Promise.resolve()).then(() => (this.pos === k ? this.show(k) : null));
    return this.chain;
  }

  async show(k) {
    this.error(this.stop && k >= this.stop.at ? this.stop.msg : "");
    const r = this.root;
    r.querySelector("#review-pos").textContent = `after ${k} of ${this.events.length} events`;
    r.querySelectorAll("#review-events li").forEach((li, i) => li.classList.toggle("current", i === k - 1));
    const cur = r.querySelector("#review-events li.current");
    if (cur) cur.scrollIntoView({ block: "nearest" });
    const adv = r.querySelector("#review-advice");
    const bel = r.querySelector("#review-belief");
    adv.textContent = "thinking…";
    delete adv.dataset.pos;  // set again once this position's advice is shown
    try {
      const sid = await this.sessionAfter(k);
      if (this.pos !== k) return;
      const { hint, text } = await advice(this.engine, sid);
      showAdvice(adv, text, hint.headline);
      const b = await this.engine.request("belief", { session: sid });
      bel.replaceChildren(beliefEl(b.belief, this.names));
    } catch (e) {
      adv.textContent = "";
      bel.replaceChildren();
      const complete = this.header.observer === undefined;
      const where = e.line ? `${this.fileName}, line ${e.line}: ` : `${this.fileName}: `;
      const msg = where + (complete && e.code === "illegal_event"
        ? `${e.message}. This is a complete record (every seat's cards); Review follows one seat's own record, such as the one Play or At the table downloads.`
        : e.message);
      this.error(msg);
      if (e.line && !this.stop) {
        // the review stops before the refused event: its position is the last one shown
        this.stop = { at: this.sessionAt, msg: `${msg} The review stops before that line.` };
        this.pos = this.stop.at;
        return this.show(this.stop.at);
      }
    }
    adv.dataset.pos = String(k);
  }
}
