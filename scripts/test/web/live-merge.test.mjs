// Folding live changes into a list of posts (js/live-merge.js), and the posts waiting on this
// device put where the student's own will be (js/waiting-posts.js withWaiting).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clientModule } from '../browser/web_modules.mjs';

const { mergeChanges } = await clientModule('live-merge.js');
const { waitingId, keyOf, withWaiting } = await clientModule('waiting-posts.js');

const post = (objectId, updatedAt) => ({ objectId, updatedAt, createdAt: updatedAt });
const ids = (posts) => posts.map((p) => p.objectId);

test('a created post goes in newest first; an updated one replaces its old self, never twice', () => {
  const posts = [post('b', '2024-02-01'), post('a', '2024-01-01')];
  const merged = mergeChanges(posts, [
    { kind: 'created', objectId: 'c', location: post('c', '2024-03-01') },
    { kind: 'updated', objectId: 'a', location: post('a', '2024-04-01') },
  ]);
  assert.deepEqual(ids(merged.posts), ['a', 'c', 'b']);
  assert.deepEqual(merged.removed, []);
  assert.deepEqual(ids(posts), ['b', 'a'], 'the list given is not changed');
});

test('a deleted post goes, and is said to have left', () => {
  const merged = mergeChanges([post('b', '2024-02-01'), post('a', '2024-01-01')], [{ kind: 'deleted', objectId: 'b' }]);
  assert.deepEqual(ids(merged.posts), ['a']);
  assert.deepEqual(merged.removed, ['b']);
});

test('changes apply in order: created then deleted leaves nothing', () => {
  const merged = mergeChanges([], [
    { kind: 'created', objectId: 'x', location: post('x', '2024-01-01') },
    { kind: 'deleted', objectId: 'x' },
  ]);
  assert.deepEqual(merged, { posts: [], removed: [] });
});

test('the limit drops the oldest, but never the post kept', () => {
  const posts = [post('c', '2024-03-01'), post('b', '2024-02-01'), post('a', '2024-01-01')];
  const change = [{ kind: 'created', objectId: 'd', location: post('d', '2024-04-01') }];
  const limited = mergeChanges(posts, change, { limit: 3 });
  assert.deepEqual(ids(limited.posts), ['d', 'c', 'b']);
  assert.deepEqual(limited.removed, ['a']);
  const kept = mergeChanges(posts, change, { limit: 3, keep: 'a' });
  assert.deepEqual(ids(kept.posts), ['d', 'c', 'b', 'a']);
  assert.deepEqual(kept.removed, []);
});

test('posts updated at the same moment are ordered by objectId, so every list agrees', () => {
  const merged = mergeChanges([post('b', '2024-01-01')], [{ kind: 'created', objectId: 'a', location: post('a', '2024-01-01') }]);
  assert.deepEqual(ids(merged.posts), ['a', 'b']);
});

test('with nothing waiting, the list and the pins are the loaded ones', () => {
  const me = { account: { firstName: 'Ada', lastName: 'L' }, location: post('own', '2024-01-01') };
  const state = { me, latest: [post('own', '2024-01-01')], shown: [post('x', '2024-01-02')], waiting: [] };
  assert.deepEqual(withWaiting(state), { rows: state.latest, pins: state.shown, mine: 'own' });
});

test('a waiting post takes the place of the student’s own, first in the list and on the map', () => {
  const me = { account: { firstName: 'Ada', lastName: 'L' }, location: post('own', '2024-01-01') };
  const entry = (key, createdAt) => ({ key, createdAt, fields: { mapString: 'Lima', mediaURL: '', latitude: 1, longitude: 2 } });
  const state = {
    me,
    latest: [post('x', '2024-02-01'), post('own', '2024-01-01')],
    shown: [post('x', '2024-02-01'), post('own', '2024-01-01')],
    waiting: [entry('k1', Date.parse('2024-03-01')), entry('k2', Date.parse('2024-03-02'))],
  };
  const { rows, pins, mine } = withWaiting(state);
  assert.equal(mine, waitingId({ key: 'k2' }), 'the newest waiting post is the student’s');
  assert.deepEqual(ids(rows), ['waiting-k2', 'waiting-k1', 'x']);
  assert.deepEqual(ids(pins), ['x', 'waiting-k2', 'waiting-k1']);
  assert.equal(rows[0].firstName, 'Ada');
  assert.equal(rows[0].mapString, 'Lima');
  assert.equal(keyOf(rows[0].objectId), 'k2');
  assert.equal(keyOf('x'), null);
});
