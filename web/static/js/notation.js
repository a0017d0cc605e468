// Notation: square names, board strings and game transcripts for Reversi and
// Gomoku, exactly as docs/protocol.md and the engines write them.
//
// Positions on the picture are {r, c}: r is the row from the top (0-based), c
// the column from the left. The board string of the protocol is row by row from
// the top, so cell {r, c} is at index r*size + c for both games. Only the names
// differ: Reversi counts rows from the top ("a1" is top-left), Gomoku from the
// bottom ("a1" is bottom-left, "h8" the centre of 15x15).

/** @typedef {'reversi'|'gomoku'} Game */
/** @typedef {{r: number, c: number}} Cell */

/** LETTERS are the column letters; Gomoku's largest board (20x20) uses a..t, without skipping i. */
export const LETTERS = 'abcdefghijklmnopqrst';

/** REVERSI_SIZE is the side of the Othello board. */
export const REVERSI_SIZE = 8;

/** PASS is how a Reversi pass is written in the protocol's move lists. */
export const PASS = 'pass';

/**
 * cellName names the cell at row r (from the top) and column c (from the left).
 * @param {Game} game
 * @param {number} size
 * @param {number} r
 * @param {number} c
 * @returns {string}
 */
export function cellName(game, size, r, c) {
  if (!inside(size, r, c)) throw new RangeError(`notation: cell ${r},${c} is off a ${size}x${size} board`);
  const row = game === 'gomoku' ? size - r : r + 1;
  return LETTERS[c] + row;
}

/**
 * parseCell reads a square or point name such as "f5" or "J10" (either case)
 * and returns its cell, or throws an Error saying what is wrong.
 * @param {Game} game
 * @param {number} size
 * @param {string} name
 * @returns {Cell}
 */
export function parseCell(game, size, name) {
  const m = /^([a-s])([0-9]{1,2})$/.exec(String(name).trim().toLowerCase());
  if (!m) throw new Error(`notation: "${name}" is not a square name`);
  const c = LETTERS.indexOf(m[1]);
  const row = Number(m[2]);
  if (m[2].length > 1 && m[2][0] === '0') throw new Error(`notation: "${name}" has a leading zero`);
  const r = game === 'gomoku' ? size - row : row - 1;
  if (!inside(size, r, c)) throw new Error(`notation: "${name}" is off a ${size}x${size} board`);
  return { r, c };
}

/**
 * inside reports whether row r and column c lie on a size x size board.
 * @param {number} size
 * @param {number} r
 * @param {number} c
 */
export function inside(size, r, c) {
  return Number.isInteger(r) && Number.isInteger(c) && r >= 0 && c >= 0 && r < size && c < size;
}

/**
 * parseBoard checks a protocol board string ("X" black, "O" white, "-"
 * empty, size*size characters) and returns it as an array of 'X' | 'O' | '-'.
 * @param {string} board
 * @param {number} size
 * @returns {string[]}
 */
export function parseBoard(board, size) {
  if (typeof board !== 'string' || board.length !== size * size) {
    throw new Error(`notation: board must have ${size * size} cells, got ${typeof board === 'string' ? board.length : typeof board}`);
  }
  const cells = board.split('');
  const bad = cells.findIndex((ch) => ch !== 'X' && ch !== 'O' && ch !== '-');
  if (bad >= 0) throw new Error(`notation: board has "${cells[bad]}" at index ${bad}`);
  return cells;
}

/**
 * startBoard is the board before the first move: Reversi's standard start
 * (d4 and e5 white, d5 and e4 black) or an empty Gomoku board.
 * @param {Game} game
 * @param {number} size
 * @returns {string}
 */
export function startBoard(game, size) {
  const cells = new Array(size * size).fill('-');
  if (game === 'reversi') {
    /** @param {string} name @param {string} ch */
    const set = (name, ch) => {
      const { r, c } = parseCell(game, size, name);
      cells[r * size + c] = ch;
    };
    set('d4', 'O');
    set('e5', 'O');
    set('d5', 'X');
    set('e4', 'X');
  }
  return cells.join('');
}

/**
 * countStones counts the black and white discs or stones on a board string.
 * @param {string} board
 * @returns {{black: number, white: number}}
 */
export function countStones(board) {
  let black = 0;
  let white = 0;
  for (const ch of board) {
    if (ch === 'X') black++;
    else if (ch === 'O') white++;
  }
  return { black, white };
}

/**
 * formatTranscript writes a game's plies as the engines' notation reads them
 * back: Reversi squares run together with "pa" for a pass ("f5d6pa"), Gomoku
 * points run together ("h8i9j10").
 * @param {Game} game
 * @param {string[]} moves plies as the protocol lists them ("pass" for a pass)
 * @returns {string}
 */
export function formatTranscript(game, moves) {
  return moves
    .map((m) => {
      const s = String(m).toLowerCase();
      if (s === PASS) {
        if (game !== 'reversi') throw new Error('notation: only Reversi has passes');
        return 'pa';
      }
      return s;
    })
    .join('');
}

/**
 * parseTranscript reads a transcript written by formatTranscript, or by hand:
 * names may be run together or separated by spaces, commas or hyphens, in
 * either case; Reversi passes are "pa" or "pass". It checks the notation only,
 * not the rules. The result uses the protocol's spelling ("pass").
 * @param {Game} game
 * @param {number} size
 * @param {string} text
 * @returns {string[]}
 */
export function parseTranscript(game, size, text) {
  const s = String(text).toLowerCase().replace(/[\s,-]+/g, ' ').trim();
  /** @type {string[]} */
  const moves = [];
  let i = 0;
  while (i < s.length) {
    if (s[i] === ' ') {
      i++;
      continue;
    }
    if (game === 'reversi' && s.startsWith('pa', i)) {
      i += s.startsWith('pass', i) ? 4 : 2;
      moves.push(PASS);
      continue;
    }
    const m = /^([a-s])([0-9]{1,2})/.exec(s.slice(i));
    if (!m) throw new Error(`notation: cannot read move ${moves.length + 1} at "${s.slice(i, i + 4)}"`);
    let digits = m[2];
    // Reversi squares have one digit, so "f5d6" never reads "5d" as a row.
    if (game === 'reversi') digits = digits.slice(0, 1);
    const name = m[1] + digits;
    parseCell(game, size, name); // throws for off-board names
    moves.push(name);
    i += name.length;
  }
  return moves;
}

/**
 * moveRows groups plies into numbered rows of two (black's then white's ply),
 * for the move list: [{no: 1, plies: [{ply: 0, move: 'f5'}, {ply: 1, move: 'd6'}]}, ...].
 * @param {string[]} moves
 * @returns {{no: number, plies: {ply: number, move: string}[]}[]}
 */
export function moveRows(moves) {
  const rows = [];
  for (let i = 0; i < moves.length; i += 2) {
    const plies = [{ ply: i, move: moves[i] }];
    if (i + 1 < moves.length) plies.push({ ply: i + 1, move: moves[i + 1] });
    rows.push({ no: i / 2 + 1, plies });
  }
  return rows;
}
