// A client of the cardmind engine protocol (docs/protocol.md) over the /engine WebSocket.
// One connection = one engine state; replies come back in order and echo the request's id.

export class EngineError extends Error {
  constructor(error, cmd) {
    super(error.message || error.code);
    this.code = error.code;
    this.rule = error.rule;
    this.cmd = cmd;
  }
}

export class Engine {
  constructor(url) {
    this.url = url || `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/engine`;
    this.nextId = 1;
    this.waiting = new Map();
    this.ws = null;
  }

  connect() {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(this.url);
      ws.onopen = () => { this.ws = ws; resolve(this); };
      ws.onerror = () => reject(new Error(`cannot reach the engine at ${this.url}`));
      ws.onclose = () => {
        for (const [, w] of this.waiting) w.reject(new Error("the connection to the engine closed"));
        this.waiting.clear();
      };
      ws.onmessage = (msg) => {
        let reply;
        try { reply = JSON.parse(msg.data); } catch { return; }
        const w = this.waiting.get(reply.id);
        if (!w) return;
        this.waiting.delete(reply.id);
        if (reply.ok) w.resolve(reply); else w.reject(new EngineError(reply.error, w.cmd));
      };
    });
  }

  // request("new", {game: ...}) -> the reply object; rejects with EngineError on an error reply
  request(cmd, fields = {}) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject, cmd });
      this.ws.send(JSON.stringify({ id, cmd, ...fields }));
    });
  }

  close() { if (this.ws) this.ws.close(); }
}

let helloCache = null;
// The engine's hello (games, options, seats, agents, event schemas), asked once per page.
export async function hello(engine) {
  if (!helloCache) helloCache = await engine.request("hello");
  return helloCache;
}

// The advice for a session: the hint object plus `text`, the words of `cardmind hint`.
export async function advice(engine, session, withText = true) {
  const reply = await engine.request("hint", { session, params: withText ? { text: true } : {} });
  const hint = reply.hint || {};
  const text = reply.text ?? hint.text ?? hint.headline ?? "";
  return { hint, text };
}

// The seat's view of the table (hand and public zones) if the engine has one.
export async function seatView(engine, session) {
  const h = await hello(engine);
  if (h.commands.includes("view")) {
    const r = await engine.request("view", { session });
    return r.view;
  }
  const r = await engine.request("status", { session });
  return r.view || null;
}
