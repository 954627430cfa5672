// Logging in: the account form (log in or register) and the guest seat of a `serve --demo`
// server. The session is the server's HttpOnly cookie; the page never holds the token.

import { api, refusal } from "./net.js";

/** Who is logged in ({account, wallets: {currency code: minor units}, guest}) or null. */
export async function whoAmI() {
  const answer = await api("/api/me");
  return answer.ok && answer.body.account ? answer.body : null; // {"account": null}: not logged in
}

/** Fills `node` with the forms; resolves once an account is logged in. */
export function askLogin(node) {
  node.hidden = false;
  node.innerHTML = `
    <form class="auth-form" novalidate>
      <h2>Take a seat</h2>
      <label>Name <input name="name" autocomplete="username" required minlength="3" maxlength="32"></label>
      <label>Password <input name="password" type="password" autocomplete="current-password" required minlength="8"></label>
      <div class="auth-buttons">
        <button type="submit" name="login" class="btn primary">Log in</button>
        <button type="button" name="register" class="btn">Register</button>
        <button type="button" name="guest" class="btn">Play as guest</button>
      </div>
      <p class="auth-message" role="alert"></p>
    </form>`;
  const form = node.querySelector("form");
  const message = node.querySelector(".auth-message");
  return new Promise((resolve) => {
    const attempt = async (path, body) => {
      message.textContent = "";
      const answer = await api(path, body);
      if (!answer.ok) {
        message.textContent = refusal(answer);
        return;
      }
      node.hidden = true;
      resolve(await whoAmI());
    };
    const credentials = () => ({ name: form.elements.name.value.trim(), password: form.elements.password.value });
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      attempt("/api/login", credentials());
    });
    form.elements.register.addEventListener("click", () => attempt("/api/register", credentials()));
    form.elements.guest.addEventListener("click", () => attempt("/api/guest", null));
  });
}

export async function logOut() {
  await api("/api/logout", null);
  location.reload();
}
