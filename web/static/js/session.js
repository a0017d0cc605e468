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

import { other, newRoom, onJoined, onEvent, onThinking, onViewers, onPresence, seatName, movesEach } from './store.js';
import { errorText } from './errors.js';
import { eventNotice } from './notices.js';
import { chatJoined, chatAdded, chatText, chatRefusal, muteToggled } from './chat.js';

/** @typedef {import('./store.js').Room} Room */
/** @typedef {import('./store.js').Seat} Seat */
/** @typedef {import('./store.js').RoomState} RoomState */
/** @typedef {import('./prefs.js').SeatGrant} SeatGrant */
/** @typedef {import('./socket.js').LinkStatus} LinkStatus */
/** @typedef {import('./chat.js').ChatLine} ChatLine */

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
 * @property {Seat|null} sitOn the seat to take when the first join is answered: the colour the room's creator chose (opening a link never seats anyone by itself)
 * @property {Seat|null} sitting the seat asked for and not yet answered
 * @property {number} stateAt when the latest state arrived, in the page's monotonic milliseconds (performance.now()): the clocks count down from it
 * @property {{at: string, from: number}|null} claim while the opponent is gone: the state's claimAt, and the monotonic time from which a claim is allowed
 * @property {boolean} cancelling the creator called the invitation off: once the stand is answered, the page leaves the room
 * @property {boolean} moving a move is on its way: a double click must not send a second
 * @property {GameInfo[]} games what GET /api/games said, once it answers
 * @property {boolean} gone the page stopped following the room (not found, or left): it shows no more errors
 * @property {ChatLine[]} chat the room's chat lines, oldest first
 * @property {string[]} muted the chat authors this browser muted
 * @property {boolean} hideSpectators whether this browser hides the spectators' lines
 * @property {{down: boolean, message: string}} storage the server's game store as its last status message said: moves are paused while it is down
 */

/**
 * @typedef {object} Now the time a step happens at, given by room.js (injected in the tests)
 * @property {number} mono performance.now(): what every count-down is measured with
 * @property {number} wall Date.now(): only to place a claimAt that came without a server time beside it
 */

/** NO_TIME is the time of a step that does not care when it happens. */
const NO_TIME = Object.freeze({ mono: 0, wall: 0 });

/**
 * @typedef {{type: string, [field: string]: any}} Command a client message of
 * docs/protocol.md without its room and id, which room.js adds
 */

/**
 * @typedef {{code: string, userText: string, serverMessage?: string}} Failure an error
 * answer or a dropped request (errors.js ProtocolError), with its sentence for
 * people and the server's own words
 */

/**
 * @typedef {{type: 'send', msg: Command}
 *   | {type: 'join'}
 *   | {type: 'sit', seat: Seat}
 *   | {type: 'toast', text: string, tone: 'info'|'error', code: string}
 *   | {type: 'keepGrant', grant: SeatGrant|null}
 *   | {type: 'follow', room: string, grant: SeatGrant|null}
 *   | {type: 'leave'}
 *   | {type: 'notFound'}
 *   | {type: 'keepChat', muted: string[], hideSpectators: boolean}} Effect
 * What a step asks room.js to do, in order. send: send msg, and hand its
 * answer to answered or its error to refused. join: read the kept grant and
 * call joinStarted. sit: read the player's name and call sitAsked. toast: show
 * text. keepGrant: write the grant to the browser's storage (null forgets it).
 * follow: keep grant for room (the next game of a rematch, where the same
 * token holds the other colour) and go to that room's page. leave: go back to
 * the lobby. notFound: close the connection and say that the room does not
 * exist. keepChat: remember the muted authors and whether the spectators'
 * lines are hidden in the browser's storage.
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
 * newSession is a room page before the connection is up. sitOn is the seat
 * the room's creator chose, taken once the room is joined; anyone else who
 * opens the link only watches until they ask for a seat.
 * @param {string} id the room
 * @param {{sitOn?: Seat|null, muted?: string[], hideSpectators?: boolean}} [opts] the
 * creator's seat, and the chat settings the browser keeps
 * @returns {Session}
 */
