// Notices: the events that change nothing on the board, said in words for a
// toast ("Black resigned."). Pure: it runs in node for the unit tests.

import { capital } from './store.js';

/** @typedef {import('./store.js').Seat} Seat */
/** @typedef {import('./store.js').RoomEvent} RoomEvent */

/**
 * @typedef {object} Viewer this tab, as the event finds it
 * @property {Seat|null} me the seat this tab acts for after the event
 * @property {Seat|null} was the seat it acted for before the event
 * @property {Seat|null} sitting the seat it has asked for and not yet been given
 */

/**
 * NOTICES says, per event type, what to tell the person; an empty string says
 * nothing. An event type that is not here is shown by the board alone.
 * @type {Readonly<Record<string, (ev: RoomEvent, who: Viewer) => string>>}
 */
const NOTICES = Object.freeze({
  undo_decline: (ev, who) => (who.me && ev.seat !== who.me ? 'Your take-back request was declined.' : ''),
  undo: (ev) => `${ev.plies === 1 ? 'One ply was' : `${ev.plies} plies were`} taken back.`,
  resign: (ev, who) => (ev.seat !== who.me ? `${capital(ev.seat)} resigned.` : ''),
  // A rematch in another room: the players' pages follow it, spectators get the link.
  rematch: (ev, who) => (!ev.next ? 'A new game has started.' : who.was ? 'Rematch agreed: on to the next game.' : 'The players started a rematch: follow “Next game” to watch it.'),
  rematch_offer: (ev, who) => (ev.seat !== who.me ? `${capital(ev.seat)} offers a rematch.` : ''),
  rematch_decline: (ev, who) => (who.me && ev.seat !== who.me ? 'Your rematch offer was declined.' : ''),
  draw_offer: (ev, who) => (ev.seat !== who.me ? `${capital(ev.seat)} offers a draw.` : ''),
  draw_decline: (ev, who) => (who.me && ev.seat !== who.me ? 'Your draw offer was declined.' : ''),
  draw: () => 'The game is drawn by agreement.',
  flag: (ev) => `${capital(ev.seat)}'s time ran out.`,
  abort: () => 'The game was aborted: no result.',
  claim: (ev, who) => claimNotice(ev, who),
  // Someone else sat down: not this tab, whose own sit may be answered after its event.
  seat: (ev, who) => (ev.kind === 'human' && ev.seat !== who.was && ev.seat !== who.me && ev.seat !== who.sitting
    ? `${ev.name} sat down as ${ev.seat}.` : ''),
});

/**
 * claimNotice says what the player who stayed claimed: the event's `claim`
 * (docs/protocol.md; `kind` is read too, as an earlier draft named it).
 * @param {RoomEvent} ev
 * @param {Viewer} who
 * @returns {string}
 */
function claimNotice(ev, who) {
  const kind = ev.claim ?? ev.kind;
  const by = ev.seat === who.me ? 'You' : capital(ev.seat);
  if (kind === 'win') return `${by} claimed the win after the opponent left.`;
  if (kind === 'draw') return `${by} called the game a draw after the opponent left.`;
  return `${by} aborted the game after the opponent left.`;
}

/**
 * eventNotice says an event in words for the person looking at this tab.
 * @param {RoomEvent} ev
 * @param {Viewer} who
 * @returns {string} empty when there is nothing to say
 */
export function eventNotice(ev, who) {
  return Object.hasOwn(NOTICES, ev.type) ? NOTICES[ev.type](ev, who) : '';
}
