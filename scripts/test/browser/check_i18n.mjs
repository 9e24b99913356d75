// Unit checks of the web client's internationalisation, in node (no browser, no server):
//
//   node scripts/test/browser/check_i18n.mjs
//
// i18n.js's choice of language and its lookup (plurals, placeholders, numbers, the English
// fallback, right-to-left isolation), and api-errors.js's choice of message for a refused request.
// Catalogues in other languages are made up here: the checks do not depend on which ship.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { clientModule } from './web_modules.mjs';

const i18n = await clientModule('i18n.js');
const en = (await clientModule('locales/en.js')).default;
const errors = await clientModule('api-errors.js');
const { matchLanguage, chooseLanguage, createTranslator, formattingLocale, SUPPORTED, msg, lazy, t } = i18n;
// Which language a reader gets: exact, then by primary subtag, Chinese by script.
const all = SUPPORTED.map((l) => l.code);
// The cases the server's choice is held to as well (ReaderLanguageTests).
const table = JSON.parse(readFileSync(new URL('../web/language-matches.json', import.meta.url), 'utf8'));
assert.deepEqual(table.codes, all, 'language-matches.json names the catalogues that ship');
for (const [tag, code] of table.matches) assert.equal(matchLanguage(tag, all), code, `matchLanguage('${tag}')`);
assert.equal(chooseLanguage({ remembered: null, preferred: ['nl', 'pt-PT', 'en'], codes: all }), 'pt-BR');
assert.equal(chooseLanguage({ remembered: 'ja', preferred: ['pt-PT'], codes: all }), 'ja');
assert.equal(chooseLanguage({ remembered: 'xx', preferred: ['zh-TW', 'zh-CN'], codes: all }), 'zh-CN');
assert.equal(chooseLanguage({ remembered: null, preferred: ['nl'], codes: all }), 'en');
assert.equal(chooseLanguage({ remembered: null, preferred: ['fr-CA'], codes: ['en'] }), 'en', 'only shipped catalogues are chosen');
assert.equal(chooseLanguage({ remembered: null, preferred: ['fr-CA'] }), 'fr', 'every catalogue ships');
assert.equal(formattingLocale('en', ['en-GB', 'de']), 'en-GB');
assert.equal(formattingLocale('en', ['de']), 'en');
assert.equal(formattingLocale('pt-BR', ['pt-PT']), 'pt-BR');

// English: plurals by count, numbers written the English way, unknown keys as themselves.
const tr = createTranslator(en, en, 'en');
assert.equal(tr.t('status.showing', { count: 1 }), 'Showing 1 post');
assert.equal(tr.t('status.showing', { count: 1000 }), 'Showing 1,000 posts');
assert.equal(tr.t('error.throttled', { count: 1 }), 'Too many attempts. Try again in 1 second.');
assert.equal(tr.t('error.throttled', { count: 30 }), 'Too many attempts. Try again in 30 seconds.');
assert.equal(tr.t('map.show.latest', { count: 1000 }), 'Latest 1,000');
assert.equal(tr.t('error.server', { status: '503' }), 'The server ran into a problem (503). Try again later.');
const warnings = [];
const quiet = createTranslator(en, en, 'en', { warn: (w) => warnings.push(w) });
assert.equal(quiet.t('no.such.key'), 'no.such.key');
quiet.t('no.such.key');
assert.equal(warnings.length, 1);
// A partial French catalogue: its own where it has one, English otherwise, French numbers.
const fr = { meta: { language: 'fr' }, messages: { 'status.showing': { one: '{count} publication', other: '{count} publications' } } };
const trFr = createTranslator(fr, en, 'fr');
assert.equal(trFr.t('status.showing', { count: 1500 }), '1\u202f500 publications');
assert.equal(trFr.t('status.showing', { count: 0 }), '0 publication');   // French: 0 is "one"
assert.equal(trFr.t('list.new'), 'New');
// Arabic: its six plural categories; names and English stand-ins isolated from the right-to-left text.
const ar = { meta: { language: 'ar' }, messages: { 'status.showing': { zero: 'لا منشورات', one: 'منشور واحد', two: 'منشوران', few: '{count} منشورات', many: '{count} منشورًا', other: '{count} منشور' }, 'people.you': '{name} (أنت)' } };
const trAr = createTranslator(ar, en, 'ar', { dir: 'rtl' });
assert.equal(trAr.t('status.showing', { count: 3 }), `${new Intl.NumberFormat('ar').format(3)} منشورات`);
assert.equal(trAr.t('status.showing', { count: 2 }), 'منشوران');
assert.equal(trAr.t('people.you', { name: 'Ada' }), '\u2068Ada\u2069 (أنت)');
// English standing in under Arabic: English's plural rules, Arabic's numbers.
assert.equal(trAr.t('error.throttled', { count: 1 }), `\u2068Too many attempts. Try again in ${new Intl.NumberFormat('ar').format(1)} second.\u2069`);
// Placeholders filled when shown: functions and Messages.
assert.equal(tr.t('status.offline', { when: () => 'at 11:20' }), 'You’re offline: showing the posts saved at 11:20.');
assert.equal(String(msg('post.notSaved', { reason: msg('error.session') })), 'Your pin wasn’t saved. Your session has ended. Please log in again.');
assert.equal(String(lazy(() => t('list.new'))), 'New');
assert.equal(tr.relativeTime(-3, 'hour'), '3 hours ago');
assert.equal(tr.formatList(['spam', 'offensive']), 'spam, offensive');

