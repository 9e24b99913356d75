// The boot: wires the screens, the top bar and the language, checks who is logged in, and shows
// the screen the URL names. The state lives in app-state.js, the posts' loading in loader.js, the
// screens in router.js and the status line in status-line.js.
import { setUpAuthScreens, setUpResetScreen } from './auth-screens.js';
import { chooseLanguage, onLanguageChange, rememberedLanguage, setLanguage } from './i18n.js';
import { setUpInstallOffer } from './install-app.js';
import { setUpLanguageSwitches } from './language-switch.js';
import { appState } from './app-state.js';
import { courseAtStart } from './course-choice.js';
import { setUpCourseSwitch } from './course-switch.js';
import { joinWaitingInvite } from './join-course.js';
import { checkSession, loggedIn } from './loader.js';
import { relabelPosts } from './post-views.js';
import { relabelScreens, route, setUpNavigation } from './router.js';
import { resetToken } from './routes.js';
import { explainSignInFailure, showSignInProviders } from './sign-in-providers.js';
import { setUpTheme } from './theme.js';
import { setUpTopBar } from './top-bar.js';

async function start() {
  setUpTheme();
  setUpInstallOffer();
  // The map this browser showed last: the session check below asks about that course.
  appState.set({ course: courseAtStart() });
  // Who is logged in, asked at once: the page named that answer and the catalogue beside the
  // scripts (WebClient/FirstPage.swift), so both are on their way; waiting for one before asking
  // for the other would add a round trip, half a second on a slow phone network.
  const session = checkSession();
  // The reader's language before the first screen shows; a remembered choice renews its cookie.
  await setLanguage(chooseLanguage(), { remember: rememberedLanguage() !== null });
  setUpLanguageSwitches();
  // After a change of language, what was built from data is built again in it. Messages given to
  // the status line and the forms' error lines, and the static page, follow by themselves (i18n.js).
  onLanguageChange(() => {
    relabelPosts();
    relabelScreens();
  });
  setUpAuthScreens(loggedIn);
  setUpResetScreen(() => resetToken(location.hash));
  setUpTopBar();
  setUpCourseSwitch();
  setUpNavigation();
  showSignInProviders();
  const explained = explainSignInFailure();
  await session;
  await explained;
  // Back from a provider's sign-in with an invite link waiting: join, which shows the course's map.
  if (await joinWaitingInvite()) return;
  await route();
}

if ('serviceWorker' in navigator) {
  // Offline support is an extra: the app works the same without it (plain http off localhost).
  navigator.serviceWorker.register('/sw.js').catch(() => {});
}

start();
