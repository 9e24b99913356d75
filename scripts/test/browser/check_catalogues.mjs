// Checks the web client's message catalogues (Sources/OnTheMapServer/Public/js/locales/*.js) against
// English, and the page and scripts against English:
//
//   node scripts/test/browser/check_catalogues.mjs
//
// For every catalogue: its file, meta.language, i18n.js's CATALOGUES and sw.js's SHELL_FILES agree;
// no key of English is missing and none is extra; each message has the placeholders English has;
// plural forms are ones the language has (Intl.PluralRules), with `other`. For the page: every
// visible text and every aria-label, placeholder, title and alt of index.html has a key (text in
// `translate="no"` is exempt: file formats, language names), the inline English is English's
// message, and every key index.html and the scripts name is in English. Exits 1 on any problem;
// warnings (a plural form missing, a message left in English, a key nothing names) do not fail.
import { readdir, readFile } from 'node:fs/promises';
import { clientModule, js, web } from './web_modules.mjs';

const { CATALOGUES, SUPPORTED, createTranslator } = await clientModule('i18n.js');
const english = (await clientModule('locales/en.js')).default;

const errors = [];
const warnings = [];
const fail = (where, text) => errors.push(`${where}: ${text}`);
const warn = (where, text) => warnings.push(`${where}: ${text}`);

const CATEGORIES = ['zero', 'one', 'two', 'few', 'many', 'other'];
const isPlural = (message) => typeof message === 'object' && message !== null && !Array.isArray(message);

/** The placeholders of a message, over all its plural forms. */
function placeholders(message) {
  const texts = isPlural(message) ? Object.values(message) : [message];
  const names = new Set();
  for (const text of texts) for (const [, name] of String(text).matchAll(/\{(\w+)\}/g)) names.add(name);
  return names;
}

const sameSet = (a, b) => a.size === b.size && [...a].every((item) => b.has(item));
const listOf = (set) => [...set].sort().map((name) => `{${name}}`).join(' ') || 'none';

/** A message's own shape: a string, or plural forms the language has, `other` among them. */
function checkShape(where, key, message, code) {
  if (typeof message === 'string') return;
  if (!isPlural(message)) { fail(where, `${key} is neither a string nor plural forms`); return; }
  const has = new Intl.PluralRules(code).resolvedOptions().pluralCategories;
  for (const [form, text] of Object.entries(message)) {
    if (!CATEGORIES.includes(form)) fail(where, `${key} has the form "${form}", which is not a plural category`);
    else if (!has.includes(form)) fail(where, `${key} has the form "${form}", which ${code} does not use (it has ${has.join(', ')})`);
    if (typeof text !== 'string') fail(where, `${key}.${form} is not a string`);
  }
  if (!('other' in message)) fail(where, `${key} has no "other" form`);
  const missing = has.filter((form) => !(form in message));
  if (missing.length) warn(where, `${key} lacks the ${missing.join(', ')} form${missing.length > 1 ? 's' : ''} of ${code} (it uses "other")`);
}

/** English itself: its own language, and well-formed messages. */
function checkEnglish() {
  if (english.meta?.language !== 'en') fail('en.js', 'meta.language is not "en"');
  for (const [key, message] of Object.entries(english.messages)) {
    if (!/^[a-z][A-Za-z0-9]*(\.[a-z][A-Za-z0-9]*)+$/.test(key)) fail('en.js', `the key "${key}" is not dotted camelCase`);
    checkShape('en.js', key, message, 'en');
  }
}

/** The paths in sw.js's SHELL_FILES (its comment lines left out). */
async function shellFiles() {
  const script = await readFile(new URL('sw.js', web), 'utf8');
  const start = script.indexOf('const SHELL_FILES = [');
  const end = script.indexOf('];', start);
  const listed = script.slice(start, end).split('\n').filter((line) => !line.trim().startsWith('//')).join('\n');
  return [...listed.matchAll(/'([^']*)'/g)].map(([, path]) => path);
}