export function newSession(id, opts = {}) {
  return {
    room: newRoom(id),
    link: { status: 'connecting', wasOpen: false, attempt: 0, waitMs: 0 },
    grant: null,
    joining: null,
    sitOn: opts.sitOn ?? null,
    sitting: null,
    moving: false,
    games: [],
    gone: false,
    stateAt: 0,
    claim: null,
    cancelling: false,
    chat: [],
    muted: opts.muted ?? [],
    hideSpectators: opts.hideSpectators ?? false,
    storage: { down: false, message: '' },
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

/**
 * stamped notes when a new state arrived, so that the clocks count down from
 * then, and when the player who stayed may claim the game. claimAt is the
 * server's time; it is placed on the page's monotonic clock by its distance
 * from a server time that came with it (ref: the time the opponent left, or
 * the clock's asOf), and only without one from the page's wall clock. A
 * claimAt already placed stays where it was.
 * @param {Session} session with the new state in its room
 * @param {RoomState|null} before the state it had
 * @param {Now} now
 * @param {string} [ref] a server time of about the moment the message was sent
 * @returns {Session}
 */
function stamped(session, before, now, ref) {
  const s = session.room.state;
  if (!s || s === before) return session;
  return { ...session, stateAt: now.mono, claim: placeClaim(session, now, ref) };
}

/**
 * placeClaim places the state's claimAt on the page's monotonic clock (see stamped).
 * @param {Session} session with the new state in its room
 * @param {Now} now
 * @param {string} [ref] a server time of about the moment the message was sent
 * @returns {Session['claim']}
 */
function placeClaim(session, now, ref) {
  const s = session.room.state;
  const at = s?.claimAt || '';
  if (!at) return null;
  if (session.claim?.at === at) return session.claim;
  const from = ref || s?.clock?.asOf;
  const wait = from ? Date.parse(at) - Date.parse(from) : Date.parse(at) - now.wall;
  return { at, from: now.mono + Math.max(0, Number.isFinite(wait) ? wait : 0) };
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
  if (status !== 'reconnecting') return session.storage.down ? storageText(session.storage.message) : null;
  const secs = Math.max(1, Math.round(waitMs / 1000));
  const what = wasOpen ? 'Connection lost.' : 'Cannot reach the server.';
  return `${what} Reconnecting in ${secs} s… (attempt ${attempt})`;
}

/**
 * storageText is the banner while the server's game store is down.
 * @param {string} message the server's words
 * @returns {string}
 */
function storageText(message) {
  return `Moves are paused: ${message || 'the server cannot reach its game store'}. Nothing stored is lost; play goes on when it is back.`;
}

/**
 * statusReceived takes a status message: the node lost its game store (every
 * change is refused until it is back) or has it again.
 * @param {Session} session
 * @param {any} msg
 * @returns {Step}
 */
function statusReceived(session, msg) {
  const down = msg.storage === 'unavailable';
  if (down === session.storage.down && (!down || msg.message === session.storage.message)) return step(session);
  const next = { ...session, storage: { down, message: down ? String(msg.message || '') : '' } };
  return step(next, down || !session.storage.down ? [] : [notice('The game store is back: moves go through again.')]);
}

// Joining.

/**
 * joinStarted sends a join with the seat token the browser keeps (to act for
 * that seat again) and the last seq held (to get only the events missed). One
 * join runs at a time: while one is on its way this does nothing.
 * @param {Session} session
 * @param {SeatGrant|null} kept the grant read from the browser's storage now
 * @param {string} [identity] the browser's identity key, so that this tab's
 *   chat lines keep one author across visits (and mutes of it hold)
 * @returns {Step}
 */
export function joinStarted(session, kept, identity = '') {
  if (session.joining) return step(session);
  /** @type {Command} */
  const msg = { type: 'join' };
  if (kept) msg.token = kept.token;
  if (identity) msg.identity = identity;
  if (session.room.lastSeq > 0) msg.since = session.room.lastSeq;
  return step({ ...session, grant: kept, joining: { grant: kept } }, [{ type: 'send', msg }]);
}

/**
 * joined takes the answer to a join: the room, and the seat the server says
 * this tab acts for, which the kept grant then follows (a token that seats no
 * one any more is forgotten). For the room's creator the first answer also
 * takes the seat they chose, when it is still open and this tab holds none.
 * @param {Session} session
 * @param {any} answer the joined message
 * @param {Now} now
 * @returns {Step}
 */
function joined(session, answer, now) {
  const sent = session.joining?.grant ?? null;
  const room = onJoined(session.room, answer);
  let { grant, sitOn } = session;
  /** @type {Effect[]} */
  const effects = [];
  if (sent && answer.seat == null) {
    grant = null;
    effects.push(keep(null));
  } else if (sent && answer.seat && answer.seat !== sent.seat) {
    grant = { token: sent.token, seat: answer.seat };
    effects.push(keep(grant));
  }
  // The creator takes the colour they chose; nobody else is seated by a link.
  if (sitOn && room.state) {
    if (!room.seat && room.state.status !== 'finished' && room.state.seats[sitOn].kind === 'open') effects.push({ type: 'sit', seat: sitOn });
    sitOn = null;
  }
  const chat = Array.isArray(answer.chat) ? chatJoined(answer.chat) : session.chat;
  const next = stamped({ ...session, room, grant, sitOn, chat, joining: null }, session.room.state, now);
  return step(next, effects);
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
 * sitAsked asks for an open seat, in the player's name, with the browser's
 * identity key (so that the game is among this browser's games).
 * @param {Session} session
 * @param {Seat} seat
 * @param {string} name
 * @param {string} [identity] the browser's identity key
 * @returns {Step}
 */
export function sitAsked(session, seat, name, identity = '') {
  /** @type {Command} */
  const msg = { type: 'sit', seat, name };
  if (identity) msg.identity = identity;
  return step({ ...session, sitting: seat }, [{ type: 'send', msg }]);
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
 * inviteCancelled calls the invitation off: the creator stands up, and once
 * the server has answered, the page says so and goes back to the lobby.
 * @param {Session} session
 * @returns {Step}
 */
export function inviteCancelled(session) {
  if (session.cancelling || !session.room.seat) return step(session);
  return step({ ...session, cancelling: true }, [{ type: 'send', msg: { type: 'stand' } }]);
}

/**
 * stood takes the answer to stand: after a cancelled invitation, the page leaves.
 * @param {Session} session
 * @returns {Step}
 */
function stood(session) {
  if (!session.cancelling) return step(session);
  return step({ ...session, cancelling: false }, [notice('Invitation cancelled: you left the room.'), { type: 'leave' }]);
}

/**
 * ON_ANSWER takes the answers that change the session, by the type of the
 * command they answer; any other answer (ack, pong) changes nothing.
 * @type {Readonly<Record<string, (session: Session, answer: any, now: Now) => Step>>}
 */
const ON_ANSWER = Object.freeze({
  join: joined,
  sit: seated,
  stand: stood,
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
  stand: (session, err) => commandRefused({ ...session, cancelling: false }, err),
  move: (session, err) => commandRefused({ ...session, moving: false }, err),
  chat: (session, err) => step(session, session.gone ? [] : [{
    type: 'toast', text: chatRefusal(err.code, err.serverMessage || '', err.userText), tone: 'error', code: err.code,
  }]),
});

/**
 * answered takes the server's answer to a command sent by a send effect.
 * @param {Session} session
 * @param {Command} msg the command
 * @param {any} answer
 * @param {Now} [now] when the answer arrived
 * @returns {Step}
 */
export function answered(session, msg, answer, now = NO_TIME) {
  return Object.hasOwn(ON_ANSWER, msg.type) ? ON_ANSWER[msg.type](session, answer, now) : step(session);
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
 * switch or a stand, a word about events the board does not show, a join
 * again when events were missed, and, for a player, the next game of an
 * agreed rematch.
 * @param {Session} session
 * @param {any} msg the event message
 * @param {Now} now
 * @returns {Step}
 */
function eventReceived(session, msg, now) {
  const was = session.room.seat;
  const { room, gap, fresh } = onEvent(session.room, msg);
  if (!fresh) return step(session);
  let next = step(stamped(withRoom(session, room), session.room.state, now, msg.event?.time));
  if (!gap) next = followSeat(next.session, msg.event);
  const text = eventNotice(msg.event, { me: next.session.room.seat, was, sitting: session.sitting });
  if (text) next.effects.push(notice(text));
  if (gap) next.effects.push({ type: 'join' });
  else if (msg.event.type === 'rematch' && msg.event.next && was) next.effects.push(rematchFollowed(session, msg.event.next, was));
  return next;
}

/**
 * rematchFollowed takes a player to the next game: the same seat token holds
 * the other colour there (docs/protocol.md, rematch), so the browser keeps it
 * under the next room's id, and this room's page, with its finished game,
 * stays at its own address.
 * @param {Session} session
 * @param {string} next the next game's room
 * @param {Seat} was the seat this tab held in this room's game
 * @returns {Effect}
 */
function rematchFollowed(session, next, was) {
  const grant = session.grant ? { token: session.grant.token, seat: other(was) } : null;
  return { type: 'follow', room: next, grant };
}

/**
 * presenceReceived takes a seated player leaving or coming back: the seats'
 * presence, when the player who stayed may claim the game, and a word for
 * everyone but that player.
 * @param {Session} session
 * @param {any} msg the presence message
 * @param {Now} now
 * @returns {Step}
 */
function presenceReceived(session, msg, now) {
  const s = session.room.state;
  if (!s) return step(session);
  const room = onPresence(session.room, msg);
  if (room === session.room) return step(session);
  const was = s.presence?.[/** @type {Seat} */ (msg.seat)];
  /** @type {Session} */
  let next = { ...session, room, claim: null };
  if (!msg.present) next = { ...next, claim: placeClaim(next, now, msg.since) };
  /** @type {Effect[]} */
  const effects = [];
  const info = s.seats[/** @type {Seat} */ (msg.seat)];
  if (msg.seat !== session.room.seat && info?.kind === 'human' && was !== !!msg.present && s.status !== 'finished') {
    const who = seatName(info);
    effects.push(notice(msg.present ? `${who} is back.` : `${who} (${msg.seat}) left the game.`));
  }
  return step(next, effects);
}

/**
 * resyncReceived takes the server's word that this room's stored game changed
 * under the page (a failure of the game store lost events the page had shown):
 * it forgets the log it held and joins again for the whole stored one, with
 * the seat token it keeps, and says so.
 * @param {Session} session
 * @param {any} msg the resync message
 * @returns {Step}
 */
function resyncReceived(session, msg) {
  const room = { ...session.room, lastSeq: 0 };
  const text = typeof msg.message === 'string' && msg.message ? msg.message : 'The game was reloaded from the server.';
  return step(withRoom(session, room), [notice(text.charAt(0).toUpperCase() + text.slice(1) + '.'), { type: 'join' }]);
}

/**
 * ON_MESSAGE takes the server's messages that answer no command, by type; any
 * other type is ignored.
 * @type {Readonly<Record<string, (session: Session, msg: any, now: Now) => Step>>}
 */
const ON_MESSAGE = Object.freeze({
  event: eventReceived,
  presence: presenceReceived,
  thinking: (session, msg) => step(withRoom(session, onThinking(session.room, msg))),
  viewers: (session, msg) => step(withRoom(session, onViewers(session.room, msg))),
  chat: (session, msg) => {
    const chat = chatAdded(session.chat, msg.line);
    return step(chat === session.chat ? session : { ...session, chat });
  },
  error: (session, msg) => step(session, failed(session, { code: msg.code, userText: errorText(msg.code, msg.message) })),
  status: statusReceived,
  resync: resyncReceived,
});

/**
 * received takes a message that answers no command. Messages about other
 * rooms are ignored, except an error that names no room (a flood warning)
 * and a status, which is about the node.
 * @param {Session} session
 * @param {any} msg
 * @param {Now} [now] when it arrived
 * @returns {Step}
 */
export function received(session, msg, now = NO_TIME) {
  if (msg.room !== session.room.id && !((msg.type === 'error' || msg.type === 'status') && !msg.room)) return step(session);
  return Object.hasOwn(ON_MESSAGE, msg.type) ? ON_MESSAGE[msg.type](session, msg, now) : step(session);
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
 * @typedef {object} ClaimChoice what the player who stayed may do about an opponent who left
 * @property {Seat} gone the opponent's seat
 * @property {string} name the opponent's name
 * @property {number} waitMs how long until a claim is allowed; 0 once it is
 * @property {boolean} abort whether the game may still be aborted (fewer than two moves each)
 */

/**
 * claimChoice says whether this tab's player faces an opponent who left: a
 * person, not connected, in a game that goes on. It says how long until the
 * grace period is over (then the page offers the win, a draw, an abort while
 * allowed, or a bot in the seat).
 * @param {Session} session
 * @param {number} now performance.now()
 * @returns {ClaimChoice|null}
 */
export function claimChoice(session, now) {
  const { state: s, seat: me } = session.room;
  if (!s || !me || s.status === 'finished' || !s.presence) return null;
  const gone = other(me);
  const info = s.seats[gone];
  if (info.kind !== 'human' || s.presence[gone] !== false) return null;
  const waitMs = session.claim ? Math.max(0, Math.ceil(session.claim.from - now)) : Infinity;
  return { gone, name: info.name, waitMs, abort: movesEach(s) < 2 };
}

/**
 * left is the session once the page has left the room.
 * @param {Session} session
 * @returns {Session}
 */
export function left(session) {
  return { ...session, gone: true };
}

// Chat.

/**
 * chatSent sends a chat line: a player's as their seat, a spectator's in the
 * name given (a spectator without one is asked for it). A line that is empty
 * or too long is explained instead of sent.
 * @param {Session} session
 * @param {string} text
 * @param {string} name the spectator's name ('' when none is given); players' lines carry their seat's
 * @returns {Step}
 */
export function chatSent(session, text, name) {
  const checked = chatText(text);
  if ('error' in checked) return step(session, [{ type: 'toast', text: checked.error, tone: 'error', code: 'bad_request' }]);
  /** @type {Command} */
  const msg = { type: 'chat', text: checked.text };
  if (!session.room.seat) {
    if (!name) return step(session, [{ type: 'toast', text: 'Give a name (1 to 24 characters) to speak in the chat.', tone: 'error', code: 'bad_request' }]);
    msg.name = name;
  }
  return step(session, [{ type: 'send', msg }]);
}

/**
 * authorMuted mutes a chat author for this browser, or unmutes one who was muted.
 * @param {Session} session
 * @param {string} author
 * @returns {Step}
 */
export function authorMuted(session, author) {
  const muted = muteToggled(session.muted, author);
  return step({ ...session, muted }, [{ type: 'keepChat', muted, hideSpectators: session.hideSpectators }]);
}

/**
 * unmutedAll shows every author's lines again.
 * @param {Session} session
 * @returns {Step}
 */
export function unmutedAll(session) {
  return step({ ...session, muted: [] }, [{ type: 'keepChat', muted: [], hideSpectators: session.hideSpectators }]);
}

/**
 * spectatorsHidden hides the spectators' lines (hide) or shows them again.
 * @param {Session} session
 * @param {boolean} hide
 * @returns {Step}
 */
export function spectatorsHidden(session, hide) {
  if (hide === session.hideSpectators) return step(session);
  return step({ ...session, hideSpectators: hide }, [{ type: 'keepChat', muted: session.muted, hideSpectators: hide }]);
}
