// Session: this tab's part in one room: the link to the server, the join, the
// seat it holds or has asked for, and the seat grant the browser keeps for it.
//
// Each function takes a Session and what happened, and returns the next
// Session (a new object; the one given is never changed) together with the
// effects it asks for, as data: a message to send, a toast, a grant to keep.
// Nothing here touches the DOM, a socket or localStorage, so all of it runs in
// node for the unit tests. room.js carries the effects out and hands back what
// comes of them: the server's answer to a message (answered) or its error
// (refused), and every other message (received).
//
// A feature of the room page lands here as one more pure function: a server
// message in ON_MESSAGE, the answer to a command in ON_ANSWER and ON_REFUSAL,
// its words in notices.js, what it shows as a part of the view.

import { SEATS, other, newRoom, onJoined, onEvent, onThinking, onViewers } from './store.js';
import { errorText } from './errors.js';
import { eventNotice } from './notices.js';

/** @typedef {import('./store.js').Room} Room */
/** @typedef {import('./store.js').Seat} Seat */
/** @typedef {import('./prefs.js').SeatGrant} SeatGrant */
/** @typedef {import('./socket.js').LinkStatus} LinkStatus */

/**
 * @typedef {object} Link the connection, as the room page shows it
 * @property {LinkStatus} status
 * @property {boolean} wasOpen whether it has been up once, so that the next open is a reconnect
 * @property {number} attempt the reconnect attempt being waited for
 * @property {number} waitMs how long that wait is
 */

/**
 * @typedef {object} GameInfo what GET /api/games says about one game
 * @property {string} game
 * @property {number} maxLevel the strongest bot level
 */

/**
 * @typedef {object} Session
 * @property {Room} room the room as the server has told it (store.js)
 * @property {Link} link
 * @property {SeatGrant|null} grant the seat token the browser keeps for this room, as last read or written
 * @property {{grant: SeatGrant|null}|null} joining the join on its way, with the grant it was sent with; null when none is
 * @property {boolean} autoSit whether the answer to a join may still take the free seat (once per page: opening a room's link takes the free seat)
 * @property {Seat|null} sitting the seat asked for and not yet answered
 * @property {boolean} moving a move is on its way: a double click must not send a second
 * @property {GameInfo[]} games what GET /api/games said, once it answers
 * @property {boolean} gone the page stopped following the room (not found, or left): it shows no more errors
 */

/**
 * @typedef {{type: string, [field: string]: any}} Command a client message of
 * docs/protocol.md without its room and id, which room.js adds
 */

/**
 * @typedef {{code: string, userText: string}} Failure an error answer or a
 * dropped request (errors.js ProtocolError), with its sentence for people
 */

/**
 * @typedef {{type: 'send', msg: Command}
 *   | {type: 'join'}
 *   | {type: 'sit', seat: Seat}
 *   | {type: 'toast', text: string, tone: 'info'|'error', code: string}
 *   | {type: 'keepGrant', grant: SeatGrant|null}
 *   | {type: 'notFound'}} Effect
 * What a step asks room.js to do, in order. send: send msg, and hand its
 * answer to answered or its error to refused. join: read the kept grant and
 * call joinStarted. sit: read the player's name and call sitAsked. toast: show
 * text. keepGrant: write the grant to the browser's storage (null forgets it).
 * notFound: close the connection and say that the room does not exist.
 */

/**
 * @typedef {object} Step the next session and what it asks for
 * @property {Session} session
 * @property {Effect[]} effects
 */

/** DEFAULT_MAX_LEVEL is the highest bot level offered until GET /api/games answers: Reversi's, the higher of the two. */
export const DEFAULT_MAX_LEVEL = 10;

/** REPLAY_HINT answers a click on the board while an earlier position is shown. */
export const REPLAY_HINT = 'You are looking at an earlier position. Press “Live” to return to the game.';

/**
 * newSession is a room page before the connection is up.
 * @param {string} id the room
 * @returns {Session}
 */
export function newSession(id) {
  return {
    room: newRoom(id),
    link: { status: 'connecting', wasOpen: false, attempt: 0, waitMs: 0 },
    grant: null,
    joining: null,
    autoSit: true,
    sitting: null,
    moving: false,
    games: [],
    gone: false,
  };
}