/** One translation against English. */
function checkCatalogue(code, catalogue) {
  const where = `${code}.js`;
  if (catalogue.meta?.language !== code) fail(where, `meta.language is "${catalogue.meta?.language}", not "${code}"`);
  const glossary = Object.keys(english.meta.glossary || {});
  for (const term of glossary) if (!catalogue.meta?.glossary?.[term]) warn(where, `the glossary has no "${term}"`);
  const messages = catalogue.messages || {};
  let untranslated = 0;
  for (const [key, reference] of Object.entries(english.messages)) {
    if (!(key in messages)) { fail(where, `${key} is missing`); continue; }
    const message = messages[key];
    checkShape(where, key, message, code);
    const want = placeholders(reference);
    const got = placeholders(message);
    if (!sameSet(want, got)) fail(where, `${key} has placeholders ${listOf(got)}; English has ${listOf(want)}`);
    if (JSON.stringify(message) === JSON.stringify(reference)) untranslated += 1;
    if ((typeof message === 'string' && !message.trim()) || (isPlural(message) && Object.values(message).some((text) => !String(text).trim()))) {
      fail(where, `${key} is empty`);
    }
  }
  for (const key of Object.keys(messages)) if (!(key in english.messages)) fail(where, `${key} is not in English (a key renamed or removed?)`);
  if (untranslated) warn(where, `${untranslated} message${untranslated > 1 ? 's are' : ' is'} the same as English`);
}

/** The locale files, the languages i18n.js ships and the ones sw.js keeps: one set. */
async function checkCatalogues() {
  const files = (await readdir(new URL('locales/', js))).filter((name) => name.endsWith('.js')).map((name) => name.slice(0, -3)).sort();
  const kept = (await shellFiles()).filter((path) => path.startsWith('/js/locales/')).map((path) => path.slice('/js/locales/'.length, -3));
  const supported = SUPPORTED.map((language) => language.code);
  for (const code of files) {
    if (!supported.includes(code)) fail(`${code}.js`, 'is not a language of i18n.js SUPPORTED');
    if (!CATALOGUES.includes(code)) fail(`${code}.js`, 'is not in i18n.js CATALOGUES: the switch never offers it');
    if (!kept.includes(code)) fail(`${code}.js`, `is not in sw.js SHELL_FILES ('/js/locales/${code}.js'): it would not open offline`);
  }
  for (const code of CATALOGUES) if (!files.includes(code)) fail('i18n.js', `CATALOGUES names ${code}, which has no js/locales/${code}.js`);
  for (const code of kept) if (!files.includes(code)) fail('sw.js', `SHELL_FILES keeps /js/locales/${code}.js, which does not exist`);
  for (const code of files) {
    if (code === 'en') continue;
    let catalogue;
    try {
      catalogue = (await clientModule(`locales/${code}.js`)).default;
    } catch (failure) {
      fail(`${code}.js`, `does not load: ${failure.message}`);
      continue;
    }
    checkCatalogue(code, catalogue);
  }
  return files;
}

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const TRANSLATED_ATTRIBUTES = ['aria-label', 'placeholder', 'title', 'alt'];
const decode = (text) => text.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'");

