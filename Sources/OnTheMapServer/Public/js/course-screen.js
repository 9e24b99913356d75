// A course's page for its instructors (#/course/{slug}/roster, …/reports, …/hours, …/invite, …/log,
// …/settings): who is in the class and who has posted, adding a class list, the pins waiting for
// approval and those reported,
// what was done to the course (its audit log), the class by time zone with the hours
// that suit it for a live session, the invite link with its QR code, and the course's settings,
// export, embed code and deletion. The server decides who may (CourseAccess): anyone else
// is told so, and nothing changes.
import { errorMessage } from './api.js';
import { auditTable } from './audit-log.js';
import { courseApi } from './course-api.js';
import { el, isBusy, setBusy } from './dom.js';
import { formatDate, msg, setText, t } from './i18n.js';
import { knowCourses } from './loader.js';
import { displayName } from './people.js';
import { qrCode } from './qr-code.js';
import { hideOrShow, pinBadge, pinSummary, reportedPins } from './reported-pins.js';
import { actionButton, selectSectionTab, wireSectionTabs } from './section-tabs.js';
import { classHours, WAKING } from './class-hours.js';

const byId = (id) => document.getElementById(id);
export const courseSections = ['roster', 'reports', 'hours', 'invite', 'log', 'settings'];

const when = (iso) => formatDate(new Date(iso), { day: 'numeric', month: 'short', year: 'numeric' });

export class CourseScreen {
  /** `onFailure(failure)`: an ended session, or a course that is not the caller's to manage. */
  constructor(onFailure) {
    this.onFailure = onFailure;
    this.slug = null;
    this.section = 'roster';
    wireSectionTabs('course-screen', 'course', courseSections,
      { hashOf: (section) => `#/course/${this.slug}/${section}`, current: () => this.section });
  }

  async show(slug, section) {
    if (slug !== this.slug) this.say('');
    this.slug = slug;
    this.section = courseSections.includes(section) ? section : 'roster';
    selectSectionTab('course', courseSections, this.section);
    await this.refresh();
  }

  async refresh() {
    const content = byId('course-content');
    content.setAttribute('aria-busy', 'true');
    try {
      this.course = await courseApi.show(this.slug);
      byId('course-screen-title').textContent = this.course.title;
      const render = {
        roster: () => this.roster(), reports: () => this.reports(), hours: () => this.hours(), log: async () => auditTable(await courseApi.audit(this.slug)), invite: () => this.invite(), settings: () => this.settings(),
      }[this.section];
      content.replaceChildren(...(await render()).filter(Boolean));
      content.dataset.section = this.section;
    } catch (failure) {
      this.say(errorMessage(failure), true);
      content.replaceChildren();
      if (failure.kind === 'session' || failure.kind === 'course') this.onFailure(failure);
    } finally {
      content.removeAttribute('aria-busy');
    }
  }

  say(message, error = false) {
    const status = byId('course-status');
    status.classList.toggle('error', error);
    setText(status, message);
  }

  /** A button that runs `work()`, says `done` (a Message, or a function of the answer) and redraws. */
  action(label, work, { done, confirm = null, danger = false, primary = false } = {}) {
    return actionButton(label, async () => {
      try {
        const result = await work();
        this.say(typeof done === 'function' ? done(result) : done);
        await this.refresh();
      } catch (failure) {
        this.say(errorMessage(failure), true);
        if (failure.kind === 'session') this.onFailure(failure);
      }
    }, { confirm, danger, primary });
  }

