// Offers: what one player asks and the other answers. Today that is the
// take-back request: the box that shows it, with Accept and Decline for the
// opponent.

import { h, replace } from './dom.js';
import { capital } from './store.js';
import { changes } from './part.js';

/** @typedef {import('./part.js').Part} Part */
/** @typedef {import('./part.js').RoomActions} RoomActions */

/**
 * undoRequestPart shows a take-back request while it waits for an answer.
 * @param {RoomActions} actions
 * @returns {Part}
 */
export function undoRequestPart(actions) {
  const el = h('div', { class: 'undo-box', id: 'undo-box', role: 'alert' });
  const changed = changes();
  return {
    el,
    draw({ state: s, me, can }) {
      if (!changed([s.undoRequest, me, can.answerUndo])) return;
      const req = s.undoRequest;
      el.hidden = !req;
      if (!req) {
        replace(el);
        return;
      }
      if (can.answerUndo) {
        replace(el,
          h('p', null, `${capital(req.by)} asks to take back their last move.`),
          h('div', { class: 'row' },
            h('button', { class: 'button primary small', type: 'button', id: 'undo-accept', onclick: () => actions.send({ type: 'undo_reply', accept: true }) }, 'Accept'),
            h('button', { class: 'button small', type: 'button', id: 'undo-decline', onclick: () => actions.send({ type: 'undo_reply', accept: false }) }, 'Decline')));
      } else if (req.by === me) {
        replace(el, h('p', null, 'Take-back requested. Waiting for your opponent to answer…'));
      } else {
        replace(el, h('p', null, `${capital(req.by)} asked to take back a move.`));
      }
    },
  };
}
