// At the table: the live advisor for a game played elsewhere. A player session with no agent
// is fed the events you tap in (their fields come from hello's event schemas); the advice of
// `cardmind hint` is shown after each one.
import { hello, advice, seatView } from "./engine.js";
import { cardEl, fullDeck, sortCards } from "./cards.js";
import { h, describe, tableEl, fieldInput, words, download, recordLines, showAdvice } from "./widgets.js";
import { optionInputs } from "./play.js";

// the game being advised, kept in the browser (localStorage) so that a reload loses nothing
const STORE = "cardmind.table";

export class AtTable {
  constructor(engine, root) {
    this.engine = engine;
    this.root = root;
  }

  async init() {
    this.hello = await hello(this.engine);
    const r = this.root;
    this.gameSel = r.querySelector("#table-game");
    this.gameSel.replaceChildren(...this.hello.games.map((g) => h("option", { value: g.name }, g.title)));
    this.gameSel.addEventListener("change", () => this.setupGame());
    r.querySelector("#table-start").addEventListener("click", () => this.start());
    r.querySelector("#table-add").addEventListener("click", () => this.addEvent());
    r.querySelector("#table-undo").addEventListener("click", () => this.undo());
    r.querySelector("#table-download").addEventListener("click", () => this.downloadRecord());
    r.querySelector("#table-new").addEventListener("click", () => this.startOver());
    await this.setupGame();
    await this.restore();
  }

  save() {
    try {
      localStorage.setItem(STORE, JSON.stringify({ game: this.game.name, options: this.getOptions(), seat: this.seat,
        hand: this.hand, header: this.header, events: this.events }));
    } catch { /* storage full or disabled: the game goes on unsaved */ }
  }

  startOver() {
    try { localStorage.removeItem(STORE); } catch { /* nothing kept */ }
    this.error("");
    this.showSetup(true);
  }

  // The game kept from before a reload: its setup, then its events replayed.
  async restore() {
    let saved;
    try { saved = JSON.parse(localStorage.getItem(STORE) || "null"); } catch { saved = null; }
    if (!saved || !this.hello.games.some((g) => g.name === saved.game)) return;
    this.gameSel.value = saved.game;
    await this.setupGame();
    for (const [k, v] of Object.entries(saved.options || {})) {
      const inp = this.root.querySelector(`#table-options [name="${k}"]`);
      if (inp) inp.value = String(v);
    }
    await this.setupSeats();
    this.seat = saved.seat;
    this.root.querySelectorAll("#table-seat button").forEach((b) => b.classList.toggle("chosen", b.dataset.seat === String(saved.seat)));
    this.hand = saved.hand || [];
    this.renderPicker();
    try {
      await this.open(saved.header || {});
      this.events = [];
      for (const ev of saved.events || []) {
        this.status = await this.engine.request("event", { session: this.session, event: ev });
        this.events.push(ev);
      }
    } catch (e) {
      this.error(`The game kept from before could not be restored (${e.message}); start over.`);
      return;
    }
    this.root.querySelector("#table-history").replaceChildren(...this.events.map((ev) => h("li", {}, describe(ev, this.game, this.names()))));
    this.showSetup(false);
    this.renderTypes();
    await this.refresh();
    this.root.querySelector("#table-restored").textContent = `The game in progress was restored (${this.events.length} event${this.events.length === 1 ? "" : "s"}).`;
  }

  get game() { return this.hello.games.find((g) => g.name === this.gameSel.value); }

  // an error shows where you look: next to "Add the event" while advising, under the setup before
  error(msg) {
    const live = !this.root.querySelector("#table-live").hidden;
    const el = this.root.querySelector(live ? "#table-error" : "#table-setup-error");
    this.root.querySelector(live ? "#table-setup-error" : "#table-error").textContent = "";
    el.textContent = msg;
    if (msg && el.scrollIntoView) el.scrollIntoView({ block: "nearest" });
  }

