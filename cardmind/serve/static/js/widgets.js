// Shared page pieces: naming seats, describing events and actions in compact words, the
// table view, the belief table and the event-field inputs driven by hello's event schemas.
import { cardEl, isCard, isRank, rankLabel, fullDeck, sortCards, RANKS } from "./cards.js";

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") el.className = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) el.append(c instanceof Node ? c : String(c));
  return el;
}

// The keys that name a seat, from every game's event schemas (kinds "seat", "seat_or_null").
export function seatKeys(game) {
  const keys = new Set();
  for (const fields of Object.values(game.events)) {
    for (const [k, kind] of Object.entries(fields)) if (kind.replace("?", "").startsWith("seat")) keys.add(k);
  }
  return keys;
}

export function words(key) { return key.replace(/_/g, " "); }

// An event or an action in words: "seat 0 (you) asks seat 3 (peer) for Q♦: yes". The first
// seat field is the subject (dropped for your own moves: `opts.skipSeat`), the type its verb;
// other seats, cards and ranks need no key name; booleans read yes/no; lists of numbers are
// separated, lists of card lists (per-seat hands) are labelled by seat. `names[seat]` names seats.
const PREPOSITIONS = new Set(["to", "from", "at", "by", "with", "for", "into", "onto"]);
const OUTCOMES = new Set(["success", "correct", "yes", "ok"]);
const BARE = new Set(["card", "cards", "rank", "set", "melds", "assignment"]);

// "ask" -> "asks", "go_down" -> "goes down", "lay_off" -> "lays off", "pickup" -> "picks up"
export function verb(type) {
  let ws = type.split("_");
  if (ws.length === 1 && /^[a-z]+up$/.test(ws[0]) && ws[0].length > 4) ws = [ws[0].slice(0, -2), "up"];
  const w = ws[0];
  ws[0] = /(s|sh|ch|x|z|o)$/.test(w) ? w + "es" : /[^aeiou]y$/.test(w) ? w.slice(0, -1) + "ies" : w + "s";
  return ws.join(" ");
}

export function describe(obj, game, names, opts = {}) {
  const sk = seatKeys(game);
  const entries = Object.entries(obj).filter(([k]) => k !== "type");
  // an action of yours (opts.skipSeat) starts with its actor, your seat, whatever its key
  const first = entries[0];
  // the subject: a seat in the first field (an event that starts otherwise, such as the end of
  // a hand, has none: "hand end: hand 1, out seat 1")
  const subject = first && Number.isInteger(first[1]) && (sk.has(first[0]) || first[1] === opts.skipSeat) ? first : undefined;
  const el = h("span", { class: "describe" });
  const own = subject && opts.skipSeat !== undefined && subject[1] === opts.skipSeat;
  if (subject && !own) el.append(h("span", { class: "seat" }, seatName(names, subject[1])), " ", h("b", {}, verb(obj.type)));
  else if (!(obj.type in obj)) el.append(h("b", {}, words(obj.type)));  // "next: seat 2" reads "seat 2 plays next"
  const asked = obj.type === "ask";
  let before;
  for (const [k, v] of entries) {
    if (subject && k === subject[0]) continue;
    const same = v && typeof v === "object" && JSON.stringify(v) === before;  // "actual" = "assignment"
    before = JSON.stringify(v);
    if (same) continue;
    const isSeat = sk.has(k);
    if (isSeat && k === "next") { el.append(el.childNodes.length ? ", " : "", valueEl(v, true, names), " plays next"); continue; }
    if (typeof v === "boolean") {
      // an outcome reads ": yes" / ": no"; another flag reads ", shown" / ", not shown"
      if (OUTCOMES.has(k)) el.append(": ", h("b", {}, v ? "yes" : "no"));
      else el.append(", ", h("span", { class: "flag" }, (v ? "" : "not ") + words(k)));
      continue;
    }
    el.append(" ");
    if (isSeat && (PREPOSITIONS.has(k) || !subject)) el.append(h("span", { class: "key" }, words(k)), " ");
    else if (!isSeat && (BARE.has(k) || (asked && (k === "card" || k === "rank")))) {
      if (asked && (k === "card" || k === "rank")) el.append("for ");
    } else if (!isSeat) el.append(h("span", { class: "key" }, words(k)), " ");
    el.append(valueEl(v, isSeat, names));
  }
  return el;
}

export function seatName(names, s) { return names && names[s] !== undefined ? names[s] : `seat ${s}`; }

const sep = (items, by = ", ") => items.flatMap((x, i) => (i ? [by, x] : [x]));