/**
 * @param {Session} session
 * @param {Effect[]} [effects]
 * @returns {Step}
 */
function step(session, effects = []) {
  return { session, effects };
}

/**
 * withRoom puts room in the session; the same session when room is unchanged,
 * so that nothing is drawn again.
 * @param {Session} session
 * @param {Room} room
 * @returns {Session}
 */
function withRoom(session, room) {
  return room === session.room ? session : { ...session, room };
}

/**
 * @param {string} text
 * @returns {Effect}
 */
function notice(text) {
  return { type: 'toast', text, tone: 'info', code: '' };
}

/**
 * failed shows an error in words, unless the page has stopped following the room.
 * @param {Session} session
 * @param {Failure} err
 * @returns {Effect[]}
 */
function failed(session, err) {
  return session.gone ? [] : [{ type: 'toast', text: err.userText, tone: 'error', code: err.code }];
}

/**
 * @param {SeatGrant|null} grant
 * @returns {Effect}
 */
function keep(grant) {
  return { type: 'keepGrant', grant };
}

// The link.

/**
 * linkChanged records the connection's status, and the wait before the next
 * attempt while reconnecting.
 * @param {Session} session
 * @param {LinkStatus} status
 * @param {{attempt: number, waitMs: number}} [detail]
 * @returns {Session}
 */
export function linkChanged(session, status, detail) {
  const link = { ...session.link, status };
  if (detail) {
    link.attempt = detail.attempt;
    link.waitMs = detail.waitMs;
  }
  return { ...session, link };
}

/**
 * linkOpened joins the room, on the first connection and after every
 * reconnect (which it says).
 * @param {Session} session
 * @returns {Step}
 */
export function linkOpened(session) {
  /** @type {Effect[]} */
  const effects = session.link.wasOpen ? [notice('Reconnected.')] : [];
  effects.push({ type: 'join' });
  return step({ ...session, link: { ...session.link, wasOpen: true } }, effects);
}

/**
 * bannerText is the line at the top of the page while the connection is down.
 * @param {Session} session
 * @returns {string|null} null when the banner is hidden
 */
export function bannerText(session) {
  const { status, wasOpen, attempt, waitMs } = session.link;
  if (status !== 'reconnecting') return null;
  const secs = Math.max(1, Math.round(waitMs / 1000));
  const what = wasOpen ? 'Connection lost.' : 'Cannot reach the server.';
  return `${what} Reconnecting in ${secs} s… (attempt ${attempt})`;
}

// Joining.

/**
 * joinStarted sends a join with the seat token the browser keeps (to act for
 * that seat again) and the last seq held (to get only the events missed). One
 * join runs at a time: while one is on its way this does nothing.
 * @param {Session} session
 * @param {SeatGrant|null} kept the grant read from the browser's storage now
 * @returns {Step}
 */
export function joinStarted(session, kept) {
  if (session.joining) return step(session);
  /** @type {Command} */
  const msg = { type: 'join' };
  if (kept) msg.token = kept.token;
  if (session.room.lastSeq > 0) msg.since = session.room.lastSeq;
  return step({ ...session, grant: kept, joining: { grant: kept } }, [{ type: 'send', msg }]);
}

/**
 * joined takes the answer to a join: the room, and the seat the server says
 * this tab acts for, which the kept grant then follows (a token that seats no
 * one any more is forgotten). The first answer also takes the free seat when
 * there is one and this tab holds none.
 * @param {Session} session
 * @param {any} answer the joined message
 * @returns {Step}
 */
function joined(session, answer) {
  const sent = session.joining?.grant ?? null;
  const room = onJoined(session.room, answer);
  let { grant, autoSit } = session;
  /** @type {Effect[]} */
  const effects = [];
  if (sent && answer.seat == null) {
    grant = null;
    effects.push(keep(null));
  } else if (sent && answer.seat && answer.seat !== sent.seat) {
    grant = { token: sent.token, seat: answer.seat };
    effects.push(keep(grant));
  }
  // Opening a room's link takes the free seat, or watches when both are taken.
  if (autoSit && !room.seat && room.state) {
    autoSit = false;
    const state = room.state;
    const seat = state.status === 'finished' ? undefined : SEATS.find((s) => state.seats[s].kind === 'open');
    if (seat) effects.push({ type: 'sit', seat });
  }
  return step({ ...session, room, grant, autoSit, joining: null }, effects);
}

