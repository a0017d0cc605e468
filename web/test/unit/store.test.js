import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  newRoom, onJoined, onEvent, onThinking, onViewers, history, view, evalSeries, seatName, resultText,
  turnText, passNotice, formatScore, canAct, createStore, other, spectators, lastMoveText, onPresence, movesEach, plural,
} from '../../static/js/store.js';
import { startBoard } from '../../static/js/notation.js';

const START = startBoard('reversi', 8);

/** state builds a Reversi room state with overrides. */
function state(over = {}) {
  return {
    id: 'r1', game: 'reversi', size: 8, rule: '', version: 0, gameNo: 1, status: 'playing',
    board: START, toMove: 'black', legal: ['d3', 'c4', 'f5', 'e6'], lastMove: null, flipped: null,
    counts: { black: 2, white: 2 }, moves: [],
    seats: { black: { kind: 'human', name: 'Ann' }, white: { kind: 'human', name: 'Bob' } },
    result: null, winLine: null, undoRequest: null, viewers: 2, ...over,
  };
}

// Boards after f5 and after f5 d6, as the server would send them.
const AFTER_F5 = '---------------------------OX------XXX--------------------------'.padEnd(64, '-');
const AFTER_D6 = '---------------------------OX------OXX------O-------------------'.padEnd(64, '-');

function move(seq, seat, mv, board, extra = {}) {
  return { seq, type: 'move', time: '2026-11-22T18:00:00Z', seat, move: mv, board, flipped: [], ...extra };
}

test('onJoined with the whole log, then events in order', () => {
  let room = newRoom('r1');
  room = onJoined(room, { seat: 'black', full: true, state: state(), events: [{ seq: 1, type: 'seat', seat: 'black', kind: 'human', name: 'Ann' }] });
  assert.equal(room.seat, 'black');
  assert.equal(room.lastSeq, 1);
  const r2 = onEvent(room, { event: move(2, 'black', 'f5', AFTER_F5, { flipped: ['e5'] }), state: state({ version: 2, moves: ['f5'], toMove: 'white', board: AFTER_F5 }) });
  assert.equal(r2.gap, false);
  assert.equal(r2.fresh, true);
  assert.equal(r2.room.lastSeq, 2);
  assert.equal(r2.room.state.version, 2);
  // The same event again (ack and event racing, or a resend) changes nothing.
  const dup = onEvent(r2.room, { event: move(2, 'black', 'f5', AFTER_F5), state: state({ version: 2 }) });
  assert.equal(dup.fresh, false);
  assert.equal(dup.room, r2.room);
});

test('onEvent reports a gap and keeps the state', () => {
  let room = onJoined(newRoom('r1'), { seat: null, full: true, state: state(), events: [] });
  const r = onEvent(room, { event: move(3, 'white', 'd6', AFTER_D6), state: state({ version: 3, moves: ['f5', 'd6'] }) });
  assert.equal(r.gap, true);
  assert.equal(r.room.state.version, 3);
  assert.equal(r.room.lastSeq, 0, 'the missing events are fetched with since');
});

test('onJoined after a reconnect appends only the missed events', () => {
  let room = onJoined(newRoom('r1'), { seat: 'white', full: true, state: state(), events: [move(1, 'black', 'f5', AFTER_F5)] });
  room = onJoined(room, { seat: 'white', full: false, state: state({ version: 2 }), events: [move(1, 'black', 'f5', AFTER_F5), move(2, 'white', 'd6', AFTER_D6)] });
  assert.deepEqual(room.events.map((e) => e.seq), [1, 2]);
  // full replaces what was held.
  room = onJoined(room, { seat: 'white', full: true, state: state({ version: 1 }), events: [move(1, 'black', 'f5', AFTER_F5)] });
  assert.deepEqual(room.events.map((e) => e.seq), [1]);
});

