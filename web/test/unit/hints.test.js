import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hintMoves } from '../../static/js/store.js';
import { newSession, received, bannerText, linkChanged } from '../../static/js/session.js';
import { startBoard } from '../../static/js/notation.js';

/** room is a Reversi room with this tab in seat me, the state's fields overridden. */
function room(me, over = {}, cursor = null) {
  const state = {
    id: 'r1', game: 'reversi', size: 8, rule: '', version: 3, gameNo: 1, status: 'playing', board: startBoard('reversi', 8),
    toMove: 'black', legal: ['d3', 'c4', 'f5', 'e6'], lastMove: null, flipped: null, counts: { black: 2, white: 2 }, moves: [],
    seats: { black: { kind: 'human', name: 'Ann' }, white: { kind: 'bot', level: 3 } }, result: null, winLine: null, undoRequest: null, viewers: 1, ...over,
  };
  return { id: 'r1', state, seat: me, events: [], lastSeq: 3, cursor, thinking: null };
}

test('hintMoves: legal moves only on your own turn (12.8)', async (t) => {
  const cases = [
    { name: 'your turn', r: room('black'), want: ['d3', 'c4', 'f5', 'e6'] },
    { name: 'the bot to move', r: room('white'), want: [] },
    { name: 'the opponent to move', r: room('white', { seats: { black: { kind: 'human', name: 'Ann' }, white: { kind: 'human', name: 'Bob' } } }), want: [] },
    { name: 'a spectator', r: room(null), want: [] },
    { name: 'an earlier position of the replay', r: room('black', {}, 0), want: [] },
    { name: 'the game is over', r: room('black', { status: 'finished', toMove: null }), want: [] },
    { name: 'gomoku has no hints', r: room('black', { game: 'gomoku', size: 15, legal: [] }), want: [] },
  ];
  for (const tc of cases) await t.test(tc.name, () => assert.deepEqual(hintMoves(/** @type {any} */ (tc.r)), tc.want));
});

test('status: a banner while the game store is down, cleared when it is back', () => {
  let s = newSession('r1');
  s = linkChanged(s, 'open');
  assert.equal(bannerText(s), null);
  const down = { type: 'status', storage: 'unavailable', message: 'the game store cannot be reached: moves are paused, and nothing stored is lost' };
  let step = received(s, down);
  s = step.session;
  assert.equal(s.storage.down, true);
  assert.deepEqual(step.effects, []);
  assert.match(bannerText(s) || '', /^Moves are paused: the game store cannot be reached/);
  assert.equal(received(s, down).session, s, 'told twice changes nothing');
  step = received(s, { type: 'status', storage: 'ok', message: 'the game store is back' });
  s = step.session;
  assert.equal(bannerText(s), null);
  assert.deepEqual(step.effects.map((e) => e.text), ['The game store is back: moves go through again.']);
  assert.equal(received(s, { type: 'status', storage: 'ok' }).session, s, 'ok while ok changes nothing');
  // A dropped link says so first.
  s = linkChanged(received(s, down).session, 'reconnecting', { attempt: 1, waitMs: 1000 });
  assert.match(bannerText(s) || '', /^Cannot reach the server/);
});
