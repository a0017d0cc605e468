// Thinking: the line that shows a bot's search while it is to move: depth,
// best move, score, speed and the line it expects.

import { h, replace } from './dom.js';
import { capital, formatScore } from './store.js';
import { changes } from './part.js';

/** @typedef {import('./part.js').Part} Part */

/**
 * thinkingPart shows the bot's search, and hides while no bot is to move.
 * @returns {Part}
 */
export function thinkingPart() {
  const el = h('div', { class: 'thinking', id: 'thinking', 'aria-live': 'off' });
  const changed = changes();
  return {
    el,
    draw({ room, state: s }) {
      if (!changed([room.thinking, s.toMove, s.seats, s.result])) return;
      const t = room.thinking;
      const botToMove = s.toMove && s.seats[s.toMove]?.kind === 'bot' && !s.result;
      el.hidden = !botToMove;
      if (!botToMove) {
        replace(el);
        return;
      }
      const who = `${capital(/** @type {string} */ (s.toMove))} bot`;
      if (!t) {
        replace(el, h('span', { class: 'spinner', 'aria-hidden': 'true' }), ` ${who} is thinking…`);
        return;
      }
      replace(el,
        h('span', { class: 'spinner', 'aria-hidden': 'true' }),
        h('span', null, ` ${who} thinking: `),
        h('span', { class: 'think-depth' }, `depth ${t.depth}${t.exact ? ' (exact)' : ''}`), ' · ',
        h('span', null, 'best ', h('b', { class: 'think-best' }, t.best || '…')), ' · ',
        h('span', { title: "score from the bot's side" }, `score ${formatScore(s.game, t.score)}`), ' · ',
        h('span', { class: 'muted' }, `${count(t.nodes)} nodes, ${rate(t.nps)}`),
        t.pv.length > 1 ? h('div', { class: 'pv small muted' }, `line: ${t.pv.join(' ')}`) : null);
    },
  };
}

/**
 * count writes a node count short: 950, 12k, 3.4M.
 * @param {number} n
 */
function count(n) {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${Math.round(n / 1e3)}k` : String(n);
}

/**
 * rate writes nodes per second short: 850k/s, 1.5M/s.
 * @param {number} nps
 */
function rate(nps) {
  return nps >= 1e6 ? `${(nps / 1e6).toFixed(1)}M/s` : `${Math.round(nps / 1e3)}k/s`;
}
