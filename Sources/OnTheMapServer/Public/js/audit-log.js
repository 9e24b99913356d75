// The audit log as a moderator reads it, in the admin area (every course) and on a course's page
// (its own): when, who, and what, the server's record of it kept as written.
import { el } from './dom.js';
import { formatDate, t } from './i18n.js';
import { wordFor } from './reported-pins.js';

// The server's audit actions (AuditEntry.Action), with their words.
const actionKeys = {
  'hide-location': 'admin.action.hideLocation', 'show-location': 'admin.action.showLocation', 'delete-location': 'admin.action.deleteLocation',
  'approve-location': 'admin.action.approveLocation', 'decline-location': 'admin.action.declineLocation',
  'disable-account': 'admin.action.disableAccount', 'enable-account': 'admin.action.enableAccount', 'grant-admin': 'admin.action.grantAdmin',
  'revoke-admin': 'admin.action.revokeAdmin', 'issue-password-reset': 'admin.action.issuePasswordReset', 'dismiss-reports': 'admin.action.dismissReports',
  'create-course': 'admin.action.createCourse', 'change-course': 'admin.action.changeCourse', 'delete-course': 'admin.action.deleteCourse',
  'change-invite': 'admin.action.changeInvite', 'add-members': 'admin.action.addMembers', 'remove-member': 'admin.action.removeMember',
  'add-lti-platform': 'admin.action.addPlatform', 'add-lti-deployment': 'admin.action.addDeployment',
  'remove-lti-platform': 'admin.action.removePlatform', 'rotate-lti-key': 'admin.action.rotateToolKey',
};

/** "24 Nov 2026, 14:05": dates in the admin area are read, not compared. */
export function when(iso) {
  if (!iso) return t('admin.never');
  return formatDate(new Date(iso), { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/** The entries (`GET …/audit`), newest first, as a table; or a line saying there are none. */
export function auditTable(entries) {
  if (entries.length === 0) return [el('p', { class: 'empty-state' }, t('admin.noActions'))];
  return [el('table', { class: 'admin-log' },
    el('caption', { class: 'visually-hidden' }, t('admin.log.caption')),
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, t('admin.log.when')), el('th', { scope: 'col' }, t('admin.log.who')),
      el('th', { scope: 'col' }, t('admin.log.what')))),
    el('tbody', {}, entries.map((entry) => el('tr', { 'data-action': entry.action },
      el('td', {}, when(entry.at)), el('td', {}, entry.actorEmail),
      // The detail is the server's record (names, places), kept as written.
      el('td', {}, t('admin.logEntry', { action: wordFor(actionKeys, entry.action), detail: entry.detail }))))))];
}
