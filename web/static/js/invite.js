// Invite: the card with the room's link, to copy or share. While a seat
// waits for a person the page puts it first (the room's "waiting" class).

import { h } from './dom.js';
import { describeRoom } from './lobby.js';
import { shareButton } from './widgets.js';

/** @typedef {import('./part.js').Part} Part */

/**
 * invitePart shows the invite link of a room; it never changes.
 * @param {import('./store.js').RoomState} s the room's first state
 * @returns {Part}
 */
export function invitePart(s) {
  const url = `${location.origin}/r/${encodeURIComponent(s.id)}`;
  const input = h('input', { id: 'invite-link', readonly: true, value: url, 'aria-label': 'Invite link' });
  const el = h('section', { class: 'card invite', id: 'invite' }, h('h2', null, 'Invite'),
    h('p', { class: 'small muted invite-hint' }, 'Send this link to a friend: opening it takes the free seat. Others who open it watch.'),
    h('div', { class: 'copy-row' }, input, shareButton(url, describeRoom(s))));
  return { el, draw() {} };
}