function valueEl(v, isSeat, names) {
  if (v === null) return h("i", {}, isSeat ? "nobody" : "hidden");
  if (isSeat && Number.isInteger(v)) return h("span", { class: "seat" }, seatName(names, v));
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (isCard(v)) return cardEl(v, { small: true });
  if (isRank(v)) return h("span", { class: "rank" }, rankLabel(v) + "s");
  if (Array.isArray(v)) {
    if (v.length === 0) return "none";
    if (v.every((x) => Array.isArray(x) || x === null)) {  // a list per seat (hands)
      return h("span", { class: "per-seat" }, v.map((x, i) => h("span", { class: "pair" }, seatName(names, i) + ": ", valueEl(x, false, names))));
    }
    if (v.every((x) => typeof x === "number")) return h("span", { class: "numbers" }, v.join(", "));
    if (v.every((x) => isCard(x) || x === null)) return h("span", { class: "list" }, v.map((x) => valueEl(x, false, names)));
    if (v.every((x) => x && typeof x === "object")) return h("span", { class: "list" }, v.map((x) => valueEl(x, false, names)));
    return h("span", { class: "list" }, sep(v.map((x) => valueEl(x, false, names))));
  }
  if (typeof v === "object") {
    const entries = Object.entries(v);
    if (entries.length && entries.every(([k, x]) => isCard(k) && Number.isInteger(x))) {
      return h("span", { class: "list" }, entries.map(([k, x]) => h("span", { class: "pair" }, cardEl(k, { small: true }), "→", seatName(names, x))));
    }
    if (Array.isArray(v.cards)) {  // a meld: its kind (or other fields) then its cards
      const rest = entries.filter(([k]) => k !== "cards").map(([, x]) => (typeof x === "object" ? JSON.stringify(x) : String(x)));
      return h("span", { class: "group" }, rest.length ? h("span", { class: "key" }, rest.join(" ") + " ") : null, valueEl(v.cards, false, names));
    }
    return h("span", { class: "list" }, sep(entries.map(([k, x]) => h("span", { class: "pair" }, words(k) + " ", valueEl(x, false, names)))));
  }
  return String(v);
}

// The table of a seat's view (the engine's `view`: {seat, hand, counts, zones: [{title, owner,
// cards | melds}], scores: [{title, seats, points}], notes}), drawn without knowing the game.
export function tableEl(view, names) {
  const box = h("div", { class: "table-view" });
  if (!view) return box;
  const mine = (owner) => owner === view.seat || (Array.isArray(owner) && owner.includes(view.seat));
  for (const z of view.zones || []) {
    const zone = h("div", { class: "zone" + (mine(z.owner) ? " mine" : ""), "data-title": z.title || "" },
      h("div", { class: "zone-title" }, z.title || ""));
    if (z.melds) {
      if (!z.melds.length) zone.append(h("i", { class: "empty" }, "none yet"));
      for (const m of z.melds) {
        const cards = Array.isArray(m) ? m : m.cards || [];
        zone.append(h("div", { class: "meld" }, cards.map((c) => cardEl(c, { small: true }))));
      }
    }
    if (z.cards) {
      const shown = z.cards.slice(-12);
      zone.append(h("div", { class: "meld" }, z.cards.length > shown.length ? h("span", { class: "more" }, `+${z.cards.length - shown.length}`) : null,
        z.cards.length ? shown.map((c) => cardEl(c, { small: true })) : h("i", { class: "empty" }, "empty")));
    }
    box.append(zone);
  }
  const info = h("div", { class: "zone info" });
  for (const [k, v] of Object.entries(view.counts || {})) {
    info.append(h("div", {}, h("span", { class: "key" }, `${words(k)}: `),
      Array.isArray(v) ? v.map((x, i) => h("span", { class: "pill" }, `${seatName(names, i)} ${x}`)) : h("span", { class: "pill" }, String(v))));
  }
  if (Array.isArray(view.scores) && view.scores.length) {
    info.append(h("div", { class: "scores" }, h("span", { class: "key" }, "score: "),
      view.scores.map((sc) => h("span", { class: "pill" + (mine(sc.seats) ? " mine" : "") }, `${sc.title} ${sc.points}`))));
  }
  for (const n of view.notes || []) info.append(h("div", { class: "note" }, n));
  if (info.childElementCount) box.append(info);
  return box;
}

const isNum = (x) => typeof x === "number";
const isObj = (x) => x && typeof x === "object" && !Array.isArray(x) && Object.keys(x).length > 0;

