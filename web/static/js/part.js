// Part: what every piece of the room page is (the players, the controls, the
// move list...): an element placed once by RoomView's layout and a draw that
// brings it up to date from the session. A new feature of the room page (a
// clock, the chat) is one more part and one more line of the layout.

/** @typedef {import('./session.js').Session} Session */
/** @typedef {import('./session.js').Command} Command */
/** @typedef {import('./store.js').Room} Room */
/** @typedef {import('./store.js').RoomState} RoomState */
/** @typedef {import('./store.js').Seat} Seat */
/** @typedef {ReturnType<typeof import('./store.js').canAct>} Can */

/**
 * @typedef {object} RoomActions what the page's controls ask for; room.js does it
 * @property {(move: string) => void} play play a move on the board
 * @property {(msg: Command) => void} send send a player's command (undo, resign, set_seat...)
 * @property {(seat: Seat, name?: string) => void} sit take an open seat, in the name given (which the browser then remembers) or the one it remembers
 * @property {() => void} cancelInvite the creator calls the invitation off: stand up and leave the room
 * @property {(ply: number|null) => void} showPly show the position after ply plies, or the live one (null)
 * @property {(text: string, name: string) => boolean} chat say a line in the chat (name: a spectator's); true when it was sent
 * @property {(author: string) => void} mute mute a chat author for this browser, or unmute one
 * @property {() => void} unmuteAll show every author's lines again
 * @property {(hide: boolean) => void} hideSpectators hide the spectators' chat lines, or show them again
 * @property {() => void} redraw draw the page again from the latest session, because
 * a part's own look changed (an armed button, an answer it fetched); nothing once the page has left the room
 */

/**
 * @typedef {object} Frame what one update derives from the session, once, for every part
 * @property {Session} session
 * @property {Room} room
 * @property {RoomState} state the latest state (a part is drawn only once there is one)
 * @property {Seat|null} me the seat this tab acts for
 * @property {Can} can what this tab may do now (store.js canAct)
 * @property {import('./store.js').View} shown the board shown: live, or a ply of the replay (store.js view)
 * @property {import('./store.js').Ply[]} plies the current game's plies (store.js history)
 */

/**
 * @typedef {object} Part one piece of the room page
 * @property {HTMLElement} el its element
 * @property {(f: Frame) => void} draw brings el up to date
 */

/**
 * changes returns a test that says whether what a part shows differs from the
 * last time (compared as JSON). A part draws again only then, so that a stream
 * of thinking or viewer messages neither costs much nor takes the keyboard
 * focus away from a button or closes an open menu.
 * @returns {(shows: unknown) => boolean}
 */
export function changes() {
  /** @type {string|undefined} */
  let last;
  return (shows) => {
    const k = JSON.stringify(shows);
    if (k === last) return false;
    last = k;
    return true;
  };
}
