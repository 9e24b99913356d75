// A course's map framed on another site (`/c/{slug}/embed`, an iframe on a course page): the pins
// of a course readable by link, kept current by the live stream, with no login and nothing to
// change. A course only its members may read says so instead (a framed page gets no session).
import { errorMessage, request } from './api.js';
import { appState } from './app-state.js';
import { chooseLanguage, msg, setLanguage, setText } from './i18n.js';
import { LiveUpdates } from './live-updates.js';
import { mapCode } from './map-code.js';

const byId = (id) => document.getElementById(id);

/** The course the address names (`/c/{slug}/embed`). */
const slug = location.pathname.split('/')[2];

function say(message) {
  setText(byId('embed-message'), message);
  byId('embed-message').hidden = !message;
}

async function start() {
  await setLanguage(chooseLanguage());
  // Every call of the shared modules goes to this course's paths (course-choice.js).
  appState.set({ course: slug });
  byId('embed-open').href = `/c/${slug}/`;
  let course;
  try {
    course = await request('GET', `/c/${slug}/v1/course`, { context: 'course' });
  } catch (failure) {
    say(failure.status === 401 || failure.kind === 'course' && failure.status === 403 ? msg('embed.membersOnly') : errorMessage(failure));
    return;
  }
  byId('embed-course').textContent = course.title;
  document.title = course.title;
  const { PinMap } = await mapCode();
  const map = new PinMap(byId('map'), { readOnly: true });
  await map.open();
  const draw = async ({ keepView }) => {
    const { results } = await request('GET', `/c/${slug}/v1/StudentLocation`, { context: 'course' });
    await map.show(results, null, { keepView });
    byId('map').dataset.pins = String(results.length);
    byId('map').dataset.ready = 'true';
  };
  try {
    await draw({ keepView: false });
  } catch (failure) {
    say(errorMessage(failure));
    return;
  }
  // A change redraws the course's newest pins, where the reader left the view.
  const quietly = () => draw({ keepView: true }).catch(() => {});
  new LiveUpdates({ onChanges: quietly, onReload: quietly, onState: () => {} }).start();
}

start();
