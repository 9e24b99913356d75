// Which course's map the app shows: the state's `course` (a slug, or null for the default course,
// served at the old backend's paths), remembered in a cookie so that the next visit opens the same
// map and its first page asks for that course's answers (WebClient/CourseChoice.swift). Every
// call about a course's map goes to `coursePath(path)`: `/c/{slug}/v1/…` or `/v1/…`.
import { appState } from './app-state.js';
import { launchCourse, noteLaunchCourse } from './launch-session.js';

const COOKIE = 'onthemap-course';
/** The default course's slug, as the server names it (a cookie with it means "chosen: the default"). */
export const DEFAULT_COURSE = 'default';

/** The course remembered on this browser: a slug, DEFAULT_COURSE, or null when none was ever chosen. */
export function rememberedCourse() {
  const match = document.cookie.split('; ').find((item) => item.startsWith(`${COOKIE}=`));
  const value = match ? decodeURIComponent(match.slice(COOKIE.length + 1)) : '';
  return /^[a-z0-9]+(-[a-z0-9]+)*$/.test(value) ? value : null;
}

/** Shows `slug`'s map from now on (null or DEFAULT_COURSE: the default course's), and remembers it. */
export function chooseCourse(slug) {
  const chosen = slug && slug !== DEFAULT_COURSE ? slug : null;
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${COOKIE}=${chosen || DEFAULT_COURSE}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`;
  noteLaunchCourse(chosen);
  appState.set({ course: chosen });
}

/** The state's course at start: the one an LTI launch opened, else the remembered one (null for the default). */
export function courseAtStart() {
  if (launchCourse()) return launchCourse();
  const remembered = rememberedCourse();
  return remembered && remembered !== DEFAULT_COURSE ? remembered : null;
}

/** `path` under `course`'s base path (the state's course unless given): `/c/cs101/v1/me`, or `path` itself. */
export function coursePath(path, course = appState.state.course) {
  return course ? `/c/${course}${path}` : path;
}
