// Store: the client's model of one room, built only from what the server
// sends (docs/protocol.md), plus what the pages derive from it. Everything
// here is pure and runs in node for the unit tests.

import { startBoard, countStones, PASS } from './notation.js';

/** @typedef {'black'|'white'} Seat */
/** @typedef {{kind: 'open'} | {kind: 'human', name: string} | {kind: 'bot', level: number}} SeatInfo */
/**
 * @typedef {{winner: Seat|null, reason: string, black: number, white: number, margin: number}} Result
 */
/**
 * @typedef {object} RoomState the server's room state (docs/protocol.md, "The room state")
 * @property {string} id
 * @property {'reversi'|'gomoku'} game
 * @property {number} size
 * @property {string} rule
 * @property {number} version
 * @property {number} gameNo
 * @property {'waiting'|'playing'|'finished'} status
 * @property {string} board
 * @property {Seat|null} toMove
 * @property {string[]} legal
 * @property {string[]} [forbidden]
 * @property {string|null} lastMove
 * @property {string[]|null} flipped
 * @property {{black: number, white: number}} counts
 * @property {string[]} moves
 * @property {{black: SeatInfo, white: SeatInfo}} seats
 * @property {Result|null} result
 * @property {string[]|null} winLine
 * @property {{by: Seat}|null} undoRequest
 * @property {{by: Seat}|null} [drawOffer] a draw offer waiting for the opponent
 * @property {{by: Seat}|null} [rematchOffer] a rematch offer waiting for the opponent
 * @property {import('./clock.js').ClockState|null} [clock] null in an untimed room
 * @property {{black: boolean, white: boolean}} [presence] whether each seat's player is connected
 * @property {{black?: string, white?: string}} [gone] since when a seat's player is not connected
 * @property {string} [claimAt] when the player who stayed may claim the game
 * @property {string|null} [next] the room of the next game, after a rematch
 * @property {string|null} [prev] the room of the game before
 * @property {number} viewers people watching: each connected seat once, plus every spectator connection
 * @property {number} [spectators] the spectators alone
 */
/**
 * @typedef {{seq: number, type: string, time: string, [k: string]: any}} RoomEvent
 */
/**
 * @typedef {object} Thinking a bot's latest search progress
 * @property {Seat} seat
 * @property {number} depth
 * @property {string} best
 * @property {number} score from the bot's point of view
 * @property {number} nodes
 * @property {number} nps
 * @property {string[]} pv
 * @property {boolean} exact
 */
/**
 * @typedef {object} Room
 * @property {string} id
 * @property {RoomState|null} state the latest state received
 * @property {RoomEvent[]} events the whole log, in seq order
 * @property {number} lastSeq the seq of the last event held
 * @property {Seat|null} seat the seat this tab acts for, null for a spectator
 * @property {Thinking|null} thinking
 * @property {number|null} cursor plies shown while replaying, null when live
 */

/** SEATS lists the seats in playing order. */
export const SEATS = /** @type {const} */ (['black', 'white']);

/**
 * other returns the opponent's seat.
 * @param {Seat} seat
 * @returns {Seat}
 */
export function other(seat) {
  return seat === 'black' ? 'white' : 'black';
}

/**
 * newRoom is the model of a room before the server has answered.
 * @param {string} id
 * @returns {Room}
 */
export function newRoom(id) {
  return { id, state: null, events: [], lastSeq: 0, seat: null, thinking: null, cursor: null };
}

/**
 * onJoined takes the answer to join: the whole log when msg.full, else the
 * events after the last one held.
 * @param {Room} room
 * @param {{seat: Seat|null, state: RoomState, events: RoomEvent[], full: boolean}} msg
 * @returns {Room}
 */
export function onJoined(room, msg) {
  const incoming = Array.isArray(msg.events) ? msg.events : [];
  const events = msg.full ? [...incoming] : [...room.events, ...incoming.filter((e) => e.seq > room.lastSeq)];
  events.sort((a, b) => a.seq - b.seq);
  const lastSeq = events.length ? events[events.length - 1].seq : 0;
  return { ...room, state: msg.state, events, lastSeq, seat: msg.seat ?? null, thinking: null, cursor: clampCursor(room.cursor, msg.state) };
}

