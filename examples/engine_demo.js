#!/usr/bin/env node
// A whole 6-player Literature game driven from Node.js through `cardmind engine`
// (the cardmind engine protocol, docs/protocol.md): proof that any language can embed
// cardmind's players and advice. No dependencies beyond Node itself (Node 18+).
//
//   node examples/engine_demo.js [seed]
//
// The engine command is taken from CARDMIND_ENGINE: a command line split on spaces
// ("python3 -m cardmind engine", the default) or a JSON array (["/path/to/python", "-m",
// "cardmind", "engine"]) when a path contains spaces.
//
// Design (the simplest robust one):
// * This script deals: it builds the 54-card deck, shuffles it with its own seeded PRNG
//   and deals it round-robin from seat 0 (9 cards each).
// * It owns the game loop but implements no rules: a *referee session* on the engine
//   (role "referee", given the deal) resolves every action into record events and says
//   who moves next. So the script cannot get a rule wrong, and the engine checks the deal.
// * Every seat has a *player session* (its own view: hand, events, belief tracker).
//   Seats 0, 2, 3 and 5 are engine players (agents "belief" and "peer"); the script asks
//   them to "act" and sends their action to the referee.
// * Seats 1 and 4 are scripted, like people using the advisor: they take the engine's
//   "hint" (a certain claim first, else the best ask, else the best claim), use "legal"
//   for the forced choices (passing the turn, choosing who plays next), and "check" their
//   move before playing it.
// * After each action the script relays the referee's pending notice (if any) and the
//   events to all six player sessions, each seat getting its own view ("redacted").

'use strict';

const { spawn } = require('node:child_process');
const readline = require('node:readline');

// ---------------------------------------------------------------- the engine connection
class Engine {
  constructor(argv) {
    this.proc = spawn(argv[0], argv.slice(1), { stdio: ['pipe', 'pipe', 'inherit'] });
    this.pending = [];
    this.nextId = 1;
    this.requests = 0;
    readline.createInterface({ input: this.proc.stdout }).on('line', (line) => {
      const waiter = this.pending.shift();
      if (waiter) waiter.resolve(line);
      else console.error(`engine: unexpected line ${line}`);
    });
    this.proc.on('error', (err) => this.failAll(err));
    this.proc.on('exit', (code) => {
      this.exitCode = code;
      this.failAll(new Error(`the engine exited (status ${code})`));
    });
  }

  failAll(err) {
    while (this.pending.length) this.pending.shift().reject(err);
  }

  // One request line, one reply line. Replies come in order, so a FIFO of waiters suffices.
  async request(cmd, fields = {}, check = true) {
    const req = { id: this.nextId++, cmd, ...fields };
    this.requests += 1;
    const line = await new Promise((resolve, reject) => {
      this.pending.push({ resolve, reject });
      this.proc.stdin.write(JSON.stringify(req) + '\n');
    });
    const reply = JSON.parse(line);
    if (reply.id !== req.id) throw new Error(`reply ${line} does not answer request ${req.id}`);
    if (check && !reply.ok) throw new Error(`${cmd} failed: ${reply.error.code}: ${reply.error.message}`);
    return reply;
  }

  async quit() {
    await this.request('quit');
    this.proc.stdin.end();
    if (this.exitCode !== undefined) return this.exitCode;
    return new Promise((resolve) => this.proc.on('exit', (code) => resolve(code)));
  }
}

function engineCommand() {
  const raw = process.env.CARDMIND_ENGINE || 'python3 -m cardmind engine';
  return raw.trim().startsWith('[') ? JSON.parse(raw) : raw.trim().split(/\s+/);
}

