// The admin area's Learning platforms section (#/admin/platforms): what a learning platform's
// "add a tool" form asks of this server, the platforms registered (LTI 1.3), a form to register
// one with the values it shows, and the tool's signing keys. The server holds the rules and says
// which value it refuses; every change is in the audit log (LTI/LTIRegistration.swift).
import { adminApi } from './admin-api.js';
import { when } from './audit-log.js';
import { errorMessage } from './api.js';
import { el } from './dom.js';
import { msg, t } from './i18n.js';

/** The fields of a platform's registration: its API name, catalogue label, input type. */
const FIELDS = [
  ['name', 'lti.field.name', 'text'], ['issuer', 'lti.field.issuer', 'url'], ['clientId', 'lti.field.clientId', 'text'],
  ['deploymentIds', 'lti.field.deploymentIds', 'text'], ['authorizationUrl', 'lti.field.authorizationUrl', 'url'],
  ['jwksUrl', 'lti.field.jwksUrl', 'url'], ['tokenUrl', 'lti.field.tokenUrl', 'url'],
];

/**
 * The section's content. `screen` is the admin screen: its `action(label, work, options)` button
 * (which asks for the password when the server wants it proved again) and `say(message, error)`.
 */
export async function platformsSection(screen) {
  const { toolValues, platforms, keys } = await adminApi.lti();
  const values = toolValues
    ? el('dl', { class: 'lti-values', id: 'lti-tool-values' }, toolValues.flatMap(({ name, value }) => [el('dt', {}, name), el('dd', { translate: 'no' }, value)]))
    : el('p', { class: 'notice' }, t('lti.needsPublicURL'));
  const list = platforms.length === 0
    ? el('p', { class: 'empty-state' }, t('lti.noPlatforms'))
    : el('ul', { class: 'admin-list', id: 'lti-platforms', 'aria-label': t('lti.platforms') }, platforms.map((platform) => platformItem(platform, screen)));
  const keyList = el('ul', { class: 'admin-list', id: 'lti-keys', 'aria-label': t('lti.keys') }, keys.map((key) => el('li', { class: 'admin-item' },
    el('div', { class: 'admin-pin', translate: 'no' }, key.kid, key.signs ? el('span', { class: 'badge' }, t('lti.key.signs')) : null),
    el('p', { class: 'admin-meta' }, t(key.signs ? 'lti.key.made' : 'lti.key.retired', { when: when(key.createdAt) })))));
  return [
    el('h2', { class: 'section-heading' }, t('lti.toolValues')), el('p', { class: 'admin-meta' }, t('lti.toolValues.hint')), values,
    el('h2', { class: 'section-heading' }, t('lti.platforms')), list, addForm(screen),
    el('h2', { class: 'section-heading' }, t('lti.keys')), keyList,
    el('div', { class: 'admin-actions' }, screen.action('lti.rotate', () => adminApi.rotateToolKey(), { done: msg('lti.rotated'), confirm: 'lti.confirmRotate' })),
  ];
}

function platformItem(platform, screen) {
  const deployment = el('form', { class: 'admin-search lti-deployment' },
    el('label', { for: `lti-deployment-${platform.id}` }, t('lti.addDeployment')),
    el('input', { id: `lti-deployment-${platform.id}`, name: 'deploymentId', autocomplete: 'off', required: true }),
    el('button', { type: 'submit', class: 'button small' }, t('lti.add')));
  deployment.addEventListener('submit', async (event) => {
    event.preventDefault();
    const deploymentId = deployment.elements.deploymentId.value.trim();
    if (!deploymentId) return;
    await run(screen, () => adminApi.addDeployment(platform.id, deploymentId), msg('lti.deploymentAdded', { name: platform.name }));
  });
  return el('li', { class: 'admin-item', 'data-platform': String(platform.id) },
    el('div', { class: 'admin-pin' }, el('strong', {}, platform.name), ` · ${platform.issuer}`),
    el('p', { class: 'admin-meta', translate: 'no' }, t('lti.platform.details', { clientId: platform.clientId, deployments: platform.deploymentIds.join(', ') })),
    deployment,
    el('div', { class: 'admin-actions' }, screen.action('lti.remove', () => adminApi.removePlatform(platform.id),
      { done: msg('lti.removed', { name: platform.name }), confirm: 'lti.confirmRemove', danger: true })));
}

function addForm(screen) {
  const form = el('form', { class: 'admin-item', id: 'lti-add-platform', novalidate: true },
    el('h3', {}, t('lti.addPlatform')), el('p', { class: 'admin-meta' }, t('lti.addPlatform.hint')),
    FIELDS.map(([name, label, type]) => el('div', { class: 'field' }, el('label', { for: `lti-${name}` }, t(label)),
      el('input', { id: `lti-${name}`, name, type, autocomplete: 'off', spellcheck: 'false', required: name !== 'name' }))),
    el('button', { type: 'submit', class: 'button small primary' }, t('lti.register')));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const fields = Object.fromEntries(FIELDS.map(([name]) => [name, String(data.get(name) || '').trim()]));
    // Several deployment ids are written one after another, separated by spaces or commas.
    fields.deploymentIds = fields.deploymentIds.split(/[\s,]+/).filter(Boolean);
    await run(screen, () => adminApi.addPlatform(fields), msg('lti.registered', { name: fields.name || fields.issuer }));
  });
  return form;
}

/** A form's change: said in the status line, then the section again; or why it was refused. */
async function run(screen, work, done) {
  try {
    const outcome = await screen.provingPassword(work, document.activeElement);
    if (!outcome) return;
    screen.say(done);
    await screen.refresh();
  } catch (failure) {
    screen.say(errorMessage(failure), true);
  }
}
