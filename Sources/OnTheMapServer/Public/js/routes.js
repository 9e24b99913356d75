// Which screen a URL hash names, for a visitor who is logged in or not. No document here: node
// tests it; router.js shows what it says.

const RESET = '#/reset/';
const JOIN = '#/join/';

/**
 * `{ redirect }`, a hash to go to instead (logged-out visitors go to login, logged-in ones away
 * from it), or `{ screen }`: 'reset', 'join' (with the `course` and the invite's `token`), 'admin'
 * (with its `section`, perhaps undefined), 'courses', 'course' (with its `course` and `section`),
 * 'login', 'signup', 'post', or a tab of the app screen, 'map' (the default) or 'list'.
 */
export function routeFor(hash, loggedIn) {
  const path = hash || '#/map';
  // A reset link works whether or not someone is logged in on this browser; so does an invite
  // link (`/c/{course}/join/{token}` comes here), which asks a visitor to log in or sign up first.
  if (path.startsWith(RESET)) return { screen: 'reset' };
  if (path.startsWith(JOIN)) {
    const [course = '', token = ''] = path.slice(JOIN.length).split('/').map(decodeURIComponent);
    return { screen: 'join', course, token };
  }
  if (loggedIn && path.startsWith('#/admin')) return { screen: 'admin', section: path.split('/')[2] };
  if (loggedIn && path === '#/courses') return { screen: 'courses' };
  if (loggedIn && path.startsWith('#/course/')) {
    const [, , course = '', section] = path.split('/').map(decodeURIComponent);
    return { screen: 'course', course, section };
  }
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