// A big count as people read it: 2.33 × 10^26 (the exact digits in the tooltip).
function bigNumber(v) {
  const d = String(v).replace(/\D/g, "");
  if (d.length <= 9) return h("span", {}, Number(d).toLocaleString("en"));
  return h("span", { title: d }, `${d[0]}.${d.slice(1, 3)} × 10`, h("sup", {}, String(d.length - 1)));
}

function probTable(caption, rows, cols, cell, names, colIsSeat) {
  const t = h("table", { class: "belief-table" }, h("caption", {}, caption),
    h("tr", {}, h("th", {}, ""), cols.map((c) => h("th", {}, colIsSeat && /^\d+$/.test(c) ? seatName(names, +c) : words(c)))));
  for (const row of rows) {
    t.append(h("tr", {}, h("th", {}, isCard(row) ? cardEl(row, { small: true }) : isRank(row) ? `${rankLabel(row)}s` : words(row)),
      cols.map((c) => {
        const p = cell(row, c);
        const td = h("td", {}, p === undefined ? "" : `${Math.round(p * 100)}%`);
        if (p !== undefined) td.style.background = `rgba(30,120,60,${(0.08 + 0.6 * p).toFixed(2)})`;
        return td;
      })));
  }
  return t;
}

// seats (digits) in order, then other places (the stock, a foot) by name
const seatOrder = (a, b) => {
  const da = /^\d+$/.test(a), db = /^\d+$/.test(b);
  return da && db ? +a - +b : da ? -1 : db ? 1 : a.localeCompare(b);
};

// a fact of a belief: lists and flat objects read with separators, seats' keys named
function factEl(v, names) {
  if (isObj(v)) {
    return h("span", {}, Object.entries(v).flatMap(([k, x], i) => [i ? "; " : "",
      `${/^\d+$/.test(k) ? seatName(names, +k) : words(k)}: `, factEl(x, names)]));
  }
  if (Array.isArray(v) && v.length && v.every((x) => isCard(x))) return h("span", { class: "list" }, v.map((c) => cardEl(c, { small: true })));
  if (Array.isArray(v)) return v.length ? v.join(", ") : "none";
  if (typeof v === "boolean") return v ? "yes" : "no";
  return v === null ? "—" : String(v);
}

// A belief (the engine's `belief`) drawn without knowing the game: the number of consistent
// deals; a table {row: {seat: P}} as rows of chances per seat (Literature's marginals); a
// table {seat: {row: {count: P}}} as the chance that each seat holds at least one of each
// row (Go Fish ranks, Hand and Foot cards); {row: {seat: {p_any}}} likewise; the other plain
// fields as a table of facts (never a JSON dump).
export function beliefEl(belief, names) {
  const box = h("div", { class: "belief" });
  if (!belief) return box;
  const big = belief.consistent_deals_str || belief.consistent_deals;
  if (big !== undefined && big !== null) box.append(h("div", {}, "Consistent deals: ", bigNumber(big)));
  const drawnKeys = new Set();
  const isProb = (x) => isNum(x) && x >= -1e-9 && x <= 1 + 1e-9;  // sums of floats: 1.0000000000000002
  const digits = (o) => Object.keys(o).every((k) => /^\d+$/.test(k));
  for (const [key, v] of Object.entries(belief)) {
    if (!isObj(v)) continue;
    const inner = Object.values(v);
    if (inner.every((r) => isObj(r) && Object.values(r).every(isProb))) {
      // {row: {seat: P}}
      const cols = [...new Set(inner.flatMap((r) => Object.keys(r)))].sort(seatOrder);
      box.append(probTable(words(key), Object.keys(v), cols, (row, c) => v[row][c], names, true));
      drawnKeys.add(key);
    } else if (inner.every((r) => isObj(r) && Object.values(r).every((d) => isObj(d) && digits(d) && Object.values(d).every(isProb)))) {
      // {seat: {row: {count: P}}}: the chance of at least one
      const seats = Object.keys(v).sort(seatOrder);
      const rows = [...new Set(inner.flatMap((r) => Object.keys(r)))];
      const atLeastOne = (row, seat) => {
        const d = v[seat][row];
        return d === undefined ? undefined : 1 - (d["0"] || 0);
      };
      box.append(probTable(`${words(key)}: the chance of holding at least one`, rows, seats, atLeastOne, names, true));
      drawnKeys.add(key);
    } else if (inner.every((r) => isObj(r) && Object.values(r).every((d) => isObj(d) && isProb(d.p_any)))) {
      // {row: {seat: {p_any, ...}}}
      const cols = [...new Set(inner.flatMap((r) => Object.keys(r)))].sort(seatOrder);
      const cell = (row, c) => (v[row][c] ? v[row][c].p_any : undefined);
      box.append(probTable(`${words(key)}: the chance of holding at least one`, Object.keys(v), cols, cell, names, true));
      drawnKeys.add(key);
    }
  }
  // the other fields that are plain facts (numbers, words, short lists, small flat objects) as a
  // table of their own; deeper structures that no table above draws are left out
  const scalar = (x) => x === null || ["string", "number", "boolean"].includes(typeof x);
  const flat = (x) => scalar(x) || (Array.isArray(x) && x.length <= 60 && x.every(scalar));
  const fact = (x) => flat(x) || (isObj(x) && Object.keys(x).length <= 16 && Object.values(x).every(flat));
  const facts = Object.entries(belief).filter(([k, v]) => !drawnKeys.has(k) && !/^consistent_deals/.test(k) && fact(v));
  if (facts.length) {
    box.append(h("table", { class: "belief-table facts" }, h("caption", {}, "facts"),
      facts.map(([k, v]) => h("tr", {}, h("th", {}, words(k)), h("td", {}, factEl(v, names))))));
  }
  return box;
}

