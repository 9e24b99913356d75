// The admin area (#/admin/reports, …/posts, …/accounts, …/log): reports to act on, every post,
// every account, and the audit log, for accounts with the admin flag. Every action goes through
// the API (admin-api.js), which audits it; the screen shows the result, or why it failed.
import { adminApi } from './admin-api.js';
import { el, isBusy, setBusy } from './dom.js';
import { displayName } from './people.js';
import { clockTime } from './time.js';

const byId = (id) => document.getElementById(id);
export const adminSections = ['reports', 'posts', 'accounts', 'log'];

const reasonWords = {
  spam: 'spam', offensive: 'offensive', 'personal-information': 'personal information', 'wrong-place': 'wrong place', other: 'other',
};
const actionWords = {
  'hide-location': 'hid a pin', 'show-location': 'showed a pin again', 'delete-location': 'deleted a pin',
  'disable-account': 'disabled an account', 'enable-account': 'enabled an account', 'grant-admin': 'made an admin',
  'revoke-admin': 'removed an admin', 'issue-password-reset': 'issued a password reset link', 'dismiss-reports': 'dismissed reports',
};

/** "24 Nov 2026, 14:05": dates in the admin area are read, not compared. */
function when(iso) {
  if (!iso) return 'never';
  const date = new Date(iso);
  return `${date.toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' })}, ${clockTime(date)}`;
}

export class AdminScreen {
  /** `onFailure(failure)`: a failed call the screen cannot handle itself (an ended session). */
  constructor(onFailure) {
    this.onFailure = onFailure;
    this.section = 'reports';
    this.search = '';
    this.hiddenOnly = false;
    for (const section of adminSections) {
      byId(`admin-tab-${section}`).addEventListener('click', () => { location.hash = `#/admin/${section}`; });
    }
    // Arrow keys move between sections (the ARIA tabs pattern, as the Map and List tabs).
    byId('admin-screen').querySelector('.tablist').addEventListener('keydown', (event) => {
      if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
      event.preventDefault();
      const step = event.key === 'ArrowRight' ? 1 : adminSections.length - 1;
      const next = adminSections[(adminSections.indexOf(this.section) + step) % adminSections.length];
      location.hash = `#/admin/${next}`;
      byId(`admin-tab-${next}`).focus();
    });
    byId('admin-export-geojson').href = adminApi.exportURL('geojson');
    byId('admin-export-csv').href = adminApi.exportURL('csv');
  }

  /** Shows `section` and loads what it lists. */
  async show(section) {
    this.section = adminSections.includes(section) ? section : 'reports';
    for (const name of adminSections) {
      const tab = byId(`admin-tab-${name}`);
      tab.setAttribute('aria-selected', String(name === this.section));
      tab.tabIndex = name === this.section ? 0 : -1;
    }
    await this.refresh();
  }

  async refresh() {
    const content = byId('admin-content');
    content.setAttribute('aria-busy', 'true');
    try {
      const render = {
        reports: () => this.reports(), posts: () => this.posts(), accounts: () => this.accounts(), log: () => this.log(),
      }[this.section];
      content.replaceChildren(...await render());
      content.dataset.section = this.section;
    } catch (failure) {
      this.say(failure.message, true);
      if (failure.kind === 'session' || failure.status === 403) this.onFailure(failure);
    } finally {
      content.removeAttribute('aria-busy');
    }
  }

  say(message, error = false) {
    const status = byId('admin-status');
    status.classList.toggle('error', error);
    status.textContent = message;
  }

  /**
   * A button that runs `work`, then says `done` and reloads the section. With `confirm`, the
   * first press only asks ("Press again to …"): deleting and disabling are not undone lightly.
   */
  action(label, work, { done, confirm = null, danger = false } = {}) {
    const button = el('button', { type: 'button', class: `button small${danger ? ' danger' : ''}` }, label);
    let armed = false;
    button.addEventListener('click', async () => {
      if (isBusy(button)) return;
      if (confirm && !armed) {
        armed = true;
        button.textContent = confirm;
        setTimeout(() => { armed = false; if (button.isConnected) button.textContent = label; }, 5000);
        return;
      }
      setBusy(button, true);
      try {
        const result = await work();
        this.say(typeof done === 'function' ? done(result) : done);
        await this.refresh();
      } catch (failure) {
        this.say(failure.message, true);
        if (failure.kind === 'session') this.onFailure(failure);
      } finally {
        setBusy(button, false);
      }
    });
    return button;
  }

  pinSummary(pin) {
    return el('div', { class: 'admin-pin' },
      el('strong', {}, displayName(pin)), ` · ${pin.mapString}`,
      pin.hidden ? el('span', { class: 'badge warn' }, 'hidden') : null,
      el('span', { class: 'admin-meta' }, pin.mediaURL));
  }

  pinActions(pin) {
    return [
      pin.hidden
        ? this.action('Show again', () => adminApi.setHidden(pin.objectId, false), { done: `${displayName(pin)}’s pin shows again.` })
        : this.action('Hide', () => adminApi.setHidden(pin.objectId, true), { done: `${displayName(pin)}’s pin is hidden from everyone but them.` }),
      this.action('Delete', () => adminApi.deleteLocation(pin.objectId),
        { done: `${displayName(pin)}’s pin is deleted.`, confirm: 'Press again to delete', danger: true }),
    ];
  }

