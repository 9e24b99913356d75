// "Put On The Map on your home screen": where the browser offers to install the app (Chromium's
// beforeinstallprompt), a notice under the tabs says so, with Install and Not now. Not now is
// remembered on the device for a month; an installed app (or one opened from the home screen)
// is not asked again.

const DISMISSED_KEY = 'onthemap.installDismissed';
const ASK_AGAIN_AFTER_MS = 30 * 24 * 3600 * 1000;
const byId = (id) => document.getElementById(id);
let offer = null;   // the browser's deferred install prompt

function dismissedRecently() {
  try {
    return Date.now() - Number(localStorage.getItem(DISMISSED_KEY) || 0) < ASK_AGAIN_AFTER_MS;
  } catch {
    return false;
  }
}

function show(visible) {
  byId('install-notice').hidden = !visible;
}

/** Listens for the browser's offer from the start (it can come before any screen shows). */
export function setUpInstallOffer() {
  window.addEventListener('beforeinstallprompt', (event) => {
    // The browser's own mini-infobar would cover the map's bottom controls: the page asks instead.
    event.preventDefault();
    offer = event;
    show(!dismissedRecently());
  });
  window.addEventListener('appinstalled', () => {
    offer = null;
    show(false);
  });
  byId('install-button').addEventListener('click', async () => {
    if (!offer) return;
    const asked = offer;
    offer = null;
    show(false);
    await asked.prompt();
  });
  byId('install-dismiss').addEventListener('click', () => {
    try {
      localStorage.setItem(DISMISSED_KEY, String(Date.now()));
    } catch {
      // Not remembered: asked again next visit.
    }
    show(false);
  });
}
