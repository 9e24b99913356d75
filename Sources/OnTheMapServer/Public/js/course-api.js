// A course's instructor's calls (docs/API.md, "Courses"), at the course's path. A refusal is said
// as one: only its instructors may; the course is gone; a course keeps one instructor.
import { request as apiRequest } from './api.js';
import { coursePath } from './course-choice.js';

const at = (course, path) => coursePath(path, course);
const request = (method, path, options = {}) => apiRequest(method, path, { context: 'teach', ...options });
const id = encodeURIComponent;

export const courseApi = {
  show: (course) => request('GET', at(course, '/v1/course')),
  change: (course, fields) => request('PATCH', at(course, '/v1/course'), { body: fields }),
  setInvite: (course, fields) => request('POST', at(course, '/v1/course/invite'), { body: fields }),
  roster: (course) => request('GET', at(course, '/v1/course/members')),
  add: (course, list, role = 'student') => request('POST', at(course, '/v1/course/members'), { body: { list, role } }),
  remove: (course, member) => request('DELETE', at(course, `/v1/course/members/${id(member)}`)),
  reports: (course) => request('GET', at(course, '/v1/course/reports')).then((body) => body.results),
  approvals: (course) => request('GET', at(course, '/v1/course/approvals?limit=200')).then((body) => body.results),
  setHidden: (course, objectId, hidden) => request('PATCH', at(course, `/v1/course/locations/${id(objectId)}`), { body: { hidden } }),
  dismissReports: (course, objectId) => request('POST', at(course, `/v1/course/reports/${id(objectId)}/dismiss`)),
  audit: (course) => request('GET', at(course, '/v1/course/audit?limit=200')).then((body) => body.results),
  delete: (course, slug) => request('DELETE', at(course, `/v1/course?confirm=${id(slug)}`)),
  exportURL: (course, format) => at(course, `/v1/course/export?format=${format}`),
};
