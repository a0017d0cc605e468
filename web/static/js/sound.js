// Sound: when the room page makes a sound, pure. A moment is what the sounds
// depend on (the ply count, whose turn, the game's status, whether this
// player's clock is low); cues compares two moments and says which sounds
// to play; lowIn says when this player's running clock will turn low, so
// that the page looks again then. The tones themselves are data (TONES),
// played by alerts.js with Web Audio.

import { face, lowTime } from './clock.js';

/** @typedef {'move'|'yourTurn'|'lowTime'|'end'} Cue */

/**
 * @typedef {object} Moment what the room's sounds depend on
 * @property {string} room
 * @property {number} gameNo
 * @property {number} plies
 * @property {string} status
 * @property {string|null} toMove
 * @property {string|null} me this tab's seat
 * @property {boolean} low this player's own clock is running and low
 */

/**
 * @typedef {object} Tone one note: a frequency for a time, after a delay
 * @property {number} hz
 * @property {number} at seconds after the cue starts
 * @property {number} dur seconds
 */

/** TONES are the cues' notes: short, soft, and told apart by pitch and rhythm. */
export const TONES = /** @type {Readonly<Record<Cue, Tone[]>>} */ (Object.freeze({
  move: [{ hz: 520, at: 0, dur: 0.06 }],
  yourTurn: [{ hz: 660, at: 0, dur: 0.08 }, { hz: 880, at: 0.1, dur: 0.12 }],
  lowTime: [{ hz: 990, at: 0, dur: 0.07 }, { hz: 990, at: 0.14, dur: 0.07 }, { hz: 990, at: 0.28, dur: 0.07 }],
  end: [{ hz: 784, at: 0, dur: 0.14 }, { hz: 659, at: 0.16, dur: 0.14 }, { hz: 523, at: 0.32, dur: 0.3 }],
}));

/**
 * moment reads the session at an instant.
 * @param {import('./session.js').Session} session
 * @param {number} now performance.now()
 * @returns {Moment|null} null before the first state
 */
export function moment(session, now) {
  const s = session.room.state;
  if (!s) return null;
  const me = session.room.seat;
  let low = false;
  if (me && s.clock && s.status === 'playing') {
    const f = face(s.clock, session.stateAt, now);
    low = f.running === me && f.firstMove == null && lowTime(s.clock, f[me]);
  }
  return { room: s.id, gameNo: s.gameNo, plies: s.moves.length, status: s.status, toMove: s.toMove, me, low };
}

/**
 * cues says which sounds to play between two moments: the game's end (alone),
 * else a move (a ply more than before), this player's turn (it was not, or
 * the game had not started, and now is), their clock turning low. The first moment of a room, or of a new
 * game, plays nothing, nor does an undo.
 * @param {Moment|null} before
 * @param {Moment|null} after
 * @returns {Cue[]}
 */
export function cues(before, after) {
  if (!before || !after || before.room !== after.room || before.gameNo !== after.gameNo) return [];
  if (after.status === 'finished') return before.status === 'finished' ? [] : ['end'];
  /** @type {Cue[]} */
  const out = [];
  if (after.plies > before.plies) out.push('move');
  const mine = after.me && after.toMove === after.me && after.status === 'playing';
  const was = before.me === after.me && before.toMove === after.me && before.status === 'playing';
  if (mine && !was) out.push('yourTurn');
  if (after.low && !before.low) out.push('lowTime');
  return out;
}

/**
 * lowIn is how long until this player's running clock turns low, so that
 * the page can look again then; null when it does not run, or is low already.
 * @param {import('./session.js').Session} session
 * @param {number} now performance.now()
 * @returns {number|null} milliseconds
 */
export function lowIn(session, now) {
  const s = session.room.state;
  const me = session.room.seat;
  if (!s || !me || !s.clock || s.status !== 'playing') return null;
  const f = face(s.clock, session.stateAt, now);
  if (f.running !== me || f.firstMove != null) return null;
  const left = f[me];
  if (lowTime(s.clock, left)) return null;
  // The first instant at which it is low: lowTime is "below a threshold".
  let lo = 0;
  let hi = left;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (lowTime(s.clock, left - mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

/**
 * turnNotice says whether to tell a player in a hidden tab that it is their
 * turn (the tab's title and a notification): the cues hold yourTurn and the
 * page is not seen.
 * @param {Cue[]} played
 * @param {boolean} hidden document.hidden
 * @returns {boolean}
 */
export function turnNotice(played, hidden) {
  return hidden && played.includes('yourTurn');
}

/** LOUDEST orders the cues: one sound at a time, the one that says most. */
const LOUDEST = /** @type {readonly Cue[]} */ (['end', 'lowTime', 'yourTurn', 'move']);

/**
 * loudest picks the one cue to play: the game's end over low time over your
 * turn over a move (your turn follows the opponent's move, and says it too).
 * @param {Cue[]} played
 * @returns {Cue|null}
 */
export function loudest(played) {
  return LOUDEST.find((c) => played.includes(c)) ?? null;
}
