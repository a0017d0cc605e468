// Players: the two seats: who sits there, whether that person is connected,
// whose turn it is, the count of discs or stones and, for a seated player,
// the choice of a bot (of some level) or an open seat for a seat that is not
// another person's. A visitor takes an open seat in the seat card
// (invite.js).

import { h, replace } from './dom.js';
import { SEATS, capital, seatName } from './store.js';
import { maxLevel } from './session.js';
import { changes } from './part.js';

/** @typedef {import('./part.js').Part} Part */
/** @typedef {import('./part.js').Frame} Frame */
/** @typedef {import('./part.js').RoomActions} RoomActions */
/** @typedef {import('./store.js').Seat} Seat */
/** @typedef {import('./store.js').SeatInfo} SeatInfo */

/**
 * playersPart shows both seats.
 * @param {RoomActions} actions
 * @returns {Part}
 */
export function playersPart(actions) {
  const el = h('div', { class: 'players' });
  const changed = changes();
  return {
    el,
    draw(f) {
      const { state: s, me, can } = f;
      const levels = maxLevel(f.session);
      if (!changed([s.seats, s.counts, s.toMove, s.result, me, can.sit, levels, s.status, s.presence])) return;
      replace(el, SEATS.map((seat) => seatCard(f, seat, levels, actions)));
    },
  };
}

/**
 * seatCard is one seat.
 * @param {Frame} f
 * @param {Seat} seat
 * @param {number} levels the strongest bot level
 * @param {RoomActions} actions
 */
function seatCard({ state: s, me }, seat, levels, actions) {
  const info = s.seats[seat];
  const toMove = s.toMove === seat;
  const won = s.result?.winner === seat;
  const badges = [];
  if (seat === me) badges.push(h('span', { class: 'badge you' }, 'You'));
  if (info.kind === 'bot') badges.push(h('span', { class: 'badge bot' }, `Bot · level ${info.level}`));
  if (won) badges.push(h('span', { class: 'badge won' }, 'Winner'));
  // Whether a person is connected, said in words beside the dot (colour is never all).
  const online = s.presence?.[seat];
  const presence = info.kind === 'human' && s.presence
    ? h('span', { class: `presence ${online ? 'online' : 'offline'}`, id: `presence-${seat}`, title: online ? 'Connected' : 'Not connected' },
      h('span', { class: 'presence-dot', 'aria-hidden': 'true' }), online ? 'online' : 'away')
    : null;
  const controls = [];
  // A seated player may set a seat that is not another person's: a bot,
  // its level, or open again.
  if (me && s.status !== 'finished' && info.kind !== 'human') controls.push(seatSelect(seat, info, levels, actions));
  return h('div', {
    class: `player player-${seat}${toMove ? ' to-move' : ''}${seat === me ? ' mine' : ''}`,
    id: `player-${seat}`,
    'aria-label': `${capital(seat)}: ${seatName(info)}${presence ? (online ? ', online' : ', away') : ''}, ${s.counts[seat]} ${s.game === 'reversi' ? 'discs' : 'stones'}${toMove ? ', to move' : ''}`,
  },
    h('span', { class: `stone stone-${seat}`, 'aria-hidden': 'true' }),
    h('div', { class: 'player-info' },
      h('div', { class: 'player-name' }, info.kind === 'human' ? info.name : info.kind === 'bot' ? 'Bot' : 'Open seat', ...badges, presence),
      h('div', { class: 'player-sub muted small' }, capital(seat), toMove && !s.result ? ' · to move' : '')),
    h('div', { class: 'count', title: s.game === 'reversi' ? 'Discs' : 'Stones' }, String(s.counts[seat])),
    controls.length ? h('div', { class: 'player-controls' }, controls) : null,
  );
}

/**
 * seatSelect lets a seated player put a bot (of some level) in a seat, or open it.
 * @param {Seat} seat
 * @param {SeatInfo} info
 * @param {number} levels the strongest bot level
 * @param {RoomActions} actions
 */
function seatSelect(seat, info, levels, actions) {
  const sel = /** @type {HTMLSelectElement} */ (h('select', { class: 'seat-select', id: `seat-select-${seat}`, 'aria-label': `${capital(seat)} seat` },
    h('option', { value: 'open' }, 'Open seat'),
    Array.from({ length: levels }, (_, i) => h('option', { value: `bot:${i + 1}` }, `Bot level ${i + 1}`))));
  sel.value = info.kind === 'bot' ? `bot:${info.level}` : 'open';
  sel.addEventListener('change', () => {
    const [kind, level] = sel.value.split(':');
    /** @type {import('./session.js').Command} */
    const msg = { type: 'set_seat', seat, kind };
    if (kind === 'bot') msg.level = Number(level);
    actions.send(msg);
  });
  return sel;
}
