// Invite: the card with the room's link, to copy or share (while a seat waits
// for a person the page puts it first: the room's "waiting" class), and the
// card that offers a visitor the open seat. Opening a link never seats anyone
// by itself: the visitor sees the game, types a name (remembered in the
// browser) and takes the seat with a button, or just watches.

import { h, replace } from './dom.js';
import { describeRoom } from './lobby.js';
import { shareButton } from './widgets.js';
import { SEATS, other } from './store.js';
import { savedName, NAME_MAX } from './prefs.js';
import { changes } from './part.js';

/** @typedef {import('./part.js').Part} Part */
/** @typedef {import('./part.js').RoomActions} RoomActions */
/** @typedef {import('./store.js').Seat} Seat */

/** INVITE_HINT says what the link does, for the one who sends it. */
export const INVITE_HINT = 'Send this link to a friend: they see the game and take the open seat when they choose. Anyone else who opens it watches.';

/**
 * invitePart shows the invite link of a room; it never changes.
 * @param {import('./store.js').RoomState} s the room's first state
 * @returns {Part}
 */
export function invitePart(s) {
  const url = `${location.origin}/r/${encodeURIComponent(s.id)}`;
  const input = h('input', { id: 'invite-link', readonly: true, value: url, 'aria-label': 'Invite link' });
  const el = h('section', { class: 'card invite', id: 'invite' }, h('h2', null, 'Invite'),
    h('p', { class: 'small muted invite-hint' }, INVITE_HINT),
    h('div', { class: 'copy-row' }, input, shareButton(url, describeRoom(s))));
  return { el, draw() {} };
}

/**
 * seatOfferPart offers the open seat to someone who watches: a name field
 * and "Take the seat" (one button per seat when both are open).
 * @param {RoomActions} actions
 * @returns {Part}
 */
export function seatOfferPart(actions) {
  const name = /** @type {HTMLInputElement} */ (h('input', {
    id: 'sit-name', name: 'name', maxlength: NAME_MAX, autocomplete: 'nickname', placeholder: 'Your name', value: savedName(),
  }));
  const label = h('label', { class: 'name-field', for: 'sit-name' }, 'Your name');
  const lead = h('p', { class: 'seat-offer-lead' });
  const buttons = h('div', { class: 'row' });
  const el = h('section', { class: 'card seat-offer', id: 'seat-offer', 'aria-label': 'Take a seat' },
    h('h2', null, 'Play'), lead, label, name, buttons,
    h('p', { class: 'small muted' }, 'Until you take a seat you are watching.'));
  el.hidden = true;
  const changed = changes();
  return {
    el,
    draw({ state: s, can, session }) {
      const open = SEATS.filter((k) => s.seats[k].kind === 'open');
      const show = can.sit && !session.sitting;
      if (!changed([show, open, s.seats])) return;
      el.hidden = !show;
      if (!show) return;
      const take = (/** @type {Seat} */ seat) => actions.sit(seat, name.value);
      if (open.length === 1) {
        const seat = open[0];
        const host = s.seats[other(seat)];
        replace(lead, host.kind === 'human'
          ? `${host.name} invites you to play ${seat}.`
          : `The ${seat} seat is open.`);
        replace(buttons, h('button', {
          class: 'button primary', type: 'button', id: `sit-${seat}`, 'data-sit': seat, onclick: () => take(seat), 'aria-label': `Take the ${seat} seat`,
        }, 'Take the seat'));
      } else {
        replace(lead, 'Both seats are open.');
        replace(buttons, open.map((seat) => h('button', {
          class: 'button primary', type: 'button', id: `sit-${seat}`, 'data-sit': seat, onclick: () => take(seat), 'aria-label': `Take the ${seat} seat`,
        }, `Play ${seat}`)));
      }
      // The form's Enter takes the (first) open seat.
      name.onkeydown = (e) => {
        if (e.key === 'Enter' && open.length) take(open[0]);
      };
    },
  };
}