// Inputs for one field of an event, by its kind in hello's event schema. `get()` returns the
// value (undefined while unset); kinds: seat, card, card_list, rank, bool, count, int_list, str,
// each possibly "_or_null" and "?" (optional); other kinds take JSON. `deck`: the cards of the
// game's pack (the `new` reply's `deck`): card pickers offer only these, rank buttons only their
// ranks (default: the 54 cards).
export function fieldInput(key, kind, seats, names, deck) {
  const cards = sortCards(deck && deck.length ? deck : fullDeck());
  const ranks = RANKS.filter((r) => cards.some((c) => c[0] === r && c.length === 2 && c !== "RJ" && c !== "BJ"));
  const optional = kind.startsWith("?");
  const base = kind.replace("?", "");
  const nullable = base.endsWith("_or_null");
  const k = nullable ? base.slice(0, -8) : base;
  let value;
  let set = false;
  const row = h("div", { class: "field", "data-key": key, "data-kind": kind },
    h("label", {}, words(key) + (optional ? " (optional)" : "")));
  const body = h("div", { class: "field-body" });
  row.append(body);
  const choose = (buttons, v, btn) => {
    value = v; set = true;
    for (const b of buttons) b.classList.toggle("chosen", b === btn);
  };
  const buttonsFor = (items) => {
    const bs = [];
    for (const [label, v] of items) {
      const b = h("button", { type: "button", class: "choice", "data-value": JSON.stringify(v) }, label);
      b.addEventListener("click", () => choose(bs, v, b));
      bs.push(b);
      body.append(b);
    }
  };
  if (k === "seat") {
    buttonsFor([...Array(seats).keys()].map((s) => [seatName(names, s), s]).concat(nullable ? [["nobody", null]] : []));
  } else if (k === "bool") {
    buttonsFor([["yes", true], ["no", false]]);
  } else if (k === "rank") {
    buttonsFor(ranks.map((r) => [rankLabel(r), r]).concat(nullable ? [["hidden", null]] : []));
  } else if (k === "card") {
    const bs = [];
    for (const c of cards) {
      const b = cardEl(c, { small: true, onClick: () => choose(bs, c, b) });
      b.classList.add("choice");
      bs.push(b); body.append(b);
    }
    if (nullable) { const b = h("button", { type: "button", class: "choice" }, "hidden"); b.addEventListener("click", () => choose(bs, null, b)); bs.push(b); body.append(b); }
  } else if (k === "card_list") {
    const picked = h("div", { class: "picked" });
    let list = [];
    // an empty list is a choice of its own (no cards given); a list that may be hidden waits
    // for cards, none or hidden
    const redraw = () => {
      const empty = nullable && !set ? "tap the cards, none or hidden" : "no cards";
      picked.replaceChildren(...(list.length ? list.map((c, i) => cardEl(c, { small: true, onClick: () => { list.splice(i, 1); redraw(); } })) : [h("i", {}, empty)]));
    };
    body.append(picked);
    const deck = h("div", { class: "deck" });
    for (const c of cards) deck.append(cardEl(c, { small: true, onClick: () => { list.push(c); set = true; value = list; redraw(); } }));
    body.append(deck);
    const none = h("button", { type: "button", class: "choice" }, "none");
    none.addEventListener("click", () => { list = []; value = list; set = true; redraw(); });
    body.append(none);
    if (nullable) { const b = h("button", { type: "button", class: "choice" }, "hidden"); b.addEventListener("click", () => { list = []; value = null; set = true; redraw(); picked.replaceChildren(h("i", {}, "hidden")); }); body.append(b); }
    redraw();
    return { row, get: () => (set ? value : nullable || optional ? undefined : []), optional, reset: () => { list = []; set = false; redraw(); } };
  } else if (k === "card_seat_map") {
    // {card: seat}: pick the cards, then the seat of each (a Literature claim's assignment)
    let map = {};
    const rows = h("div", { class: "card-seats" });
    const redraw = () => {
      rows.replaceChildren(...Object.keys(map).map((c) => {
        const bs = [];
        const line = h("div", { class: "card-seat", "data-card": c }, cardEl(c, { small: true, onClick: () => { delete map[c]; redraw(); } }), " with ");
        for (let s = 0; s < seats; s++) {
          const b = h("button", { type: "button", class: "choice" + (map[c] === s ? " chosen" : ""), "data-value": String(s) }, seatName(names, s));
          b.addEventListener("click", () => { map[c] = s; bs.forEach((x) => x.classList.toggle("chosen", x === b)); });
          bs.push(b);
          line.append(b);
        }
        return line;
      }));
      if (!Object.keys(map).length) rows.append(h("i", {}, "pick the cards below, then who holds each"));
    };
    const deck = h("div", { class: "deck" });
    for (const c of cards) deck.append(cardEl(c, { small: true, onClick: () => { if (!(c in map)) { map[c] = null; redraw(); } } }));
    body.append(rows, deck);
    redraw();
    return { row, optional, get: () => {
      const cards = Object.keys(map);
      return cards.length && cards.every((c) => Number.isInteger(map[c])) ? { ...map } : undefined;
    } };
  } else if (k === "count") {
    const inp = h("input", { type: "number", min: "0", inputmode: "numeric" });
    inp.addEventListener("input", () => { set = inp.value !== ""; value = +inp.value; });
    body.append(inp);
  } else if (k === "str") {
    const inp = h("input", { type: "text" });
    inp.addEventListener("input", () => { set = inp.value !== ""; value = inp.value; });
    body.append(inp);
  } else if (k === "int_list") {
    const inp = h("input", { type: "text", placeholder: "numbers, comma separated" });
    inp.addEventListener("input", () => { set = inp.value.trim() !== ""; value = inp.value.split(/[ ,]+/).filter(Boolean).map(Number); });
    body.append(inp);
  } else {
    const inp = h("textarea", { rows: "2", placeholder: `JSON (${kind})` });
    inp.addEventListener("input", () => { try { value = JSON.parse(inp.value); set = true; inp.classList.remove("bad"); } catch { set = false; inp.classList.add("bad"); } });
    body.append(inp);
    if (nullable) { const b = h("button", { type: "button", class: "choice" }, "hidden"); b.addEventListener("click", () => { value = null; set = true; inp.value = "null"; }); body.append(b); }
  }
  return { row, get: () => (set ? value : undefined), optional };
}

