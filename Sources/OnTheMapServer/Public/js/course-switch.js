// The app screen's part of courses: the course's title beside the app's name, and, for a student
// on more than one course's map, the switcher in the tab bar (the choice is remembered).
import { appState } from './app-state.js';
import { DEFAULT_COURSE } from './course-choice.js';
import { el } from './dom.js';
import { switchCourse } from './loader.js';

const byId = (id) => document.getElementById(id);

/** The courses the switcher offers: those the caller is on, and the one shown. */
export function switchable({ courses, course }) {
  if (!courses) return [];
  const shown = course || DEFAULT_COURSE;
  return courses.filter((item) => item.role !== null || item.slug === shown);
}

export function setUpCourseSwitch() {
  byId('course-select').addEventListener('change', (event) => switchCourse(event.target.value));
  appState.subscribe(['courses', 'course'], drawCourses);
  drawCourses(appState.state);
}

function drawCourses(state) {
  const shown = state.course || DEFAULT_COURSE;
  const options = switchable(state);
  const select = byId('course-select');
  select.replaceChildren(...options.map((item) => el('option', { value: item.slug, selected: item.slug === shown }, item.title)));
  select.value = shown;
  byId('course-switch').hidden = options.length < 2;
  const current = (state.courses || []).find((item) => item.slug === state.course);
  const name = byId('course-name');
  name.textContent = current ? current.title : '';
  name.hidden = !current || options.length >= 2;
}