/**
 * onEvent takes a stored event with the state after it. It reports a gap when
 * events were missed (the caller then joins again with since = lastSeq); the
 * state is taken either way, since it is whole.
 * @param {Room} room
 * @param {{event: RoomEvent, state: RoomState}} msg
 * @returns {{room: Room, gap: boolean, fresh: boolean}} fresh is false for an event already held
 */
export function onEvent(room, msg) {
  const ev = msg.event;
  if (ev.seq <= room.lastSeq) return { room, gap: false, fresh: false };
  if (ev.seq > room.lastSeq + 1) {
    return { room: { ...room, state: msg.state, thinking: null }, gap: true, fresh: true };
  }
  let { cursor } = room;
  if (ev.type === 'rematch' && !ev.next) cursor = null;
  const state = ev.type === 'seat' && ev.kind === 'human' ? arrived(msg.state, ev.seat) : msg.state;
  return {
    room: { ...room, state, events: [...room.events, ev], lastSeq: ev.seq, thinking: null, cursor: clampCursor(cursor, state) },
    gap: false,
    fresh: true,
  };
}

/**
 * arrived marks the person who has just sat down as connected (a sit comes
 * over a connection), whatever the state says: the server may build the
 * state of a sit before it has counted the new player's connection, and it
 * sends no presence message for an arrival (only for a return).
 * @param {RoomState} s
 * @param {Seat} seat
 * @returns {RoomState}
 */
function arrived(s, seat) {
  if (!s?.presence || s.presence[seat] || (seat !== 'black' && seat !== 'white')) return s;
  const gone = { ...s.gone };
  delete gone[seat];
  const state = { ...s, presence: { ...s.presence, [seat]: true }, gone };
  if (!Object.keys(gone).length) delete state.claimAt;
  return state;
}

/**
 * onThinking records a bot's progress; it is dropped when that bot is not the
 * side to move any more (an event overtook it).
 * @param {Room} room
 * @param {Thinking} msg
 * @returns {Room}
 */
export function onThinking(room, msg) {
  if (!room.state || room.state.toMove !== msg.seat || room.state.seats[msg.seat]?.kind !== 'bot') return room;
  const { seat, depth, best, score, nodes, nps, pv, exact } = msg;
  return { ...room, thinking: { seat, depth, best, score, nodes, nps, pv: pv || [], exact: !!exact } };
}

/**
 * onViewers records how many people watch.
 * @param {Room} room
 * @param {{count: number, spectators?: number}} msg
 * @returns {Room}
 */
export function onViewers(room, msg) {
  if (!room.state) return room;
  const state = { ...room.state, viewers: msg.count };
  if (typeof msg.spectators === 'number') state.spectators = msg.spectators;
  return { ...room, state };
}

/**
 * onPresence records that a seat's player left (present false, since when,
 * and when the one who stayed may claim) or came back.
 * @param {Room} room
 * @param {{seat: Seat, present: boolean, since?: string, claimAt?: string}} msg
 * @returns {Room}
 */
export function onPresence(room, msg) {
  const s = room.state;
  if (!s || (msg.seat !== 'black' && msg.seat !== 'white')) return room;
  const presence = { black: false, white: false, ...s.presence, [msg.seat]: !!msg.present };
  const gone = { ...s.gone };
  if (msg.present) delete gone[msg.seat];
  else gone[msg.seat] = msg.since || '';
  const state = { ...s, presence, gone };
  if (msg.present) delete state.claimAt;
  else if (msg.claimAt) state.claimAt = msg.claimAt;
  return { ...room, state };
}

/**
 * @param {number|null} cursor
 * @param {RoomState} state
 */
function clampCursor(cursor, state) {
  if (cursor == null) return null;
  const n = state?.moves?.length ?? 0;
  return cursor >= n ? null : Math.max(0, cursor);
}

/**
 * @typedef {object} Ply one ply of the current game, with the board after it
 * @property {string} move a square or "pass"
 * @property {Seat} seat
 * @property {string} board
 * @property {string[]} flipped
 * @property {number|null} eval black's view, when the server knows it
 */