// The lines of advice as the pages show them: the headline (the hint's `headline`, what to do in
// one sentence) first, then the rest of `cardmind hint`'s text in its order without that line
// (a heading such as "Hand and Foot, hand 1: seat 0's view" comes second). Without a headline,
// the text as it is.
export function adviceLines(text, headline) {
  const lines = text.split("\n");
  if (!headline) return lines;
  const at = lines.findIndex((line) => line.trimEnd() === headline.trimEnd());
  if (at >= 0) lines.splice(at, 1);
  return [headline, ...lines];
}

// Show advice (the words of `cardmind hint`, the headline first: see adviceLines) in a <pre>:
// the headline stands out, prose lines wrap to the panel, the lines of a table and its centred
// title do not (they scroll sideways); the words themselves are unchanged.
export function showAdvice(el, text, headline) {
  const box = /[\u2500-\u257F]/;  // box-drawing characters
  el.replaceChildren(...adviceLines(text, headline).flatMap((line, i) => [i ? "\n" : "",
    h("span", { class: i === 0 && headline ? "headline" : box.test(line) || /^ {6}/.test(line) ? "tline" : "" }, line)]));
}

export function download(name, text) {
  const a = h("a", { href: URL.createObjectURL(new Blob([text], { type: "application/jsonl" })), download: name });
  document.body.append(a);
  a.click();
  a.remove();
}

export function recordLines(record) {
  return [JSON.stringify(record.header), ...record.events.map((e) => JSON.stringify(e))].join("\n") + "\n";
}

