// Errors: every error code of docs/protocol.md in the user's words.

/**
 * MESSAGES maps each stable error code of the protocol (and the client's own
 * codes for a dropped connection or a failed request) to a sentence for
 * people. The server's own message is shown as a detail when it adds something.
 * @type {Readonly<Record<string, string>>}
 */
export const MESSAGES = Object.freeze({
  bad_request: 'The server did not understand that request.',
  unknown_type: 'The server does not know that action. Reload the page to get the newest version.',
  too_large: 'That was too large to send.',
  rate_limited: 'Slow down: too many actions at once. Try again in a moment.',
  room_not_found: 'This room does not exist, or it has expired.',
  not_joined: 'You are not in this room any more. Reconnecting…',
  not_seated: 'You are watching this game, not playing in it. Take an open seat to play.',
  bad_token: 'Your seat in this room could not be restored; you are watching now.',
  seat_taken: 'That seat has just been taken by someone else.',
  already_seated: 'You already have a seat in this game.',
  not_your_turn: 'Not your turn.',
  illegal_move: 'That move is not allowed there.',
  game_over: 'The game is over.',
  game_not_over: 'The game is still going on: a rematch can start only after it ends.',
  nothing_to_undo: 'There is no move of yours to take back.',
  no_request: 'There is nothing to answer: no take-back, draw or rematch is waiting for you.',
  time_out: 'Your time ran out: the move came too late.',
  too_early: 'Not yet: that is allowed only later in the game (a claim after the waiting time, an abort before both sides move).',
  too_many_requests: 'Too many rooms at once: start or leave one of your waiting rooms, or wait a minute, before creating another.',
  forbidden: 'That is not yours to change.',
  stale: 'The position changed before your move arrived. Look again and play.',
  busy: 'The room is busy. Try again in a moment.',
  unavailable: 'The server cannot reach its storage right now; nothing was changed. Try again shortly.',
  internal: 'Something went wrong on the server; nothing was changed.',
  disconnected: 'The connection dropped before the server answered. Reconnecting…',
  network: 'The server could not be reached. Check your connection and try again.',
});

/** ENGINE_WORDS matches a rule error in an engine's words rather than a player's. */
const ENGINE_WORDS = /\b(reversi|gomoku):/;

/**
 * errorText returns the sentence to show for an error code. Unknown codes get a
 * generic sentence with the server's message, so that nothing fails silently.
 * @param {string} code
 * @param {string} [message] the server's message, if any
 * @returns {string}
 */
export function errorText(code, message) {
  const known = Object.hasOwn(MESSAGES, code) ? MESSAGES[code] : null;
  // A refused request is best explained by the server's own words ("renju is
  // played on 15x15"); the other codes say all there is to say.
  if (known && code === 'bad_request' && message) return `${known.replace(/\.$/, '')}: ${message}`;
  // A refused move is said in the player's words by the server ("h8 is
  // forbidden to black under renju: it would make a double three", "h8 is
  // taken"): shown as it is. An engine's own wording ("a1: reversi: ...") is not.
  if (code === 'illegal_move' && message && !ENGINE_WORDS.test(message)) return message;
  // A creation limit says which limit it is ("you have 5 rooms waiting for a player: ...").
  if (code === 'too_many_requests' && message) return `${message[0].toUpperCase()}${message.slice(1)}.`;
  if (known) return known;
  const detail = message ? `: ${message}` : '';
  return `Something went wrong (${code || 'unknown error'})${detail}`;
}

/**
 * ProtocolError is an error answer from the server (or a client-side failure
 * with one of the codes above), carrying the stable code.
 */
export class ProtocolError extends Error {
  /**
   * @param {string} code
   * @param {string} [message]
   */
  constructor(code, message) {
    super(message || code);
    this.name = 'ProtocolError';
    /** code is the stable error code. */
    this.code = code;
    /** serverMessage is the server's own wording, which may change. */
    this.serverMessage = message || '';
  }

  /** userText is the sentence to show. */
  get userText() {
    return errorText(this.code, this.serverMessage);
  }
}
