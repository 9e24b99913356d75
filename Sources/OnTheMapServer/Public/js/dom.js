// Building the page from data. User text only ever enters the page through text nodes and
// attribute values, never through HTML parsing, so a name like <img onerror=…> stays text.
// Children and attribute values may be i18n Messages: they are put into words as the node is made
// (whoever built the node builds it again after a change of language).
import { setText } from './i18n.js';

/** Creates `tag` with attributes (null/false ones skipped) and children (strings become text). */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/**
 * Shows `message` in `node` (a text-only element), or hides it when the message is empty. A Message
 * (i18n.js `msg`) is said again in each new language.
 */
export function showMessage(node, message) {
  setText(node, message || '');
  node.hidden = !message;
}

/** Marks a field invalid with its message (or valid), linking the message for screen readers. */
export function setFieldError(input, messageNode, message) {
  showMessage(messageNode, message);
  if (message) input.setAttribute('aria-invalid', 'true');
  else input.removeAttribute('aria-invalid');
}

/**
 * Sets a button's busy state. The button is not disabled, which would drop keyboard focus;
 * `isBusy` lets its handler ignore presses until the work is done.
 */
export function setBusy(button, busy) {
  if (busy) {
    button.setAttribute('aria-busy', 'true');
    button.setAttribute('aria-disabled', 'true');
  } else {
    button.removeAttribute('aria-busy');
    button.removeAttribute('aria-disabled');
  }
}

/** True while `setBusy(button, true)` holds. */
export function isBusy(button) {
  return button.getAttribute('aria-busy') === 'true';
}
