// Pairing: "Play someone now", pure. The lobby asks for a game (game, board,
// rule, time control) with pair; the server answers ack and puts this
// connection in a queue; paired sends the player to the new room, with the
// seat token kept as that room's grant (as seated's is); pair_expired offers
// a bot of the level the server suggests instead. Each function takes the
// pairing and what happened and returns the next pairing and its effects,
// as session.js does for a room.

import { errorText } from './errors.js';

/**
 * @typedef {object} PairAsk what the player asks for
 * @property {'reversi'|'gomoku'} game
 * @property {number} size
 * @property {string} rule
 * @property {import('./clock.js').TimeControl} clock
 * @property {string} name
 * @property {string} identity the browser's identity key
 */

/**
 * @typedef {{phase: 'idle'}
 *   | {phase: 'asking', ask: PairAsk}
 *   | {phase: 'waiting', ask: PairAsk}
 *   | {phase: 'expired', ask: PairAsk, botLevel: number}} Pairing
 * idle: not in a queue. asking: pair sent, not yet answered. waiting: in the
 * queue. expired: nobody came; a bot of botLevel is offered.
 */

/**
 * @typedef {{type: 'send', msg: {type: string, [field: string]: any}}
 *   | {type: 'seat', room: string, grant: import('./prefs.js').SeatGrant}
 *   | {type: 'bot', ask: PairAsk, level: number}
 *   | {type: 'toast', text: string, tone: 'info'|'error', code: string}} PairEffect
 * send: send msg (pair's answer goes to pairAnswered or pairRefused). seat:
 * keep grant for room and go to its page. bot: create a room with a bot of
 * level in the other seat, and take this player's seat there.
 */

/** @typedef {{pairing: Pairing, effects: PairEffect[]}} PairStep */

/** IDLE is no pairing. */
export const IDLE = /** @type {Pairing} */ (Object.freeze({ phase: 'idle' }));

/**
 * @param {Pairing} pairing
 * @param {PairEffect[]} [effects]
 * @returns {PairStep}
 */
function step(pairing, effects = []) {
  return { pairing, effects };
}

/**
 * pairCommand is the pair command for an ask.
 * @param {PairAsk} ask
 */
export function pairCommand(ask) {
  /** @type {{type: string, [field: string]: any}} */
  const msg = { type: 'pair', game: ask.game, size: ask.size, rule: ask.rule, clock: ask.clock, name: ask.name };
  if (ask.identity) msg.identity = ask.identity;
  return msg;
}

/**
 * pairStarted asks for an opponent; nothing while already asking or waiting.
 * @param {Pairing} p
 * @param {PairAsk} ask
 * @returns {PairStep}
 */
export function pairStarted(p, ask) {
  if (p.phase === 'asking' || p.phase === 'waiting') return step(p);
  return step({ phase: 'asking', ask }, [{ type: 'send', msg: pairCommand(ask) }]);
}

/**
 * pairAnswered takes the ack of pair: the player waits in the queue.
 * @param {Pairing} p
 * @returns {PairStep}
 */
export function pairAnswered(p) {
  return p.phase === 'asking' ? step({ phase: 'waiting', ask: p.ask }) : step(p);
}

/**
 * pairRefused takes an error answering pair, or one the server sends later
 * about it (a message without a room): the player is out of the queue.
 * @param {Pairing} p
 * @param {{code: string, userText: string}} err
 * @returns {PairStep}
 */
export function pairRefused(p, err) {
  if (p.phase !== 'asking' && p.phase !== 'waiting') return step(p);
  const text = err.code === 'disconnected'
    ? 'The connection dropped: you are no longer waiting for an opponent.'
    : `Could not find you an opponent: ${err.userText}`;
  return step(IDLE, [{ type: 'toast', text, tone: 'error', code: err.code }]);
}

/**
 * pairCancelled leaves the queue, or sets aside the bot offered.
 * @param {Pairing} p
 * @returns {PairStep}
 */
export function pairCancelled(p) {
  if (p.phase === 'idle') return step(p);
  if (p.phase === 'expired') return step(IDLE);
  return step(IDLE, [{ type: 'send', msg: { type: 'unpair' } }]);
}

/**
 * pairReceived takes the server's word on the queue: paired (go to the room,
 * the token kept as its seat grant) or pair_expired (offer a bot).
 * @param {Pairing} p
 * @param {any} msg
 * @returns {PairStep}
 */
export function pairReceived(p, msg) {
  if (p.phase !== 'asking' && p.phase !== 'waiting') return step(p);
  if (msg.type === 'paired' && typeof msg.room === 'string' && typeof msg.token === 'string' && (msg.seat === 'black' || msg.seat === 'white')) {
    return step(IDLE, [{ type: 'seat', room: msg.room, grant: { token: msg.token, seat: msg.seat } }]);
  }
  if (msg.type === 'pair_expired') {
    const level = Number.isInteger(msg.botLevel) && msg.botLevel > 0 ? msg.botLevel : 1;
    return step({ phase: 'expired', ask: p.ask, botLevel: level });
  }
  if (msg.type === 'error' && !msg.room) return pairRefused(p, { code: msg.code, userText: errorText(msg.code, msg.message) });
  return step(p);
}

/**
 * botChosen takes the bot offered after nobody came.
 * @param {Pairing} p
 * @returns {PairStep}
 */
export function botChosen(p) {
  if (p.phase !== 'expired') return step(p);
  return step(IDLE, [{ type: 'bot', ask: p.ask, level: p.botLevel }]);
}

/**
 * pairingText is the line the lobby shows for a pairing; '' when idle.
 * @param {Pairing} p
 * @param {string} what the game asked for, in words ("Reversi · 3+2")
 * @returns {string}
 */
export function pairingText(p, what) {
  switch (p.phase) {
    case 'asking':
    case 'waiting':
      return `Looking for an opponent for ${what}…`;
    case 'expired':
      return `Nobody else is looking for ${what} right now. Play a bot of level ${p.botLevel} instead?`;
    default:
      return '';
  }
}
