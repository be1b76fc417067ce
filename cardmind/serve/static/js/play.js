// Play: a game against cardmind's agents. A referee session deals and resolves actions; every
// seat has a player session (the bots' with their agent, yours with none: it gives the advice);
// each seat's session is told the events as that seat sees them (the referee's `redacted`).
import { hello, advice, seatView } from "./engine.js";
import { cardEl, involves, isCard, cardText, rankLabel, isRank } from "./cards.js";
import { h, describe, tableEl, seatKeys, seatName, download, recordLines, words, showAdvice } from "./widgets.js";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// the game under way, kept in the browser (localStorage) so that a reload brings it back: its
// game, options, seed and seats (the bots' agents, yours null), and the moves resolved so far,
// replayed into fresh engine sessions on load
const STORE = "cardmind.play";

// The value of an option input, typed like the option's default.
function optionValue(spec, raw) {
  if (typeof spec.default === "boolean") return raw === "true";
  if (typeof spec.default === "number") return Number(raw);
  return raw;
}

export function optionInputs(game, container, onChange) {
  container.replaceChildren();
  const inputs = {};
  for (const spec of game.options) {
    let inp;
    if (spec.choices) {
      inp = h("select", { name: spec.name }, spec.choices.map((c) => h("option", { value: String(c), selected: c === spec.default }, String(c))));
    } else {
      inp = h("input", { name: spec.name, value: String(spec.default), type: typeof spec.default === "number" ? "number" : "text" });
    }
    inp.addEventListener("change", () => onChange && onChange());
    inputs[spec.name] = inp;
    container.append(h("label", { class: "option", title: spec.doc }, h("span", {}, words(spec.name)), inp));
  }
  // only options changed from their defaults are sent (the engine fills in the rest)
  return () => {
    const out = {};
    for (const spec of game.options) {
      const v = optionValue(spec, inputs[spec.name].value);
      if (JSON.stringify(v) !== JSON.stringify(spec.default)) out[spec.name] = v;
    }
    return out;
  };
}

// The game-specific header keys a player session needs from the deal: the required ones of
// hello's header_keys (the optional ones, such as the stock, belong to the complete record).
export function seatHeader(game, header) {
  const out = {};
  for (const [k, kind] of Object.entries(game.header_keys || {})) if (!kind.startsWith("?") && k in header) out[k] = header[k];
  return out;
}

// Leaf paths of an action ("assignment.8C" -> 0), arrays kept whole.
function leaves(obj, prefix = "", out = {}) {
  for (const [k, v] of Object.entries(obj)) {
    const p = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === "object" && !Array.isArray(v)) leaves(v, p, out);
    else out[p] = JSON.stringify(v);
  }
  return out;
}

export class Play {
  constructor(engine, root) {
    this.engine = engine;
    this.root = root;
  }

  async init() {
    const hi = await hello(this.engine);
    this.hello = hi;
    const r = this.root;
    this.gameSel = r.querySelector("#play-game");
    this.gameSel.replaceChildren(...hi.games.map((g) => h("option", { value: g.name }, g.title)));
    this.gameSel.addEventListener("change", () => this.setupGame());
    r.querySelector("#play-start").addEventListener("click", () => this.start());
    r.querySelector("#coach-ask").addEventListener("click", () => this.showAdvice(true));
    r.querySelector("#coach-always").addEventListener("change", () => this.showAdvice(false));
    r.querySelector("#play-advised").addEventListener("click", () => this.playAdvised());
    r.querySelector("#play-download").addEventListener("click", () => this.downloadRecord());
    r.querySelector("#play-save").addEventListener("click", () => this.saveRecord());
    r.querySelector("#play-go-on").addEventListener("click", () => this.choose(null));
    r.querySelector("#play-new").addEventListener("click", () => this.startOver());
    // a game under way is kept in the browser's storage; only when it could not be kept does
    // leaving (or reloading) the page ask first
    window.addEventListener("beforeunload", (ev) => {
      if (this.unsaved && this.running && this.status && !this.status.over) { ev.preventDefault(); ev.returnValue = ""; }
    });
    await this.setupGame();
    await this.restore();
  }