  showSetup(on) {
    this.root.querySelector("#table-setup").hidden = !on;
    this.root.querySelector("#table-live").hidden = on;
  }

  async setupGame() {
    this.getOptions = optionInputs(this.game, this.root.querySelector("#table-options"), () => this.setupSeats());
    this.hand = [];
    this.deck = null;
    await this.setupSeats();
  }

  // The header fields the deal shows (the up-card), their cards from the pack.
  renderHeaderFields() {
    const hk = this.root.querySelector("#table-header");
    hk.replaceChildren();
    this.headerFields = {};
    for (const [k, kind] of Object.entries(this.game.header_keys || {})) {
      if (kind.startsWith("?")) continue;
      const f = fieldInput(k, kind, 0, null, this.deck);
      this.headerFields[k] = f;
      hk.append(f.row);
    }
  }

  // The seats and the pack under the chosen options (a referee session opened and closed to
  // learn them: the `new` reply's `seats` and `deck`).
  async setupSeats() {
    let seats = this.game.seats;
    let deck = this.deck || fullDeck();   // options the game refuses keep the pack they had
    try {
      const probe = await this.engine.request("new", { game: this.game.name, role: "referee", options: this.getOptions() });
      seats = probe.seats;
      if (Array.isArray(probe.deck) && probe.deck.length) deck = probe.deck;
      await this.engine.request("close", { session: probe.session });
      this.error("");
    } catch (e) { this.error(e.message); }
    if (JSON.stringify(deck) !== JSON.stringify(this.deck)) {
      this.deck = deck;
      this.hand = this.hand.filter((c) => deck.includes(c));   // cards the pack no longer has go
      this.root.querySelector("#table-deck").replaceChildren();
      this.renderPicker();
      this.renderHeaderFields();
    }
    const box = this.root.querySelector("#table-seat");
    // the same number of seats keeps the buttons and the seat chosen (an option changed while
    // the player picks a seat must not undo the pick)
    if (seats === this.seats && box.childElementCount === seats) return;
    this.seats = seats;
    const bs = [];
    box.replaceChildren(...[...Array(seats).keys()].map((s) => {
      const b = h("button", { type: "button", class: "choice" + (s === 0 ? " chosen" : ""), "data-seat": String(s) }, `seat ${s}`);
      b.addEventListener("click", () => { this.seat = s; bs.forEach((x) => x.classList.toggle("chosen", x === b)); });
      bs.push(b);
      return b;
    }));
    this.seat = 0;
  }

  renderPicker() {
    const picked = this.root.querySelector("#table-hand-picked");
    picked.replaceChildren(...(this.hand.length ? sortCards(this.hand).map((c) => cardEl(c, { onClick: () => {
      this.hand.splice(this.hand.indexOf(c), 1); this.renderPicker();
    } })) : [h("i", {}, "tap the cards you were dealt")]));
    this.root.querySelector("#table-hand-count").textContent = `${this.hand.length} cards`;
    const deck = this.root.querySelector("#table-deck");
    if (!deck.childElementCount) {
      deck.append(...sortCards(this.deck || fullDeck()).map((c) => cardEl(c, { small: true, onClick: () => { this.hand.push(c); this.renderPicker(); } })));
    }
  }

  names() { return [...Array(this.seats).keys()].map((s) => (s === this.seat ? `seat ${s} (you)` : `seat ${s}`)); }

  // a player session for the setup (the header fields read from the page, unless given)
  async open(given) {
    const fields = { game: this.game.name, options: this.getOptions(), seat: this.seat, hand: this.hand, agent: null };
    const header = given ? { ...given } : {};
    if (!given) {
      for (const [k, f] of Object.entries(this.headerFields)) {
        const v = f.get();
        if (v === undefined) throw new Error(`Choose the ${words(k)} first.`);
        header[k] = v;
      }
    }
    this.header = header;
    if (Object.keys(header).length) fields.header = header;
    const r = await this.engine.request("new", fields);
    this.session = r.session;
    this.status = r;
  }

