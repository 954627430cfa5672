// The socket to the server (docs/protocol.md): commands answered by id, the other frames handed
// to the page, and a dropped connection retried with back-off (0.5 s doubling to 8 s). The server
// keeps the seat: after reconnecting, its welcome lists the seat and sends the view again.

export class Link {
  constructor({ onFrame, onStatus }) {
    this.onFrame = onFrame;
    this.onStatus = onStatus;
    this.pending = new Map();
    this.nextId = 1;
    this.delay = 500;
    this.ws = null;
    this.stopped = false;
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/ws`);
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 500;
      this.onStatus("online");
    };
    ws.onmessage = (event) => this.receive(JSON.parse(event.data));
    ws.onclose = (event) => this.dropped(event);
  }

  receive(frame) {
    if (frame.type === "answer") {
      const resolve = this.pending.get(frame.id);
      this.pending.delete(frame.id);
      if (resolve) resolve(frame);
      return;
    }
    this.onFrame(frame);
  }

  dropped(event) {
    for (const resolve of this.pending.values()) {
      resolve({ ok: false, error: { code: "offline", message: "the connection dropped before the answer came" } });
    }
    this.pending.clear();
    if (this.stopped) return;
    if (event.code === 4001) {
      this.onStatus("unauthorized");
      return;
    }
    this.onStatus("reconnecting", this.delay);
    setTimeout(() => this.connect(), this.delay);
    this.delay = Math.min(this.delay * 2, 8000);
  }

  /** Sends a command; resolves to its answer frame ({ok, result} or {ok: false, error}). */
  send(type, fields = {}) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
      return Promise.resolve({ ok: false, error: { code: "offline", message: "not connected: reconnecting" } });
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
