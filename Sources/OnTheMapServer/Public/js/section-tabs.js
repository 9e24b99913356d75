// What the admin area and a course's page share: a row of section tabs addressed by the URL's hash
// (the ARIA tabs pattern, arrow keys moving between them), and buttons for actions that say when
// they are busy and, for the ones not undone lightly, ask for a second press.
import { el, isBusy, setBusy } from './dom.js';
import { t } from './i18n.js';

const byId = (id) => document.getElementById(id);

/**
 * Wires the tabs `{prefix}-tab-{section}` of `screenId`: a click or an arrow key goes to
 * `hashOf(section)`. `current()` names the section shown.
 */
export function wireSectionTabs(screenId, prefix, sections, { hashOf, current }) {
  for (const section of sections) {
    byId(`${prefix}-tab-${section}`).addEventListener('click', () => { location.hash = hashOf(section); });
  }
  byId(screenId).querySelector('.tablist').addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    const step = event.key === 'ArrowRight' ? 1 : sections.length - 1;
    const next = sections[(sections.indexOf(current()) + step) % sections.length];
    location.hash = hashOf(next);
    byId(`${prefix}-tab-${next}`).focus();
  });
}

/** Marks `section`'s tab selected (and the only one in the tab order); the others not. */
export function selectSectionTab(prefix, sections, section) {
  for (const name of sections) {
    const tab = byId(`${prefix}-tab-${name}`);
    tab.setAttribute('aria-selected', String(name === section));
    tab.tabIndex = name === section ? 0 : -1;
    // A row wider than a phone scrolls: the selected tab is brought into it.
    if (name === section && tab.scrollIntoView) tab.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }
}

/**
 * A button labelled with the catalogue key `label` that runs `run()` when pressed, ignoring presses
 * while it runs. With `confirm` (a key), the first press only asks ("Press again to …") for five
 * seconds.
 */
export function actionButton(label, run, { confirm = null, danger = false, primary = false } = {}) {
  const button = el('button', { type: 'button', class: `button small${danger ? ' danger' : ''}${primary ? ' primary' : ''}` }, t(label));
  let armed = false;
  button.addEventListener('click', async () => {
    if (isBusy(button)) return;
    if (confirm && !armed) {
      armed = true;
      button.textContent = t(confirm);
      setTimeout(() => { armed = false; if (button.isConnected) button.textContent = t(label); }, 5000);
      return;
    }
    setBusy(button, true);
    try {
      await run(button);
    } finally {
      setBusy(button, false);
    }
  });
  return button;
}
