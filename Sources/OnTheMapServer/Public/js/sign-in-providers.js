// "Sign in with …" buttons for the OpenID Connect providers the operator configured, and the
// login page's words for a sign-in that came back without logging anyone in (the server sends
// the browser to `/?login-error=CODE&provider=ID#/login`).
import { clientConfig } from './api.js';
import { signInFailureKey } from './api-errors.js';
import { showMessage } from './dom.js';
import { msg, setText } from './i18n.js';

const byId = (id) => document.getElementById(id);

/** The configured providers, `[{id, name, start}]`; none when the settings cannot be read. */
async function providers() {
  try {
    return (await clientConfig()).signIn || [];
  } catch {
    return [];
  }
}

/** Adds one button per provider under the login form; nothing shows when there are none. */
export async function showSignInProviders() {
  const list = await providers();
  const box = byId('sign-in-providers');
  const buttons = list.map(({ name, start }) => {
    const link = document.createElement('a');
    link.className = 'button ghost wide';
    link.href = start;
    setText(link, msg('login.signInWith', { provider: name }));
    return link;
  });
  byId('sign-in-provider-buttons').replaceChildren(...buttons);
  box.hidden = buttons.length === 0;
}

/** Says why a sign-in at a provider failed, then takes the code out of the address. */
export async function explainSignInFailure() {
  const query = new URLSearchParams(location.search);
  const code = query.get('login-error');
  if (!code) return;
  history.replaceState(null, '', `/${location.hash}`);
  const provider = (await providers()).find((item) => item.id === query.get('provider'));
  showMessage(byId('login-error'), signInFailureMessage(code, provider ? provider.name : null));
}

/**
 * The sentence for each reason the server gives (`SignInFailure.code`), as a Message; `name` is the
 * provider's, or null for one the settings do not list.
 */
export function signInFailureMessage(code, name) {
  return msg(signInFailureKey(code), { provider: name === null ? msg('error.signIn.yourProvider') : name });
}
