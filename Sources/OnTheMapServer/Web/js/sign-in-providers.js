// "Sign in with …" buttons for the OpenID Connect providers the operator configured, and the
// login page's words for a sign-in that came back without logging anyone in (the server sends
// the browser to `/?login-error=CODE&provider=ID#/login`).
import { clientConfig } from './api.js';
import { showMessage } from './dom.js';

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
    link.textContent = `Sign in with ${name}`;
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
  showMessage(byId('login-error'), signInFailureMessage(code, provider ? provider.name : 'your sign-in provider'));
}

/** The sentence for each reason the server gives (`SignInFailure.code`). */
export function signInFailureMessage(code, name) {
  const orPassword = 'or log in with your email and password';
  switch (code) {
    case 'cancelled': return `Signing in with ${name} was cancelled. Try again, ${orPassword}.`;
    case 'provider-unavailable': return `${name} can’t be reached right now. Try again in a few minutes, ${orPassword}.`;
    case 'expired': return `That sign-in took too long or was already used. Sign in with ${name} again.`;
    case 'invalid-token': return `${name}’s answer could not be verified, so you were not logged in. Try again; if it keeps happening, tell whoever runs this map.`;
    case 'no-email': return `${name} did not share your email address, which this map needs to find your account. Allow it when ${name} asks.`;
    case 'email-unverified': return `${name} has not verified your email address, so it can’t be matched to an account here. Verify it with ${name} first, ${orPassword}.`;
    case 'disabled': return 'This account has been disabled by an admin of this map.';
    case 'throttled': return 'Too many sign-ins from your network just now. Wait a minute and try again.';
    case 'unknown-provider': return 'That way of signing in is not set up on this map.';
    default: return `Signing in with ${name} did not work, on our side. Try again in a minute, ${orPassword}.`;
  }
}
