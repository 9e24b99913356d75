// The page's words in the reader's language. Every user-visible string lives in a catalogue,
// js/locales/<code>.js (English is the reference and the fallback), looked up by a dotted key:
// `t('list.empty')`. The static page marks its text with `data-i18n="key"` (its text) and
// `data-i18n-attr="aria-label:key; placeholder:key"` (attributes) and keeps its English inline,
// so it reads before any script has run. Numbers, dates and times go through `Intl` in the
// chosen language.
//
// The lookup itself (`createTranslator`) touches neither the DOM nor the browser's settings, so
// node can exercise it (scripts/test/browser/check_catalogues.mjs); only `setLanguage`,
// `translatePage` and `setText` reach for the document.
import english from './locales/en.js';

/**
 * The languages the client is written for, by BCP 47 code, with the name each gives itself (a
 * reader who cannot read the current language still finds their own in the switch).
 */
export const SUPPORTED = [
  { code: 'en', name: 'English', dir: 'ltr' },
  { code: 'es', name: 'Español', dir: 'ltr' },
  { code: 'pt-BR', name: 'Português (Brasil)', dir: 'ltr' },
  { code: 'fr', name: 'Français', dir: 'ltr' },
  { code: 'de', name: 'Deutsch', dir: 'ltr' },
  { code: 'ar', name: 'العربية', dir: 'rtl' },
  { code: 'hi', name: 'हिन्दी', dir: 'ltr' },
  { code: 'zh-CN', name: '简体中文', dir: 'ltr' },
  { code: 'ja', name: '日本語', dir: 'ltr' },
  { code: 'ru', name: 'Русский', dir: 'ltr' },
  { code: 'tr', name: 'Türkçe', dir: 'ltr' },
  { code: 'id', name: 'Bahasa Indonesia', dir: 'ltr' },
];

/**
 * The languages whose catalogue ships, js/locales/<code>.js: the only ones chosen and offered.
 * Adding a language: its catalogue file, its code here, and its path in sw.js's SHELL_FILES
 * (check_catalogues.mjs checks the three agree).
 */
export const CATALOGUES = ['en', 'es', 'pt-BR', 'fr', 'de', 'ar', 'hi', 'zh-CN', 'ja', 'ru', 'tr', 'id'];

/** Where the reader's own choice is remembered (this device, across logins). */
export const STORAGE_KEY = 'onthemap.language';

/**
 * The cookie that tells the server the reader's choice, so that the page comes in that language
 * (WebClient/ReaderLanguage.swift). Not a secret: read by the server, written here.
 */
const COOKIE = 'otm_language';

/** Two-letter codes older systems still send for a language (Java and Android say `in`). */
const ALIASES = { in: 'id' };

/** The entry of SUPPORTED for `code` (English for an unknown one). */
export function languageInfo(code) {
  return SUPPORTED.find((language) => language.code === code) || SUPPORTED[0];
}

/**
 * The code among `codes` that serves a reader asking for `tag` (a BCP 47 tag from the browser),
 * or null: the same tag whatever its case, else the same primary language (`pt-PT` → `pt-BR`,
 * `es-419` → `es`, `en-GB` → `en`). Chinese goes by script: Simplified (`zh`, `zh-Hans…`,
 * `zh-CN`, `zh-SG`, `zh-MY`) is `zh-CN`; Traditional (`zh-Hant…`, `zh-TW`, `zh-HK`, `zh-MO`) is not
 * offered it, since a reader of one script may well not read the other.
 */
export function matchLanguage(tag, codes = CATALOGUES) {
  if (typeof tag !== 'string' || !tag) return null;
  const lower = tag.toLowerCase().replace(/_/g, '-');
  const exact = codes.find((code) => code.toLowerCase() === lower);
  if (exact) return exact;
  const parts = lower.split('-');
  const primary = ALIASES[parts[0]] || parts[0];
  if (primary === 'zh') {
    const traditional = parts.includes('hant') || (['tw', 'hk', 'mo'].includes(parts[1]) && !parts.includes('hans'));
    return !traditional && codes.includes('zh-CN') ? 'zh-CN' : null;
  }
  return codes.find((code) => code.toLowerCase().split('-')[0] === primary) || null;
}

