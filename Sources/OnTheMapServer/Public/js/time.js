// "3 hours ago", from the ISO timestamps the server sends, and "at 11:20", in the chosen language
// (i18n.js: the words from the catalogue, the numbers and names of months from Intl).
import { formatDate, formatTime, relativeTime, t } from './i18n.js';

const units = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** How long ago `iso` was, in words; "just now" under a minute. */
export function timeAgo(iso, now = Date.now()) {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '';
  const seconds = Math.max(0, (now - then) / 1000);
  for (const [unit, size] of units) {
    if (seconds >= size) return relativeTime(-Math.floor(seconds / size), unit);
  }
  return t('time.justNow');
}

/** "at 11:20", or "on 3 Nov at 11:20" for another day. */
export function clockTime(date) {
  const time = formatTime(date);
  const sameDay = date.toDateString() === new Date().toDateString();
  return sameDay ? t('time.at', { time }) : t('time.onDayAt', { date: formatDate(date, { day: 'numeric', month: 'short' }), time });
}
