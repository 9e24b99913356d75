// Which catalogue message explains a refused request. The server's `error` text is English and is
// the wire contract for every client, not words for this page: the page says what went wrong from
// the answer's HTTP status, its Parse `code` (v1 and native families), the field it blames
// (`parameter`) and the call it answers (`context`), in the reader's language. docs/API.md, "Path
// families and error shapes", lists the codes. Pure functions: node tests them.

/** Parse's error codes the server sends (Sources/OnTheMapModel/APIError.swift, ParseErrorCode). */
export const PARSE = {
  internal: 1, notFound: 101, invalidQuery: 102, invalidJSON: 107, incorrectType: 111, tooLarge: 116,
  forbidden: 119, validation: 142, throttled: 155, duplicateRequest: 159, emailTaken: 203, invalidSession: 209,
};

/**
 * The message for a field the server refused (code 142 with `parameter`), by that field. Sign-up's
 * and the link's own checks in the page use the same keys, so a rule is worded once.
 */
export const VALIDATION_KEYS = {
  firstName: 'error.validation.firstName',
  lastName: 'error.validation.lastName',
  email: 'error.validation.email',
  password: 'error.validation.password',
  mediaURL: 'error.validation.link',
  mapString: 'error.validation.place',
  q: 'error.validation.place',
  latitude: 'error.validation.coordinates',
  longitude: 'error.validation.coordinates',
  token: 'error.validation.resetLink',
  reason: 'error.validation.reason',
  slug: 'error.validation.courseSlug',
  title: 'error.validation.courseTitle',
  list: 'error.validation.classList',
  confirm: 'error.validation.confirmCourse',
  // A learning platform's registration (LTI) and a course's grading through it.
  issuer: 'error.validation.platform',
  clientId: 'error.validation.platform',
  deploymentIds: 'error.validation.platform',
  deploymentId: 'error.validation.platform',
  name: 'error.validation.platform',
  authorizationUrl: 'error.validation.platformURL',
  jwksUrl: 'error.validation.platformURL',
  tokenUrl: 'error.validation.platformURL',
  gradePosting: 'error.validation.gradePosting',
  'udacity.username': 'login.missing',
  'udacity.password': 'login.missing',
};

/**
 * The only refusal told apart by its words: the Udacity family (`/v1/session`) carries no code,
 * and a disabled account's 403 differs from wrong credentials only in this fixed sentence
 * (APIError.accountDisabled), said only after the right password.
 */
const DISABLED_PREFIX = 'This account has been disabled';
/** A write to an archived course (APIError.courseArchived), which any call that writes may meet. */
const ARCHIVED_PREFIX = 'This course is archived';

/**
 * `{ kind, key, params }` for a refused request: `kind` for the screens' decisions (an ended
 * session logs out; see ApiError), `key` and `params` for the catalogue.
 *
 * @param {object} answer
 * @param {number} answer.status  the HTTP status
 * @param {object|null} answer.body  the parsed JSON body, if any: `{status?, code?, error, parameter?}`
 * @param {number} [answer.retryAfter]  seconds from `Retry-After` (0 when absent or unreadable)
 * @param {string} [answer.context]  the call: 'login', 'signup', 'reset', 'report', 'location', 'admin', 'confirm',
 *   'course' (reading a course's map: a refusal means it is not the caller's, or gone), 'join', 'teach'
 *   (a course's instructor's call), 'create' (a new course), or none
 */
