// Which screen a hash names (js/routes.js), for visitors logged in and not.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clientModule } from '../browser/web_modules.mjs';

const { resetToken, routeFor } = await clientModule('routes.js');

test('a logged-in visitor sees the screen the hash names; no hash is the map', () => {
  assert.deepEqual(routeFor('', true), { screen: 'map' });
  assert.deepEqual(routeFor('#/map', true), { screen: 'map' });
  assert.deepEqual(routeFor('#/list', true), { screen: 'list' });
  assert.deepEqual(routeFor('#/post', true), { screen: 'post' });
  assert.deepEqual(routeFor('#/nowhere', true), { screen: 'map' }, 'an unknown hash is the map');
});

test('the admin area names its section, if any', () => {
  assert.deepEqual(routeFor('#/admin/reports', true), { screen: 'admin', section: 'reports' });
  assert.deepEqual(routeFor('#/admin/accounts', true), { screen: 'admin', section: 'accounts' });
  assert.deepEqual(routeFor('#/admin', true), { screen: 'admin', section: undefined });
});

test('a visitor not logged in goes to login from anything but login, sign-up and a reset link', () => {
  for (const hash of ['', '#/map', '#/list', '#/post', '#/admin/reports', '#/nowhere']) {
    assert.deepEqual(routeFor(hash, false), { redirect: '#/login' }, hash);
  }
  assert.deepEqual(routeFor('#/login', false), { screen: 'login' });
  assert.deepEqual(routeFor('#/signup', false), { screen: 'signup' });
});

test('a logged-in visitor is sent from login and sign-up to the map', () => {
  assert.deepEqual(routeFor('#/login', true), { redirect: '#/map' });
  assert.deepEqual(routeFor('#/signup', true), { redirect: '#/map' });
});

test('a reset link shows its form whether or not someone is logged in, and gives its token', () => {
  assert.deepEqual(routeFor('#/reset/abc', false), { screen: 'reset' });
  assert.deepEqual(routeFor('#/reset/abc', true), { screen: 'reset' });
  assert.equal(resetToken('#/reset/a%2Fb%20c'), 'a/b c');
});

test('an invite link names its course and token, logged in or not', () => {
  for (const loggedIn of [true, false]) {
    assert.deepEqual(routeFor('#/join/cs101-spring/AbCdEfGhIjKlMnOpQrSt-_', loggedIn),
      { screen: 'join', course: 'cs101-spring', token: 'AbCdEfGhIjKlMnOpQrSt-_' });
  }
  assert.deepEqual(routeFor('#/join/', true), { screen: 'join', course: '', token: '' });
});

test('the courses page and a course page, for a logged-in visitor only', () => {
  assert.deepEqual(routeFor('#/courses', true), { screen: 'courses' });
  assert.deepEqual(routeFor('#/course/cs101/roster', true), { screen: 'course', course: 'cs101', section: 'roster' });
  assert.deepEqual(routeFor('#/course/cs101', true), { screen: 'course', course: 'cs101', section: undefined });
  for (const hash of ['#/courses', '#/course/cs101/roster']) assert.deepEqual(routeFor(hash, false), { redirect: '#/login' }, hash);
});
