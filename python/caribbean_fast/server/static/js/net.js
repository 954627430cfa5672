// The sockets to the server (docs/protocol.md): a table's own (/ws/<table>, where the process
// serving the table answers) or the lobby's (/ws). Commands are answered by id, the other frames
// handed to the page, and a dropped connection retried with back-off (0.5 s doubling to 4 s), and
// at once when the browser is back online or the page is shown again. The server keeps the seat
// and a one-seat round waits for its player: after reconnecting, the welcome lists the seat and
// the view comes again, the hand as it was left.
// A table served by another process is `moved`: the link opens the socket the server names (the
// same address again behind a proxy, which routes it) and sends the command again there.

const MOVES = 3; // times one command follows `moved` before its refusal is shown
const OPENING = 10000; // ms a command waits for a socket being opened

export class Link {
  constructor({ onFrame, onStatus, table = null }) {
    this.onFrame = onFrame;
    this.onStatus = onStatus;
    this.table = table;
    this.pending = new Map();
    this.opening = []; // commands waiting for the socket being opened
    this.nextId = 1;
    this.delay = 500;
    this.moveDelay = 100; // ms before following `moved` again: a proxy's map may lag the move
    this.retry = undefined; // the timer of a reconnection waiting its back-off
    window.addEventListener("online", () => this.retryNow());
    document.addEventListener("visibilitychange", () => document.hidden || this.retryNow());
    this.movedTo = null; // the socket a `moved` named: the next connection opens it
    this.moving = false; // told `moved`: the socket closes and the next one opens
    this.ws = null;
    this.stopped = false;
  }

  url() {
    if (this.movedTo) return this.movedTo;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const path = this.table === null ? "/ws" : `/ws/${encodeURIComponent(this.table)}`;
    return `${scheme}//${location.host}${path}`;
  }

  connect() {
    const ws = new WebSocket(this.url());
    this.movedTo = null;
    this.moving = false;
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 500;
      this.onStatus("online");
      for (const go of this.opening.splice(0)) go();
    };
    ws.onmessage = (event) => this.receive(JSON.parse(event.data));
    ws.onclose = (event) => {
      if (this.ws === ws) this.dropped(event); // a socket replaced (`reopen`) is let go
    };
  }

  /** The socket of another table: the current one closes, the table's opens. */
  retarget(table) {
    this.table = table;
    this.movedTo = null;
    this.reopen();
  }

  reopen() {
    const old = this.ws;
    this.ws = null;
    this.answerPending("moved", "the table moved before the answer came");
    if (old) old.close();
    this.connect();
  }

  close() {
    this.stopped = true;
    if (this.ws) this.ws.close();
  }

  receive(frame) {
    if (frame.type === "moved") {
      this.movedTo = frame.endpoint; // the socket closes (4009) and the link opens this one
      this.moving = true;
      return;
    }
    if (frame.type !== "welcome") this.moveDelay = 100; // served here: the next move starts fresh
    if (frame.type === "answer") {
      const resolve = this.pending.get(frame.id);
      this.pending.delete(frame.id);
      if (resolve) resolve(frame);
      return;
    }
    this.onFrame(frame);
  }

  answerPending(code, message) {
    for (const resolve of this.pending.values()) resolve({ ok: false, error: { code, message } });
    this.pending.clear();
  }

  dropped(event) {
    if (this.stopped) return this.answerPending("offline", "the connection closed");
    if (event.code === 4009) {
      this.answerPending("moved", "the table moved before the answer came"); // sent again there
      this.moving = true;
      setTimeout(() => this.connect(), this.moveDelay);
      this.moveDelay = Math.min(this.moveDelay * 2, 4000);
      return;
    }
    this.answerPending("offline", "the connection dropped before the answer came");
    for (const go of this.opening.splice(0)) go();
    if (event.code === 4001) {
      this.onStatus("unauthorized");
      return;
    }
    this.onStatus("reconnecting", this.delay);
    this.retry = setTimeout(() => this.retryNow(), this.delay);
    this.delay = Math.min(this.delay * 2, 4000);
  }

  /** Reconnects now if a retry is waiting (the browser came back online, the tab was shown). */
  retryNow() {
    if (this.retry === undefined) return;
    clearTimeout(this.retry);
    this.retry = undefined;
    this.connect();
  }

  /** Sends a command; resolves to its answer frame ({ok, result} or {ok: false, error}). A
   * command for a table served elsewhere follows the server's `moved` and is sent there. */
  async send(type, fields = {}) {
    for (let moves = 0; ; moves++) {
      const answer = await this.sendHere(type, fields);
      if (answer.ok || answer.error.code !== "moved" || moves >= MOVES) return answer;
      if (answer.error.endpoint) {
        this.movedTo = answer.error.endpoint;
        this.reopen();
      }
    }
  }

  async sendHere(type, fields) {
    if (this.moving || (this.ws && this.ws.readyState === WebSocket.CONNECTING)) {
      await new Promise((resolve) => {
        this.opening.push(resolve);
        setTimeout(resolve, OPENING);
      });
    }
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
      return { ok: false, error: { code: "offline", message: "not connected: reconnecting" } };
    }
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.ws.send(JSON.stringify({ v: 1, id, type, ...fields }));
    });
  }
}

/** An HTTP call of the accounts API; resolves to {ok, status, body}. */
export async function api(path, body) {
  const init = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" } };
  if (body !== undefined && body !== null) init.body = JSON.stringify(body);
  const response = await fetch(path, init);
  let data = {};
  try {
    data = await response.json();
  } catch {
    data = {};
  }
  return { ok: response.ok, status: response.status, body: data };
}

/** The error of an HTTP or socket answer in words. */
export function refusal(answer) {
  const error = answer.body ? answer.body.error : answer.error;
  return error ? error.message : "refused";
}
