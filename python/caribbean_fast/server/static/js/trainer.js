// The trainer: before each decision, the best choice and what each choice is worth in antes,
// from the server's exact tables (the `advice` command, as the terminal trainer shows it); each
// decision against the advice is a mistake, and the session's end reports them and their cost.

const sign = (x) => (x >= 0 ? "+" : "\u2212") + Math.abs(x).toFixed(2);

export class Trainer {
  // `words()`: each decision ("raise", "fold", "exchange") in the game's words, from the rules.
  constructor({ panel, mistakes, toggle, end, ask, words }) {
    Object.assign(this, { panel, mistakesNode: mistakes, toggle, ask, words });
    this.key = "";
    this.advice = null;
    this.mistakes = [];
    this.decisions = 0;
    toggle.addEventListener("change", () => {
      this.key = "";
      if (!toggle.checked) panel.textContent = "";
      if (this.view) this.show(this.view);
    });
    end.addEventListener("click", () => {
      this.mistakesNode.textContent = this.report();
      this.mistakes = [];
      this.decisions = 0;
    });
  }

  get on() {
    return this.toggle.checked;
  }

  /** Asks for advice once per hand (round and cards) while the seat has a decision to make. */
  show(view) {
    this.view = view;
    if (!this.on) return;
    const deciding = view.actions.includes("fold");
    if (!deciding) {
      if (!view.result) this.panel.textContent = "Advice appears once the cards are dealt.";
      return;
    }
    const key = `${view.round}:${view.cards.join("")}`;
    if (key === this.key) return;
    this.key = key;
    this.advice = null;
    this.fetch(key);
  }

  async fetch(key) {
    const answer = await this.ask();
    if (key !== this.key) return;
    if (!answer.ok) {
      this.panel.textContent = `No advice: ${answer.error.message}`;
      return;
    }
    const a = answer.result;
    if (!a.ready) {
      this.panel.textContent = "The trainer is reading the exact tables…";
      setTimeout(() => key === this.key && this.fetch(key), 1500);
      return;
    }
    this.advice = { ...a, key };
    const name = (d) => this.name(d);
    this.panel.innerHTML = `<p>Best: <strong data-testid="best"></strong></p><p class="values"></p>`;
    this.panel.querySelector("strong").textContent = name(a.best);
    this.panel.querySelector(".values").textContent = Object.keys(a.antes)
      .map((d) => `${name(d)}: ${sign(a.antes[d])} antes`)
      .join(" · ");
  }

  /** A decision as the game names it ("call" at game 4 and hold'em). */
  name(decision) {
    return this.words()[decision] || decision;
  }

  /** Called after the server accepted a decision on the hand `view` showed. */
  decided(view, choice) {
    if (!this.on || !view) return;
    this.decisions += 1;
    const a = this.advice;
    if (!a || a.key !== `${view.round}:${view.cards.join("")}` || a.best === choice) {
      this.summary();
      return;
    }
    const cost = a.antes[a.best] - a.antes[choice];
    this.mistakes.push({ round: view.round, cards: view.cards.join(" "), chosen: choice, best: a.best, cost });
    this.summary();
  }

  summary() {
    this.mistakesNode.textContent = `${this.mistakes.length} mistakes in ${this.decisions} decisions so far.`;
  }

  report() {
    if (!this.decisions) return "";
    const cost = this.mistakes.reduce((sum, m) => sum + m.cost, 0);
    const lines = [`Trainer: ${this.mistakes.length} mistakes in ${this.decisions} decisions, costing ${cost.toFixed(2)} antes.`];
    for (const m of this.mistakes) {
      lines.push(`Round ${m.round}: ${m.cards}: ${this.name(m.chosen)} where ${this.name(m.best)} is best (\u2212${m.cost.toFixed(2)} antes).`);
    }
    return lines.join(" ");
  }
}
