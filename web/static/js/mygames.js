// MyGames: the games this browser played (GET /api/my-games) in words, pure:
// for each, the game, the opponent, how it stands from this player's seat
// ("Won 40–24", "Lost on time", "Your turn"), and its link.

import { seatName, other, plural } from './store.js';
import { describeControl } from './clock.js';

/**
 * @typedef {object} MyGame one line of the page
 * @property {string} id the room
 * @property {string} title the game in a few words ("Reversi · 3+2")
 * @property {string} url its page
 * @property {string} status waiting, playing or finished
 * @property {'black'|'white'} seat the seat this browser took there last
 * @property {string} opponent the other seat, in words
 * @property {string} outcome how it stands, from this player's side
 * @property {'won'|'lost'|'drawn'|'aborted'|'playing'|'waiting'} tone for the mark beside it
 * @property {string} when when it was last active (the server's time)
 */

/** REASONS say how a game ended, after "Won" or "Lost". */
const REASONS = /** @type {Readonly<Record<string, string>>} */ (Object.freeze({
  resign: 'by resignation', timeout: 'on time', abandoned: 'by abandonment', five: 'with five in a row',
}));

/**
 * title names a room's game: "Reversi", "Gomoku 15×15 · renju · 3+2".
 * @param {any} g
 * @returns {string}
 */
function title(g) {
  const game = g.game === 'gomoku' ? `Gomoku ${g.size}×${g.size}${g.rule ? ` · ${g.rule}` : ''}` : 'Reversi';
  return g.clock && g.clock.kind !== 'untimed' ? `${game} · ${describeControl(g.clock)}` : game;
}

/**
 * myGame says one game of GET /api/my-games from this player's side.
 * @param {any} g a line of the answer: a lobby line plus mySeat
 * @returns {MyGame}
 */
export function myGame(g) {
  const seat = /** @type {'black'|'white'} */ (g.mySeat === 'white' ? 'white' : 'black');
  const opp = other(seat);
  const base = {
    id: String(g.id), title: title(g), url: `/r/${encodeURIComponent(g.id)}`, status: String(g.status || ''), seat,
    opponent: seatName(g.seats?.[opp]), when: String(g.updatedAt || g.createdAt || ''),
  };
  if (g.status === 'waiting') return { ...base, outcome: 'Waiting for an opponent', tone: 'waiting' };
  if (g.status !== 'finished') return { ...base, outcome: `Under way, ${plural(g.plies ?? 0, 'ply', 'plies')}`, tone: 'playing' };
  const r = g.result;
  if (!r) return { ...base, outcome: 'Finished', tone: 'drawn' };
  const score = g.game === 'reversi' && r.black != null ? ` ${r[seat]}–${r[opp]}` : '';
  if (r.reason === 'aborted') return { ...base, outcome: 'Aborted', tone: 'aborted' };
  if (!r.winner) return { ...base, outcome: `Drawn${score}${r.reason === 'agreement' ? ' by agreement' : ''}`, tone: 'drawn' };
  const won = r.winner === seat;
  const how = REASONS[r.reason] ? ` ${REASONS[r.reason]}` : '';
  return { ...base, outcome: `${won ? 'Won' : 'Lost'}${score}${how}`, tone: won ? 'won' : 'lost' };
}

/**
 * myGames splits the answer into the games under way (waiting ones
 * included) and the finished ones, each most recently active first as sent.
 * @param {any[]} games
 * @returns {{running: MyGame[], finished: MyGame[]}}
 */
export function myGames(games) {
  const all = (Array.isArray(games) ? games : []).filter((g) => g && typeof g.id === 'string').map(myGame);
  return { running: all.filter((g) => g.status !== 'finished'), finished: all.filter((g) => g.status === 'finished') };
}