  async roster() {
    const { results: members, waiting, platform } = await courseApi.roster(this.slug);
    // Those a linked learning platform lists who have not opened the map: they have not posted either.
    const notYetHere = platform ? platform.notYetHere : [];
    const students = members.filter((member) => member.role === 'student');
    const posted = students.filter((member) => member.location).length;
    const count = students.length + notYetHere.filter((person) => person.role === 'student').length;
    const summary = el('p', { class: 'admin-meta', id: 'roster-summary' }, t('course.roster.summary', { posted, count }));
    const awaiting = members.filter((member) => member.location && member.location.awaitingApproval).length;
    const approvals = awaiting ? el('p', { class: 'notice', id: 'approvals-notice' },
      el('a', { href: `#/course/${this.slug}/reports` }, t('course.approvals.count', { count: awaiting }))) : null;
    const rows = members.map((member) => {
      const name = displayName(member);
      const pin = member.location;
      return el('li', { class: 'admin-item', 'data-key': member.key, 'data-posted': String(Boolean(pin)) },
        el('div', { class: 'admin-pin' }, el('strong', {}, name), ` · ${member.email}`,
          member.role === 'instructor' ? el('span', { class: 'badge' }, t('courses.instructor')) : null, pin ? pinBadge(pin) : null),
        el('p', { class: 'admin-meta' }, pin ? t('course.roster.posted', { place: pin.mapString, when: when(pin.updatedAt) }) : t('course.roster.notPosted')),
        el('div', { class: 'admin-actions' }, pin && pin.awaitingApproval ? this.approveOrDecline({ ...pin, firstName: member.firstName, lastName: member.lastName }) : null,
          this.action('course.roster.remove', () => courseApi.remove(this.slug, member.key),
            { done: msg('course.roster.removed', { name }), confirm: 'course.roster.confirmRemove', danger: true })));
    });
    const pending = waiting.map((entry) => el('li', { class: 'admin-item', 'data-email': entry.email },
      el('div', { class: 'admin-pin' }, entry.email), el('p', { class: 'admin-meta' }, t('course.roster.waiting')),
      el('div', { class: 'admin-actions' }, this.action('course.roster.remove', () => courseApi.remove(this.slug, entry.email),
        { done: msg('course.roster.removed', { name: entry.email }), confirm: 'course.roster.confirmRemove', danger: true }))));
    const listed = notYetHere.map((person) => el('li', { class: 'admin-item', 'data-platform-person': person.name, 'data-posted': 'false' },
      el('div', { class: 'admin-pin' }, el('strong', {}, person.name), person.email ? ` · ${person.email}` : '',
        person.role === 'instructor' ? el('span', { class: 'badge' }, t('courses.instructor')) : null),
      el('p', { class: 'admin-meta' }, t('course.roster.notOpened', { platform: person.platform }))));
    const unread = platform && platform.unavailable.length
      ? el('p', { class: 'notice', id: 'platform-roster-unavailable' }, t('course.roster.platformUnavailable', { platforms: platform.unavailable.join(', ') }))
      : null;
    return [summary, approvals, unread, el('ul', { class: 'admin-list', 'aria-label': t('course.tabs.roster') }, rows, pending, listed), this.addForm()];
  }

  /** Approve (or decline) a pin that waits for it, or hide (or show again) another. */
  approveOrDecline(pin) {
    return hideOrShow(pin, (objectId, hidden) => courseApi.setHidden(this.slug, objectId, hidden), (...args) => this.action(...args));
  }

  /**
   * The pins waiting for approval (when the course asks for it, or some still wait), then the
   * reported pins: hide one (or show it again), or dismiss its reports.
   */
  async reports() {
    const action = (...args) => this.action(...args);
    const [waiting, reported] = await Promise.all([courseApi.approvals(this.slug), courseApi.reports(this.slug)]);
    const approvals = this.course.approvalRequired || waiting.length ? [
      el('h2', { class: 'section-heading', id: 'approvals-heading' }, t('course.approvals')),
      waiting.length === 0 ? el('p', { class: 'empty-state' }, t('course.approvals.none'))
        : el('ul', { class: 'admin-list', id: 'approvals', 'aria-labelledby': 'approvals-heading' }, waiting.map((pin) => el('li',
          { class: 'admin-item', 'data-object-id': pin.objectId }, pinSummary(pin),
          el('p', { class: 'admin-meta' }, t('course.approvals.written', { when: when(pin.updatedAt) })),
          el('div', { class: 'admin-actions' }, this.approveOrDecline(pin))))),
      el('h2', { class: 'section-heading' }, t('admin.reportedPins')),
    ] : [];
    return [...approvals, ...reportedPins(reported, {
      pinActions: (pin) => [this.approveOrDecline(pin)], dismiss: (objectId) => courseApi.dismissReports(this.slug, objectId), action,
    })];
  }

