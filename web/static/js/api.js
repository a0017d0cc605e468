// API: the HTTP part of the protocol (create a room, the lobby, a room's record).

import { API } from './config.js';
import { ProtocolError } from './errors.js';
import { DEFAULT_PRESETS, DEFAULT_BOUNDS } from './clock.js';

/**
 * call fetches one API path and returns its JSON, or throws a ProtocolError
 * with the server's code ('network' when the server cannot be reached).
 * @param {string} path
 * @param {RequestInit} [init]
 */
async function call(path, init) {
  let res;
  try {
    res = await fetch(API + path, { headers: { Accept: 'application/json', 'Content-Type': 'application/json' }, ...init });
  } catch {
    throw new ProtocolError('network');
  }
  let body = null;
  try {
    body = await res.json();
  } catch {
    // a proxy's HTML error page: fall through to the status
  }
  if (!res.ok) {
    const err = body && body.error;
    throw new ProtocolError(err?.code || (res.status >= 500 ? 'unavailable' : 'bad_request'), err?.message || `HTTP ${res.status}`);
  }
  return body;
}

/**
 * @typedef {{kind: 'open'} | {kind: 'bot', level: number}} SeatRequest
 * @typedef {{game: 'reversi'|'gomoku', size?: number, rule?: string, black: SeatRequest, white: SeatRequest,
 *   clock?: import('./clock.js').TimeControl, identity?: string}} CreateRequest
 */

/**
 * createRoom makes a room and returns {id, url, state}.
 * @param {CreateRequest} req
 * @returns {Promise<{id: string, url: string, state: any}>}
 */
export function createRoom(req) {
  return call('/rooms', { method: 'POST', body: JSON.stringify(req) });
}

/**
 * listRooms returns the lobby's rooms, most recently active first.
 * @returns {Promise<any[]>}
 */
export async function listRooms() {
  const body = await call('/rooms');
  return body.rooms || [];
}

/**
 * myGamesList returns the rooms in which this browser's identity took a seat,
 * most recently active first (GET /api/my-games): lobby lines with mySeat.
 * @param {string} identity the browser's identity key
 * @returns {Promise<any[]>}
 */
export async function myGamesList(identity) {
  const body = await call('/my-games', { headers: { Accept: 'application/json', 'X-Identity': identity } });
  return body.games || [];
}

/**
 * @typedef {{game: string, sizes: number[], rules: string[], maxLevel: number, sizesByRule?: Record<string, number[]>}} GameOffer
 * @typedef {{games: GameOffer[], clockPresets: import('./clock.js').TimeControl[], clockBounds: import('./clock.js').ClockBounds}} Offer
 */

/**
 * listOffer returns what can be played: the games (sizes, rules, the highest
 * bot level), the clock presets and the bounds of a custom clock. A server
 * that sends no clock fields gets docs/protocol.md's.
 * @returns {Promise<Offer>}
 */
export async function listOffer() {
  const body = await call('/games');
  return {
    games: body.games || [],
    clockPresets: Array.isArray(body.clockPresets) && body.clockPresets.length ? body.clockPresets : [...DEFAULT_PRESETS],
    clockBounds: body.clockBounds || DEFAULT_BOUNDS,
  };
}

/**
 * listGames returns what can be played: sizes, rules and the highest bot level per game.
 * @returns {Promise<GameOffer[]>}
 */
export async function listGames() {
  return (await listOffer()).games;
}

/**
 * roomRecord returns a room's state and whole event log.
 * @param {string} id
 */
export function roomRecord(id) {
  return call(`/rooms/${encodeURIComponent(id)}`);
}

/**
 * roomAnalysis returns the engine's score (black's view) of every position of the
 * room's current game: {version, gameNo, level, evals}, evals[i] after i plies.
 * @param {string} id
 * @returns {Promise<{version: number, gameNo: number, level: number, evals: number[]}>}
 */
export function roomAnalysis(id) {
  return call(`/rooms/${encodeURIComponent(id)}/analysis`);
}