test('history replays moves, passes, undo and rematch', async (t) => {
  const cases = [
    { name: 'empty', events: [], want: [] },
    { name: 'two moves', events: [move(1, 'black', 'f5', 'A'), move(2, 'white', 'd6', 'B')], want: ['f5', 'd6'] },
    { name: 'pass', events: [move(1, 'black', 'f5', 'A'), { seq: 2, type: 'pass', seat: 'white', board: 'A' }, move(3, 'black', 'c3', 'C')], want: ['f5', 'pass', 'c3'] },
    { name: 'undo two plies', events: [move(1, 'black', 'f5', 'A'), move(2, 'white', 'd6', 'B'), move(3, 'black', 'c3', 'C'), { seq: 4, type: 'undo', plies: 2, by: 'black', board: 'A' }], want: ['f5'] },
    { name: 'undo more than there is', events: [move(1, 'black', 'f5', 'A'), { seq: 2, type: 'undo', plies: 5, board: START }], want: [] },
    { name: 'rematch starts over', events: [move(1, 'black', 'f5', 'A'), { seq: 2, type: 'resign', seat: 'white' }, { seq: 3, type: 'rematch', by: 'black' }, move(4, 'black', 'e6', 'E')], want: ['e6'] },
    { name: 'seat and switch change nothing', events: [move(1, 'black', 'f5', 'A'), { seq: 2, type: 'seat', seat: 'white', kind: 'bot', level: 3 }, { seq: 3, type: 'switch', by: 'black' }], want: ['f5'] },
  ];
  for (const tc of cases) {
    await t.test(tc.name, () => assert.deepEqual(history(tc.events).map((p) => p.move), tc.want));
  }
});

test('view shows the live board or a replayed ply', () => {
  const events = [move(1, 'black', 'f5', AFTER_F5, { flipped: ['e5'] }), move(2, 'white', 'd6', AFTER_D6)];
  let room = onJoined(newRoom('r1'), { seat: null, full: true, events, state: state({ version: 2, board: AFTER_D6, moves: ['f5', 'd6'], lastMove: 'd6', flipped: ['e5'] }) });
  let v = view(room);
  assert.equal(v.live, true);
  assert.equal(v.board, AFTER_D6);
  assert.equal(v.ply, 2);
  room = { ...room, cursor: 0 };
  v = view(room);
  assert.deepEqual([v.live, v.board, v.ply, v.lastMove], [false, START, 0, null]);
  room = { ...room, cursor: 1 };
  v = view(room);
  assert.deepEqual([v.board, v.ply, v.lastMove], [AFTER_F5, 1, 'f5']);
  assert.equal(view(newRoom('x')), null);
});

test('a rematch ends the replay and a shorter game clamps the cursor', () => {
  const events = [move(1, 'black', 'f5', AFTER_F5), move(2, 'white', 'd6', AFTER_D6)];
  let room = onJoined(newRoom('r1'), { seat: null, full: true, events, state: state({ version: 2, moves: ['f5', 'd6'] }) });
  room = { ...room, cursor: 1 };
  const undo = onEvent(room, { event: { seq: 3, type: 'undo', plies: 2, board: START }, state: state({ version: 3, moves: [] }) });
  assert.equal(undo.room.cursor, null);
  const rem = onEvent(room, { event: { seq: 3, type: 'rematch', by: 'black' }, state: state({ version: 3, moves: [], gameNo: 2 }) });
  assert.equal(rem.room.cursor, null);
});

test('thinking is kept only for the bot to move, and dropped by the next event', () => {
  const s = state({ toMove: 'white', seats: { black: { kind: 'human', name: 'Ann' }, white: { kind: 'bot', level: 5 } } });
  let room = onJoined(newRoom('r1'), { seat: 'black', full: true, events: [], state: s });
  const msg = { seat: 'white', depth: 9, best: 'c4', score: 2, nodes: 1000, nps: 5000, pv: ['c4', 'c3'], exact: false };
  room = onThinking(room, msg);
  assert.equal(room.thinking.depth, 9);
  assert.equal(onThinking(room, { ...msg, seat: 'black' }).thinking.depth, 9, 'black is not a bot and not to move');
  room = onEvent(room, { event: move(1, 'white', 'c4', START), state: state({ version: 1 }) }).room;
  assert.equal(room.thinking, null);
});

