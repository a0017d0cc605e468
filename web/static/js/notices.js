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
  rematch: () => 'A new game has started.',
  // Someone else sat down: not this tab, whose own sit may be answered after its event.
  seat: (ev, who) => (ev.kind === 'human' && ev.seat !== who.was && ev.seat !== who.me && ev.seat !== who.sitting
    ? `${ev.name} sat down as ${ev.seat}.` : ''),
});

/**
 * eventNotice says an event in words for the person looking at this tab.
 * @param {RoomEvent} ev
 * @param {Viewer} who
 * @returns {string} empty when there is nothing to say
 */
export function eventNotice(ev, who) {
  return Object.hasOwn(NOTICES, ev.type) ? NOTICES[ev.type](ev, who) : '';
}
