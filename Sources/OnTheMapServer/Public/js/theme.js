// Light or dark: the system's preference until the student chooses with a theme switch, then
// their choice, remembered on this device. The choice is one attribute on <html>
// (data-theme="light|dark"): app.css gives each theme its colours there, and what draws in
// canvas (the basemap) asks `currentTheme()` and listens for changes.

const STORAGE_KEY = 'onthemap.theme';
const THEME_COLORS = { light: '#0b6e99', dark: '#10161c' };   // the browser's bar around the page
const systemDark = window.matchMedia('(prefers-color-scheme: dark)');
const listeners = new Set();

/** The student's own choice, or null when the system decides. */
function remembered() {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return value === 'light' || value === 'dark' ? value : null;
  } catch {
    return null;   // storage refused (a private window): follow the system
  }
}

/** 'light' or 'dark', as shown now. */
export function currentTheme() {
  return document.documentElement.dataset.theme || (systemDark.matches ? 'dark' : 'light');
}

/** Calls `listener(theme)` after every change of theme. */
export function onThemeChange(listener) {
  listeners.add(listener);
}

function apply() {
  const theme = remembered() ?? (systemDark.matches ? 'dark' : 'light');
  const changed = document.documentElement.dataset.theme !== theme;
  document.documentElement.dataset.theme = theme;
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', THEME_COLORS[theme]);
  for (const button of document.querySelectorAll('.theme-switch')) {
    button.setAttribute('aria-pressed', String(theme === 'dark'));
  }
  if (changed) for (const listener of listeners) listener(theme);
}

/** Switches to the other theme and remembers it. */
function toggle() {
  const next = currentTheme() === 'dark' ? 'light' : 'dark';
  try {
    localStorage.setItem(STORAGE_KEY, next);
  } catch {
    // Not remembered, still shown.
  }
  apply();
}

/**
 * Applies the theme now (before the first screen shows), follows the system while nothing is
 * remembered, and makes every `.theme-switch` button a toggle ("Dark mode", pressed when dark).
 */
export function setUpTheme() {
  apply();
  systemDark.addEventListener('change', apply);
  // Another tab of the app switched: follow it.
  window.addEventListener('storage', (event) => {
    if (event.key === STORAGE_KEY) apply();
  });
  for (const button of document.querySelectorAll('.theme-switch')) button.addEventListener('click', toggle);
}