  async reports() {
    const reported = await adminApi.reports();
    if (reported.length === 0) return [el('p', { class: 'empty-state' }, 'No open reports.')];
    return [el('ul', { class: 'admin-list', 'aria-label': 'Reported pins' }, reported.map((item) => {
      const reasons = item.reports.map((report) => reasonWords[report.reason] || report.reason);
      const count = item.reports.length;
      return el('li', { class: 'admin-item', 'data-object-id': item.objectId },
        item.location ? this.pinSummary(item.location) : el('div', { class: 'admin-pin' }, 'A pin since deleted'),
        el('p', { class: 'admin-meta' }, `${count} report${count === 1 ? '' : 's'}: ${reasons.join(', ')}`),
        el('div', { class: 'admin-actions' },
          item.location ? this.pinActions(item.location) : null,
          this.action('Dismiss', () => adminApi.dismissReports(item.objectId), { done: 'Reports dismissed; the pin stays.' })));
    }))];
  }

  async posts() {
    const filter = el('label', { class: 'admin-filter' },
      el('input', { type: 'checkbox', id: 'admin-hidden-only', checked: this.hiddenOnly }), ' Only hidden pins');
    filter.querySelector('input').addEventListener('change', (event) => { this.hiddenOnly = event.target.checked; this.refresh(); });
    const pins = await adminApi.locations(this.hiddenOnly);
    const list = pins.length === 0
      ? el('p', { class: 'empty-state' }, this.hiddenOnly ? 'No hidden pins.' : 'No posts yet.')
      : el('ul', { class: 'admin-list', 'aria-label': 'Posts' }, pins.map((pin) => el('li', { class: 'admin-item', 'data-object-id': pin.objectId },
        this.pinSummary(pin), el('p', { class: 'admin-meta' }, `Updated ${when(pin.updatedAt)}`),
        el('div', { class: 'admin-actions' }, this.pinActions(pin)))));
    return [filter, list];
  }

  async accounts() {
    const form = el('form', { class: 'admin-search', role: 'search' },
      el('label', { for: 'admin-search' }, 'Find an account'),
      el('input', { id: 'admin-search', type: 'search', value: this.search, placeholder: 'Name or email', autocomplete: 'off' }),
      el('button', { type: 'submit', class: 'button small' }, 'Search'));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.search = form.querySelector('input').value.trim();
      this.refresh();
    });
    const accounts = await adminApi.accounts(this.search);
    const list = accounts.length === 0
      ? el('p', { class: 'empty-state' }, 'No account matches.')
      : el('ul', { class: 'admin-list', 'aria-label': 'Accounts' }, accounts.map((account) => this.accountItem(account)));
    return [form, list];
  }

  accountItem(account) {
    const name = `${account.firstName} ${account.lastName}`;
    const reset = this.action('Password reset link', () => adminApi.passwordReset(account.key), {
      done: (answer) => `Send this link to ${account.email}; it sets a new password once, within 72 hours: ${answer.url}`,
    });
    return el('li', { class: 'admin-item', 'data-key': account.key },
      el('div', { class: 'admin-pin' }, el('strong', {}, name), ` · ${account.email}`,
        account.isAdmin ? el('span', { class: 'badge' }, 'admin') : null,
        account.disabled ? el('span', { class: 'badge warn' }, 'disabled') : null),
      el('p', { class: 'admin-meta' }, `Signed up ${when(account.createdAt)} · last login ${when(account.lastLoginAt)} · `,
        account.location ? `pin: ${account.location.mapString}${account.location.hidden ? ' (hidden)' : ''}` : 'no pin'),
      el('div', { class: 'admin-actions' },
        account.isAdmin
          ? this.action('Remove admin', () => adminApi.changeAccount(account.key, { isAdmin: false }), { done: `${name} is no longer an admin.` })
          : this.action('Make admin', () => adminApi.changeAccount(account.key, { isAdmin: true }), { done: `${name} is now an admin.` }),
        account.disabled
          ? this.action('Enable', () => adminApi.changeAccount(account.key, { disabled: false }), { done: `${name} can log in again.` })
          : this.action('Disable', () => adminApi.changeAccount(account.key, { disabled: true }),
            { done: `${name} is disabled and logged out everywhere.`, confirm: 'Press again to disable', danger: true }),
        reset));
  }

  async log() {
    const entries = await adminApi.audit();
    if (entries.length === 0) return [el('p', { class: 'empty-state' }, 'No admin has acted yet.')];
    return [el('table', { class: 'admin-log' },
      el('caption', { class: 'visually-hidden' }, 'Audit log, newest first'),
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'When'), el('th', { scope: 'col' }, 'Who'), el('th', { scope: 'col' }, 'What'))),
      el('tbody', {}, entries.map((entry) => el('tr', { 'data-action': entry.action },
        el('td', {}, when(entry.at)), el('td', {}, entry.actorEmail),
        el('td', {}, `${actionWords[entry.action] || entry.action}: ${entry.detail}`)))))];
  }
}
