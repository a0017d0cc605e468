// Moves: the move list and the replay bar. A click on a ply, the buttons or
// the arrow keys (Home and End too) show an earlier position; "Live" returns.

import { h, replace } from './dom.js';
import { moveRows } from './notation.js';
import { changes } from './part.js';
import { btn } from './widgets.js';

/** @typedef {import('./part.js').Part} Part */
/** @typedef {import('./part.js').Frame} Frame */
/** @typedef {import('./part.js').RoomActions} RoomActions */

/**
 * movesPart shows the current game's plies and steps through them.
 * @param {RoomActions} actions
 * @returns {Part}
 */
export function movesPart(actions) {
  const list = h('ol', { class: 'moves', id: 'moves', 'aria-label': 'Moves' });
  const bar = h('div', { class: 'replay', role: 'group', 'aria-label': 'Replay' });
  const el = h('section', { class: 'card history' }, h('h2', null, 'Moves'), list, bar);
  const changed = changes();
  /** @type {Frame|null} the latest frame, for the keys */
  let latest = null;

  /** @param {KeyboardEvent} e */
  function replayKey(e) {
    if (!latest) return;
    const n = latest.state.moves.length;
    const at = latest.room.cursor ?? n;
    let next = null;
    if (e.key === 'ArrowLeft') next = Math.max(0, at - 1);
    else if (e.key === 'ArrowRight') next = Math.min(n, at + 1);
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = n;
    if (next == null) return;
    e.preventDefault();
    actions.showPly(next >= n ? null : next);
  }
  list.addEventListener('keydown', replayKey);
  bar.addEventListener('keydown', replayKey);

  return {
    el,
    draw(f) {
      latest = f;
      const { room, state: s, shown: v } = f;
      if (!changed([s.moves, room.cursor, v.ply])) return;
      const n = s.moves.length;
      replace(list, moveRows(s.moves).map((row) => h('li', { class: 'move-row' },
        h('span', { class: 'move-no', 'aria-hidden': 'true' }, `${row.no}.`),
        row.plies.map((p) => h('button', {
          type: 'button',
          class: `ply${p.ply + 1 === v.ply && (room.cursor != null || p.ply + 1 === n) ? ' current' : ''}${p.move === 'pass' ? ' pass' : ''}`,
          'data-ply': p.ply + 1,
          id: `ply-${p.ply + 1}`,
          'aria-label': `Ply ${p.ply + 1}, ${p.ply % 2 === 0 ? 'black' : 'white'} ${p.move}`,
          onclick: () => actions.showPly(p.ply + 1 >= n ? null : p.ply + 1),
        }, p.move)))));
      if (!n) replace(list, h('li', { class: 'muted small' }, 'No moves yet.'));
      const cur = list.querySelector('.ply.current');
      if (cur && room.cursor == null) list.scrollTop = list.scrollHeight;
      else if (cur) cur.scrollIntoView({ block: 'nearest' });
      const at = room.cursor ?? n;
      replace(bar,
        btn('first', '«', at === 0, () => actions.showPly(0), 'First position'),
        btn('prev', '‹', at === 0, () => actions.showPly(Math.max(0, at - 1)), 'Previous ply'),
        h('span', { class: 'replay-pos', 'aria-live': 'polite' }, `${at} / ${n}`),
        btn('next', '›', at >= n, () => actions.showPly(at + 1 >= n ? null : at + 1), 'Next ply'),
        btn('live', room.cursor == null ? '»' : 'Live »', room.cursor == null, () => actions.showPly(null), 'Latest position'));
    },
  };
}
