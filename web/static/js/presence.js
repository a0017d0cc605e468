// Presence: what the player who stayed may do about an opponent who left.
// While the grace period runs the box says how long until a claim is
// allowed; then it offers the win, a draw, an abort (while fewer than two
// moves each were played) or a bot in the gone player's seat.

import { h, replace } from './dom.js';
import { capital } from './store.js';
import { claimChoice, maxLevel } from './session.js';
import { btn } from './widgets.js';

/** @typedef {import('./part.js').Part} Part */
/** @typedef {import('./part.js').Frame} Frame */
/** @typedef {import('./part.js').RoomActions} RoomActions */

/** BOT_LEVEL_SHARE picks the level a bot takes over at by default: half way up, a fair game for most. */
const BOT_LEVEL_SHARE = 0.5;

/**
 * claimPart shows the choices of the player whose opponent left.
 * @param {RoomActions} actions
 * @returns {Part}
 */
export function claimPart(actions) {
  const el = h('section', { class: 'claim-box', id: 'claim-box', role: 'region', 'aria-label': 'Your opponent left' });
  el.hidden = true;
  /** @type {string} what is drawn, to draw only changes */
  let drawn = '';
  /** @type {ReturnType<typeof setTimeout>|undefined} */
  let timer;
  /** @type {Frame|null} */
  let latest = null;

  /** @param {Frame} f */
  function draw(f) {
    latest = f;
    clearTimeout(timer);
    const c = claimChoice(f.session, performance.now());
    if (!c) {
      if (drawn) replace(el);
      el.hidden = true;
      drawn = '';
      return;
    }
    const secs = Number.isFinite(c.waitMs) ? Math.ceil(c.waitMs / 1000) : -1;
    // Count the wait down, whatever else draws the part meanwhile; the buttons appear when it is over.
    if (secs > 0) timer = setTimeout(() => latest && el.isConnected && draw(latest), (c.waitMs % 1000) + 1);
    const levels = maxLevel(f.session);
    const key = JSON.stringify([c.gone, c.name, c.abort, secs, levels]);
    if (key === drawn) return;
    drawn = key;
    el.hidden = false;
    const who = `${c.name} (${c.gone})`;
    if (secs !== 0) {
      replace(el, h('p', null, `${who} left the game.`),
        h('p', { class: 'small muted', id: 'claim-wait' }, secs > 0
          ? `If they do not come back within ${secs} s, you may claim the game.`
          : 'If they do not come back, you may claim the game after a short wait.'));
      return;
    }
    const level = /** @type {HTMLSelectElement} */ (h('select', { id: 'claim-bot-level', 'aria-label': 'Level of the bot that takes the seat' },
      Array.from({ length: levels }, (_, i) => h('option', { value: i + 1 }, `level ${i + 1}`))));
    level.value = String(Math.max(1, Math.round(levels * BOT_LEVEL_SHARE)));
    const claim = (/** @type {string} */ kind) => actions.send({ type: 'claim', kind });
    replace(el,
      h('p', null, `${who} left the game and has not come back.`),
      h('div', { class: 'row' },
        btn('claim-win', 'Claim the win', false, () => claim('win'), `Claim the win: ${c.name} left`),
        btn('claim-draw', 'Call it a draw', false, () => claim('draw'), 'Call the game a draw'),
        c.abort ? btn('claim-abort', 'Abort', false, () => claim('abort'), 'Abort the game with no result') : null),
      h('div', { class: 'row' },
        btn('claim-bot', `Hand ${c.gone} to a bot`, false,
          () => actions.send({ type: 'set_seat', seat: c.gone, kind: 'bot', level: Number(level.value) }),
          `Hand the ${c.gone} seat to a bot and play on`),
        level),
      h('p', { class: 'small muted' }, `${capital(c.gone)} may still come back until you choose.`));
  }
  return { el, draw };
}
