// The admin area's calls (docs/API.md, "Moderation"). Every one answers 403 to a non-admin, which
// the 'admin' context turns into "only an admin may do this".
import { request as apiRequest } from './api.js';

const request = (method, path, options = {}) => apiRequest(method, path, { ...options, context: 'admin' });

const query = (params) => {
  const pairs = Object.entries(params).filter(([, value]) => value !== undefined && value !== null && value !== '');
  return pairs.length ? `?${new URLSearchParams(pairs)}` : '';
};
const id = encodeURIComponent;

export const adminApi = {
  accounts: (search) => request('GET', `/v1/admin/accounts${query({ search, limit: 200 })}`).then((body) => body.results),
  changeAccount: (key, fields) => request('PATCH', `/v1/admin/accounts/${id(key)}`, { body: fields }),
  passwordReset: (key) => request('POST', `/v1/admin/accounts/${id(key)}/password-reset`),
  locations: (hiddenOnly) => request('GET', `/v1/admin/locations${query({ hidden: hiddenOnly ? 'true' : '', limit: 200 })}`).then((body) => body.results),
  setHidden: (objectId, hidden) => request('PATCH', `/v1/admin/locations/${id(objectId)}`, { body: { hidden } }),
  deleteLocation: (objectId) => request('DELETE', `/v1/admin/locations/${id(objectId)}`),
  reports: () => request('GET', '/v1/admin/reports').then((body) => body.results),
  dismissReports: (objectId) => request('POST', `/v1/admin/reports/${id(objectId)}/dismiss`),
  audit: () => request('GET', '/v1/admin/audit?limit=200').then((body) => body.results),
  exportURL: (format) => `/v1/admin/export?format=${format}`,
  lti: () => request('GET', '/v1/admin/lti'),
  addPlatform: (fields) => request('POST', '/v1/admin/lti/platforms', { body: fields }),
  addDeployment: (platform, deploymentId) => request('POST', `/v1/admin/lti/platforms/${platform}/deployments`, { body: { deploymentId } }),
  removePlatform: (platform) => request('DELETE', `/v1/admin/lti/platforms/${platform}`),
  rotateToolKey: () => request('POST', '/v1/admin/lti/keys'),
};
