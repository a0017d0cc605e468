// Graph: the evaluation over the game as a small plot (black's advantage up,
// white's down), like the advantage chart on lichess. Clicking a point jumps
// the replay to that ply.

import { svg } from './dom.js';
import { GOMOKU_WIN } from './store.js';

/** WIDTH and HEIGHT are the plot's viewBox; CSS scales it to the panel. */
const WIDTH = 300;
const HEIGHT = 90;

/** REVERSI_SPAN is the largest disc difference on an 8x8 board, the most the Reversi scale ever spans. */
const REVERSI_SPAN = 64;
/** REVERSI_MIN_SPAN keeps a quiet opening from filling the plot: ±8 discs at the least. */
const REVERSI_MIN_SPAN = 8;
/** GOMOKU_SPAN squashes Gomoku scores: a score of this size sits at three quarters of the height. */
const GOMOKU_SPAN = 1000;

/**
 * scaleY maps a score (black's view) to [-1, 1]: linear in discs for Reversi,
 * a soft curve for Gomoku whose scores grow steeply near a win; forced wins
 * sit at the edge.
 * @param {'reversi'|'gomoku'} game
 * @param {number} y
 * @param {number} [span] Reversi: the disc difference at the edge of the plot
 * @returns {number}
 */
export function scaleY(game, y, span = REVERSI_SPAN) {
  if (game === 'reversi') return Math.max(-1, Math.min(1, y / span));
  if (Math.abs(y) >= GOMOKU_WIN) return Math.sign(y);
  return Math.tanh(y / GOMOKU_SPAN);
}

/**
 * reversiSpan picks the Reversi scale for a game: the largest difference
 * shown, between REVERSI_MIN_SPAN and REVERSI_SPAN discs, so that a close
 * game is not a flat line.
 * @param {{y: number}[]} points
 * @returns {number}
 */
export function reversiSpan(points) {
  const most = points.reduce((m, p) => Math.max(m, Math.abs(p.y)), 0);
  return Math.min(REVERSI_SPAN, Math.max(REVERSI_MIN_SPAN, Math.ceil(most * 1.1)));
}

/**
 * drawGraph draws the series into a fresh SVG element.
 * @param {object} p
 * @param {'reversi'|'gomoku'} p.game
 * @param {number} p.plies number of plies in the game
 * @param {{x: number, y: number}[]} p.evals
 * @param {{x: number, y: number}[]} p.discs
 * @param {number|null} p.cursor ply being replayed, or null
 * @param {(ply: number) => void} p.onPick
 * @returns {SVGElement}
 */
export function drawGraph({ game, plies, evals, discs, cursor, onPick }) {
  const n = Math.max(plies, 1);
  const span = reversiSpan([...evals, ...discs]);
  const X = (/** @type {number} */ x) => (x / n) * WIDTH;
  const Y = (/** @type {number} */ y) => HEIGHT / 2 - (scaleY(game, y, span) * HEIGHT) / 2;
  const summary = evals.length
    ? `Evaluation graph: ${evals.length} engine scores over ${plies} plies.`
    : `Evaluation graph: no engine scores yet${discs.length ? '; the line is the disc difference' : ''}.`;
  const el = svg('svg', { class: 'graph', viewBox: `0 0 ${WIDTH} ${HEIGHT}`, preserveAspectRatio: 'none', role: 'img', 'aria-label': summary });
  el.append(svg('rect', { class: 'graph-white', x: 0, y: HEIGHT / 2, width: WIDTH, height: HEIGHT / 2 }));
  el.append(svg('line', { class: 'graph-mid', x1: 0, y1: HEIGHT / 2, x2: WIDTH, y2: HEIGHT / 2 }));
  if (discs.length > 1) {
    el.append(svg('polyline', { class: 'graph-discs', points: discs.map((p) => `${X(p.x)},${Y(p.y)}`).join(' ') }));
  }
  if (evals.length) {
    const pts = evals.map((p) => `${X(p.x)},${Y(p.y)}`);
    const area = `${X(evals[0].x)},${HEIGHT / 2} ${pts.join(' ')} ${X(evals[evals.length - 1].x)},${HEIGHT / 2}`;
    el.append(svg('polygon', { class: 'graph-area', points: area }));
    el.append(svg('polyline', { class: 'graph-eval', points: pts.join(' ') }));
    for (const p of evals) el.append(svg('circle', { class: 'graph-dot', cx: X(p.x), cy: Y(p.y), r: 1.6 }));
  }
  if (cursor != null) el.append(svg('line', { class: 'graph-cursor', x1: X(cursor), y1: 0, x2: X(cursor), y2: HEIGHT }));
  el.addEventListener('click', (e) => {
    const box = el.getBoundingClientRect();
    if (!box.width) return;
    const ply = Math.round(((e.clientX - box.left) / box.width) * n);
    onPick(Math.max(0, Math.min(plies, ply)));
  });
  return el;
}
