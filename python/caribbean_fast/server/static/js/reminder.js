// Session reminders (a reality check): the time played at the table and the net won or lost so far,
// on demand (the "Session" button) and every hour; and, where the game ends an idle session
// (the rules' `timing.idle_seconds`, game 5), a notice before it ends.
//
// The table page starts it with one line once its link is made:
//     startReminder(state.link, () => state.table);
// It watches the link (the seat's views, for each settled round's net; the commands sent, for
// activity) and keeps the session in sessionStorage, so a reload keeps counting. No rule here: the
// idle time comes from GET /api/rules/<table>, the nets from the engine's views.

import { api } from "./net.js";

const HOUR = 3600 * 1000;

function money(amount, code) {
  return new Intl.NumberFormat("en", { style: "currency", currency: code || "USD" }).format(amount / 100);
}

function duration(ms) {
  const minutes = Math.floor(ms / 60000);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (!h) return `${m} minute${m === 1 ? "" : "s"}`;
  return `${h} hour${h === 1 ? "" : "s"} ${m} minute${m === 1 ? "" : "s"}`;
}

export class Reminder {
  /**
   * link: the page's Link (net.js); table: a function giving the table's id.
   * options.every: ms between reminders (an hour); options.into: where to put the "Session" button
   * (else it floats at the window's bottom left); options.idleSeconds: the rules' idle time
   * (read from /api/rules/<table> when not given); options.now: a clock (tests).
   */
  constructor(link, table, options = {}) {
    this.link = link;
    this.table = table;
    this.every = options.every || HOUR;
    this.now = options.now || (() => Date.now());
    this.idleSeconds = options.idleSeconds;
    this.into = options.into || null;
    this.currency = "USD";
    this.lastActivity = this.now();
    this.noticeShown = false;
    this.node = null;
    this.watchLink();
    this.styles();
    this.button();
    // Every `every` of time played (kept with the session, so a reload does not restart the hour).
    this.timers = [setInterval(() => this.checkHour(), Math.min(1000, this.every / 4)), setInterval(() => this.checkIdle(), 1000)];
  }

  get key() {
    return `cf-session:${this.table() || ""}`;
  }

  get session() {
    const raw = sessionStorage.getItem(this.key);
    const fresh = { start: this.now(), net: 0, rounds: [] };
    try {
      return raw ? JSON.parse(raw) : fresh;
    } catch {
      return fresh;
    }
  }

  save(session) {
    sessionStorage.setItem(this.key, JSON.stringify(session));
  }

  watchLink() {
    const onFrame = this.link.onFrame;
    this.link.onFrame = (frame) => {
      this.observe(frame);
      onFrame(frame);
    };
    const send = this.link.send.bind(this.link);
    this.link.send = (type, fields = {}) => {
      if (fields.table && fields.table === this.table() && !["history", "advice"].includes(type)) {
        this.lastActivity = this.now();
        this.noticeShown = false;
        if (this.node && this.node.dataset.kind === "idle") this.close();
      }
      return send(type, fields);
    };
  }

  observe(frame) {
    if (frame.type !== "view" || frame.table !== this.table() || frame.view.seat === null) return;
    const v = frame.view;
    this.currency = v.currency;
    if (this.idleSeconds === undefined) this.loadIdle();
    const session = this.session;
    if (!sessionStorage.getItem(this.key)) this.save(session);
    if (v.result && !session.rounds.includes(v.round)) {
      session.net += Number(v.result.net.total);
      session.rounds = [...session.rounds.slice(-50), v.round];
      this.save(session);
    }
  }

  async loadIdle() {
    this.idleSeconds = null;
    const answer = await api(`/api/rules/${encodeURIComponent(this.table())}`);
    if (answer.ok) this.idleSeconds = answer.body.timing.idle_seconds;
  }

  styles() {
    if (document.querySelector('link[href="/static/css/reminder.css"]')) return;
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = "/static/css/reminder.css";
    document.head.append(link);
  }

  button() {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "btn small reminder-button";
    b.textContent = "Session";
    b.setAttribute("aria-label", "Session: time played and net so far");
    b.addEventListener("click", () => this.remind("asked"));
    if (this.into) this.into.append(b);
    else {
      b.classList.add("floating");
      document.body.append(b);
    }
  }

  /** The reality check: time played and net so far. */
  remind(kind = "asked") {
    const s = this.session;
    const played = duration(this.now() - s.start);
    const rounds = s.rounds.length;
    const net = s.net > 0 ? `won ${money(s.net, this.currency)}` : s.net < 0 ? `lost ${money(-s.net, this.currency)}` : "neither won nor lost";
    const title = kind === "hourly" ? "Reality check" : "Your session";
    this.show("check", title, [
      `You have played for ${played} at ${this.table()}: ${rounds} round${rounds === 1 ? "" : "s"}, and ${net}.`,
    ]);
  }

  checkHour() {
    const raw = sessionStorage.getItem(this.key);
    if (!raw) return; // no seated view yet: nothing played
    const s = this.session;
    const due = (s.reminded || s.start) + this.every;
    if (this.now() < due) return;
    s.reminded = this.now();
    this.save(s);
    this.remind("hourly");
  }

  checkIdle() {
    if (!this.idleSeconds || this.noticeShown) return;
    const left = this.idleSeconds * 1000 - (this.now() - this.lastActivity);
    const warn = Math.min(60000, (this.idleSeconds * 1000) / 5);
    if (left > warn) return;
    this.noticeShown = true;
    const seconds = Math.max(0, Math.round(left / 1000));
    this.show("idle", "Still there?", [
      `This game ends a session idle for ${duration(this.idleSeconds * 1000)}: yours ends in about ${seconds} seconds unless you bet or play.`,
    ]);
  }

  show(kind, title, lines) {
    this.close();
    const node = document.createElement("div");
    node.className = "reminder";
    node.dataset.kind = kind;
    node.setAttribute("role", kind === "idle" ? "alertdialog" : "dialog");
    node.setAttribute("aria-label", title);
    const h = document.createElement("h2");
    h.textContent = title;
    node.append(h);
    for (const line of lines) {
      const p = document.createElement("p");
      p.textContent = line;
      node.append(p);
    }
    const ok = document.createElement("button");
    ok.type = "button";
    ok.className = "btn small primary";
    ok.textContent = "Keep playing";
    ok.addEventListener("click", () => this.close());
    const lobby = document.createElement("a");
    lobby.href = "/";
    lobby.className = "btn small";
    lobby.textContent = "Take a break: lobby";
    node.append(ok, " ", lobby);
    document.body.append(node);
    this.node = node;
    ok.focus();
  }

  close() {
    if (this.node) this.node.remove();
    this.node = null;
  }
}

/** The table page's one line: `startReminder(state.link, () => state.table)`. */
export function startReminder(link, table, options) {
  return new Reminder(link, table, options);
}
