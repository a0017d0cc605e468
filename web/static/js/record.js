// Record: the game record card: the transcript to copy (the engines'
// notation) and the whole record of the room to download.

import { h, replace } from './dom.js';
import { formatTranscript } from './notation.js';
import { changes } from './part.js';
import { copyButton } from './widgets.js';

/** @typedef {import('./part.js').Part} Part */

/**
 * recordPart shows the current game's record.
 * @returns {Part}
 */
export function recordPart() {
  const box = h('div', { class: 'export' });
  const el = h('section', { class: 'card' }, h('h2', null, 'Game record'), box);
  const changed = changes();
  return {
    el,
    draw({ state: s }) {
      if (!changed([s.moves])) return;
      const text = formatTranscript(s.game, s.moves);
      const input = /** @type {HTMLInputElement} */ (h('input', { id: 'transcript', readonly: true, value: text, 'aria-label': 'Transcript' }));
      const header = s.game === 'reversi' ? 'Transcript (passes as “pa”)' : `Record (${s.size}×${s.size}${s.rule ? `, ${s.rule}` : ''})`;
      replace(box,
        h('p', { class: 'small muted' }, header),
        h('div', { class: 'copy-row' }, input, copyButton(() => input.value, 'Copy', 'copy-transcript')),
        h('p', { class: 'small' }, h('a', { href: `/api/rooms/${encodeURIComponent(s.id)}`, download: `${s.game}-${s.id}.json` }, 'Download the whole record (JSON)')));
    },
  };
}