/** The browser's preferred languages, best first (none outside a browser). */
export function browserLanguages() {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages && navigator.languages.length ? [...navigator.languages] : [navigator.language].filter(Boolean);
}

/** The remembered choice, or null (storage can be switched off or throw in private windows). */
export function rememberedLanguage() {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

/**
 * The language the server sent the page in (`data-language` on the root element), chosen as
 * `chooseLanguage` chooses, from the cookie and `Accept-Language`; null outside such a page.
 */
export function pageLanguage() {
  return typeof document === 'undefined' ? null : document.documentElement.getAttribute('data-language');
}

/**
 * The language to start in: the reader's remembered choice, else the one the server sent the page
 * in (its catalogue was named beside the scripts, so it is on its way), else the first of the
 * browser's languages that one of `codes` serves (see matchLanguage), else English.
 */
export function chooseLanguage({ remembered = rememberedLanguage(), chosen = pageLanguage(), preferred = browserLanguages(), codes = CATALOGUES } = {}) {
  if (remembered && codes.includes(remembered)) return remembered;
  if (chosen && codes.includes(chosen)) return chosen;
  for (const tag of preferred) {
    const match = matchLanguage(tag, codes);
    if (match) return match;
  }
  return 'en';
}

/**
 * The locale numbers and dates are written in: the reader's own regional variant when it is of the
 * chosen language and the catalogue names no region (`en` read by an `en-GB` browser writes
 * "14:05" and "3 Nov", as before), else the catalogue's code.
 */
export function formattingLocale(code, preferred = browserLanguages()) {
  if (!code.includes('-')) {
    for (const tag of preferred) {
      if (typeof tag !== 'string' || tag.toLowerCase().split('-')[0] !== code) continue;
      try {
        return Intl.getCanonicalLocales(tag)[0];
      } catch {
        break;   // not a well-formed tag: the catalogue's own code
      }
    }
  }
  return code;
}

/**
 * A message that is put into words when shown, in the language of that moment: what `msg` and
 * `lazy` make. Nodes given one through `setText` say it again after the language changes.
 */
export class Message {
  constructor(render) {
    this.render = render;
  }

  toString() {
    return this.render();
  }
}

/** `t(key, params)`, later: for text that outlives a language change (status lines, form errors). */
export function msg(key, params = {}) {
  const message = new Message(() => t(key, params));
  message.key = key;
  message.params = params;
  return message;
}

/** Any text computed when shown (a summary that composes several messages, a time). */
export function lazy(render) {
  return new Message(render);
}

// Unicode's first-strong isolate and its end: a Latin name in an Arabic sentence (or the other way
// round) keeps its own direction and does not drag the punctuation around it along.
const FSI = '\u2068';
const PDI = '\u2069';

/**
 * The lookup and formatting of one language. `catalogue` and `fallback` are the default exports
 * of two locale modules (`fallback` is English); `locale` is the tag `Intl` formats with.
 *
 * - `t(key, params)`: the message for `key`, from `catalogue`, else from `fallback` (with that
 *   language's plural rules), else the key itself (and a console warning, once per key).
 *   `{name}` placeholders take `params.name`: a number is formatted (`1,000`), a function is
 *   called, a Message is put into words, anything else becomes a string. A message may be an
 *   object of plural forms keyed by `Intl.PluralRules` categories (`zero one two few many other`),
 *   chosen by `params.count`; `other` is the form used when the right one is missing.
 * - With `dir: 'rtl'`, text placed into a message (names, places, links) and English standing in
 *   for a missing message are wrapped in Unicode isolates, so that left-to-right text keeps its
 *   own order inside a right-to-left sentence.
 */
export function createTranslator(catalogue, fallback = catalogue, locale = catalogue.meta.language, { dir = 'ltr', warn = console.warn } = {}) {
  const numbers = new Intl.NumberFormat(locale);
  const rules = new Map();
  const pluralRules = (language) => {
    if (!rules.has(language)) rules.set(language, new Intl.PluralRules(language));
    return rules.get(language);
  };
  const warned = new Set();
  const isolate = dir === 'rtl';

  function format(value) {
    if (typeof value === 'number') return numbers.format(value);
    if (typeof value === 'function') return format(value());
    const text = String(value);
    return isolate && typeof value !== 'object' ? FSI + text + PDI : text;
  }

  function lookup(key) {
    const own = catalogue.messages[key];
    if (own !== undefined) return { message: own, language: locale, fallback: false };
    const english = fallback.messages[key];
    if (english !== undefined) return { message: english, language: fallback.meta.language, fallback: catalogue !== fallback };
    return null;
  }

  function t(key, params = {}) {
    const found = lookup(key);
    if (!found) {
      if (!warned.has(key)) { warned.add(key); warn(`i18n: no message for "${key}"`); }
      return key;
    }
    let { message } = found;
    if (typeof message === 'object' && message !== null) {
      const count = Number(params.count);
      const category = Number.isFinite(count) ? pluralRules(found.language).select(count) : 'other';
      message = message[category] ?? message.other ?? '';
    }
    const text = message.replace(/\{(\w+)\}/g, (whole, name) => (params[name] === undefined || params[name] === null ? whole : format(params[name])));
    // English standing in on a right-to-left page keeps its full stop at its own end.
    return isolate && found.fallback ? FSI + text + PDI : text;
  }

  return {
    locale,
    dir,
    t,
    has: (key) => lookup(key) !== null,
    formatNumber: (value, options) => (options ? new Intl.NumberFormat(locale, options) : numbers).format(value),
    formatDate: (date, options = { day: 'numeric', month: 'short', year: 'numeric' }) => new Intl.DateTimeFormat(locale, options).format(date),
    formatTime: (date, options = { hour: '2-digit', minute: '2-digit' }) => new Intl.DateTimeFormat(locale, options).format(date),
    relativeTime: (value, unit) => new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(value, unit),
    // "spam, offensive": a short list of words, as the language joins them ("unit" lists join with
    // nothing at all in Chinese and Japanese; a narrow "and" list uses 、 there).
    formatList: (items) => new Intl.ListFormat(locale, { type: 'conjunction', style: 'narrow' }).format(items),
    // Sentences one after another: Chinese and Japanese put no space after 。
    joinSentences: (sentences) => sentences.join(/^(zh|ja)\b/.test(locale) ? '' : ' '),
  };
}

// The language in use. English until `setLanguage` says otherwise, so a message asked for before
// (or without) it is English rather than a key.
let current = createTranslator(english, english, 'en');
let currentCode = 'en';
let generation = 0;
const listeners = new Set();

/** The chosen language's code (`pt-BR`). */
export const currentLanguage = () => currentCode;

export const t = (key, params) => current.t(key, params);
export const formatNumber = (value, options) => current.formatNumber(value, options);
export const formatDate = (date, options) => current.formatDate(date, options);
export const formatTime = (date, options) => current.formatTime(date, options);
export const relativeTime = (value, unit) => current.relativeTime(value, unit);
export const formatList = (items) => current.formatList(items);
export const joinSentences = (sentences) => current.joinSentences(sentences);

/** Runs `listener(code)` after every language change, once the static page is in the new language. */
export function onLanguageChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Switches the page to `code` (one of CATALOGUES; English otherwise): loads its catalogue, sets the
 * page's `lang` and `dir`, translates the static page and tells the listeners, which redraw what
 * they built. With `remember`, the choice is kept for the next visit. A catalogue that cannot be
 * loaded (offline before it was ever cached) leaves the page in English. Resolves to the code in use.
 */
export async function setLanguage(code, { remember = false } = {}) {
  const wanted = CATALOGUES.includes(code) ? code : 'en';
  const mine = ++generation;
  let catalogue = english;
  if (wanted !== 'en') {
    try {
      catalogue = (await import(`/js/locales/${wanted}.js`)).default;
    } catch (failure) {
      console.warn(`i18n: the ${wanted} catalogue could not be loaded; staying in English`, failure);
      catalogue = english;
    }
  }
  // A later call won while this one loaded: it decides.
  if (mine !== generation) return currentCode;
  currentCode = catalogue === english ? 'en' : wanted;
  const { dir } = languageInfo(currentCode);
  current = createTranslator(catalogue, english, formattingLocale(currentCode), { dir });
  if (remember) {
    try { localStorage.setItem(STORAGE_KEY, wanted); } catch { /* not kept: the choice lasts this visit */ }
    if (typeof document !== 'undefined') {
      const secure = location.protocol === 'https:' ? '; Secure' : '';
      document.cookie = `${COOKIE}=${encodeURIComponent(wanted)}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`;
    }
  }
  if (typeof document !== 'undefined') {
    document.documentElement.lang = currentCode;
    document.documentElement.dir = dir;
    translatePage(document);
    // The page's English was kept unseen until now (app.css), when it came for another language.
    document.documentElement.removeAttribute('data-untranslated');
  }
  for (const listener of listeners) listener(currentCode);
  return currentCode;
}

/** `data-i18n-params` as an object (static numbers, such as a length in a hint). */
function staticParams(node) {
  const raw = node.getAttribute('data-i18n-params');
  if (!raw) return {};
  try {
    return JSON.parse(raw);
  } catch {
    return {};
  }
}

/**
 * The key of the document's title. The page's `<title>` carries no attribute (the server's tests
 * read it as written); a `data-i18n` on it would work as on any element.
 */
const TITLE_KEY = 'app.name';

/** What `setText` keeps on a node, to say again in another language. */
const SPOKEN = Symbol('i18n message');

/**
 * Puts the static page under `root` (the document, or an element and what it holds) into the
 * current language: `data-i18n` sets an element's text (so it must hold text only),
 * `data-i18n-attr="aria-label:key; title:key"` its attributes, and nodes given a Message through
 * `setText` say it again. The whole document's title is `app.name`.
 */
export function translatePage(root = document) {
  const select = (selector) => {
    const nodes = [...root.querySelectorAll(selector)];
    if (root.matches && root.matches(selector)) nodes.push(root);
    return nodes;
  };
  for (const node of select('[data-i18n]')) {
    node.textContent = t(node.getAttribute('data-i18n'), staticParams(node));
  }
  for (const node of select('[data-i18n-attr]')) {
    for (const pair of node.getAttribute('data-i18n-attr').split(';')) {
      const colon = pair.indexOf(':');
      if (colon < 0) continue;
      const name = pair.slice(0, colon).trim();
      const key = pair.slice(colon + 1).trim();
      if (name && key) node.setAttribute(name, t(key, staticParams(node)));
    }
  }
  for (const node of select('[data-i18n-live]')) {
    if (node[SPOKEN]) node.textContent = String(node[SPOKEN]);
  }
  if (root.nodeType === 9 && !root.querySelector('title[data-i18n]')) root.title = t(TITLE_KEY);
}

/**
 * Sets `node`'s text to `text`: a string, or a Message (`msg`, `lazy`), which the node then says
 * again in each new language. The node is marked rather than listed, so a node that leaves the
 * page is simply forgotten.
 */
export function setText(node, text) {
  node.textContent = text === null || text === undefined ? '' : String(text);
  if (text instanceof Message) {
    node[SPOKEN] = text;
    node.setAttribute('data-i18n-live', '');
  } else if (node[SPOKEN]) {
    delete node[SPOKEN];
    node.removeAttribute('data-i18n-live');
  }
}

/** Gives `node` the text of `key` and keeps it there across changes (a button whose label changes). */
export function setKey(node, key, params) {
  node.setAttribute('data-i18n', key);
  if (params) node.setAttribute('data-i18n-params', JSON.stringify(params));
  else node.removeAttribute('data-i18n-params');
  node.textContent = t(key, params);
}
