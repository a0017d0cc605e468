import { test } from 'node:test';
import assert from 'node:assert/strict';
import { moment, cues, lowIn, loudest, turnNotice, TONES } from '../../static/js/sound.js';

/** at is a moment of room r1, game 1: black's turn after 4 plies, this tab black. */
function at(over = {}) {
  return { room: 'r1', gameNo: 1, plies: 4, status: 'playing', toMove: 'black', me: 'black', low: false, ...over };
}

test('cues: which sounds to play between two moments', async (t) => {
  const cases = [
    { name: 'the first moment plays nothing', before: null, after: at(), want: [] },
    { name: 'nothing changed', before: at(), after: at(), want: [] },
    { name: 'the opponent moved: a move and your turn', before: at({ plies: 3, toMove: 'white' }), after: at(), want: ['move', 'yourTurn'] },
    { name: 'you moved: a move', before: at(), after: at({ plies: 5, toMove: 'white' }), want: ['move'] },
    { name: 'a spectator hears moves only', before: at({ me: null, plies: 3, toMove: 'white' }), after: at({ me: null }), want: ['move'] },
    { name: 'the bot moved: a move and your turn', before: at({ toMove: 'white', plies: 5 }), after: at({ plies: 6 }), want: ['move', 'yourTurn'] },
    { name: 'the game starts on your turn', before: at({ status: 'waiting', plies: 0 }), after: at({ plies: 0 }), want: ['yourTurn'] },
    { name: 'an undo plays no move', before: at({ plies: 6, toMove: 'white' }), after: at({ plies: 4 }), want: ['yourTurn'] },
    { name: 'your clock turns low', before: at(), after: at({ low: true }), want: ['lowTime'] },
    { name: 'still low: once only', before: at({ low: true }), after: at({ low: true }), want: [] },
    { name: 'the game ends: the end alone', before: at(), after: at({ plies: 5, status: 'finished', toMove: null }), want: ['end'] },
    { name: 'still over', before: at({ status: 'finished' }), after: at({ status: 'finished' }), want: [] },
    { name: 'another game (a rematch) starts quietly', before: at({ gameNo: 1 }), after: at({ gameNo: 2, plies: 0 }), want: [] },
    { name: 'another room starts quietly', before: at({ room: 'r0' }), after: at(), want: [] },
  ];
  for (const tc of cases) await t.test(tc.name, () => assert.deepEqual(cues(tc.before, tc.after), tc.want));
});

test('loudest picks one sound', () => {
  assert.equal(loudest(['move', 'yourTurn']), 'yourTurn');
  assert.equal(loudest(['move', 'yourTurn', 'lowTime']), 'lowTime');
  assert.equal(loudest(['end']), 'end');
  assert.equal(loudest([]), null);
  for (const cue of ['move', 'yourTurn', 'lowTime', 'end']) assert.ok(TONES[cue].length > 0, cue);
});

test('turnNotice: only your turn, only in a hidden tab', () => {
  assert.equal(turnNotice(['move', 'yourTurn'], true), true);
  assert.equal(turnNotice(['move', 'yourTurn'], false), false);
  assert.equal(turnNotice(['move'], true), false);
});

/** session is a session of a 1+0 game whose state arrived at stateAt, black (this tab) to move with ms left. */
function session(ms, over = {}, seat = 'black') {
  const clock = {
    kind: 'fischer', base: 60, increment: 0, black: ms, white: 60000, running: 'black',
    asOf: '2026-11-22T18:00:00Z', deadline: '2026-11-22T18:01:00Z', firstMove: false, ...over,
  };
  const state = { id: 'r1', gameNo: 1, moves: ['f5', 'd6', 'c3', 'd3'], status: 'playing', toMove: 'black', clock };
  return /** @type {any} */ ({ room: { state, seat }, stateAt: 1000 });
}

test('moment reads low time from the running clock at an instant', () => {
  // 1+0: low under 10 s (a tenth of a minute, at least 10 s).
  assert.equal(moment(session(12000), 1000).low, false);
  assert.equal(moment(session(12000), 3001).low, true, '2 s later 9.999 s are left');
  assert.equal(moment(session(5000, { running: 'white' }), 1000).low, false, 'a clock that does not run');
  assert.equal(moment(session(5000, {}, 'white'), 1000).low, false, 'the opponent\'s clock');
  assert.equal(moment(session(5000, { firstMove: true }), 1000).low, false, 'the first move costs no time');
  assert.equal(moment(/** @type {any} */ ({ room: { state: null, seat: null } }), 0), null);
});

test('lowIn: when to look again', () => {
  assert.equal(lowIn(session(12000), 1000), 2001, '12 s left, low below 10 s: 2 s and a millisecond');
  assert.equal(lowIn(session(12000), 2000), 1001);
  assert.equal(lowIn(session(9000), 1000), null, 'already low');
  assert.equal(lowIn(session(12000, { running: 'white' }), 1000), null, 'not running');
  assert.equal(lowIn(session(12000, { kind: 'correspondence', days: 1 }), 1000), null, 'correspondence: low under an hour, 12 s is low');
  const corr = session(2 * 3600_000, { kind: 'correspondence', days: 1 });
  assert.equal(lowIn(corr, 1000), 3600_001);
});