test('onViewers updates the count', () => {
  const room = onJoined(newRoom('r1'), { seat: null, full: true, events: [], state: state() });
  assert.equal(onViewers(room, { count: 7 }).state.viewers, 7);
  assert.equal(onViewers(newRoom('x'), { count: 7 }).state, null);
});

test('evalSeries', () => {
  const plies = history([
    move(1, 'black', 'f5', AFTER_F5),
    move(2, 'white', 'd6', AFTER_D6, { eval: -3 }),
    { seq: 3, type: 'pass', seat: 'black', board: AFTER_D6 },
  ]);
  const s = evalSeries('reversi', plies);
  assert.deepEqual(s.evals, [{ x: 2, y: -3 }]);
  assert.deepEqual(s.discs, [{ x: 0, y: 0 }, { x: 1, y: 3 }, { x: 2, y: 0 }, { x: 3, y: 0 }]);
  assert.deepEqual(evalSeries('gomoku', plies).discs, [], 'no disc series for gomoku');

  // The server's analysis fills the plies without a bot's score; the bot's own wins.
  const a = evalSeries('reversi', plies, { evals: [0, 2, -1, -1] });
  assert.deepEqual(a.evals, [{ x: 0, y: 0 }, { x: 1, y: 2 }, { x: 2, y: -3 }, { x: 3, y: -1 }]);
  // An analysis of another length (a stale one) is ignored.
  assert.deepEqual(evalSeries('reversi', plies, { evals: [0, 2] }).evals, [{ x: 2, y: -3 }]);
});

test('words for seats, results, turns and passes', async (t) => {
  await t.test('seatName', () => {
    assert.equal(seatName({ kind: 'open' }), 'Open seat');
    assert.equal(seatName({ kind: 'bot', level: 4 }), 'Bot (level 4)');
    assert.equal(seatName({ kind: 'human', name: 'Ann' }), 'Ann');
    assert.equal(seatName(undefined), 'Open seat');
  });
  const results = [
    { name: 'reversi win', s: state({ result: { winner: 'black', reason: 'no_moves', black: 40, white: 24, margin: 16 } }), want: 'Black wins 40–24 (by 16 discs).' },
    { name: 'reversi white win', s: state({ result: { winner: 'white', reason: 'no_moves', black: 20, white: 44, margin: 24 } }), want: 'White wins 44–20 (by 24 discs).' },
    { name: 'reversi draw', s: state({ result: { winner: null, reason: 'no_moves', black: 32, white: 32, margin: 0 } }), want: 'Draw, 32–32.' },
    { name: 'resign', s: state({ result: { winner: 'white', reason: 'resign', black: 10, white: 8, margin: 0 } }), want: 'White wins: Black resigned.' },
    { name: 'gomoku five', s: state({ game: 'gomoku', result: { winner: 'black', reason: 'five', black: 9, white: 8, margin: 0 } }), want: 'Black wins with five in a row.' },
    { name: 'gomoku full board', s: state({ game: 'gomoku', result: { winner: null, reason: 'board_full', black: 113, white: 112, margin: 0 } }), want: 'Draw: the board is full.' },
    { name: 'no result', s: state(), want: '' },
    { name: 'on time', s: state({ result: { winner: 'black', reason: 'timeout', black: 20, white: 30, margin: 0 } }), want: "Black wins on time: White's time ran out." },
    { name: 'draw by agreement, reversi', s: state({ result: { winner: null, reason: 'agreement', black: 20, white: 30, margin: 0 } }), want: 'Draw by agreement.' },
    { name: 'draw by agreement, gomoku', s: state({ game: 'gomoku', result: { winner: null, reason: 'agreement', black: 5, white: 5, margin: 0 } }), want: 'Draw by agreement.' },
    { name: 'the win claimed', s: state({ result: { winner: 'white', reason: 'abandoned', black: 2, white: 2, margin: 0 } }), want: 'White wins: Black left the game.' },
    { name: 'a draw called', s: state({ result: { winner: null, reason: 'abandoned', black: 2, white: 2, margin: 0 } }), want: 'Draw: called after a player left.' },
    { name: 'aborted', s: state({ result: { winner: null, reason: 'aborted', black: 2, white: 2, margin: 0 } }), want: 'Game aborted: no result.' },
  ];
  for (const tc of results) await t.test(tc.name, () => assert.equal(resultText(tc.s), tc.want));
  await t.test('turnText', () => {
    assert.equal(turnText(state(), 'black'), 'Your turn (black).');
    assert.equal(turnText(state(), 'white'), 'Black to move: Ann.');
    assert.equal(turnText(state({ seats: { black: { kind: 'open' }, white: { kind: 'human', name: 'B' } } }), null), 'Waiting for a player to take the black seat.');
    assert.equal(turnText(state({ toMove: 'white', seats: { black: { kind: 'open' }, white: { kind: 'bot', level: 2 } } }), null), 'White (bot) is thinking…');
  });
  await t.test('passNotice', () => {
    assert.equal(passNotice(state({ lastMove: 'pass', moves: ['f5', 'pass'] })), 'White had no legal move and passed.');
    assert.equal(passNotice(state({ lastMove: 'pass', moves: ['f5', 'd6', 'pass'] })), 'Black had no legal move and passed.');
    assert.equal(passNotice(state({ lastMove: 'f5', moves: ['f5'] })), '');
  });
  await t.test('formatScore', () => {
    assert.equal(formatScore('reversi', 4), '+4');
    assert.equal(formatScore('reversi', -2), '−2');
    assert.equal(formatScore('reversi', 0), '±0');
    assert.equal(formatScore('gomoku', 10000), 'forced win');
    assert.equal(formatScore('gomoku', -12000), 'forced loss');
    assert.equal(formatScore('gomoku', 350), '+350');
  });
});