  /** The students by time zone (from their pins' places) and the week's hours that suit most of them. */
  async hours() {
    const { results: members } = await courseApi.roster(this.slug);
    const zones = members.filter((member) => member.role === 'student' && member.location).map((member) => member.timeZone || null);
    if (zones.length === 0) return [el('p', { class: 'empty-state' }, t('course.hours.none'))];
    const { byZone, unknown, best } = classHours(zones);
    const total = zones.length;
    const time = { hour: '2-digit', minute: '2-digit' };
    const windows = best.map((window) => el('li', { class: 'admin-item' }, t('course.hours.suits', {
      when: t('course.hours.window', { day: formatDate(window.from, { weekday: 'long', day: 'numeric', month: 'short' }),
        from: formatDate(window.from, time), to: formatDate(window.to, time) }),
      count: window.count, total,
    })));
    const now = new Date();
    const offset = (minutes) => `UTC${minutes < 0 ? '−' : '+'}${String(Math.floor(Math.abs(minutes) / 60)).padStart(2, '0')}:${String(Math.abs(minutes) % 60).padStart(2, '0')}`;
    const table = el('table', { class: 'admin-log', id: 'class-zones' },
      el('caption', { class: 'section-heading' }, t('course.hours.zones')),
      el('thead', {}, el('tr', {}, ...['course.hours.zone', 'course.hours.offset', 'course.hours.localTime', 'course.hours.students']
        .map((key) => el('th', { scope: 'col' }, t(key))))),
      el('tbody', {}, byZone.map(({ zone, count, offset: minutes }) => el('tr', { 'data-zone': zone },
        el('td', { translate: 'no' }, zone.replace(/_/g, ' ')), el('td', { translate: 'no', dir: 'ltr' }, offset(minutes)),
        el('td', {}, formatDate(now, { ...time, weekday: 'short', timeZone: zone })), el('td', {}, String(count))))));
    return [
      el('h2', { class: 'section-heading' }, t('course.hours.best')),
      el('p', { class: 'admin-meta' }, t('course.hours.rule', { from: WAKING.from, to: WAKING.to })),
      el('ol', { class: 'admin-list', id: 'class-hours' }, windows),
      table,
      unknown ? el('p', { class: 'admin-meta' }, t('course.hours.unknown', { count: unknown })) : null,
    ];
  }