/**
 * joinRefused takes a join's error. A token the server refuses is forgotten
 * and the room joined again to watch; a room that does not exist ends the
 * page; a dropped connection waits for the next open, which joins again.
 * @param {Session} session
 * @param {Failure} err
 * @returns {Step}
 */
function joinRefused(session, err) {
  const next = { ...session, joining: null };
  switch (err.code) {
    case 'bad_token':
      return step({ ...next, grant: null }, [keep(null), ...failed(next, err), { type: 'join' }]);
    case 'room_not_found':
      return step({ ...next, gone: true }, [{ type: 'notFound' }]);
    case 'disconnected':
      return step(next);
    default:
      return step(next, failed(next, err));
  }
}

// Seats and moves.

/**
 * sitAsked asks for an open seat, in the player's name.
 * @param {Session} session
 * @param {Seat} seat
 * @param {string} name
 * @returns {Step}
 */
export function sitAsked(session, seat, name) {
  return step({ ...session, sitting: seat }, [{ type: 'send', msg: { type: 'sit', seat, name } }]);
}

/**
 * seated takes the answer to sit: this tab acts for the seat, and the browser
 * keeps its token for a refresh or a reconnect.
 * @param {Session} session
 * @param {any} answer the seated message
 * @returns {Step}
 */
function seated(session, answer) {
  const grant = { token: answer.token, seat: answer.seat };
  return step({ ...session, sitting: null, grant, room: { ...session.room, seat: answer.seat } }, [keep(grant)]);
}

/**
 * movePlayed sends a move made on the board, based on the version shown. It
 * sends nothing while another move is on its way, and explains a click on an
 * earlier position of the replay instead of playing it.
 * @param {Session} session
 * @param {string} move
 * @returns {Step}
 */
export function movePlayed(session, move) {
  const state = session.room.state;
  if (!state || session.moving) return step(session);
  if (session.room.cursor != null) return step(session, [notice(REPLAY_HINT)]);
  return step({ ...session, moving: true }, [{ type: 'send', msg: { type: 'move', move, at: state.version } }]);
}

/**
 * commandRefused shows a command's error in words; a room this connection is
 * no longer in is joined again.
 * @param {Session} session
 * @param {Failure} err
 * @returns {Step}
 */
export function commandRefused(session, err) {
  const effects = failed(session, err);
  if (err.code === 'not_joined') effects.push({ type: 'join' });
  return step(session, effects);
}

/**
 * ON_ANSWER takes the answers that change the session, by the type of the
 * command they answer; any other answer (ack, pong) changes nothing.
 * @type {Readonly<Record<string, (session: Session, answer: any) => Step>>}
 */
const ON_ANSWER = Object.freeze({
  join: joined,
  sit: seated,
  move: (session) => step({ ...session, moving: false }),
});

/**
 * ON_REFUSAL takes the errors that answer a command, by the type of the
 * command; any other command's error is commandRefused's.
 * @type {Readonly<Record<string, (session: Session, err: Failure) => Step>>}
 */
const ON_REFUSAL = Object.freeze({
  join: joinRefused,
  sit: (session, err) => commandRefused({ ...session, sitting: null }, err),
  move: (session, err) => commandRefused({ ...session, moving: false }, err),
});

/**
 * answered takes the server's answer to a command sent by a send effect.
 * @param {Session} session
 * @param {Command} msg the command
 * @param {any} answer
 * @returns {Step}
 */
export function answered(session, msg, answer) {
  return Object.hasOwn(ON_ANSWER, msg.type) ? ON_ANSWER[msg.type](session, answer) : step(session);
}

/**
 * refused takes the error that answered a command sent by a send effect, or
 * 'disconnected' when the connection dropped first.
 * @param {Session} session
 * @param {Command} msg the command
 * @param {Failure} err
 * @returns {Step}
 */
export function refused(session, msg, err) {
  return Object.hasOwn(ON_REFUSAL, msg.type) ? ON_REFUSAL[msg.type](session, err) : commandRefused(session, err);
}