  save() {
    try {
      localStorage.setItem(STORE, JSON.stringify(this.kept));
      this.unsaved = false;
    } catch { this.unsaved = true; /* storage full or disabled: the game goes on unsaved */ }
  }

  // The game kept from before a reload: the setup shown as it was, then the game started
  // again with its moves replayed.
  async restore() {
    let saved;
    try { saved = JSON.parse(localStorage.getItem(STORE) || "null"); } catch { saved = null; }
    if (!saved || !this.hello.games.some((g) => g.name === saved.game) || !Array.isArray(saved.seats)) return;
    this.gameSel.value = saved.game;
    await this.setupGame();
    for (const [k, v] of Object.entries(saved.options || {})) {
      const inp = this.root.querySelector(`#play-options [name="${k}"]`);
      if (inp) inp.value = String(v);
    }
    await this.setupSeats();
    saved.seats.forEach((a, s) => {
      const sel = this.root.querySelector(`#play-seats [name="seat${s}"]`);
      if (sel) sel.value = a === null ? "" : a;
    });
    this.root.querySelector("#play-seed").value = String(saved.seed || 0);
    await this.start(saved);
  }

  // Stop the game and forget it: the setup again.
  async startOver() {
    this.gameId = (this.gameId || 0) + 1;
    if (this.resolveHuman) this.resolveHuman(null);
    if (this.loopDone) await this.loopDone;
    try { localStorage.removeItem(STORE); } catch { /* nothing kept */ }
    this.kept = null;
    this.root.querySelector("#play-board").hidden = true;
    this.root.querySelector("#play-setup").open = true;
    this.root.querySelector("#play-restored").textContent = "";
    this.setError("");
  }

  get game() { return this.hello.games.find((g) => g.name === this.gameSel.value); }

  async setupGame() {
    this.getOptions = optionInputs(this.game, this.root.querySelector("#play-options"), () => this.setupSeats());
    await this.setupSeats();
  }

  // The seats under the chosen options (a referee session opened and closed to learn them).
  async setupSeats() {
    const box = this.root.querySelector("#play-seats");
    let seats = this.game.seats;
    try {
      const probe = await this.engine.request("new", { game: this.game.name, role: "referee", options: this.getOptions() });
      seats = probe.seats;
      await this.engine.request("close", { session: probe.session });
      this.setError("");
    } catch (e) { this.setError(e.message); }
    const agents = [...new Set(this.hello.agents.filter((a) => a.games.includes(this.game.name)).map((a) => a.name))];
    // keep the choices already made for the seats that remain (the same game)
    const before = box.dataset.game === this.game.name
      ? Object.fromEntries([...box.querySelectorAll("select")].map((x) => [x.name, x.value])) : {};
    box.replaceChildren();
    box.dataset.game = this.game.name;
    for (let s = 0; s < seats; s++) {
      const sel = h("select", { name: `seat${s}` }, h("option", { value: "" }, "You"),
        agents.map((a) => h("option", { value: a, selected: s > 0 && a === (agents.includes("peer") ? "peer" : agents[0]) }, a)));
      if (before[`seat${s}`] !== undefined) sel.value = before[`seat${s}`];
      box.append(h("label", { class: "option" }, h("span", {}, `seat ${s}`), sel));
    }
  }

  setError(msg) { this.root.querySelector("#play-error").textContent = msg; }

