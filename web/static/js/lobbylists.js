// LobbyLists: the lobby's three lists as the server pushes them (lobby
// messages: open, live, finished), and each room's facts in words, pure.

import { plural, spectators } from './store.js';
import { describeControl } from './clock.js';

/** FINISHED_SHOWN is how many finished games the lobby lists: the most recent. */
export const FINISHED_SHOWN = 10;

/**
 * @typedef {object} Lists the lobby's lists
 * @property {any[]} open rooms waiting for a player
 * @property {any[]} live games under way with somebody in them
 * @property {any[]} finished the most recently finished games
 */

/**
 * lobbyLists reads a lobby message: each list as sent (a missing one is
 * empty), the finished cut to FINISHED_SHOWN.
 * @param {any} msg
 * @returns {Lists}
 */
export function lobbyLists(msg) {
  const list = (/** @type {unknown} */ l) => (Array.isArray(l) ? l.filter((r) => r && typeof r.id === 'string') : []);
  return { open: list(msg?.open), live: list(msg?.live), finished: list(msg?.finished).slice(0, FINISHED_SHOWN) };
}

/**
 * @typedef {object} RoomFacts a room's line in the lobby, in words
 * @property {string} score discs or stones, black–white
 * @property {string} plies "1 ply", "12 plies"
 * @property {string} watching "1 spectator", "0 spectators"
 * @property {string} control the time control, '' when untimed
 * @property {string} action what the link does: Join, Watch or Replay
 */

/**
 * roomFacts says a lobby room's facts in words.
 * @param {any} r a lobby line (docs/protocol.md, GET /api/rooms)
 * @returns {RoomFacts}
 */
export function roomFacts(r) {
  return {
    score: `${r.counts?.black ?? 0}–${r.counts?.white ?? 0}`,
    plies: plural(r.plies ?? 0, 'ply', 'plies'),
    watching: plural(spectators(r), 'spectator', 'spectators'),
    control: r.clock && r.clock.kind !== 'untimed' ? describeControl(r.clock) : '',
    action: r.status === 'waiting' ? 'Join' : r.status === 'playing' ? 'Watch' : 'Replay',
  };
}