// Refusals: the message from status, code, parameter and call, never from the server's words
// (except the one sentence the Udacity family gives a disabled account).
const d = errors.describeRefusal;
assert.deepEqual(d({ status: 401 }), { kind: 'session', key: 'error.session', params: {} });
assert.deepEqual(d({ status: 429, retryAfter: 12 }), { kind: 'throttled', key: 'error.throttled', params: { count: 12 } });
assert.equal(d({ status: 429 }).key, 'error.throttledSoon');
assert.equal(d({ status: 503 }).key, 'error.unavailable');
assert.deepEqual(d({ status: 500 }), { kind: 'server', key: 'error.server', params: { status: '500' } });
assert.equal(d({ status: 403, context: 'login', body: { status: 403, error: 'Account not found or invalid credentials.' } }).key, 'error.credentials');
assert.equal(d({ status: 403, context: 'login', body: { status: 403, error: 'This account has been disabled by an admin of this map.' } }).key, 'error.accountDisabled');
assert.equal(d({ status: 403, context: 'login' }).kind, 'credentials');
assert.equal(d({ status: 403, context: 'location', body: { code: 119 } }).key, 'error.notOwner');
assert.equal(d({ status: 403, context: 'admin', body: { code: 119 } }).key, 'error.adminOnly');
assert.equal(d({ status: 409, context: 'signup', body: { code: 203, parameter: 'email' } }).key, 'error.emailTaken');
// An admin changing an account must type their password again (the server's window has passed);
// typing it wrong, or too often, is said in the question's own words.
assert.deepEqual(d({ status: 403, context: 'admin', body: { code: 119, parameter: 'password' } }), { kind: 'unconfirmed', key: 'error.passwordUnconfirmed', params: {} });
assert.deepEqual(d({ status: 403, context: 'confirm', body: { code: 119 } }), { kind: 'credentials', key: 'error.wrongPassword', params: {} });
assert.deepEqual(d({ status: 429, context: 'confirm', retryAfter: 42 }), { kind: 'throttled', key: 'error.throttled', params: { count: 42 } });
assert.equal(d({ status: 409, context: 'admin', body: { code: 119 } }).key, 'error.lastAdmin');
assert.equal(d({ status: 409, body: { code: 159 }, retryAfter: 1 }).key, 'error.inProgress');
assert.equal(d({ status: 409, body: { code: 159 } }).key, 'error.outcomeUnknown');
assert.equal(d({ status: 400, body: { code: 142, parameter: 'password' }, context: 'signup' }).key, 'error.validation.password');
assert.equal(d({ status: 400, body: { code: 142, parameter: 'mediaURL' } }).key, 'error.validation.link');
assert.equal(d({ status: 400, body: { code: 142, parameter: 'token' }, context: 'reset' }).key, 'error.validation.resetLink');
assert.equal(d({ status: 400, body: { code: 142, parameter: 'objectId' }, context: 'report' }).key, 'error.validation.ownPin');
assert.equal(d({ status: 400, body: { code: 142, parameter: 'hidden' }, context: 'admin' }).key, 'error.validation.other');
assert.equal(d({ status: 400, body: { status: 400, parameter: 'udacity.password', error: "Missing parameter 'password'." }, context: 'login' }).key, 'login.missing');
assert.deepEqual(d({ status: 400, body: { code: 107 } }), { kind: 'invalid', key: 'error.refused', params: { status: '400' } });
assert.equal(d({ status: 404, body: { code: 101 } }).key, 'error.notFound');
assert.equal(d({ status: 413 }).key, 'error.tooLarge');
assert.equal(errors.signInFailureKey('invalid-token'), 'error.signIn.invalidToken');
assert.equal(errors.signInFailureKey('whatever'), 'error.signIn.failed');
for (const code of errors.SIGN_IN_FAILURES) assert.ok(en.messages[errors.signInFailureKey(code)], code);
for (const key of Object.values(errors.VALIDATION_KEYS)) assert.ok(en.messages[key], key);
console.log('check_i18n: ok');