// Messages that answer no command.

/**
 * followSeat keeps this tab's seat, and the grant the browser keeps, right
 * after a switch (the token follows the player to the other colour) or after
 * the seat was given up.
 * @param {Session} session
 * @param {import('./store.js').RoomEvent} ev
 * @returns {Step}
 */
function followSeat(session, ev) {
  const me = session.room.seat;
  if (!me) return step(session);
  if (ev.type === 'switch') {
    const seat = other(me);
    const grant = session.grant ? { token: session.grant.token, seat } : null;
    return step({ ...session, grant, room: { ...session.room, seat } }, grant ? [keep(grant)] : []);
  }
  if (ev.type === 'seat' && ev.seat === me && ev.kind !== 'human') {
    return step({ ...session, grant: null, room: { ...session.room, seat: null } }, [keep(null)]);
  }
  return step(session);
}

/**
 * eventReceived takes a stored event: the new state, this tab's seat after a
 * switch or a stand, a word about events the board does not show, and a join
 * again when events were missed.
 * @param {Session} session
 * @param {any} msg the event message
 * @returns {Step}
 */
function eventReceived(session, msg) {
  const was = session.room.seat;
  const { room, gap, fresh } = onEvent(session.room, msg);
  if (!fresh) return step(session);
  let next = step(withRoom(session, room));
  if (!gap) next = followSeat(next.session, msg.event);
  const text = eventNotice(msg.event, { me: next.session.room.seat, was, sitting: session.sitting });
  if (text) next.effects.push(notice(text));
  if (gap) next.effects.push({ type: 'join' });
  return next;
}

/**
 * ON_MESSAGE takes the server's messages that answer no command, by type; any
 * other type is ignored.
 * @type {Readonly<Record<string, (session: Session, msg: any) => Step>>}
 */
const ON_MESSAGE = Object.freeze({
  event: eventReceived,
  thinking: (session, msg) => step(withRoom(session, onThinking(session.room, msg))),
  viewers: (session, msg) => step(withRoom(session, onViewers(session.room, msg))),
  error: (session, msg) => step(session, failed(session, { code: msg.code, userText: errorText(msg.code, msg.message) })),
});

/**
 * received takes a message that answers no command. Messages about other
 * rooms are ignored, except an error that names no room (a flood warning).
 * @param {Session} session
 * @param {any} msg
 * @returns {Step}
 */
export function received(session, msg) {
  if (msg.room !== session.room.id && !(msg.type === 'error' && !msg.room)) return step(session);
  return Object.hasOwn(ON_MESSAGE, msg.type) ? ON_MESSAGE[msg.type](session, msg) : step(session);
}

// What the page alone changes.

/**
 * grantRead takes the grant another tab left in the browser's storage, so
 * that a later switch moves the token the browser actually keeps.
 * @param {Session} session
 * @param {SeatGrant|null} kept
 * @returns {Session} the same session when the grant is unchanged
 */
export function grantRead(session, kept) {
  const g = session.grant;
  if (g === kept || (g && kept && g.token === kept.token && g.seat === kept.seat)) return session;
  return { ...session, grant: kept };
}

/**
 * gamesListed takes the answer of GET /api/games.
 * @param {Session} session
 * @param {GameInfo[]} games
 * @returns {Session}
 */
export function gamesListed(session, games) {
  return { ...session, games };
}

/**
 * maxLevel is the strongest bot level this room's game offers.
 * @param {Session} session
 * @returns {number}
 */
export function maxLevel(session) {
  const game = session.room.state?.game || '';
  const info = session.games.find((g) => g.game === game);
  return info ? info.maxLevel : DEFAULT_MAX_LEVEL;
}

/**
 * showPly shows the position after ply plies of the current game, or the live
 * one when ply is null.
 * @param {Session} session
 * @param {number|null} ply
 * @returns {Session}
 */
export function showPly(session, ply) {
  return withRoom(session, { ...session.room, cursor: ply });
}

/**
 * left is the session once the page has left the room.
 * @param {Session} session
 * @returns {Session}
 */
export function left(session) {
  return { ...session, gone: true };
}
