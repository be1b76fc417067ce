// Cards as people see them: rank + suit symbol, red or black. Card strings are cardmind's
// notation (docs/records.md): rank 2-9 T J Q K A + suit C D H S, and the jokers RJ / BJ.

const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
export const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"];
const CARD_RE = /^([2-9TJQKA])([CDHS])$|^(RJ|BJ)$/;

export function isCard(s) { return typeof s === "string" && CARD_RE.test(s); }
export function isRank(s) { return typeof s === "string" && RANKS.includes(s); }

export function rankLabel(r) { return r === "T" ? "10" : r; }

export function cardText(c) {
  if (c === null || c === undefined) return "?";
  if (c === "RJ" || c === "BJ") return "Jkr";
  return rankLabel(c[0]) + SUITS[c[1]];
}

export function isRed(c) { return c === "RJ" || (isCard(c) && (c[1] === "D" || c[1] === "H")); }

// A card element; `opts.small` for history/table, `opts.onClick` makes it a button.
export function cardEl(c, opts = {}) {
  const el = document.createElement(opts.onClick ? "button" : "span");
  el.className = "card" + (opts.small ? " small" : "") + (c === null ? " hidden-card" : isRed(c) ? " red" : " black");
  el.textContent = cardText(c);
  el.dataset.card = c === null ? "" : c;
  el.title = c === null ? "a hidden card" : c;
  if (opts.onClick) { el.type = "button"; el.addEventListener("click", () => opts.onClick(c, el)); }
  return el;
}

// Every card string in a JSON value (keys included: a claim's assignment maps cards to seats).
export function cardsIn(value, out = new Set()) {
  if (typeof value === "string") { if (isCard(value)) out.add(value); }
  else if (Array.isArray(value)) value.forEach((v) => cardsIn(v, out));
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) { if (isCard(k)) out.add(k); cardsIn(v, out); }
  }
  return out;
}

// Every rank named on its own in a JSON value (an ask for a rank involves the cards of it).
export function ranksIn(value, out = new Set()) {
  if (typeof value === "string") { if (isRank(value)) out.add(value); }
  else if (Array.isArray(value)) value.forEach((v) => ranksIn(v, out));
  else if (value && typeof value === "object") Object.values(value).forEach((v) => ranksIn(v, out));
  return out;
}

// Whether an action involves card c: it names c, or names c's rank on its own.
export function involves(action, c) {
  return cardsIn(action).has(c) || (isCard(c) && ranksIn(action).has(c[0]));
}

// The 54 cards a picker offers, in suit then rank order.
export function fullDeck() {
  const out = [];
  for (const s of "CDHS") for (const r of RANKS) out.push(r + s);
  out.push("RJ", "BJ");
  return out;
}

export function sortCards(cards) {
  const key = (c) => (c === "RJ" || c === "BJ") ? 100 + (c === "RJ" ? 0 : 1) : "CDHS".indexOf(c[1]) * 13 + RANKS.indexOf(c[0]);
  return [...cards].sort((a, b) => key(a) - key(b));
}