  async start() {
    this.error("");
    if (this.session) await this.engine.request("close", { session: this.session }).catch(() => {});
    try { await this.open(); } catch (e) { this.error(e.message); return; }
    this.events = [];
    this.root.querySelector("#table-history").replaceChildren();
    this.showSetup(false);
    this.renderTypes();
    this.save();
    await this.refresh();
  }

  renderTypes() {
    const box = this.root.querySelector("#table-types");
    const bs = [];
    box.replaceChildren(...Object.keys(this.game.events).map((t) => {
      const b = h("button", { type: "button", class: "choice", "data-type": t }, words(t));
      b.addEventListener("click", () => { bs.forEach((x) => x.classList.toggle("chosen", x === b)); this.chooseType(t); });
      bs.push(b);
      return b;
    }));
    this.root.querySelector("#table-fields").replaceChildren();
    this.type = null;
  }

  chooseType(t) {
    this.type = t;
    this.fields = {};
    const box = this.root.querySelector("#table-fields");
    box.replaceChildren();
    for (const [k, kind] of Object.entries(this.game.events[t])) {
      const f = fieldInput(k, kind, this.seats, this.names(), this.deck);
      this.fields[k] = f;
      box.append(f.row);
    }
    this.root.querySelector("#table-add").disabled = false;
  }

  async addEvent() {
    if (!this.type) { this.error("Choose what happened first."); return; }
    const ev = { type: this.type };
    for (const [k, f] of Object.entries(this.fields)) {
      const v = f.get();
      if (v === undefined) {
        if (f.optional) continue;
        this.error(`Fill in ${words(k)} first.`);
        return;
      }
      ev[k] = v;
    }
    try {
      this.status = await this.engine.request("event", { session: this.session, event: ev });
    } catch (e) { this.error(e.message); return; }
    this.error("");
    this.events.push(ev);
    this.save();
    this.root.querySelector("#table-history").append(h("li", {}, describe(ev, this.game, this.names())));
    this.renderTypes();
    this.root.querySelector("#table-add").disabled = true;
    await this.refresh();
    // the new advice is at the top: bring it into view (a phone's screen shows the bottom)
    this.root.querySelector("#table-advice").parentElement.scrollIntoView({ block: "start" });
  }

  async undo() {
    if (!this.events.length) return;
    const keep = this.events.slice(0, -1);
    await this.engine.request("close", { session: this.session }).catch(() => {});
    await this.open(this.header);
    for (const ev of keep) this.status = await this.engine.request("event", { session: this.session, event: ev });
    this.events = keep;
    this.save();
    const list = this.root.querySelector("#table-history");
    list.lastElementChild && list.lastElementChild.remove();
    await this.refresh();
  }

  async refresh() {
    this.root.querySelector("#table-restored").textContent = "";
    const st = this.status;
    this.root.querySelector("#table-status").textContent = st.over ? "The game is over." :
      st.your_turn ? "Your turn." : `seat ${st.to_move} to move.`;
    const view = await seatView(this.engine, this.session).catch(() => null);
    this.root.querySelector("#table-hand").replaceChildren(...((view && view.hand) || []).map((c) => cardEl(c)));
    this.root.querySelector("#table-table").replaceChildren(tableEl(view, this.names()));
    const box = this.root.querySelector("#table-advice");
    box.textContent = "thinking…";
    try {
      const { hint, text } = await advice(this.engine, this.session);
      showAdvice(box, text, hint.headline);
    } catch (e) { box.textContent = e.message; }
    box.dataset.events = String(this.events.length);
  }

  async downloadRecord() {
    const rec = await this.engine.request("record", { session: this.session });
    download(`cardmind-${this.game.name}-table.jsonl`, recordLines(rec));
  }
}
