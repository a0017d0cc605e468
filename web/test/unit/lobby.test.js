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
