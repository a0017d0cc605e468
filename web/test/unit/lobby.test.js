import { test } from 'node:test';
import assert from 'node:assert/strict';
import { creatorSeat, describeRoom } from '../../static/js/lobby.js';

test('creatorSeat: the colour chosen, or one drawn at random', () => {
  assert.equal(creatorSeat('black', 0.9), 'black');
  assert.equal(creatorSeat('white', 0.1), 'white');
  assert.equal(creatorSeat('random', 0), 'black');
  assert.equal(creatorSeat('random', 0.49), 'black');
  assert.equal(creatorSeat('random', 0.5), 'white');
  assert.equal(creatorSeat('random', 0.99), 'white');
});

test('describeRoom names the time control when there is one', () => {
  assert.equal(describeRoom({ game: 'reversi', size: 8, rule: '' }), 'Reversi');
  assert.equal(describeRoom({ game: 'reversi', size: 8, rule: '', clock: { kind: 'untimed' } }), 'Reversi');
  assert.equal(describeRoom({ game: 'reversi', size: 8, rule: '', clock: { kind: 'fischer', base: 180, increment: 2 } }), 'Reversi · 3+2');
  assert.equal(describeRoom({ game: 'gomoku', size: 15, rule: 'renju', clock: { kind: 'correspondence', days: 3 } }), 'Gomoku 15×15 · renju · 3 days a move');
});

import { lobbyLists, roomFacts, FINISHED_SHOWN } from '../../static/js/lobbylists.js';

test('lobbyLists reads the pushed lists', async (t) => {
  await t.test('as sent', () => {
    const l = lobbyLists({ type: 'lobby', open: [{ id: 'a' }], live: [{ id: 'b' }, { id: 'c' }], finished: [] });
    assert.deepEqual(l, { open: [{ id: 'a' }], live: [{ id: 'b' }, { id: 'c' }], finished: [] });
  });
  await t.test('a missing list is empty, a line without an id is left out', () => {
    assert.deepEqual(lobbyLists({ type: 'lobby', open: null, live: [{ id: 'b' }, null, { x: 1 }] }), { open: [], live: [{ id: 'b' }], finished: [] });
  });
  await t.test('the most recent finished games only', () => {
    const finished = Array.from({ length: 30 }, (_, i) => ({ id: `f${i}` }));
    const l = lobbyLists({ type: 'lobby', open: [], live: [], finished });
    assert.equal(l.finished.length, FINISHED_SHOWN);
    assert.equal(l.finished[0].id, 'f0');
  });
});

test('roomFacts pluralises right', async (t) => {
  const room = (over) => ({ id: 'r', game: 'reversi', status: 'playing', counts: { black: 3, white: 2 }, seats: {}, ...over });
  const cases = [
    { name: 'no plies', r: room({ plies: 0, spectators: 0 }), plies: '0 plies', watching: '0 spectators' },
    { name: 'one ply, one spectator', r: room({ plies: 1, spectators: 1 }), plies: '1 ply', watching: '1 spectator' },
    { name: 'two plies, two spectators', r: room({ plies: 2, spectators: 2 }), plies: '2 plies', watching: '2 spectators' },
    { name: 'no plies field', r: room({}), plies: '0 plies', watching: '0 spectators' },
  ];
  for (const tc of cases) {
    await t.test(tc.name, () => {
      const f = roomFacts(tc.r);
      assert.equal(f.plies, tc.plies);
      assert.equal(f.watching, tc.watching);
    });
  }
  await t.test('score, control and action', () => {
    const f = roomFacts(room({ plies: 5, clock: { kind: 'fischer', base: 180, increment: 2 } }));
    assert.equal(f.score, '3–2');
    assert.equal(f.control, '3+2');
    assert.equal(f.action, 'Watch');
    assert.equal(roomFacts(room({ status: 'waiting' })).action, 'Join');
    assert.equal(roomFacts(room({ status: 'finished', clock: { kind: 'untimed' } })).control, '');
    assert.equal(roomFacts(room({ status: 'finished' })).action, 'Replay');
  });
});
