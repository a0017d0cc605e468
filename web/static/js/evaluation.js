// Evaluation: the card with the evaluation graph: the bots' own scores, the
// engine's judgement of every position (fetched once the game is still for a
// moment) and, for Reversi, the disc difference. A click on the graph shows
// that position.

import { h, replace } from './dom.js';
import { drawGraph } from './graph.js';
import { roomAnalysis } from './api.js';
import { evalSeries } from './store.js';
import { changes } from './part.js';

/** @typedef {import('./part.js').Part} Part */
/** @typedef {import('./part.js').RoomActions} RoomActions */
/** @typedef {import('./store.js').RoomState} RoomState */

/** ANALYSIS_DELAY_MS is how long the game must be still before the analysis is asked for: a bot's quick reply does not cost two requests. */
const ANALYSIS_DELAY_MS = 400;

/**
 * evaluationPart shows the graph of a room's game.
 * @param {'reversi'|'gomoku'} game
 * @param {RoomActions} actions
 * @returns {Part}
 */
export function evaluationPart(game, actions) {
  const box = h('div', { class: 'graph-box', id: 'graph' });
  const el = h('section', { class: 'card' }, h('h2', null, 'Evaluation'), box,
    h('p', { class: 'legend small muted' },
      h('span', { class: 'key key-eval' }), ' engine score ',
      game === 'reversi' ? [h('span', { class: 'key key-discs' }), ' disc difference'] : null,
      ' (black up)'));
  const changed = changes();
  /** @type {{version: number, evals: number[]}|null} the server's analysis, once it answers */
  let analysis = null;
  /** @type {number|undefined} the version the analysis was asked for */
  let asked;
  /** @type {any} */
  let timer = null;

  /**
   * ask fetches the engine's judgement of every position once the game has
   * been still for ANALYSIS_DELAY_MS. The graph is drawn again when it
   * arrives; a failure just leaves the graph as it was.
   * @param {RoomState} s
   */
  function ask(s) {
    if (asked === s.version) return;
    asked = s.version;
    clearTimeout(timer);
    timer = setTimeout(async () => {
      try {
        const a = await roomAnalysis(s.id);
        if (a.version !== asked) return;
        analysis = a;
        actions.redraw();
      } catch {
        // the graph keeps the bots' own scores; nothing for the user to do
      }
    }, ANALYSIS_DELAY_MS);
  }

  return {
    el,
    draw({ room, state: s, plies }) {
      ask(s);
      const judged = analysis && analysis.version === s.version ? analysis : null;
      if (!changed([room.lastSeq, s.version, room.cursor, judged?.version])) return;
      replace(box, drawGraph({
        game: s.game, plies: plies.length, ...evalSeries(s.game, plies, judged),
        cursor: room.cursor, onPick: (ply) => actions.showPly(ply >= s.moves.length ? null : ply),
      }));
    },
  };
}
