// The class by time zone, and the hours of the coming week that suit most of it for a live
// session: for each hour, how many students it falls between 9:00 and 21:00 for, where they are
// (each pin's time zone, which the server finds from its place). Intl knows every zone's offsets
// and daylight-saving changes, so a week that crosses one is counted right. No document here:
// node tests it.

const HOUR_MS = 3_600_000;
/** The part of a student's day a live session may take: from 9:00 to 21:00, their time. */
export const WAKING = { from: 9, to: 21 };

const formatters = new Map();
function hourIn(zone, instant) {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', hourCycle: 'h23' });
    formatters.set(zone, format);
  }
  return Number(format.formatToParts(instant).find((part) => part.type === 'hour').value);
}

/** `zone`'s offset from UTC at `instant`, in minutes (Asia/Kolkata: 330). */
export function offsetMinutes(zone, instant) {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-US', {
    timeZone: zone, year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', hourCycle: 'h23',
  }).formatToParts(instant).map((part) => [part.type, Number(part.value)]));
  const asUTC = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute);
  return Math.round((asUTC - Math.floor(instant.getTime() / 60_000) * 60_000) / 60_000);
}

/** Whether Intl knows `zone` (a server's answer may name one this browser does not). */
function isKnown(zone) {
  try {
    hourIn(zone, new Date(0));
    return true;
  } catch {
    return false;
  }
}

/**
 * `zones`: one IANA zone per student (null when not known). Gives `byZone` (each zone with its
 * count and offset now, west to east), `unknown` (students without a zone), and `best`: up to
 * `limit` windows of consecutive hours from `start` (rounded up to the hour) over the next week,
 * `{from, to, count}`, in which the most students are awake; the earliest first among equals.
 */
export function classHours(zones, { start = new Date(), limit = 3 } = {}) {
  const counts = new Map();
  let unknown = 0;
  for (const zone of zones) {
    if (zone && isKnown(zone)) counts.set(zone, (counts.get(zone) || 0) + 1);
    else unknown += 1;
  }
  const byZone = [...counts].map(([zone, count]) => ({ zone, count, offset: offsetMinutes(zone, start) }))
    .sort((a, b) => a.offset - b.offset || a.zone.localeCompare(b.zone));
  const first = Math.ceil(start.getTime() / HOUR_MS) * HOUR_MS;
  const hours = [];
  for (let index = 0; index < 7 * 24; index += 1) {
    const instant = new Date(first + index * HOUR_MS);
    let awake = 0;
    for (const { zone, count } of byZone) {
      const hour = hourIn(zone, instant);
      if (hour >= WAKING.from && hour < WAKING.to) awake += count;
    }
    hours.push({ instant, awake });
  }
  // Runs of hours with the same count, best count first, then the earliest.
  const windows = [];
  for (const { instant, awake } of hours) {
    const last = windows[windows.length - 1];
    if (last && last.count === awake && last.to.getTime() === instant.getTime()) last.to = new Date(instant.getTime() + HOUR_MS);
    else windows.push({ from: instant, to: new Date(instant.getTime() + HOUR_MS), count: awake });
  }
  const best = windows.filter((window) => window.count > 0)
    .sort((a, b) => b.count - a.count || a.from - b.from).slice(0, limit);
  return { byZone, unknown, best };
}
