// The admin area (#/admin/reports, …/posts, …/accounts, …/platforms, …/log): reports to act on,
// every post, every account, the learning platforms (lti-admin.js), and the audit log, for accounts with the admin flag. Every action goes through
// the API (admin-api.js), which audits it; the screen shows the result, or why it failed. An
// account change the server refuses until the admin types their password again asks for it
// (password-prompt.js) and is then made.
import { adminApi } from './admin-api.js';
import { auditTable, when } from './audit-log.js';
import { errorMessage, hasPassword } from './api.js';
import { el } from './dom.js';
import { msg, setText, t } from './i18n.js';
import { platformsSection } from './lti-admin.js';
import { askForPassword } from './password-prompt.js';
import { displayName } from './people.js';
import { hideOrShow, pinSummary, reportedPins } from './reported-pins.js';
import { actionButton, selectSectionTab, wireSectionTabs } from './section-tabs.js';

const byId = (id) => document.getElementById(id);
export const adminSections = ['reports', 'posts', 'accounts', 'platforms', 'log'];

/** How long an admin's password reset link works (AdminService: 72 hours). */
const RESET_LINK_HOURS = 72;

export class AdminScreen {
  /**
   * `onFailure(failure)`: a failed call the screen cannot handle itself (an ended session).
   * `account()`: the key of the admin's own account.
   */
  constructor(onFailure, account) {
    this.onFailure = onFailure;
    this.account = account;
    this.section = 'reports';
    this.search = '';
    this.hiddenOnly = false;
    wireSectionTabs('admin-screen', 'admin', adminSections, { hashOf: (section) => `#/admin/${section}`, current: () => this.section });
    byId('admin-export-geojson').href = adminApi.exportURL('geojson');
    byId('admin-export-csv').href = adminApi.exportURL('csv');
  }

  /** Shows `section` and loads what it lists. */
  async show(section) {
    this.section = adminSections.includes(section) ? section : 'reports';
    selectSectionTab('admin', adminSections, this.section);
    await this.refresh();
  }

  async refresh() {
    const content = byId('admin-content');
    content.setAttribute('aria-busy', 'true');
    try {
      const render = {
        reports: () => this.reports(), posts: () => this.posts(), accounts: () => this.accounts(), platforms: () => platformsSection(this),
        log: () => this.log(),
      }[this.section];
      content.replaceChildren(...await render());
      content.dataset.section = this.section;
    } catch (failure) {
      this.say(errorMessage(failure), true);
      if (failure.kind === 'session' || failure.status === 403) this.onFailure(failure);
    } finally {
      content.removeAttribute('aria-busy');
    }
  }

  /** The status line: `message` a string or an i18n Message, said again after a change of language. */
  say(message, error = false) {
    const status = byId('admin-status');
    status.classList.toggle('error', error);
    setText(status, message);
  }

  /**
   * A button that runs `work`, then says `done` (a Message, or a function of the answer giving
   * one) and reloads the section. With `confirm`, the first press only asks ("Press again to …"):
   * deleting and disabling are not undone lightly. `label` and `confirm` are catalogue keys.
   */
  action(label, work, { done, confirm = null, danger = false } = {}) {
    return actionButton(label, async (button) => {
      try {
        const outcome = await this.provingPassword(work, button);
        if (!outcome) return;
        this.say(typeof done === 'function' ? done(outcome.result) : done);
        await this.refresh();
      } catch (failure) {
        this.say(errorMessage(failure), true);
        if (failure.kind === 'session') this.onFailure(failure);
      }
    }, { confirm, danger });
  }

  /**
   * `{result}` of `work()`. When the server wants the password typed again first (an account
   * change, more than 10 minutes after it was last proved), asks for it and does `work()` once more.
   * Null when the admin could not or would not type it: the status line says nothing was done.
   */
  async provingPassword(work, button) {
    try {
      return { result: await work() };
    } catch (failure) {
      if (failure.kind !== 'unconfirmed') throw failure;
    }
    // An account made by a provider's sign-in has no password to type: signing in again proves
    // it is them. Not knowing (a failed look-up), the dialog asks, and the server judges.
    if (!await hasPassword(this.account()).catch(() => true)) {
      this.say(msg('admin.signInAgain'), true);
      return null;
    }
    if (!await askForPassword()) {
      this.say(msg('admin.notChanged'));
      button.focus();
      return null;
    }
    return { result: await work() };
  }

