// Which screen a URL hash names, for a visitor who is logged in or not. No document here: node
// tests it; router.js shows what it says.

const RESET = '#/reset/';

/**
 * `{ redirect }`, a hash to go to instead (logged-out visitors go to login, logged-in ones away
 * from it), or `{ screen }`: 'reset', 'admin' (with its `section`, perhaps undefined), 'login',
 * 'signup', 'post', or a tab of the app screen, 'map' (the default) or 'list'.
 */
export function routeFor(hash, loggedIn) {
  const path = hash || '#/map';
  // A reset link works whether or not someone is logged in on this browser.
  if (path.startsWith(RESET)) return { screen: 'reset' };
  if (loggedIn && path.startsWith('#/admin')) return { screen: 'admin', section: path.split('/')[2] };
  const signingIn = path === '#/login' || path === '#/signup';
  if (!loggedIn && !signingIn) return { redirect: '#/login' };
  if (loggedIn && signingIn) return { redirect: '#/map' };
  switch (path) {
    case '#/login': return { screen: 'login' };
    case '#/signup': return { screen: 'signup' };
    case '#/post': return { screen: 'post' };
    case '#/list': return { screen: 'list' };
    default: return { screen: 'map' };
  }
}

/** The token of a reset link's hash (`#/reset/TOKEN`). */
export const resetToken = (hash) => decodeURIComponent(hash.slice(RESET.length));
