// Controls: a seated player's buttons (undo, draw, abort, resign, switch
// sides, rematch, leave the seat or call the invitation off), the line that
// says a spectator is watching, and the result once the game is over.

import { h, replace } from './dom.js';
import { other, resultText } from './store.js';
import { changes } from './part.js';
import { btn } from './widgets.js';

/** @typedef {import('./part.js').Part} Part */
/** @typedef {import('./part.js').RoomActions} RoomActions */

/** RESIGN_CONFIRM_MS is how long the resign button waits for the second, confirming click. */
export const RESIGN_CONFIRM_MS = 4000;

/**
 * controlsPart shows the game controls. Resigning takes two clicks: the first
 * arms the button for RESIGN_CONFIRM_MS.
 * @param {RoomActions} actions
 * @returns {Part}
 */
export function controlsPart(actions) {
  const el = h('div', { class: 'controls', role: 'group', 'aria-label': 'Game controls' });
  const changed = changes();
  let resignArmed = false;
  return {
    el,
    draw({ state: s, me, can }) {
      if (!changed([can, me, s.seats, s.status, s.result, resignArmed])) return;
      const opp = me ? s.seats[other(me)] : null;
      /** @type {HTMLElement[]} */
      const buttons = [];
      if (me) {
        const undoWord = opp?.kind === 'human' ? 'Ask to undo' : 'Undo';
        buttons.push(btn('undo', undoWord, !can.undo, () => actions.send({ type: 'undo' })));
        const resign = btn('resign', resignArmed ? 'Really resign?' : 'Resign', !can.resign, () => {
          if (!resignArmed) {
            resignArmed = true;
            actions.redraw();
            setTimeout(() => {
              resignArmed = false;
              actions.redraw();
            }, RESIGN_CONFIRM_MS);
            return;
          }
          resignArmed = false;
          actions.send({ type: 'resign' });
        });
        if (resignArmed) resign.classList.add('danger');
        buttons.push(resign);
        // Between people: a draw offer (which accepts the opponent's), and an
        // abort before both sides have moved.
        if (opp?.kind === 'human') {
          buttons.push(btn('draw', can.answerDraw ? 'Accept draw' : 'Offer draw', !can.offerDraw, () => actions.send({ type: 'draw' }),
            can.answerDraw ? 'Accept the draw your opponent offers' : 'Offer a draw'));
        }
        if (can.abort) buttons.push(btn('abort', 'Abort', false, () => actions.send({ type: 'abort' }), 'Abort the game: no result, allowed before both sides have moved'));
        if (opp?.kind !== 'human') buttons.push(btn('switch', 'Switch sides', !can.switchSides, () => actions.send({ type: 'switch' })));
        buttons.push(btn('rematch', can.answerRematch ? 'Accept rematch' : 'Rematch', !can.rematch, () => actions.send({ type: 'rematch' }),
          opp?.kind === 'human' ? 'Offer a rematch with the colours swapped' : 'Start a rematch with the colours swapped'));
        if (can.cancelInvite) {
          buttons.push(btn('cancel-invite', 'Cancel invitation', false, () => actions.cancelInvite(), 'Cancel the invitation: leave your seat and the room'));
        } else {
          buttons.push(btn('stand', 'Leave seat', !can.stand, () => actions.send({ type: 'stand' })));
        }
      } else {
        buttons.push(h('p', { class: 'muted small spectating' }, 'You are watching this game.'));
      }
      if (s.status === 'finished') buttons.unshift(h('p', { class: 'result', id: 'result' }, resultText(s)));
      replace(el, buttons);
    },
  };
}