  pinActions(pin) {
    const name = displayName(pin);
    return [
      hideOrShow(pin, adminApi.setHidden, (...args) => this.action(...args)),
      this.action('admin.delete', () => adminApi.deleteLocation(pin.objectId),
        { done: msg('admin.deleted', { name }), confirm: 'admin.confirmDelete', danger: true }),
    ];
  }

  async reports() {
    return reportedPins(await adminApi.reports(),
      { pinActions: (pin) => this.pinActions(pin), dismiss: adminApi.dismissReports, action: (...args) => this.action(...args) });
  }

  async posts() {
    const filter = el('label', { class: 'admin-filter' },
      el('input', { type: 'checkbox', id: 'admin-hidden-only', checked: this.hiddenOnly }), ' ', t('admin.onlyHidden'));
    filter.querySelector('input').addEventListener('change', (event) => { this.hiddenOnly = event.target.checked; this.refresh(); });
    const pins = await adminApi.locations(this.hiddenOnly);
    const list = pins.length === 0
      ? el('p', { class: 'empty-state' }, t(this.hiddenOnly ? 'admin.noHiddenPins' : 'admin.noPosts'))
      : el('ul', { class: 'admin-list', 'aria-label': t('admin.posts') }, pins.map((pin) => el('li', { class: 'admin-item', 'data-object-id': pin.objectId },
        pinSummary(pin), el('p', { class: 'admin-meta' }, t('admin.updated', { when: when(pin.updatedAt) })),
        el('div', { class: 'admin-actions' }, this.pinActions(pin)))));
    return [filter, list];
  }

  async accounts() {
    const form = el('form', { class: 'admin-search', role: 'search' },
      el('label', { for: 'admin-search' }, t('admin.findAccount')),
      el('input', { id: 'admin-search', type: 'search', value: this.search, placeholder: t('admin.searchPlaceholder'), autocomplete: 'off' }),
      el('button', { type: 'submit', class: 'button small' }, t('admin.search')));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.search = form.querySelector('input').value.trim();
      this.refresh();
    });
    const accounts = await adminApi.accounts(this.search);
    const list = accounts.length === 0
      ? el('p', { class: 'empty-state' }, t('admin.noAccounts'))
      : el('ul', { class: 'admin-list', 'aria-label': t('admin.accounts') }, accounts.map((account) => this.accountItem(account)));
    return [form, list];
  }

  accountItem(account) {
    const name = displayName(account);
    const reset = this.action('admin.resetLink', () => adminApi.passwordReset(account.key), {
      // Without a configured public URL the server gives a path: this page's origin completes it.
      done: (answer) => msg('admin.resetLinkMade', { email: account.email, hours: RESET_LINK_HOURS, url: new URL(answer.url, window.location.href).href }),
    });
    const pin = account.location;
    return el('li', { class: 'admin-item', 'data-key': account.key },
      el('div', { class: 'admin-pin' }, el('strong', {}, name), ` · ${account.email}`,
        account.isAdmin ? el('span', { class: 'badge' }, t('admin.badge.admin')) : null,
        account.disabled ? el('span', { class: 'badge warn' }, t('admin.badge.disabled')) : null),
      el('p', { class: 'admin-meta' }, t('admin.accountDates', { signedUp: when(account.createdAt), lastLogin: when(account.lastLoginAt) }), ' · ',
        pin ? t(pin.hidden ? 'admin.pinHidden' : 'admin.pin', { place: pin.mapString }) : t('admin.noPin')),
      el('div', { class: 'admin-actions' },
        account.isAdmin
          ? this.action('admin.removeAdmin', () => adminApi.changeAccount(account.key, { isAdmin: false }), { done: msg('admin.noLongerAdmin', { name }) })
          : this.action('admin.makeAdmin', () => adminApi.changeAccount(account.key, { isAdmin: true }), { done: msg('admin.nowAdmin', { name }) }),
        account.disabled
          ? this.action('admin.enable', () => adminApi.changeAccount(account.key, { disabled: false }), { done: msg('admin.enabled', { name }) })
          : this.action('admin.disable', () => adminApi.changeAccount(account.key, { disabled: true }),
            { done: msg('admin.disabled', { name }), confirm: 'admin.confirmDisable', danger: true }),
        reset));
  }

  async log() {
    return auditTable(await adminApi.audit());
  }
}
