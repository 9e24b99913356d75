// "Report this pin", folded under someone else's pin popup: a reason from the server's short list,
// sent to the map's admins (POST /v1/reports).
import { errorMessage, reportPin } from './api.js';
import { el, isBusy, setBusy, showMessage } from './dom.js';
import { t } from './i18n.js';

// The server's reasons (ReportReason), with the words for each.
const reasons = [
  ['spam', 'report.reason.spam'], ['offensive', 'report.reason.offensive'], ['personal-information', 'report.reason.personalInformation'],
  ['wrong-place', 'report.reason.wrongPlace'], ['other', 'report.reason.other'],
];

/** The report control for `location`'s popup. */
export function reportControl(location) {
  const select = el('select', { 'aria-label': t('report.why') },
    reasons.map(([value, key]) => el('option', { value }, t(key))));
  const send = el('button', { type: 'submit' }, t('report.send'));
  const result = el('p', { class: 'popup-note', role: 'status' });
  const form = el('form', {}, select, send);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (isBusy(send)) return;
    setBusy(send, true);
    try {
      await reportPin(location.objectId, select.value);
      form.replaceWith(el('p', { class: 'popup-note', role: 'status' }, t('report.thanks')));
    } catch (failure) {
      showMessage(result, errorMessage(failure));
    } finally {
      setBusy(send, false);
    }
  });
  return el('details', { class: 'popup-report' }, el('summary', {}, t('report.summary')), form, result);
}