export function describeRefusal({ status, body = null, retryAfter = 0, context = '' }) {
  const code = body && typeof body.code === 'number' ? body.code : null;
  const parameter = body && typeof body.parameter === 'string' ? body.parameter : null;
  const answer = (kind, key, params = {}) => ({ kind, key, params });
  if (status === 401) return answer('session', 'error.session');
  if (status === 429) {
    return retryAfter > 0 ? answer('throttled', 'error.throttled', { count: retryAfter }) : answer('throttled', 'error.throttledSoon');
  }
  if (status === 503) return answer('unavailable', 'error.unavailable');
  // The status is shown as digits whatever the language: it is a code to quote, not a quantity.
  if (status >= 500) return answer('server', 'error.server', { status: String(status) });
  if (status === 408) return answer('network', 'error.timeout');
  if (status === 413) return answer('invalid', 'error.tooLarge');
  if (status === 403) {
    if (body && typeof body.error === 'string' && body.error.startsWith(ARCHIVED_PREFIX)) return answer('invalid', 'error.courseArchived');
    if (context === 'course') return answer('course', 'error.notInCourse');
    if (context === 'join') return answer('invalid', 'error.inviteNotValid');
    if (context === 'teach') return answer('invalid', 'error.instructorsOnly');
    if (context === 'login') {
      const disabled = body && typeof body.error === 'string' && body.error.startsWith(DISABLED_PREFIX);
      return answer('credentials', disabled ? 'error.accountDisabled' : 'error.credentials');
    }
    // An account change when the admin last proved their password too long ago: the admin area
    // asks for it again (password-prompt.js) and makes the change once more.
    if (context === 'admin' && parameter === 'password') return answer('unconfirmed', 'error.passwordUnconfirmed');
    if (context === 'admin') return answer('invalid', 'error.adminOnly');
    // Typing the password again: the wrong one. (An account with none, made by a provider's
    // sign-in, is 403 too; the admin area never asks it for one.)
    if (context === 'confirm') return answer('credentials', 'error.wrongPassword');
    if (context === 'location') return answer('invalid', 'error.notOwner');
    return answer('invalid', 'error.forbidden');
  }
  if (status === 409) {
    if (code === PARSE.duplicateRequest) {
      // Still running (it says when to ask again), or cut off with an unknown outcome.
      return answer('conflict', retryAfter > 0 ? 'error.inProgress' : 'error.outcomeUnknown');
    }
    if (code === PARSE.emailTaken || context === 'signup') return answer('conflict', 'error.emailTaken');
    if (code === PARSE.forbidden && context === 'admin') return answer('conflict', 'error.lastAdmin');
    if (context === 'create') return answer('conflict', 'error.courseSlugTaken');
    if (context === 'teach') return answer('conflict', 'error.lastInstructor');
    return answer('conflict', 'error.conflict');
  }
  if (status === 404 && (context === 'course' || context === 'join' || context === 'teach')) return answer('course', 'error.courseGone');
  if (status === 404) return answer('invalid', 'error.notFound');
  if (status === 400 && (code === PARSE.validation || (code === null && parameter))) {
    // Reporting your own pin is the one refusal of the pin's id a person can cause.
    if (parameter === 'objectId' && context === 'report') return answer('invalid', 'error.validation.ownPin');
    return answer('invalid', VALIDATION_KEYS[parameter] || 'error.validation.other');
  }
  return answer('invalid', 'error.refused', { status: String(status) });
}

/**
 * The kind and message of a failure that is not a refusal: no answer at all, or an answer that is
 * not the API's JSON (a captive portal's page).
 */
export const NETWORK_FAILURE = { kind: 'network', key: 'error.network', params: {} };
export const UNREADABLE_ANSWER = { kind: 'server', key: 'error.unreadable', params: {} };

/**
 * The message for why a sign-in at a provider came back without logging anyone in: the server's
 * `SignInFailure.code` in `/?login-error=CODE` (docs/API.md, "Sign-in with a provider").
 */
export const SIGN_IN_FAILURES = [
  'cancelled', 'provider-unavailable', 'expired', 'invalid-token', 'no-email', 'email-unverified', 'disabled', 'throttled', 'unknown-provider',
];

/** `error.signIn.<code>` for a known code (`invalid-token` → `error.signIn.invalidToken`), else the catch-all. */
export function signInFailureKey(code) {
  if (!SIGN_IN_FAILURES.includes(code)) return 'error.signIn.failed';
  return `error.signIn.${code.replace(/-(\w)/g, (_, letter) => letter.toUpperCase())}`;
}
