// The web client's state (js/app-state.js): the store's set/subscribe rules, and the fields a load
// and a batch of live changes set.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clientModule } from '../browser/web_modules.mjs';

const { appState, changedFields, createStore, loadedFields } = await clientModule('app-state.js');

const post = (objectId, updatedAt, extra = {}) => ({ objectId, updatedAt, ...extra });

test('set replaces the snapshot with the changed fields and keeps the others', () => {
  const store = createStore({ a: 1, b: [] });
  const before = store.state;
  store.set({ a: 2 });
  assert.deepEqual(store.state, { a: 2, b: [] });
  assert.equal(store.state.b, before.b, 'an unchanged field is the same value');
  assert.equal(before.a, 1, 'a snapshot already read does not change');
});

test('the snapshot cannot be written: set is the only way to change the state', () => {
  const store = createStore({ a: 1 });
  assert.throws(() => { store.state.a = 2; }, TypeError);
  assert.throws(() => { store.state.c = 3; }, TypeError);
  assert.equal(store.state.a, 1);
});

test('a field the state does not have is refused, and nothing changes', () => {
  const store = createStore({ a: 1 });
  const calls = [];
  store.subscribe(['a'], () => calls.push('a'));
  assert.throws(() => store.set({ a: 2, typo: 1 }), /typo/);
  assert.equal(store.state.a, 1);
  assert.equal('typo' in store.state, false);
  assert.deepEqual(calls, []);
});

test('a listener is called once per set, only when a field it names changed', () => {
  const store = createStore({ a: 1, b: 1, c: 1 });
  const calls = [];
  store.subscribe(['a', 'b'], (state, changed) => calls.push([state.a, state.b, changed]));
  store.set({ a: 2, b: 2 });
  store.set({ c: 2 });
  store.set({ a: 2 });
  assert.deepEqual(calls, [[2, 2, ['a', 'b']]]);
});

test('a value is changed when it is not the same (Object.is): an equal new array is a change', () => {
  const list = [];
  const store = createStore({ list, n: NaN });
  let calls = 0;
  store.subscribe(['list', 'n'], () => { calls += 1; });
  store.set({ list, n: NaN });
  assert.equal(calls, 0);
  store.set({ list: [] });
  assert.equal(calls, 1);
});

test('listeners run in the order they subscribed, and stop when unsubscribed', () => {
  const store = createStore({ a: 0 });
  const calls = [];
  const stopFirst = store.subscribe(['a'], () => calls.push('first'));
  store.subscribe(['a'], () => calls.push('second'));
  store.set({ a: 1 });
  stopFirst();
  store.set({ a: 2 });
  assert.deepEqual(calls, ['first', 'second', 'second']);
});

test('a listener ended by an earlier one in the same set is not called', () => {
  const store = createStore({ a: 0 });
  const calls = [];
  let stopSecond = null;
  store.subscribe(['a'], () => { calls.push('first'); stopSecond(); });
  stopSecond = store.subscribe(['a'], () => calls.push('second'));
  store.set({ a: 1 });
  assert.deepEqual(calls, ['first']);
});

test('a set made by a listener is seen by the listeners after it', () => {
  const store = createStore({ me: 'x', live: 'live' });
  const seen = [];
  store.subscribe(['me'], (state) => { if (state.me === null) store.set({ live: null }); });
  store.subscribe(['me'], (state) => seen.push([state.me, state.live]));
  store.subscribe(['live'], (state) => seen.push(['live', state.live]));
  store.set({ me: null });
  assert.deepEqual(seen, [['live', null], [null, null]]);
});

test("the app's state starts logged out, on the default course, with nothing loaded and the 100 newest shown", () => {
  assert.deepEqual(appState.state, {
    me: null, course: null, courses: null, canCreateCourses: true, loaded: false, latest: [], shown: [], pinCount: '100', waiting: [],
    liveState: null, syncedAt: null, offline: false,
  });
});

test('a load shows the newest posts as pins unless pins were asked for, with the caller’s own always on the map', () => {
  const own = post('own', '2020-01-01');
  const latest = [post('b', '2024-02-01'), post('a', '2024-01-01')];
  const caller = { account: { key: 'k' }, location: own };
  const fields = loadedFields(caller, latest, null);
  assert.deepEqual(fields, { me: caller, latest, shown: [...latest, own], loaded: true });
  assert.notEqual(fields.shown, latest, 'the list is not the pins’ array');
  assert.deepEqual(loadedFields(caller, latest, [own]).shown, [own], 'already shown: not twice');
  assert.deepEqual(loadedFields({ account: {}, location: null }, latest, null).shown, latest);
});

test('live changes fold into the list and the pins, keeping the Show count and the caller’s own pin', () => {
  const own = post('own', '2020-01-01');
  const state = {
    me: { account: { key: 'k' }, location: own },
    latest: [post('b', '2024-02-01'), post('a', '2024-01-01')],
    shown: [post('b', '2024-02-01'), own],
    pinCount: '2',
  };
  const created = post('c', '2024-03-01');
  const { fields, removed } = changedFields(state, [{ kind: 'created', objectId: 'c', location: created }]);
  assert.deepEqual(fields.latest.map((p) => p.objectId), ['c', 'b', 'a']);
  assert.deepEqual(fields.shown.map((p) => p.objectId), ['c', 'b', 'own'], 'the own pin stays beyond the count');
  assert.deepEqual(removed, []);
  assert.equal('me' in fields, false, 'the caller’s profile is untouched when their post did not change');
});

test('a change to the caller’s own post changes their profile (a new object) and the pins', () => {
  const own = post('own', '2020-01-01');
  const me = { account: { key: 'k' }, location: own };
  const state = { me, latest: [own], shown: [own], pinCount: 'all' };
  const moved = post('own', '2024-05-01', { mapString: 'Lima' });
  const updated = changedFields(state, [{ kind: 'updated', objectId: 'own', location: moved }]);
  assert.equal(updated.fields.me.location, moved);
  assert.equal(me.location, own, 'the old profile is not written to');
  const deleted = changedFields(state, [{ kind: 'deleted', objectId: 'own' }]);
  assert.equal(deleted.fields.me.location, null);
  assert.deepEqual(deleted.removed, ['own']);
  assert.deepEqual(deleted.fields.shown, []);
});

test('the caller’s pin that waits for approval (or was hidden) stays theirs when it leaves everyone else’s map', () => {
  const own = post('own', '2020-01-01');
  for (const flag of ['locationAwaitingApproval', 'locationHidden']) {
    const state = { me: { account: { key: 'k' }, location: own, [flag]: true }, latest: [post('b', '2024-02-01')], shown: [own], pinCount: 'all' };
    const { fields, removed } = changedFields(state, [{ kind: 'deleted', objectId: 'own' }, { kind: 'deleted', objectId: 'b' }]);
    assert.equal('me' in fields, false, flag);
    assert.deepEqual(fields.shown.map((p) => p.objectId), ['own'], flag);
    assert.deepEqual(fields.latest, [], `${flag}: another's deletion still counts`);
    assert.deepEqual(removed, [], flag);
  }
});