/**
 * history replays the log into the current game's plies: moves and passes
 * push, undo takes back, a rematch in the same room (an older log's) starts over. Each ply has the board after it.
 * @param {RoomEvent[]} events
 * @returns {Ply[]}
 */
export function history(events) {
  /** @type {Ply[]} */
  let plies = [];
  for (const ev of events) {
    switch (ev.type) {
      case 'move':
        plies.push({ move: ev.move, seat: ev.seat, board: ev.board, flipped: ev.flipped || [], eval: typeof ev.eval === 'number' ? ev.eval : null });
        break;
      case 'pass':
        plies.push({ move: PASS, seat: ev.seat, board: ev.board, flipped: [], eval: null });
        break;
      case 'undo':
        plies = plies.slice(0, Math.max(0, plies.length - (ev.plies || 0)));
        break;
      case 'rematch':
        // An older log's rematch began a new game in the same room; one with
        // `next` began it in another room, and this room's game stays.
        if (!ev.next) plies = [];
        break;
      default:
    }
  }
  return plies;
}

/**
 * @typedef {object} View what the board shows: live, or a ply of the replay
 * @property {string} board
 * @property {number} ply plies shown
 * @property {boolean} live
 * @property {string|null} lastMove
 * @property {string[]} flipped
 */

/**
 * view returns the board to draw: the live state, or the board after
 * room.cursor plies when replaying.
 * @param {Room} room
 * @returns {View|null}
 */
export function view(room) {
  const s = room.state;
  if (!s) return null;
  if (room.cursor == null) {
    return { board: s.board, ply: s.moves.length, live: true, lastMove: s.lastMove, flipped: s.flipped || [] };
  }
  const plies = history(room.events);
  const n = Math.min(room.cursor, plies.length);
  if (n === 0) return { board: startBoard(s.game, s.size), ply: 0, live: false, lastMove: null, flipped: [] };
  const p = plies[n - 1];
  return { board: p.board, ply: n, live: false, lastMove: p.move, flipped: [] };
}

/**
 * evalSeries returns the points of the evaluation graph: the engine's score
 * (black's view) for each ply where one is known, and for Reversi the disc
 * difference (black minus white) after every ply. x is the ply number (1 for
 * the first ply); ply 0 is the start.
 * @param {'reversi'|'gomoku'} game
 * @param {Ply[]} plies
 * @param {{evals: number[]} | null} [analysis] the server's analysis of the same plies
 * @returns {{evals: {x: number, y: number}[], discs: {x: number, y: number}[]}}
 */
export function evalSeries(game, plies, analysis = null) {
  /** @type {{x: number, y: number}[]} */
  const evals = [];
  /** @type {{x: number, y: number}[]} */
  const discs = [];
  if (game === 'reversi') discs.push({ x: 0, y: 0 });
  // The server's analysis scores every position; a bot's own score of its move, from
  // its deeper search, wins where both exist.
  const judged = analysis && analysis.evals.length === plies.length + 1 ? analysis.evals : null;
  if (judged) evals.push({ x: 0, y: judged[0] });
  plies.forEach((p, i) => {
    if (p.eval != null) evals.push({ x: i + 1, y: p.eval });
    else if (judged) evals.push({ x: i + 1, y: judged[i + 1] });
    if (game === 'reversi') {
      const c = countStones(p.board);
      discs.push({ x: i + 1, y: c.black - c.white });
    }
  });
  return { evals, discs };
}

/**
 * seatName says who sits in a seat, in words: "Ann", "Bot (level 5)", "Open seat".
 * @param {SeatInfo|undefined} info
 * @returns {string}
 */
export function seatName(info) {
  if (!info || info.kind === 'open') return 'Open seat';
  if (info.kind === 'bot') return `Bot (level ${info.level})`;
  return info.name;
}

/** REASONS are the result reasons of the protocol in words. */
const REASONS = /** @type {Readonly<Record<string, string>>} */ (Object.freeze({
  no_moves: 'neither side can move',
  five: 'five in a row',
  board_full: 'the board is full',
  resign: 'resignation',
  timeout: 'time',
  agreement: 'agreement',
  abandoned: 'the opponent left',
  aborted: 'aborted',
}));

