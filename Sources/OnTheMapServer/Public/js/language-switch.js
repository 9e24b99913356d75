// The language switch: every `select.language-select` on the page (the login, sign-up and reset
// cards, the app's tab bar, the admin area) lists the languages that ship, each in its own name,
// and changing one switches the page and remembers the choice on this device.
import { CATALOGUES, currentLanguage, languageInfo, onLanguageChange, setLanguage } from './i18n.js';

/** Fills the switches, keeps them showing the language in use, and switches on a change. */
export function setUpLanguageSwitches(root = document) {
  const selects = [...root.querySelectorAll('select.language-select')];
  for (const select of selects) {
    const options = CATALOGUES.map((code) => {
      const option = document.createElement('option');
      option.value = code;
      option.textContent = languageInfo(code).name;
      // Each name is read out in its own language, and never translated (by a browser's translator either).
      option.lang = code;
      option.translate = false;
      return option;
    });
    select.replaceChildren(...options);
    select.value = currentLanguage();
    select.addEventListener('change', () => setLanguage(select.value, { remember: true }));
  }
  onLanguageChange((code) => {
    for (const select of selects) select.value = code;
  });
}
