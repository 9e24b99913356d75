// The class by time zone and the hours that suit it (js/class-hours.js).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clientModule } from '../browser/web_modules.mjs';

const { classHours, offsetMinutes } = await clientModule('class-hours.js');

const start = new Date('2026-12-01T00:00:00Z'); // a Tuesday, far from any daylight-saving change

test('the zones come west to east, with their offsets and counts; students without one are counted apart', () => {
  const { byZone, unknown } = classHours(['Asia/Kolkata', 'America/Los_Angeles', 'Europe/Berlin', 'Asia/Kolkata', null, 'Not/AZone'], { start });
  assert.deepEqual(byZone, [
    { zone: 'America/Los_Angeles', count: 1, offset: -480 },
    { zone: 'Europe/Berlin', count: 1, offset: 60 },
    { zone: 'Asia/Kolkata', count: 2, offset: 330 },
  ]);
  assert.equal(unknown, 2);
});

test('the best hours are those the most students are awake for, between 9:00 and 21:00 their time', () => {
  // Los Angeles is awake 17:00–05:00 UTC, Berlin 08:00–20:00, Kolkata 03:30–15:30 (its 9 o'clock
  // hour starts at 03:30; an hour counts by the local hour it starts in).
  const { best } = classHours(['America/Los_Angeles', 'Europe/Berlin', 'Europe/Berlin', 'Asia/Kolkata'], { start });
  // Berlin's two and Kolkata: 08:00–15:00 UTC (Kolkata's 20:30 hour starts at 15:00 and counts).
  assert.equal(best[0].count, 3);
  assert.equal(best[0].from.toISOString(), '2026-12-01T08:00:00.000Z');
  assert.equal(best[0].to.toISOString(), '2026-12-01T16:00:00.000Z');
  assert.equal(best.length, 3);
  assert.ok(best.every((window) => window.count === 3));
  // Then Los Angeles's morning with Berlin's evening: 17:00–20:00 UTC (Kolkata's 22:30).
  assert.equal(best[1].from.toISOString(), '2026-12-01T17:00:00.000Z');
  assert.equal(best[1].to.toISOString(), '2026-12-01T20:00:00.000Z');
  assert.equal(best[2].from.toISOString(), '2026-12-02T08:00:00.000Z', 'then the same hours the next day');
});

test('a week that crosses a change to summer time counts each day with its own offset', () => {
  const march = new Date('2027-03-26T00:00:00Z'); // Europe moves its clocks on 28 March 2027
  assert.equal(offsetMinutes('Europe/Berlin', march), 60);
  assert.equal(offsetMinutes('Europe/Berlin', new Date('2027-03-29T00:00:00Z')), 120);
  const { best } = classHours(['Europe/Berlin'], { start: march, limit: 7 });
  const starts = best.map((window) => window.from.toISOString()).sort();
  assert.ok(starts.includes('2027-03-26T08:00:00.000Z'), 'before: 9:00 CET is 08:00 UTC');
  assert.ok(starts.includes('2027-03-29T07:00:00.000Z'), 'after: 9:00 CEST is 07:00 UTC');
});

test('no student with a zone: nothing suits, and nothing is said to', () => {
  assert.deepEqual(classHours([null], { start }).best, []);
});