/**
 * resultText says how a game ended: who won, by how much, or a draw.
 * @param {RoomState} state
 * @returns {string} empty while the game goes on
 */
export function resultText(state) {
  const r = state.result;
  if (!r) return '';
  const why = Object.hasOwn(REASONS, r.reason) ? REASONS[r.reason] : r.reason;
  if (r.reason === 'aborted') return 'Game aborted: no result.';
  if (!r.winner) {
    if (r.reason === 'agreement') return 'Draw by agreement.';
    if (r.reason === 'abandoned') return 'Draw: called after a player left.';
    if (state.game === 'reversi') return `Draw, ${r.black}–${r.white}.`;
    return `Draw: ${why}.`;
  }
  const winner = capital(r.winner);
  const loser = capital(other(r.winner));
  if (r.reason === 'resign') return `${winner} wins: ${loser} resigned.`;
  if (r.reason === 'timeout') return `${winner} wins on time: ${loser}'s time ran out.`;
  if (r.reason === 'abandoned') return `${winner} wins: ${loser} left the game.`;
  if (state.game === 'reversi') {
    return `${winner} wins ${Math.max(r.black, r.white)}–${Math.min(r.black, r.white)} (by ${r.margin} discs).`;
  }
  return `${winner} wins with ${why}.`;
}

/**
 * turnText says whose turn it is from this tab's point of view.
 * @param {RoomState} state
 * @param {Seat|null} mySeat
 * @returns {string}
 */
export function turnText(state, mySeat) {
  if (state.result) return resultText(state);
  if (!state.toMove) return 'Waiting for the game to start.';
  const info = state.seats[state.toMove];
  if (state.toMove === mySeat) return `Your turn (${state.toMove}).`;
  if (info.kind === 'open') return `Waiting for a player to take the ${state.toMove} seat.`;
  if (info.kind === 'bot') return `${capital(state.toMove)} (bot) is thinking…`;
  return `${capital(state.toMove)} to move: ${info.name}.`;
}

/**
 * passNotice says that the last ply was a pass, so that a pass is never silent.
 * @param {RoomState} state
 * @returns {string} empty unless the last ply was a pass
 */
export function passNotice(state) {
  if (state.lastMove !== PASS || !state.moves.length) return '';
  const passer = state.moves.length % 2 === 1 ? 'black' : 'white';
  return `${capital(passer)} had no legal move and passed.`;
}

/**
 * lastMoveText says who played the last ply and where ("White played c4."),
 * so that a screen reader hears the opponent's move; a pass is left to
 * passNotice.
 * @param {RoomState} state
 * @returns {string} empty before the first move and after a pass
 */
export function lastMoveText(state) {
  const n = state.moves.length;
  if (!n || !state.lastMove || state.lastMove === PASS) return '';
  const mover = n % 2 === 1 ? 'Black' : 'White';
  return `${mover} played ${state.lastMove}.`;
}

/**
 * formatScore writes an engine score for people: Reversi in discs ("+4"),
 * Gomoku in engine units with forced wins spelled out.
 * @param {'reversi'|'gomoku'} game
 * @param {number} score
 * @returns {string}
 */
export function formatScore(game, score) {
  if (game === 'gomoku' && Math.abs(score) >= GOMOKU_WIN) return score > 0 ? 'forced win' : 'forced loss';
  const sign = score > 0 ? '+' : score < 0 ? '−' : '±';
  return `${sign}${Math.abs(score)}`;
}

/** GOMOKU_WIN is the score at which a Gomoku engine has found a forced win (docs/protocol.md). */
export const GOMOKU_WIN = 10000;

/**
 * spectators is how many people watch without playing: the server's count
 * (state.spectators, docs/protocol.md) when it sends one; else, for a lobby
 * entry or an older server, the viewers less the seated people, which can be
 * one low (a player whose tab is closed still counts as seated), never high.
 * @param {{viewers?: number, spectators?: number, seats?: {black: SeatInfo, white: SeatInfo}}} s a room state or a lobby entry
 * @returns {number}
 */