// ---------------------------------------------------------------- dealing (this script's own)
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function deal(seed, players) {
  const deck = [];
  for (const suit of 'CDHS') for (const rank of '23456789TJQKA') deck.push(rank + suit);
  deck.push('RJ', 'BJ');
  const rand = mulberry32(seed);
  for (let i = deck.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  const hands = Array.from({ length: players }, () => []);
  deck.forEach((card, i) => hands[i % players].push(card));
  return hands;
}

// ---------------------------------------------------------------- the scripted seats
// A scripted seat plays like a person following the advisor.
async function scriptedMove(engine, sid, seat) {
  // forced choices first: passing the turn (no cards) or choosing who plays next
  const forced = await engine.request('legal', { session: sid, types: ['pass', 'next'], limit: 1 });
  if (forced.count > 0) return { action: forced.actions[0], why: 'forced choice' };
  const { hint } = await engine.request('hint', { session: sid, params: { max_asks: 3 } });
  const deals = BigInt(hint.consistent_deals_str); // exact, beyond 2**53: read the string form
  const certain = hint.claims.find((c) => c.certain);
  if (certain) {
    return { action: { type: 'claim', claimer: seat, set: certain.set, assignment: certain.assignment },
             why: `certain claim (${deals} consistent deals)` };
  }
  if (hint.asks.length > 0) {
    const a = hint.asks[0];
    return { action: { type: 'ask', asker: seat, target: a.target, card: a.card },
             why: `best ask, p=${a.probability.toFixed(3)}: ${a.reason}` };
  }
  if (hint.claims.length > 0) {
    const c = hint.claims[0];
    return { action: { type: 'claim', claimer: seat, set: c.set, assignment: c.assignment },
             why: `best claim, p=${c.probability.toFixed(3)}` };
  }
  const any = await engine.request('legal', { session: sid, limit: 1 });
  return { action: any.actions[0], why: 'first legal action' };
}

// ---------------------------------------------------------------- the game
async function main() {
  const seed = Number(process.argv[2] || 7);
  const verbose = !!process.env.VERBOSE;
  const engine = new Engine(engineCommand());
  const hello = await engine.request('hello', { protocol: 'cardmind-engine/1' });
  const lit = hello.games.find((g) => g.name === 'literature');
  if (!lit) throw new Error('the engine has no literature game');
  const players = lit.seats; // 6 under the default options
  console.log(`engine: ${hello.engine} ${hello.version}, protocol ${hello.protocol}; ` +
              `agents: ${hello.agents.map((a) => a.name).join(', ')}`);

  const hands = deal(seed, players);
  const referee = await engine.request('new', { session: 'ref', game: 'literature', role: 'referee', hands });
  const seats = { 0: 'belief', 1: null, 2: 'peer', 3: 'belief', 4: null, 5: 'peer' }; // null = scripted
  const sid = (s) => `seat${s}`;
  for (let s = 0; s < players; s++) {
    await engine.request('new', { session: sid(s), game: 'literature', seat: s, hand: hands[s],
                                  agent: seats[s], seed: seed * 10 + s });
  }
  console.log(`seats: ${Object.entries(seats).map(([s, a]) => `${s}=${a || 'script'}`).join(' ')}`);

  // send the referee's notice and events to every player session
  async function relay(applied) {
    if (applied.notice !== null) {
      for (let s = 0; s < players; s++) await engine.request('notice', { session: sid(s), notice: applied.notice });
    }
    for (let s = 0; s < players; s++) {
      const view = applied.redacted[String(s)] || applied.events;
      for (const ev of view) await engine.request('event', { session: sid(s), event: ev });
    }
  }

  async function play(seat, method) {
    if (seats[seat] !== null) {
      const r = await engine.request(method, { session: sid(seat), time_ms: 20000 });
      return r.action && { action: r.action, why: `${seats[seat]} agent` };
    }
    if (method === 'react') return null; // scripted seats never act out of turn
    const move = await scriptedMove(engine, sid(seat), seat);
    const verdict = await engine.request('check', { session: sid(seat), action: move.action });
    if (!verdict.legal) throw new Error(`scripted move ${JSON.stringify(move.action)} is illegal: ${verdict.message}`);
    return move;
  }

  let status = referee;
  let actions = 0;
  const byScript = { 1: 0, 4: 0 };
  let claimWhy = '';
  while (!status.over) {
    const seat = status.to_move;
    const move = await play(seat, 'act');
    status = await engine.request('apply', { session: 'ref', action: move.action });
    actions += 1;
    if (seat in byScript) byScript[seat] += 1;
    if (move.action.type === 'claim') claimWhy = move.why; // its event may come after "next" is chosen
    await relay(status);
    for (const ev of status.events) {
      if (ev.type === 'claim') {
        console.log(`claim: seat ${ev.claimer} claimed ${ev.set}: ${ev.correct ? 'right' : 'wrong'}` +
                    ` (${claimWhy}); next: ${ev.next === null ? 'game over' : `seat ${ev.next}`}`);
      } else if (verbose) {
        console.log(`${JSON.stringify(ev)}  [${move.why}]`);
      }
    }
    // out-of-turn actions (claims under claim_any_time), as the engine's own game loop offers them
    let again = true;
    while (again && !status.over) {
      again = false;
      for (const s of status.actors.slice(1)) {
        const extra = await play(s, 'react');
        if (extra) {
          status = await engine.request('apply', { session: 'ref', action: extra.action });
          actions += 1;
          await relay(status);
          again = true;
          break;
        }
      }
    }
  }

  // every player session must agree with the referee
  for (let s = 0; s < players; s++) {
    const st = await engine.request('status', { session: sid(s) });
    if (!st.over || JSON.stringify(st.result) !== JSON.stringify(status.result)) {
      throw new Error(`seat ${s}'s session disagrees with the referee: ${JSON.stringify(st)}`);
    }
  }
  const record = await engine.request('record', { session: 'ref' });
  const [t0, t1] = status.result.detail.team_sets;
  console.log(`result: team 0 (seats 0 2 4) ${t0} sets, team 1 (seats 1 3 5) ${t1} sets; ` +
              `${actions} actions (scripted seats: ${byScript[1]} and ${byScript[4]}), ` +
              `${record.events.length} events, ${engine.requests + 1} requests`);
  const code = await engine.quit();
  if (code !== 0) throw new Error(`the engine exited with status ${code}`);
}

main().catch((err) => {
  console.error(`engine_demo: ${err.stack || err}`);
  process.exit(1);
});