/** The attributes of a start tag, by name. */
function attributesOf(tag) {
  const attributes = {};
  for (const [, name, , double, single, bare] of tag.matchAll(/([^\s=/>]+)(\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
    attributes[name.toLowerCase()] = decode(double ?? single ?? bare ?? '');
  }
  return attributes;
}

/** `data-i18n-attr`'s pairs, by attribute. */
function attributeKeys(attributes) {
  const keys = {};
  for (const pair of (attributes['data-i18n-attr'] || '').split(';')) {
    const colon = pair.indexOf(':');
    if (colon > 0) keys[pair.slice(0, colon).trim()] = pair.slice(colon + 1).trim();
  }
  return keys;
}

/** index.html: every word a reader meets has a key in English, and says English's words until the script runs. */
async function checkPage(inEnglish) {
  const html = await readFile(new URL('index.html', web), 'utf8');
  const where = 'index.html';
  const used = new Set();
  const stack = [];
  const line = (index) => html.slice(0, index).split('\n').length;
  for (const match of html.matchAll(/<!--[\s\S]*?-->|<!doctype[^>]*>|<\/([a-zA-Z][\w-]*)\s*>|<([a-zA-Z][\w-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>|[^<]+/gi)) {
    const [token, closing, opening, rest] = match;
    if (token.startsWith('<!')) continue;
    if (closing) {
      const at = stack.map((element) => element.name).lastIndexOf(closing.toLowerCase());
      if (at >= 0) stack.length = at;
      continue;
    }
    if (opening) {
      const name = opening.toLowerCase();
      const attributes = attributesOf(rest);
      const params = attributes['data-i18n-params'] ? JSON.parse(attributes['data-i18n-params']) : {};
      const keys = attributeKeys(attributes);
      for (const [attribute, key] of Object.entries(keys)) {
        used.add(key);
        if (!(key in english.messages)) fail(where, `line ${line(match.index)}: <${name} ${attribute}> names "${key}", which English lacks`);
        else if (attribute in attributes && attributes[attribute] !== inEnglish.t(key, params)) {
          fail(where, `line ${line(match.index)}: <${name} ${attribute}="${attributes[attribute]}"> is not English's "${inEnglish.t(key, params)}" (${key})`);
        }
      }
      for (const attribute of TRANSLATED_ATTRIBUTES) {
        if (attributes[attribute] && !keys[attribute] && !(attribute === 'title' && name === 'title')) {
          fail(where, `line ${line(match.index)}: <${name} ${attribute}="${attributes[attribute]}"> has no key (data-i18n-attr="${attribute}:…")`);
        }
      }
      if (attributes['data-i18n']) used.add(attributes['data-i18n']);
      const self = rest.trim().endsWith('/') || VOID.has(name);
      if (!self) stack.push({ name, attributes, params, index: match.index, text: '' });
      continue;
    }
    // Text: its element must carry the key, unless it is code (script, style, svg) or marked translate="no".
    const text = decode(token);
    if (!/\p{L}/u.test(text)) continue;
    if (stack.some((element) => ['script', 'style', 'svg'].includes(element.name) || element.attributes.translate === 'no')) continue;
    const parent = stack[stack.length - 1];
    // The document's title carries no attribute (the server's tests read it as written): i18n.js gives it app.name.
    if (parent && parent.name === 'title' && !parent.attributes['data-i18n']) parent.attributes['data-i18n'] = 'app.name';
    if (!parent || !parent.attributes['data-i18n']) {
      fail(where, `line ${line(match.index)}: "${text.trim()}" in <${parent ? parent.name : 'nothing'}> has no key (data-i18n)`);
      continue;
    }
    const key = parent.attributes['data-i18n'];
    if (!(key in english.messages)) fail(where, `line ${line(match.index)}: data-i18n="${key}" is not in English`);
    else if (text.trim().replace(/\s+/g, ' ') !== inEnglish.t(key, parent.params)) {
      fail(where, `line ${line(match.index)}: "${text.trim()}" is not English's "${inEnglish.t(key, parent.params)}" (${key})`);
    }
  }
  return used;
}

/** Every key the scripts name in quotes (`t('list.new')`, a table of keys) is in English. */
async function checkScripts(pageKeys) {
  const groups = new Set(Object.keys(english.messages).map((key) => key.split('.')[0]));
  const named = new Set(pageKeys);
  for (const file of (await readdir(js)).filter((name) => name.endsWith('.js')).sort()) {
    const source = await readFile(new URL(file, js), 'utf8');
    for (const [, key] of source.matchAll(/'([a-z][A-Za-z0-9]*(?:\.[a-z][A-Za-z0-9]*)+)'/g)) {
      if (!groups.has(key.split('.')[0]) || /\.(js|json|css)$/.test(key)) continue;
      named.add(key);
      if (!(key in english.messages)) fail(`js/${file}`, `names "${key}", which English lacks`);
    }
    // Keys made from a prefix (`error.signIn.${code}`): the prefix counts as naming them all.
    for (const [, prefix] of source.matchAll(/`([a-z][A-Za-z0-9]*(?:\.[a-z][A-Za-z0-9]*)*\.)\$\{/g)) named.add(`${prefix}*`);
    for (const [pair, key] of source.matchAll(/(?:title|aria-label|placeholder):([a-z]\w*\.[\w.]+)/g)) {
      named.add(key);
      if (!(key in english.messages)) fail(`js/${file}`, `names "${key}" in "${pair}", which English lacks`);
    }
  }
  const prefixes = [...named].filter((key) => key.endsWith('*')).map((key) => key.slice(0, -1));
  const unnamed = Object.keys(english.messages).filter((key) => !named.has(key) && !prefixes.some((prefix) => key.startsWith(prefix)));
  if (unnamed.length) warn('en.js', `no script or page names ${unnamed.join(', ')}`);
}

checkEnglish();
const inEnglish = createTranslator(english, english, 'en', { warn: () => {} });
const files = await checkCatalogues();
await checkScripts(await checkPage(inEnglish));

for (const text of warnings) console.log(`warning: ${text}`);
for (const text of errors) console.log(`error: ${text}`);
const keys = Object.keys(english.messages).length;
console.log(`${files.length} catalogue${files.length === 1 ? '' : 's'} (${files.join(', ')}), ${keys} English messages: `
  + `${errors.length} error${errors.length === 1 ? '' : 's'}, ${warnings.length} warning${warnings.length === 1 ? '' : 's'}`);
process.exit(errors.length ? 1 : 0);