export function spectators(s) {
  if (typeof s.spectators === 'number') return Math.max(0, s.spectators);
  const people = s.seats ? SEATS.filter((k) => s.seats?.[k]?.kind === 'human').length : 0;
  return Math.max(0, (s.viewers ?? 0) - people);
}

/**
 * plural writes a count with its noun: "1 ply", "3 plies", "0 spectators".
 * @param {number} n
 * @param {string} one
 * @param {string} many
 * @returns {string}
 */
export function plural(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * movesEach is the fewest moves either side has made in the current game
 * (passes are not moves): below two, a player may still abort a game their
 * opponent left (docs/protocol.md, claim).
 * @param {RoomState} s
 * @returns {number}
 */
export function movesEach(s) {
  const n = { black: 0, white: 0 };
  s.moves.forEach((m, i) => {
    if (m !== PASS) n[i % 2 === 0 ? 'black' : 'white']++;
  });
  return Math.min(n.black, n.white);
}

/**
 * hintMoves are the legal moves the board marks: Reversi's, on this tab's
 * own turn only (never the opponent's or a bot's moves, which are not
 * playable here), and never on an earlier position of the replay.
 * @param {Room} room
 * @returns {string[]}
 */
export function hintMoves(room) {
  const s = room.state;
  if (!s || s.game !== 'reversi' || !canAct(room).move) return [];
  return s.legal || [];
}

/**
 * canAct lists what this tab may do now, for the controls.
 * @param {Room} room
 */
export function canAct(room) {
  const s = room.state;
  const me = room.seat;
  const none = {
    move: false, undo: false, resign: false, rematch: false, answerUndo: false, switchSides: false, stand: false, sit: false,
    offerDraw: false, answerDraw: false, abort: false, answerRematch: false, cancelInvite: false,
  };
  if (!s) return none;
  const seated = me != null;
  const opp = seated ? s.seats[other(me)] : null;
  const over = s.status === 'finished';
  const mine = seated ? s.moves.length > 0 : false;
  const person = opp?.kind === 'human';
  const offered = (/** @type {{by: Seat}|null|undefined} */ o) => o != null && o.by !== me;
  return {
    move: seated && !over && s.toMove === me && room.cursor == null,
    undo: seated && !over && mine && !(s.undoRequest && s.undoRequest.by === me),
    resign: seated && !over && s.status === 'playing',
    // A rematch is asked once; the opponent's offer is answered in its box.
    rematch: seated && over && !s.next && !(s.rematchOffer && s.rematchOffer.by === me),
    answerUndo: seated && !over && offered(s.undoRequest),
    switchSides: seated && !over && opp != null && opp.kind !== 'human',
    stand: seated,
    sit: !seated && !over && SEATS.some((k) => s.seats[k].kind === 'open'),
    offerDraw: seated && s.status === 'playing' && person && !(s.drawOffer && s.drawOffer.by === me),
    answerDraw: seated && !over && offered(s.drawOffer),
    answerRematch: seated && over && !s.next && offered(s.rematchOffer),
    abort: seated && s.status === 'playing' && movesEach(s) === 0,
    // The creator waiting for a friend may call the invitation off.
    cancelInvite: seated && s.status === 'waiting' && opp?.kind === 'open' && s.moves.length === 0,
  };
}

/**
 * capital writes a word with a capital first letter.
 * @param {string} s
 */
export function capital(s) {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

/**
 * createStore holds one value and tells subscribers when it changes.
 * @template T
 * @param {T} initial
 */
export function createStore(initial) {
  let value = initial;
  /** @type {Set<(v: T) => void>} */
  const subs = new Set();
  return {
    /** get returns the current value. */
    get: () => value,
    /**
     * set replaces the value and notifies subscribers.
     * @param {T} v
     */
    set(v) {
      if (v === value) return;
      value = v;
      for (const fn of subs) fn(value);
    },
    /**
     * update applies fn to the value.
     * @param {(v: T) => T} fn
     */
    update(fn) {
      this.set(fn(value));
    },
    /**
     * subscribe calls fn on every change and returns a function that stops it.
     * @param {(v: T) => void} fn
     */
    subscribe(fn) {
      subs.add(fn);
      return () => subs.delete(fn);
    },
  };
}
