// Session reminders, as the server sends them (docs/protocol.md, "Reminders"): the reality check
// (`reality_check`, at the interval the player chose on the account page) and, where the game ends
// an idle session, the notice before it ends (`idle_notice`); and the session on demand (the
// "Session" button sends `session`). Each shows the session's time and net as the server counted
// them. No timer and no rule here: when a reminder is due, and what the session came to, is the
// server's. A reminder is modal (a <dialog> shown with showModal): the table behind it is inert, its
// keys deal and decide nothing (the table page asks `reminderOpen()`), and Enter, Space or Escape
// close it only through its buttons.
//
// The table page starts it with one line once its link is made:
//     startReminder(state.link, () => state.table);

import { money } from "./money.js";

function seconds(n) {
  return `${n} second${n === 1 ? "" : "s"}`;
}

function duration(time) {
  const minutes = Math.floor(time / 60);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (!h) return `${m} minute${m === 1 ? "" : "s"}`;
  return `${h} hour${h === 1 ? "" : "s"} ${m} minute${m === 1 ? "" : "s"}`;
}

/** The session in words: its time, its rounds, and its net in each currency played. */
export function sessionWords(session) {
  const rounds = session.rounds;
  const nets = session.net.map((n) => {
    const currency = { code: n.currency, minor_per_major: n.minor_per_major };
    if (n.amount > 0) return `won ${money(n.amount, currency)}`;
    return n.amount < 0 ? `lost ${money(-n.amount, currency)}` : `neither won nor lost in ${n.currency}`;
  });
  const net = nets.length ? nets.join(", ") : "neither won nor lost";
  return `You have played for ${duration(session.seconds)}: ${rounds} round${rounds === 1 ? "" : "s"}, and ${net}.`;
}

export class Reminder {
  /**
   * link: the page's Link (net.js); table: a function giving the table's id.
   * options.into: where to put the "Session" button (else it floats at the window's bottom left).
   */
  constructor(link, table, options = {}) {
    this.link = link;
    this.table = table;
    this.into = options.into || null;
    this.node = null;
    this.watchLink();
    this.styles();
    this.button();
  }

  watchLink() {
    const onFrame = this.link.onFrame;
    this.link.onFrame = (frame) => {
      this.observe(frame);
      onFrame(frame);
    };
    const send = this.link.send.bind(this.link);
    this.link.send = (type, fields = {}) => {
      // the player acted at the table: the server's idle notice is answered
      if (fields.table && fields.table === this.table() && this.node && this.node.dataset.kind === "idle") this.close();
      return send(type, fields);
    };
  }

  observe(frame) {
    if (frame.type === "reality_check") this.show("check", "Reality check", [sessionWords(frame.session)]);
    else if (frame.type === "idle_notice" && frame.table === this.table()) {
      this.show("idle", "Still there?", [
        `This game ends a session idle for ${frame.idle_seconds < 60 ? seconds(frame.idle_seconds) : duration(frame.idle_seconds)}: yours ends in about ${seconds(frame.ends_in)} unless you bet or play.`,
        sessionWords(frame.session),
      ]);
    }
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
    b.addEventListener("click", () => this.remind());
    if (this.into) this.into.append(b);
    else {
      b.classList.add("floating");
      document.body.append(b);
    }
  }

  /** The session so far, asked of the server (the "Session" button). */
  async remind() {
    const answer = await this.link.send("session");
    const words = answer.ok ? sessionWords(answer.result) : answer.error.message;
    this.show("check", "Your session", [words]);
  }

  show(kind, title, lines) {
    this.close();
    const node = document.createElement("dialog");
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
    // Escape would close the dialog without its buttons: a reminder is answered by one of them
    node.addEventListener("cancel", (event) => event.preventDefault());
    // a click beside it (on the backdrop, which the dialog takes) leaves the focus on its button
    node.addEventListener("mousedown", (event) => event.target === node && event.preventDefault());
    document.body.append(node);
    this.node = node;
    node.showModal();
    ok.focus();
  }

  close() {
    if (this.node) this.node.remove();
    this.node = null;
  }
}

/** Whether a reminder is open: while one is, no key of the table's acts. */
export function reminderOpen() {
  return !!document.querySelector("dialog.reminder[open]");
}

/** The table page's one line: `startReminder(state.link, () => state.table)`. */
export function startReminder(link, table, options) {
  return new Reminder(link, table, options);
}
