// Controls: a seated player's buttons (undo, resign, switch sides, rematch,
// leave the seat), the line that says a spectator is watching, and the result
// once the game is over.

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
        buttons.push(btn('switch', 'Switch sides', !can.switchSides, () => actions.send({ type: 'switch' })));
        buttons.push(btn('rematch', 'Rematch', !can.rematch, () => actions.send({ type: 'rematch' })));
        buttons.push(btn('stand', 'Leave seat', !can.stand, () => actions.send({ type: 'stand' })));
      } else {
        buttons.push(h('p', { class: 'muted small spectating' }, 'You are watching this game.'));
      }
      if (s.status === 'finished') buttons.unshift(h('p', { class: 'result', id: 'result' }, resultText(s)));
      replace(el, buttons);
    },
  };
}
