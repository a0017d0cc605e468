// Board: the SVG picture of a Reversi or Gomoku board, with click, tap and
// keyboard play (arrow keys move a visible focus, Enter or Space plays).

import { svg } from './dom.js';
import { cellName, LETTERS } from './notation.js';

/** DISC_R is a Reversi disc's radius in cell widths: a thin gap between neighbours. */
const DISC_R = 0.42;
/** STONE_R is a Gomoku stone's radius in grid spacings: stones almost touch, as on a real board. */
const STONE_R = 0.46;
/** MARGIN leaves room for the coordinates around the board, in cells. */
const MARGIN = 0.7;

/**
 * starPoints returns the marked points of a Gomoku board (the centre and the
 * fourth lines), as {r, c}.
 * @param {number} size
 */
function starPoints(size) {
  const edge = 3;
  const mid = (size - 1) / 2;
  const far = size - 1 - edge;
  const pts = [[edge, edge], [edge, far], [far, edge], [far, far], [mid, mid]];
  if (size >= 19) pts.push([edge, mid], [mid, edge], [mid, far], [far, mid]);
  return pts.map(([r, c]) => ({ r, c }));
}

/**
 * @typedef {object} BoardPicture what to draw
 * @property {string} board the protocol board string
 * @property {Set<string>} legal Reversi moves to mark for the player to move
 * @property {Set<string>} forbidden renju points black may not play
 * @property {string|null} lastMove
 * @property {string[]} flipped discs to animate
 * @property {Set<string>} winLine
 * @property {boolean} interactive whether clicks play
 * @property {'black'|'white'|null} toMove
 */

/**
 * BoardView draws one board and reports the player's choice through onPlay.
 */
export class BoardView {
  /**
   * @param {object} opts
   * @param {'reversi'|'gomoku'} opts.game
   * @param {number} opts.size
   * @param {(name: string) => void} opts.onPlay
   */
  constructor({ game, size, onPlay }) {
    this.game = game;
    this.size = size;
    this.onPlay = onPlay;
    this.interactive = false;
    this.prevBoard = '';
    this.focusIndex = game === 'gomoku' ? Math.floor(size / 2) * size + Math.floor(size / 2) : 2 * size + 3;
    const grid = game === 'gomoku';
    // Reversi cells span [c, c+1]; Gomoku points sit on the lines at c.
    const lo = grid ? -0.5 - MARGIN : -MARGIN;
    const span = (grid ? size : size) + 2 * MARGIN;
    this.el = svg('svg', {
      class: `board board-${game}`,
      viewBox: `${lo} ${lo} ${span} ${span}`,
      role: 'grid',
      'aria-label': `${game === 'reversi' ? 'Reversi' : 'Gomoku'} board, ${size} by ${size}. Arrow keys move, Enter plays.`,
    });
    const off = grid ? 0 : 0.5; // centre of cell c is c + off
    this.off = off;
    if (grid) {
      this.el.append(svg('rect', { class: 'board-bg', x: -0.5, y: -0.5, width: size, height: size, rx: 0.15 }));
      const lines = svg('g', { class: 'grid-lines', 'aria-hidden': 'true' });
      for (let i = 0; i < size; i++) {
        lines.append(svg('line', { x1: 0, y1: i, x2: size - 1, y2: i }), svg('line', { x1: i, y1: 0, x2: i, y2: size - 1 }));
      }
      for (const p of starPoints(size)) lines.append(svg('circle', { class: 'star', cx: p.c, cy: p.r, r: 0.12 }));
      this.el.append(lines);
    } else {
      this.el.append(svg('rect', { class: 'board-bg', x: 0, y: 0, width: size, height: size, rx: 0.08 }));
      const lines = svg('g', { class: 'grid-lines', 'aria-hidden': 'true' });
      for (let i = 0; i <= size; i++) {
        lines.append(svg('line', { x1: 0, y1: i, x2: size, y2: i }), svg('line', { x1: i, y1: 0, x2: i, y2: size }));
      }
      for (const [r, c] of [[2, 2], [2, 6], [6, 2], [6, 6]]) lines.append(svg('circle', { class: 'star', cx: c, cy: r, r: 0.07 }));
      this.el.append(lines);
    }
    const labels = svg('g', { class: 'coords', 'aria-hidden': 'true' });
    const edge = grid ? -0.5 - MARGIN / 2 : -MARGIN / 2;
    const far = grid ? size - 0.5 + MARGIN / 2 : size + MARGIN / 2;
    for (let i = 0; i < size; i++) {
      const row = grid ? String(size - i) : String(i + 1);
      labels.append(
        svg('text', { x: i + off, y: edge }, LETTERS[i]),
        svg('text', { x: i + off, y: far }, LETTERS[i]),
        svg('text', { x: edge, y: i + off }, row),
        svg('text', { x: far, y: i + off }, row),
      );
    }
    this.el.append(labels);

    /** @type {SVGGElement[]} */
    this.cells = [];
    /** @type {SVGCircleElement[]} */
    this.pieces = [];
    for (let r = 0; r < size; r++) {
      const row = svg('g', { role: 'row' });
      for (let c = 0; c < size; c++) {
        const name = cellName(game, size, r, c);
        const cx = c + off;
        const cy = r + off;
        const half = 0.5;
        const cell = /** @type {SVGGElement} */ (svg('g', { class: 'cell', role: 'gridcell', tabindex: '-1', 'data-cell': name, 'aria-label': name }));
        cell.append(
          svg('rect', { class: 'hit', x: cx - half, y: cy - half, width: 1, height: 1 }),
          svg('circle', { class: 'hint', cx, cy, r: grid ? 0.16 : 0.13 }),
          svg('circle', { class: 'piece', cx, cy, r: grid ? STONE_R : DISC_R }),
          svg('rect', { class: 'last', x: cx - 0.1, y: cy - 0.1, width: 0.2, height: 0.2 }),
          svg('circle', { class: 'win', cx, cy, r: (grid ? STONE_R : DISC_R) - 0.06 }),
          svg('path', { class: 'forbid', d: `M${cx - 0.15} ${cy - 0.15}L${cx + 0.15} ${cy + 0.15}M${cx + 0.15} ${cy - 0.15}L${cx - 0.15} ${cy + 0.15}` }),
        );
        row.append(cell);
        this.cells.push(cell);
        this.pieces.push(/** @type {SVGCircleElement} */ (cell.querySelector('.piece')));
      }
      this.el.append(row);
    }
    this.cells[this.focusIndex].setAttribute('tabindex', '0');

    this.el.addEventListener('click', (e) => {
      const cell = /** @type {Element} */ (e.target).closest?.('.cell');
      if (!cell) return;
      const i = this.cells.indexOf(/** @type {SVGGElement} */ (cell));
      this.moveFocus(i, false);
      this.play(i);
    });
    this.el.addEventListener('keydown', (e) => this.key(e));
    this.el.addEventListener('focusin', (e) => {
      const i = this.cells.indexOf(/** @type {SVGGElement} */ (e.target));
      if (i >= 0 && i !== this.focusIndex) this.moveFocus(i, false);
    });
  }

