// Typing the password again. The server lets an admin change accounts only within 10 minutes of
// proving their password (logging in, or typing it here), so that a session left open on a shared
// computer cannot take accounts over; past that, the admin area asks for it in this modal dialog.
// The password goes from the field to the server and nowhere else: the field is emptied whenever
// the dialog closes.
import { confirmPassword, errorMessage } from './api.js';
import { isBusy, setBusy, setFieldError } from './dom.js';
import { msg } from './i18n.js';

const byId = (id) => document.getElementById(id);

/**
 * Asks for the password until the server takes it: true once it has, false when the admin
 * cancels (Cancel, or Escape). A wrong password, or too many tries, is said in the dialog, which
 * stays for another try. Rejects with the failure when the session has ended.
 */
export function askForPassword() {
  const dialog = byId('password-dialog');
  const field = byId('password-again');
  const error = byId('password-again-error');
  const confirm = byId('password-confirm');
  // Every listener goes when the dialog closes: an answer that arrives later changes nothing.
  const asking = new AbortController();
  const { signal } = asking;
  let ended = null;
  setFieldError(field, error, null);
  field.value = '';
  dialog.returnValue = '';
  dialog.showModal();
  field.focus();

  byId('password-cancel').addEventListener('click', () => dialog.close('cancel'), { signal });
  byId('password-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    if (isBusy(confirm)) return;
    const password = field.value;
    if (!password) {
      setFieldError(field, error, msg('passwordAgain.missing'));
      field.focus();
      return;
    }
    // Each try's answer is its own: the last one's message goes as this one is sent.
    setFieldError(field, error, null);
    setBusy(confirm, true);
    try {
      await confirmPassword(password);
      if (!signal.aborted) dialog.close('confirmed');
    } catch (failure) {
      if (signal.aborted) return;
      if (failure.kind === 'session') {
        ended = failure;
        dialog.close('ended');
        return;
      }
      setFieldError(field, error, errorMessage(failure));
      field.focus();
      field.select();
    } finally {
      setBusy(confirm, false);
    }
  }, { signal });

  return new Promise((resolve, reject) => {
    dialog.addEventListener('close', () => {
      asking.abort();
      field.value = '';
      setFieldError(field, error, null);
      if (ended) reject(ended);
      else resolve(dialog.returnValue === 'confirmed');
    }, { signal });
  });
}
