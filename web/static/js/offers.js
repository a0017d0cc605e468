// Offers: what one player asks and the other answers: a take-back, a draw,
// a rematch. Each is a box that shows the offer while it waits, with Accept
// and Decline for the opponent.

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

/**
 * @typedef {object} OfferKind one kind of offer between the players
 * @property {string} name the ids' stem: {name}-box, {name}-accept, {name}-decline
 * @property {(s: import('./store.js').RoomState) => {by: import('./store.js').Seat}|null|undefined} pending the offer in the state
 * @property {(can: import('./part.js').Can) => boolean} answerable whether this tab may answer it
 * @property {string} reply the command that answers it (with accept)
 * @property {string} offers what the offer is, after the offering side: "offers a draw"
 * @property {string} waiting what the one who offered reads while waiting
 */

/**
 * offerPart shows an offer of some kind while it waits for an answer.
 * @param {OfferKind} kind
 * @param {RoomActions} actions
 * @returns {Part}
 */
function offerPart(kind, actions) {
  const el = h('div', { class: 'undo-box offer-box', id: `${kind.name}-box`, role: 'alert' });
  el.hidden = true;
  const changed = changes();
  return {
    el,
    draw({ state: s, me, can }) {
      const offer = kind.pending(s) ?? null;
      const answer = kind.answerable(can);
      if (!changed([offer, me, answer])) return;
      el.hidden = !offer;
      if (!offer) {
        replace(el);
        return;
      }
      const reply = (/** @type {boolean} */ accept) => actions.send({ type: kind.reply, accept });
      if (answer) {
        replace(el,
          h('p', null, `${capital(offer.by)} ${kind.offers}.`),
          h('div', { class: 'row' },
            h('button', { class: 'button primary small', type: 'button', id: `${kind.name}-accept`, onclick: () => reply(true) }, 'Accept'),
            h('button', { class: 'button small', type: 'button', id: `${kind.name}-decline`, onclick: () => reply(false) }, 'Decline')));
      } else if (offer.by === me) {
        replace(el, h('p', null, kind.waiting));
      } else {
        replace(el, h('p', null, `${capital(offer.by)} ${kind.offers}.`));
      }
    },
  };
}

/**
 * drawOfferPart shows a draw offer; a move by the opponent declines it too.
 * @param {RoomActions} actions
 * @returns {Part}
 */
export function drawOfferPart(actions) {
  return offerPart({
    name: 'draw',
    pending: (s) => (s.status === 'finished' ? null : s.drawOffer),
    answerable: (can) => can.answerDraw,
    reply: 'draw_reply',
    offers: 'offers a draw',
    waiting: 'Draw offered. Waiting for your opponent to answer…',
  }, actions);
}

/**
 * rematchOfferPart shows a rematch offer after the game.
 * @param {RoomActions} actions
 * @returns {Part}
 */
export function rematchOfferPart(actions) {
  return offerPart({
    name: 'rematch',
    pending: (s) => (s.next ? null : s.rematchOffer),
    answerable: (can) => can.answerRematch,
    reply: 'rematch_reply',
    offers: 'offers a rematch with the colours swapped',
    waiting: 'Rematch offered. Waiting for your opponent to answer…',
  }, actions);
}