  // A new game from the setup, or (`saved`: a game kept in the browser) that game again, its
  // moves replayed.
  async start(saved) {
    this.gameId = (this.gameId || 0) + 1;  // a game still running stops at its next step
    if (this.resolveHuman) this.resolveHuman(null);
    if (this.loopDone) await this.loopDone;
    const e = this.engine;
    const game = this.game;
    const seats = saved ? saved.seats : [...this.root.querySelectorAll("#play-seats select")].map((s) => s.value || null);
    const me = seats.indexOf(null);
    if (me < 0 || seats.lastIndexOf(null) !== me) { this.setError("Choose exactly one seat for you."); return; }
    this.setError("");
    this.root.querySelector("#play-restored").textContent = "";
    for (const sid of this.sessions || []) await e.request("close", { session: sid }).catch(() => {});
    if (this.ref) await e.request("close", { session: this.ref }).catch(() => {});
    const seed = saved ? saved.seed : Number(this.root.querySelector("#play-seed").value || 0);
    let ref;
    try {
      ref = await e.request("new", { game: game.name, role: "referee", options: saved ? saved.options : this.getOptions(), seed });
    } catch (err) { this.setError(saved ? `The game kept from before could not be restored (${err.message}); start over.` : err.message); return; }
    if (ref.seats !== seats.length) {
      await e.request("close", { session: ref.session }).catch(() => {});
      await this.setupSeats();
      this.setError(`These options seat ${ref.seats} players: choose who sits where again.`);
      return;
    }
    this.ref = ref.session;
    this.options = ref.options;
    this.me = me;
    this.names = seats.map((a, s) => (a === null ? `seat ${s} (you)` : `seat ${s} (${a})`));
    this.sessions = [];
    const extra = seatHeader(game, ref.header);
    for (let s = 0; s < ref.seats; s++) {
      const fields = { game: game.name, options: ref.options, seat: s, hand: ref.header.hands[s], agent: seats[s], seed: seed * 100 + s };
      if (Object.keys(extra).length) fields.header = extra;
      if (seats[s] !== null) fields.check = false;
      try {
        this.sessions.push((await e.request("new", fields)).session);
      } catch (err) { this.setError(`seat ${s}: ${err.message}`); return; }
    }
    this.history = [];
    this.turns = 0;
    this.selected = new Set();
    this.narrow = {};
    this.status = ref;
    this.root.querySelector("#play-board").hidden = false;
    this.root.querySelector("#play-setup").open = false;
    this.root.querySelector("#play-end").hidden = true;
    this.root.querySelector("#history").replaceChildren();
    const status = this.root.querySelector("#play-status");
    status.dataset.turn = "0";
    status.dataset.mode = "wait";
    this.root.querySelector("#coach-text").textContent = "";
    this.root.querySelector("#play-saved").textContent = "";
    this.kept = { game: game.name, options: ref.options, seed, seats, actions: [] };
    if (saved) {
      try {
        for (const action of saved.actions || []) await this.resolve(action);
      } catch (err) {
        this.root.querySelector("#play-setup").open = true;   // the error shows under the setup
        this.setError(`The game kept from before could not be restored (${err.message}); start over.`);
        return;
      }
      this.root.querySelector("#play-restored").textContent = `The game in progress was restored (${this.kept.actions.length} move${this.kept.actions.length === 1 ? "" : "s"}).`;
    }
    this.save();
    this.loopDone = this.loop();
  }

  // The game loop of docs/protocol.md: the seat to move acts (a bot by `act`, you by clicking),
  // the referee applies, every session hears its view of the events.
  async loop() {
    this.running = true;
    const id = this.gameId;
    const stopped = () => this.gameId !== id;
    try {
      while (!this.status.over && !stopped()) {
        const seat = this.status.to_move;
        if (seat === this.me) {
          await this.render(true);
          const action = await this.humanChoice(stopped);
          if (stopped()) break;
          await this.resolve(action);
        } else {
          await this.render(false);
          await sleep(Number(this.root.querySelector("#play-delay").value || 0));
          const r = await this.engine.request("act", { session: this.sessions[seat] });
          if (stopped()) break;
          await this.resolve(r.action);
        }
        // seats that may act out of turn (bots only; you act when it is your turn)
        let again = true;
        while (again && !this.status.over && !stopped()) {
          again = false;
          for (const s of this.status.actors.slice(1)) {
            let action;
            if (s === this.me) {
              // you may act out of turn (a claim under claim_any_time): choose, or let play go on
              await this.render("react");
              action = await this.humanChoice(stopped);
              if (stopped()) break;
            } else {
              action = (await this.engine.request("react", { session: this.sessions[s] })).action;
            }
            if (action) { await this.resolve(action); again = true; break; }
          }
        }
      }
      if (!stopped()) await this.finish();
    } catch (err) {
      if (!stopped()) this.setError(`${err.message}`);
    } finally {
      this.running = false;
    }
  }

