// Toast: short messages for people (errors and notices), read out by screen
// readers, and the banner for a dropped connection.

import { h } from './dom.js';

/** TOAST_MS is how long a toast stays: long enough to read two lines. */
const TOAST_MS = 6000;

/**
 * toast shows a message at the foot of the screen.
 * @param {string} text
 * @param {'error'|'info'} [kind]
 * @param {string} [code] the error code, kept on the element for tests and support
 */
export function toast(text, kind = 'info', code = '') {
  const box = document.getElementById('toasts');
  if (!box) return;
  const close = h('button', { class: 'toast-close', type: 'button', 'aria-label': 'Dismiss' }, '×');
  const el = h('div', { class: `toast toast-${kind}`, role: kind === 'error' ? 'alert' : 'status', dataset: { code } }, h('span', null, text), close);
  const remove = () => el.remove();
  close.addEventListener('click', remove);
  box.append(el);
  while (box.children.length > 3) box.firstElementChild?.remove();
  setTimeout(remove, TOAST_MS);
}

/**
 * banner shows (text) or hides (null) the connection banner at the top.
 * @param {string|null} text
 */
export function banner(text) {
  const el = document.getElementById('banner');
  if (!el) return;
  el.hidden = text == null;
  el.textContent = text || '';
}