  /**
   * play reports a click or Enter on cell i. It is reported even when it is
   * not this player's turn, so that the answer (e.g. "Not your turn") is shown.
   * @param {number} i
   */
  play(i) {
    if (i < 0) return;
    this.onPlay(this.cells[i].dataset.cell || '');
  }

  /**
   * moveFocus makes cell i the one Tab reaches (roving tabindex) and, if focus, focuses it.
   * @param {number} i
   * @param {boolean} focus
   */
  moveFocus(i, focus) {
    if (i < 0 || i >= this.cells.length) return;
    this.cells[this.focusIndex].setAttribute('tabindex', '-1');
    this.focusIndex = i;
    this.cells[i].setAttribute('tabindex', '0');
    if (focus) this.cells[i].focus();
  }

  /** @param {KeyboardEvent} e */
  key(e) {
    const n = this.size;
    let r = Math.floor(this.focusIndex / n);
    let c = this.focusIndex % n;
    switch (e.key) {
      case 'ArrowUp': r = Math.max(0, r - 1); break;
      case 'ArrowDown': r = Math.min(n - 1, r + 1); break;
      case 'ArrowLeft': c = Math.max(0, c - 1); break;
      case 'ArrowRight': c = Math.min(n - 1, c + 1); break;
      case 'Home': c = 0; break;
      case 'End': c = n - 1; break;
      case 'Enter':
      case ' ':
        e.preventDefault();
        this.play(this.focusIndex);
        return;
      default:
        return;
    }
    e.preventDefault();
    this.moveFocus(r * n + c, true);
  }

  /**
   * render draws a position. Only what changed is touched; discs that a
   * Reversi move turned over play the flip animation.
   * @param {BoardPicture} p
   */
  render(p) {
    this.interactive = p.interactive;
    this.el.classList.toggle('interactive', p.interactive);
    this.el.classList.toggle('to-move-black', p.toMove === 'black');
    this.el.classList.toggle('to-move-white', p.toMove === 'white');
    const flipped = new Set(p.flipped);
    const prev = this.prevBoard;
    const noun = this.game === 'reversi' ? 'disc' : 'stone';
    for (let i = 0; i < this.cells.length; i++) {
      const cell = this.cells[i];
      const name = cell.dataset.cell || '';
      const ch = p.board[i];
      const piece = this.pieces[i];
      const colour = ch === 'X' ? 'black' : ch === 'O' ? 'white' : '';
      cell.classList.toggle('black', colour === 'black');
      cell.classList.toggle('white', colour === 'white');
      cell.classList.toggle('empty', !colour);
      const legal = p.legal.has(name);
      const last = p.lastMove === name;
      const win = p.winLine.has(name);
      const forbidden = p.forbidden.has(name);
      cell.classList.toggle('legal', legal);
      cell.classList.toggle('lastmove', last);
      cell.classList.toggle('winning', win);
      cell.classList.toggle('forbidden', forbidden);
      let label = `${name}, ${colour ? `${colour} ${noun}` : 'empty'}`;
      if (legal) label += ', legal move';
      if (forbidden) label += ', forbidden for black';
      if (last) label += ', last move';
      if (win) label += ', winning line';
      if (cell.getAttribute('aria-label') !== label) cell.setAttribute('aria-label', label);
      if (prev && prev[i] !== ch && colour) {
        const anim = flipped.has(name) ? 'flip' : prev[i] === '-' ? 'place' : '';
        if (anim) {
          piece.classList.remove('flip', 'place');
          // Reading a layout property restarts the CSS animation.
          void piece.getBoundingClientRect();
          piece.classList.add(anim);
        }
      }
    }
    this.prevBoard = p.board;
  }
}