  // Your move (or null): resolved by a click (choose), or at once when this game was stopped
  // (a new game started while the page drew your turn).
  humanChoice(stopped) {
    if (stopped()) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.resolveHuman = (action) => { this.resolveHuman = null; resolve(action); };
    });
  }

  async resolve(action) {
    const e = this.engine;
    const rep = await e.request("apply", { session: this.ref, action });
    this.kept.actions.push(action);
    this.save();
    if (rep.notice) for (const sid of this.sessions) await e.request("notice", { session: sid, notice: rep.notice });
    for (let i = 0; i < rep.events.length; i++) {
      for (let s = 0; s < this.sessions.length; s++) {
        const view = (rep.redacted[String(s)] || rep.events)[i];
        await e.request("event", { session: this.sessions[s], event: view });
        if (s === this.me) this.addHistory(view);
      }
    }
    this.status = rep;
  }

  addHistory(ev) {
    this.history.push(ev);
    const list = this.root.querySelector("#history");
    list.append(h("li", {}, describe(ev, this.game, this.names)));
    list.scrollTop = list.scrollHeight;
  }

  // mode: true (your turn), "react" (you may act out of turn), false (another seat moves)
  async render(mode) {
    const r = this.root;
    const st = this.status;
    const myTurn = !!mode;
    const statusEl = r.querySelector("#play-status");
    statusEl.replaceChildren(st.over ? "Game over." : mode === "react"
      ? `${seatName(this.names, st.to_move)} is to move; you may act out of turn now, or let play go on.`
      : myTurn ? "Your turn." : `${seatName(this.names, st.to_move)} to move…`);
    statusEl.dataset.notice = st.notice && !st.over ? st.notice.type : "";
    r.querySelector("#play-go-on").hidden = mode !== "react";
    r.querySelector("#play-status").classList.toggle("your-turn", !!myTurn);
    const view = await seatView(this.engine, this.sessions[this.me]);
    this.view = view;
    r.querySelector("#play-table").replaceChildren(tableEl(view, this.names));
    r.querySelector("#play-table-head").hidden = !(view && ((view.zones || []).length || Object.keys(view.counts || {}).length || view.scores));
    this.legal = myTurn ? (await this.engine.request("legal", { session: this.sessions[this.me] })).actions : [];
    this.hint = null;
    if (st.notice && !st.over) statusEl.replaceChildren(...this.noticeWords(st.notice, mode === true));
    this.renderHand();
    this.renderActions();
    r.querySelector("#play-advised").disabled = mode !== true;
    if (r.querySelector("#coach-always").checked && mode === true) await this.showAdvice(false);
    else if (!myTurn) r.querySelector("#coach-text").textContent = r.querySelector("#coach-always").checked ? "(the advice comes on your turn)" : "";
    if (myTurn) r.querySelector("#play-status").dataset.turn = String(++this.turns);
    r.querySelector("#play-status").dataset.mode = mode === "react" ? "react" : myTurn ? "turn" : "wait";
  }

  // A decision under way (the status's notice) in words: whose move it is, its public facts
  // and, on your turn, what you choose (read from the fields of your legal moves).
  noticeWords(notice, mine) {
    const sk = seatKeys(this.game);
    const subject = Object.entries(notice).find(([k, v]) => k !== "type" && sk.has(k) && Number.isInteger(v));
    let what = `${seatName(this.names, this.status.to_move)} chooses…`;
    if (mine) {
      // the fields that tell your moves apart
      const fields = [...new Set(this.legal.flatMap((a) => Object.keys(a)))]
        .filter((k) => k !== "type" && (new Set(this.legal.map((a) => JSON.stringify(a[k]))).size > 1
          || (this.legal.length === 1 && this.legal[0][k] !== this.me)));
      const one = (k) => (k === "next" ? "who plays next" : this.legal.every((a) => isCard(a[k])) ? `the card to ${words(this.legal[0].type)}` : `the ${words(k)}`);
      what = fields.length ? `choose ${fields.map(one).join(" and ")}` : "choose your move";
    }
    const facts = describe(notice, this.game, this.names);
    if (subject && subject[1] === this.me) return [`Your ${words(notice.type)} is under way: ${what}.`, h("div", { class: "notice" }, facts)];
    return [facts, `: ${what}.`];
  }

  renderHand() {
    const hand = (this.view && this.view.hand) || [];
    const box = this.root.querySelector("#hand");
    box.replaceChildren(...hand.map((c) => {
      const el = cardEl(c, { onClick: () => {
        if (this.selected.has(c)) this.selected.delete(c); else this.selected.add(c);
        this.narrow = {};
        this.renderHand();
        this.renderActions();
      } });
      if (this.selected.has(c)) el.classList.add("selected");
      if (this.legal.some((a) => involves(a, c))) el.classList.add("playable");
      return el;
    }));
  }

  // The legal actions: those that involve every selected card, or with no card selected
  // those that involve none of your cards; grouped by type, narrowed field by field when many.
  renderActions() {
    const box = this.root.querySelector("#actions");
    box.replaceChildren();
    if (!this.legal.length) return;
    const hand = new Set((this.view && this.view.hand) || []);
    const sel = [...this.selected];
    let acts;
    if (sel.length) acts = this.legal.filter((a) => sel.every((c) => involves(a, c)));
    else acts = this.legal.filter((a) => ![...hand].some((c) => involves(a, c)));
    const head = sel.length ? `Moves with ${sel.map(cardText).join(" ")}` : "Moves without your cards (click a card in your hand for its moves)";
    box.append(h("div", { class: "actions-head" }, head));
    if (!acts.length) { box.append(h("i", {}, "none")); return; }
    const types = [...new Set(acts.map((a) => a.type))];
    for (const t of types) {
      const group = acts.filter((a) => a.type === t);
      box.append(this.groupEl(t, group));
    }
  }

  groupEl(type, group) {
    const chosen = this.narrow[type] || {};
    const cand = group.filter((a) => { const l = leaves(a); return Object.entries(chosen).every(([p, v]) => l[p] === v); });
    const el = h("div", { class: "action-group", "data-type": type }, h("div", { class: "group-title" }, `${words(type)} (${group.length})`));
    if (group.length > 12) {
      const all = cand.map((a) => leaves(a));
      // the fields every remaining move has and that tell them apart (a claim's cards come
      // once its set is chosen)
      const paths = [...new Set(all.flatMap((l) => Object.keys(l)))].filter((p) => chosen[p] !== undefined
        || (all.every((l) => p in l) && new Set(all.map((l) => l[p])).size > 1));
      const sk = seatKeys(this.game);
      const selects = h("div", { class: "narrow" });
      for (const p of paths.slice(0, 10)) {
        const values = [...new Set(all.map((l) => l[p]).filter((v) => v !== undefined))].sort();
        const last = p.split(".").pop();
        const text = (x) => {
          if (isCard(x)) return cardText(x);
          if (isRank(x)) return rankLabel(x);
          if (Array.isArray(x)) return x.map(text).join(Array.isArray(x[0]) || (x[0] && typeof x[0] === "object") ? " | " : " ");
          if (x && typeof x === "object") return Object.entries(x).map(([k, y]) => (k === "cards" ? text(y) : `${text(y)}`)).join(" ");
          return typeof x === "string" ? x : JSON.stringify(x);
        };
        const label = (v) => {
          const x = JSON.parse(v);
          if ((sk.has(last) || isCard(last)) && Number.isInteger(x)) return seatName(this.names, x);
          if (isCard(x)) return `${cardText(x)} (${x})`;
          return text(x);
        };
        const s = h("select", { "data-path": p }, h("option", { value: "" }, "any"),
          values.map((v) => h("option", { value: v, selected: chosen[p] === v }, label(v))));
        s.addEventListener("change", () => {
          const c = { ...(this.narrow[type] || {}) };
          if (s.value === "") delete c[p]; else c[p] = s.value;
          this.narrow[type] = c;
          this.renderActions();
        });
        const name = isCard(last) ? `${cardText(last)} is with` : words(p.replace(/\./g, " "));
        selects.append(h("label", {}, name + " ", s));
      }
      el.append(selects);
    }
    if (cand.length <= 12) {
      for (const a of cand) {
        const b = h("button", { type: "button", class: "action", "data-action": JSON.stringify(a) }, describe(a, this.game, this.names, { skipSeat: this.me }));
        b.addEventListener("click", () => this.choose(a));
        el.append(b);
      }
    } else el.append(h("div", { class: "muted" }, `${cand.length} moves: narrow them down above.`));
    return el;
  }

  choose(action) {
    if (!this.resolveHuman) return;
    this.selected = new Set();
    this.narrow = {};
    this.legal = [];
    this.renderActions();
    this.resolveHuman(action);
  }

  async showAdvice(asked) {
    const always = this.root.querySelector("#coach-always").checked;
    if (!asked && !always) return;
    const box = this.root.querySelector("#coach-text");
    if (!this.sessions || this.status.over) return;
    if (this.status.to_move !== this.me && !asked) return;
    if (!asked && this.root.querySelector("#play-status").dataset.mode !== "turn") return;
    box.textContent = "thinking…";
    try {
      const { hint, text } = await advice(this.engine, this.sessions[this.me]);
      this.hint = hint;
      showAdvice(box, text, hint.headline);
      box.dataset.events = String(this.history.length);
    } catch (err) { box.textContent = err.message; }
  }

  async playAdvised() {
    if (!this.resolveHuman) return;
    if (!this.hint) {
      try { this.hint = (await advice(this.engine, this.sessions[this.me], false)).hint; } catch (err) { this.setError(err.message); return; }
    }
    if (this.hint && this.hint.recommend) this.choose(this.hint.recommend);
  }

  async finish() {
    await this.render(false);
    const st = this.status;
    const r = st.result || {};
    const end = this.root.querySelector("#play-end");
    end.hidden = false;
    const out = r.outcome || [];
    const mine = out[this.me];
    const verdict = mine === 1 ? "You won." : mine === 0.5 ? "A draw." : mine === 0 ? "You lost." : "";
    // the game's own points (the view's scores, as the table shows them), else the result's
    const shown = this.view && Array.isArray(this.view.scores) && this.view.scores.length
      ? this.view.scores.map((sc) => `${sc.title} ${sc.points}`)
      : (r.scores || []).map((x, i) => `${seatName(this.names, i)} ${x}`);
    end.querySelector("#play-result").replaceChildren(h("b", {}, `Game over. ${verdict}`), " Scores: ",
      ...shown.map((t) => h("span", { class: "pill" }, t)));
    this.root.querySelector("#play-status").textContent = `Game over. ${verdict}`;
  }

  async record() { return this.engine.request("record", { session: this.sessions[this.me] }); }

  async downloadRecord() {
    const rec = await this.record();
    download(`cardmind-${this.game.name}-${new Date().toISOString().replace(/[:.]/g, "-")}.jsonl`, recordLines(rec));
  }

  async saveRecord() {
    const rec = await this.record();
    const msg = this.root.querySelector("#play-saved");
    try {
      const resp = await fetch("/api/games", { method: "POST", headers: { "Content-Type": "application/jsonl" }, body: recordLines(rec) });
      const body = await resp.json().catch(() => ({}));
      msg.textContent = resp.ok ? `Saved as ${body.name || "a record"} on the server.` : `Not saved: ${body.error || resp.status}`;
    } catch (err) { msg.textContent = `Not saved: ${err.message}`; }
  }
}