test('canAct', async (t) => {
  const withBot = { black: { kind: 'human', name: 'Ann' }, white: { kind: 'bot', level: 3 } };
  const cases = [
    { name: 'spectator with an open seat', room: { seat: null, state: state({ seats: { black: { kind: 'open' }, white: { kind: 'bot', level: 1 } } }) }, want: { sit: true, move: false, undo: false } },
    { name: 'my turn', room: { seat: 'black', state: state() }, want: { move: true, undo: false, resign: true, switchSides: false } },
    { name: 'not my turn', room: { seat: 'white', state: state({ moves: ['f5'], toMove: 'black' }) }, want: { move: false, undo: true } },
    { name: 'replaying', room: { seat: 'black', cursor: 0, state: state() }, want: { move: false } },
    { name: 'against a bot', room: { seat: 'black', state: state({ seats: withBot, moves: ['f5', 'd6'] }) }, want: { switchSides: true, undo: true } },
    { name: 'my undo request waits', room: { seat: 'black', state: state({ moves: ['f5', 'd6'], undoRequest: { by: 'black' } }) }, want: { undo: false, answerUndo: false } },
    { name: 'opponent asks', room: { seat: 'white', state: state({ moves: ['f5', 'd6'], undoRequest: { by: 'black' } }) }, want: { answerUndo: true } },
    { name: 'finished', room: { seat: 'black', state: state({ status: 'finished', toMove: null, result: { winner: 'black', reason: 'resign', black: 2, white: 2, margin: 0 } }) }, want: { move: false, rematch: true, resign: false, undo: false, offerDraw: false, abort: false } },
    { name: 'a visitor may not sit in a finished game', room: { seat: null, state: state({ status: 'finished', seats: { black: { kind: 'human', name: 'A' }, white: { kind: 'open' } } }) }, want: { sit: false } },
    { name: 'between people: a draw offer, an abort before both moved', room: { seat: 'white', state: state({ moves: ['f5'], toMove: 'white' }) }, want: { offerDraw: true, abort: true, answerDraw: false } },
    { name: 'no abort once both have moved', room: { seat: 'black', state: state({ moves: ['f5', 'd6'] }) }, want: { abort: false, offerDraw: true } },
    { name: 'a pass is not a move', room: { seat: 'black', state: state({ moves: ['f5', 'pass'] }) }, want: { abort: true } },
    { name: 'no draw offers to a bot', room: { seat: 'black', state: state({ seats: withBot }) }, want: { offerDraw: false } },
    { name: 'my draw offer waits', room: { seat: 'black', state: state({ drawOffer: { by: 'black' } }) }, want: { offerDraw: false, answerDraw: false } },
    { name: 'the opponent offers a draw', room: { seat: 'white', state: state({ drawOffer: { by: 'black' } }) }, want: { offerDraw: true, answerDraw: true } },
    { name: 'a spectator answers nothing', room: { seat: null, state: state({ drawOffer: { by: 'black' } }) }, want: { answerDraw: false, offerDraw: false } },
    { name: 'my rematch offer waits', room: { seat: 'black', state: state({ status: 'finished', toMove: null, rematchOffer: { by: 'black' } }) }, want: { rematch: false, answerRematch: false } },
    { name: 'the opponent offers a rematch', room: { seat: 'white', state: state({ status: 'finished', toMove: null, rematchOffer: { by: 'black' } }) }, want: { rematch: true, answerRematch: true } },
    { name: 'after the rematch began', room: { seat: 'white', state: state({ status: 'finished', toMove: null, next: 'r2', rematchOffer: null }) }, want: { rematch: false, answerRematch: false } },
    { name: 'the creator waits for a friend', room: { seat: 'black', state: state({ status: 'waiting', seats: { black: { kind: 'human', name: 'A' }, white: { kind: 'open' } } }) }, want: { cancelInvite: true, stand: true } },
    { name: 'no invitation to cancel against a bot', room: { seat: 'black', state: state({ seats: withBot }) }, want: { cancelInvite: false } },
  ];
  for (const tc of cases) {
    await t.test(tc.name, () => {
      const got = canAct({ ...newRoom('r1'), cursor: null, ...tc.room });
      for (const [k, v] of Object.entries(tc.want)) assert.equal(got[k], v, k);
    });
  }
  assert.equal(canAct(newRoom('x')).move, false);
});