  addForm() {
    const list = el('textarea', { id: 'class-list', rows: 5, 'aria-describedby': 'class-list-hint' });
    const add = el('button', { type: 'submit', class: 'button small primary' }, t('course.roster.addButton'));
    const form = el('form', { class: 'admin-item course-add', novalidate: true },
      el('h2', { class: 'section-heading' }, t('course.roster.add')),
      el('label', { for: 'class-list' }, t('course.roster.addLabel')),
      el('p', { class: 'hint', id: 'class-list-hint' }, t('course.roster.addHint')), list, el('div', { class: 'course-actions' }, add));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      if (isBusy(add)) return;
      setBusy(add, true);
      try {
        const answer = await courseApi.add(this.slug, list.value);
        this.say(msg('course.roster.added', { added: answer.added.length, waiting: answer.waiting.length, members: answer.alreadyMembers.length }));
        await this.refresh();
      } catch (failure) {
        this.say(errorMessage(failure), true);
      } finally {
        setBusy(add, false);
      }
    });
    return form;
  }

  async invite() {
    const { invite } = this.course;
    const link = new URL(invite.url, location.href).href;
    if (!invite.enabled) {
      return [el('p', { class: 'notice' }, t('course.invite.off')),
        el('div', { class: 'course-actions' }, this.action('course.invite.turnOn', () => courseApi.setInvite(this.slug, { enabled: true }),
          { done: msg('course.invite.on'), primary: true }))];
    }
    const copy = el('button', { type: 'button', class: 'button small' }, t('course.invite.copy'));
    copy.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(link);
        this.say(msg('course.invite.copied'));
      } catch {
        byId('invite-link').select();
      }
    });
    const code = await qrCode(link, t('course.invite.qr'));
    return [
      el('p', {}, t('course.invite.text')),
      el('label', { for: 'invite-link' }, t('course.invite.label')),
      // A text area, not a field: the whole link shows, wrapped, on a phone too.
      el('textarea', { id: 'invite-link', readonly: true, rows: 2, translate: 'no', dir: 'ltr' }, link),
      el('div', { class: 'course-actions' }, copy,
        this.action('course.invite.renew', () => courseApi.setInvite(this.slug, { new: true }),
          { done: msg('course.invite.renewed'), confirm: 'course.invite.confirmRenew' }),
        this.action('course.invite.turnOff', () => courseApi.setInvite(this.slug, { enabled: false }), { done: msg('course.invite.isOff') })),
      code ? el('figure', { class: 'invite-qr' }, code) : el('p', { class: 'admin-meta' }, t('course.invite.noQr')),
    ];
  }

  async settings() {
    const course = this.course;
    const graded = typeof course.gradePosting === 'boolean' ? course.gradePosting : null;
    const choice = (name, value, key) => el('label', { class: 'candidate' },
      el('input', { type: 'radio', name, value, checked: course[name] === value }), ' ', el('span', {}, t(key)));
    const form = el('form', { class: 'admin-item', id: 'course-settings', novalidate: true },
      el('div', { class: 'field' }, el('label', { for: 'settings-title' }, t('courses.newTitle')),
        el('input', { id: 'settings-title', name: 'title', maxlength: 120, value: course.title, required: true })),
      el('fieldset', { class: 'candidates' }, el('legend', {}, t('course.visibility')),
        choice('visibility', 'members', 'course.visibility.members'), choice('visibility', 'link', 'course.visibility.link')),
      el('fieldset', { class: 'candidates' }, el('legend', {}, t('course.names')),
        choice('namesShown', 'full', 'course.names.full'), choice('namesShown', 'initials', 'course.names.initials')),
      // The default course's pins show at once (its old apps know nothing of waiting).
      course.slug === 'default' ? null
        : el('label', { class: 'admin-filter' }, el('input', { type: 'checkbox', name: 'approvalRequired', checked: course.approvalRequired }), ' ', t('course.approval')),
      el('label', { class: 'admin-filter' }, el('input', { type: 'checkbox', name: 'archived', checked: course.archived }), ' ', t('course.archive')),
      // Offered when a linked learning platform course has a grade book (LTI/LTIGrades.swift).
      graded === null ? null
        : el('label', { class: 'admin-filter' }, el('input', { type: 'checkbox', name: 'gradePosting', id: 'course-grading', checked: graded }), ' ', t('course.grading')),
      el('div', { class: 'course-actions' }, el('button', { type: 'submit', class: 'button small primary' }, t('course.save'))));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const data = new FormData(form);
      try {
        await courseApi.change(this.slug, {
          title: String(data.get('title')).trim(), visibility: data.get('visibility'), namesShown: data.get('namesShown'),
          ...(course.slug === 'default' ? {} : { approvalRequired: data.get('approvalRequired') === 'on' }), archived: data.get('archived') === 'on',
          // Sent when changed only: turning it on asks the platforms' grade books.
          ...(graded === null || (data.get('gradePosting') === 'on') === graded ? {} : { gradePosting: data.get('gradePosting') === 'on' }),
        });
        this.say(msg('course.saved'));
        knowCourses();
        await this.refresh();
      } catch (failure) {
        this.say(errorMessage(failure), true);
      }
    });
    const exports = el('p', { class: 'admin-export' }, t('course.export'), ' ',
      el('a', { href: courseApi.exportURL(this.slug, 'geojson'), download: true, translate: 'no' }, 'GeoJSON'), ' · ',
      el('a', { href: courseApi.exportURL(this.slug, 'csv'), download: true, translate: 'no' }, 'CSV'));
    return [form, exports, this.embedSnippet(), this.deleteForm()];
  }

  /** The `iframe` that puts the course's map on a course page, for a map readable by link. */
  embedSnippet() {
    const heading = el('h2', { class: 'section-heading' }, t('course.embed'));
    if (this.course.visibility !== 'link') return el('div', { class: 'admin-item' }, heading, el('p', { class: 'admin-meta' }, t('course.embed.needsLink')));
    const source = new URL(`/c/${this.slug}/embed`, location.href).href;
    const title = this.course.title.replace(/[&"<>]/g, (character) => `&#${character.charCodeAt(0)};`);
    const code = `<iframe src="${source}" title="${title}" width="100%" height="480" style="border:0" loading="lazy"></iframe>`;
    return el('div', { class: 'admin-item' }, heading, el('p', {}, t('course.embed.text')),
      el('label', { for: 'embed-code' }, t('course.embed.label')),
      el('textarea', { id: 'embed-code', rows: 3, readonly: true, translate: 'no', dir: 'ltr' }, code));
  }

  deleteForm() {
    const input = el('input', { id: 'delete-confirm', autocomplete: 'off', spellcheck: 'false', translate: 'no' });
    const button = el('button', { type: 'submit', class: 'button small danger' }, t('course.delete'));
    const form = el('form', { class: 'admin-item', novalidate: true },
      el('label', { for: 'delete-confirm' }, t('course.deleteLabel', { slug: this.slug })), input, el('div', { class: 'course-actions' }, button));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      if (isBusy(button)) return;
      setBusy(button, true);
      try {
        await courseApi.delete(this.slug, input.value.trim());
        await knowCourses();
        location.hash = '#/courses';
        byId('courses-status').textContent = t('course.deleted', { course: this.course.title });
      } catch (failure) {
        this.say(errorMessage(failure), true);
      } finally {
        setBusy(button, false);
      }
    });
    return form;
  }
}
