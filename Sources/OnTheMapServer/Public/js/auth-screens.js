// Login and sign-up. Nothing typed here is kept: the fields are cleared once the server has
// answered yes, and the session lives in an HttpOnly cookie the page cannot read.
import { errorMessage, logIn, resetPassword, signUp } from './api.js';
import { isBusy, setBusy, showMessage } from './dom.js';
import { msg } from './i18n.js';

// A password's length, in characters, as the server counts it (docs/API.md, "Passwords").
const PASSWORD_MIN = 8;
const PASSWORD_MAX = 128;

const byId = (id) => document.getElementById(id);

/** Wires both forms; `onLoggedIn` runs after a successful login or sign-up. */
export function setUpAuthScreens(onLoggedIn) {
  const loginForm = byId('login-form');
  // The page shows the form before this script arrives, with its button off until now.
  byId('login-button').disabled = false;
  loginForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    const email = byId('login-email');
    const password = byId('login-password');
    const error = byId('login-error');
    if (!email.value.trim() || !password.value) {
      showMessage(error, msg('login.missing'));
      (email.value.trim() ? password : email).focus();
      return;
    }
    await submit(byId('login-button'), error, () => logIn(email.value.trim(), password.value), () => {
      loginForm.reset();
      onLoggedIn();
    });
  });

  const signupForm = byId('signup-form');
  signupForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    const error = byId('signup-error');
    const fields = {
      firstName: byId('signup-first').value.trim(),
      lastName: byId('signup-last').value.trim(),
      email: byId('signup-email').value.trim(),
      password: byId('signup-password').value,
    };
    const problem = signUpProblem(fields);
    if (problem) {
      showMessage(error, problem.message);
      byId(problem.field).focus();
      return;
    }
    await submit(byId('signup-button'), error, () => signUp(fields), () => {
      signupForm.reset();
      onLoggedIn();
    });
  });
}

/**
 * The new-password form of an admin's reset link (`#/reset/TOKEN`); `token()` reads the token
 * from the address when the form is sent.
 */
export function setUpResetScreen(token) {
  const form = byId('reset-form');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const password = byId('reset-password');
    const error = byId('reset-error');
    showMessage(byId('reset-done'), '');
    if (password.value.length < PASSWORD_MIN || password.value.length > PASSWORD_MAX) {
      showMessage(error, msg('error.validation.passwordLength', { min: PASSWORD_MIN, max: PASSWORD_MAX }));
      password.focus();
      return;
    }
    await submit(byId('reset-button'), error, () => resetPassword(token(), password.value), () => {
      form.reset();
      showMessage(byId('reset-done'), msg('reset.done'));
    });
  });
}

/** Runs `call` with the button busy; shows its failure in `errorNode`, else runs `then`. */
async function submit(button, errorNode, call, then) {
  if (isBusy(button)) return;
  showMessage(errorNode, '');
  setBusy(button, true);
  try {
    await call();
  } catch (failure) {
    showMessage(errorNode, errorMessage(failure));
    return;
  } finally {
    setBusy(button, false);
  }
  then();
}

/** The first thing wrong with a sign-up, checked here so the answer is instant. */
function signUpProblem({ firstName, lastName, email, password }) {
  if (!firstName) return { field: 'signup-first', message: msg('error.validation.firstName') };
  if (!lastName) return { field: 'signup-last', message: msg('error.validation.lastName') };
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) return { field: 'signup-email', message: msg('error.validation.email') };
  if (password.length < PASSWORD_MIN) return { field: 'signup-password', message: msg('error.validation.passwordShort', { min: PASSWORD_MIN }) };
  if (password.length > PASSWORD_MAX) return { field: 'signup-password', message: msg('error.validation.passwordLong', { max: PASSWORD_MAX }) };
  return null;
}