test('createStore notifies subscribers of changes only', () => {
  const s = createStore(1);
  const seen = [];
  const stop = s.subscribe((v) => seen.push(v));
  s.set(2);
  s.set(2);
  s.update((v) => v + 1);
  stop();
  s.set(9);
  assert.deepEqual(seen, [2, 3]);
  assert.equal(s.get(), 9);
  assert.equal(other('black'), 'white');
});

test('spectators leaves the seated people out of the viewer count', async (t) => {
  const two = { black: { kind: 'human', name: 'A' }, white: { kind: 'human', name: 'B' } };
  const bot = { black: { kind: 'human', name: 'A' }, white: { kind: 'bot', level: 3 } };
  const cases = [
    { name: 'two players and a spectator', s: { viewers: 3, seats: two }, want: 1 },
    { name: 'a player and a bot, alone', s: { viewers: 1, seats: bot }, want: 0 },
    { name: 'player offline', s: { viewers: 1, seats: two }, want: 0 },
    { name: 'bots only', s: { viewers: 4, seats: { black: { kind: 'bot', level: 1 }, white: { kind: 'bot', level: 2 } } }, want: 4 },
    { name: 'no count', s: { seats: two }, want: 0 },
  ];
  for (const tc of cases) await t.test(tc.name, () => assert.equal(spectators(tc.s), tc.want));
});

test('lastMoveText names the mover by parity, passes included', async (t) => {
  const cases = [
    { name: 'no move', s: state(), want: '' },
    { name: 'black', s: state({ moves: ['f5'], lastMove: 'f5' }), want: 'Black played f5.' },
    { name: 'white', s: state({ moves: ['f5', 'd6'], lastMove: 'd6' }), want: 'White played d6.' },
    { name: 'after a pass', s: state({ moves: ['f5', 'pass', 'c3'], lastMove: 'c3' }), want: 'Black played c3.' },
    { name: 'a pass itself', s: state({ moves: ['f5', 'pass'], lastMove: 'pass' }), want: '' },
  ];
  for (const tc of cases) await t.test(tc.name, () => assert.equal(lastMoveText(tc.s), tc.want));
});

