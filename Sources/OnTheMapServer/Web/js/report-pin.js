// "Report this pin", folded under someone else's pin popup: a reason from the server's short list,
// sent to the map's admins (POST /v1/reports).
import { reportPin } from './api.js';
import { el, isBusy, setBusy } from './dom.js';

const reasons = [
  ['spam', 'Spam or advertising'], ['offensive', 'Offensive'], ['personal-information', 'Someone’s personal information'],
  ['wrong-place', 'Not a real place'], ['other', 'Something else'],
];

/** The report control for `location`'s popup. */
export function reportControl(location) {
  const select = el('select', { 'aria-label': 'Why report this pin?' },
    reasons.map(([value, words]) => el('option', { value }, words)));
  const send = el('button', { type: 'submit' }, 'Send');
  const result = el('p', { class: 'popup-note', role: 'status' });
  const form = el('form', {}, select, send);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (isBusy(send)) return;
    setBusy(send, true);
    try {
      await reportPin(location.objectId, select.value);
      form.replaceWith(el('p', { class: 'popup-note', role: 'status' }, 'Thanks: the map’s admins will look at it.'));
    } catch (failure) {
      result.textContent = failure.message;
    } finally {
      setBusy(send, false);
    }
  });
  return el('details', { class: 'popup-report' }, el('summary', {}, 'Report this pin'), form, result);
}
