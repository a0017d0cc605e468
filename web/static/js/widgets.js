// Widgets: the small controls the room page repeats: a button, a copy button,
// a share button.

import { h } from './dom.js';
import { toast } from './toast.js';

/**
 * btn makes a control button with id btn-{name}.
 * @param {string} name
 * @param {string} text
 * @param {boolean} disabled
 * @param {() => void} onclick
 * @param {string} [label]
 * @returns {HTMLElement}
 */
export function btn(name, text, disabled, onclick, label) {
  return h('button', { type: 'button', class: `button small btn-${name}`, id: `btn-${name}`, disabled, onclick, 'aria-label': label }, text);
}

/**
 * shareButton offers the system's share sheet where there is one (phones),
 * else copies the link.
 * @param {string} url
 * @param {string} title
 * @returns {HTMLElement}
 */
export function shareButton(url, title) {
  if (typeof navigator.share !== 'function') return copyButton(() => url, 'Copy link', 'copy-invite');
  return h('button', {
    type: 'button', class: 'button small', id: 'share-invite',
    onclick: () => navigator.share({ title: `${title} · Board Hall`, url }).catch(() => { /* the person closed the sheet */ }),
  }, 'Share');
}

/**
 * copyButton copies text to the clipboard and says so.
 * @param {() => string} get
 * @param {string} text
 * @param {string} id
 * @returns {HTMLElement}
 */
export function copyButton(get, text, id) {
  return h('button', {
    type: 'button', class: 'button small', id,
    onclick: async () => {
      try {
        await navigator.clipboard.writeText(get());
        toast('Copied.', 'info');
      } catch {
        toast('Copying is not allowed here: select the text and copy it by hand.', 'error');
      }
    },
  }, text);
}