test('spectators is the server\'s count when it sends one', () => {
  const two = { black: { kind: 'human', name: 'A' }, white: { kind: 'human', name: 'B' } };
  assert.equal(spectators({ viewers: 3, spectators: 2, seats: two }), 2);
  assert.equal(spectators({ viewers: 3, spectators: 0, seats: two }), 0);
});

test('onViewers takes the spectators too', () => {
  const room = onViewers({ ...newRoom('r1'), state: state() }, { count: 4, spectators: 2 });
  assert.equal(room.state.viewers, 4);
  assert.equal(room.state.spectators, 2);
});

test('onPresence: a player leaves and comes back', () => {
  const r0 = { ...newRoom('r1'), state: state({ presence: { black: true, white: true } }) };
  const r1 = onPresence(r0, { seat: 'white', present: false, since: '2026-11-22T18:00:20Z', claimAt: '2026-11-22T18:00:50Z' });
  assert.deepEqual(r1.state.presence, { black: true, white: false });
  assert.deepEqual(r1.state.gone, { white: '2026-11-22T18:00:20Z' });
  assert.equal(r1.state.claimAt, '2026-11-22T18:00:50Z');
  assert.equal(r0.state.presence.white, true, 'the room given is not changed');
  const r2 = onPresence(r1, { seat: 'white', present: true });
  assert.deepEqual(r2.state.presence, { black: true, white: true });
  assert.deepEqual(r2.state.gone, {});
  assert.equal(r2.state.claimAt, undefined);
  assert.equal(onPresence(newRoom('r1'), { seat: 'white', present: false }).state, null, 'nothing before a state');
});

test('a rematch in another room keeps this room\'s game', () => {
  const events = [move(1, 'black', 'f5', AFTER_F5), move(2, 'white', 'd6', AFTER_D6), { seq: 3, type: 'resign', time: '', seat: 'white' }, { seq: 4, type: 'rematch', time: '', by: 'black', next: 'r2' }];
  assert.equal(history(events).length, 2);
  const room = { ...newRoom('r1'), state: state({ moves: ['f5', 'd6'] }), events: events.slice(0, 3), lastSeq: 3, cursor: 1 };
  const after = onEvent(room, { event: events[3], state: state({ moves: ['f5', 'd6'], status: 'finished', next: 'r2' }) }).room;
  assert.equal(after.cursor, 1, 'the replay of the finished game goes on');
});

test('movesEach counts moves, not passes, of the side with fewer', () => {
  assert.equal(movesEach(state({ moves: [] })), 0);
  assert.equal(movesEach(state({ moves: ['f5'] })), 0);
  assert.equal(movesEach(state({ moves: ['f5', 'd6', 'c3'] })), 1);
  assert.equal(movesEach(state({ moves: ['f5', 'pass', 'c3', 'pass'] })), 0);
  assert.equal(movesEach(state({ moves: ['f5', 'd6', 'c3', 'c4'] })), 2);
});

test('plural', () => {
  assert.equal(plural(1, 'ply', 'plies'), '1 ply');
  assert.equal(plural(0, 'ply', 'plies'), '0 plies');
  assert.equal(plural(7, 'spectator', 'spectators'), '7 spectators');
});

test('a person who has just sat down is connected, whatever the state of the sit says', () => {
  const before = { ...newRoom('r1'), state: state({ status: 'waiting', seats: { black: { kind: 'human', name: 'Ann' }, white: { kind: 'open' } }, presence: { black: true, white: false } }), lastSeq: 1 };
  const sat = state({ version: 2, presence: { black: true, white: false }, gone: { white: '2026-11-22T18:00:00Z' }, claimAt: '2026-11-22T18:00:15Z' });
  const room = onEvent(before, { event: { seq: 2, type: 'seat', time: '', seat: 'white', kind: 'human', name: 'Bob' }, state: sat }).room;
  assert.deepEqual(room.state.presence, { black: true, white: true });
  assert.deepEqual(room.state.gone, {});
  assert.equal(room.state.claimAt, undefined);
  const bot = onEvent(before, { event: { seq: 2, type: 'seat', time: '', seat: 'white', kind: 'bot', level: 2 }, state: sat }).room;
  assert.equal(bot.state, sat, 'a bot is not a connection');
});
