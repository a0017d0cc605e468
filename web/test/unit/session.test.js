import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  newSession, linkChanged, linkOpened, bannerText, joinStarted, sitAsked, movePlayed, commandRefused, answered, refused,
  received, grantRead, gamesListed, maxLevel, showPly, left, DEFAULT_MAX_LEVEL, REPLAY_HINT, inviteCancelled, claimChoice,
} from '../../static/js/session.js';
import { ProtocolError } from '../../static/js/errors.js';
import { startBoard } from '../../static/js/notation.js';

const START = startBoard('reversi', 8);
const ANN = { kind: 'human', name: 'Ann' };
const OPEN = { kind: 'open' };
const BOT = { kind: 'bot', level: 3 };

/** state builds a Reversi room state of room r1 with overrides. */
function state(over = {}) {
  return {
    id: 'r1', game: 'reversi', size: 8, rule: '', version: 1, gameNo: 1, status: 'waiting',
    board: START, toMove: 'black', legal: ['d3', 'c4', 'f5', 'e6'], lastMove: null, flipped: null,
    counts: { black: 2, white: 2 }, moves: [], seats: { black: ANN, white: OPEN },
    result: null, winLine: null, undoRequest: null, viewers: 1, ...over,
  };
}

/** freeze freezes a value deeply, so that a function that changes its input throws. */
function freeze(v) {
  if (v && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const k of Object.keys(v)) freeze(v[k]);
  }
  return v;
}

/** err is an error answer as room.js hands it over. */
function err(code) {
  return new ProtocolError(code);
}

/** toast is the effect of an error in words. */
function errorToast(code) {
  return { type: 'toast', text: err(code).userText, tone: 'error', code };
}

/** info is the effect of a notice. */
function info(text) {
  return { type: 'toast', text, tone: 'info', code: '' };
}

/** joinedMsg is the answer to join. */
function joinedMsg(over = {}) {
  return { type: 'joined', id: 1, room: 'r1', seat: null, full: true, state: state(), events: [{ seq: 1, type: 'seat', seat: 'black', kind: 'human', name: 'Ann' }], ...over };
}

/**
 * joinedSession is a session that has joined r1 with the given answer (no
 * seat chosen at creation, so that no sit follows), all frozen.
 */
function joinedSession(answer = {}, over = {}) {
  const s = joinStarted({ ...newSession('r1'), ...over }, over.grant ?? null).session;
  return freeze(answered(s, { type: 'join' }, joinedMsg(answer)).session);
}

/** eventMsg is an event message for r1 with the state after it. */
function eventMsg(event, over = {}) {
  return { type: 'event', room: 'r1', event: { time: '2026-11-22T18:00:00Z', ...event }, state: state({ version: event.seq, ...over }) };
}

test('a new session is connecting, holds no seat and takes none by itself', () => {
  const s = newSession('r1');
  assert.equal(s.room.id, 'r1');
  assert.equal(s.room.state, null);
  assert.deepEqual(s.link, { status: 'connecting', wasOpen: false, attempt: 0, waitMs: 0 });
  assert.deepEqual([s.grant, s.joining, s.sitOn, s.sitting, s.moving, s.gone, s.claim], [null, null, null, null, false, false, null]);
  assert.equal(newSession('r1', { sitOn: 'white' }).sitOn, 'white', "the creator's colour");
});

test('the link: the banner while reconnecting, a join on every open, "Reconnected" after the first', () => {
  let s = freeze(newSession('r1'));
  assert.equal(bannerText(s), null);
  s = freeze(linkChanged(s, 'reconnecting', { attempt: 1, waitMs: 400 }));
  assert.equal(bannerText(s), 'Cannot reach the server. Reconnecting in 1 s… (attempt 1)', 'never less than a second');
  s = freeze(linkChanged(s, 'open'));
  assert.equal(bannerText(s), null);
  let step = linkOpened(s);
  assert.deepEqual(step.effects, [{ type: 'join' }], 'the first open just joins');
  s = freeze(step.session);
  assert.equal(s.link.wasOpen, true);
  s = freeze(linkChanged(s, 'reconnecting', { attempt: 3, waitMs: 2600 }));
  assert.equal(bannerText(s), 'Connection lost. Reconnecting in 3 s… (attempt 3)');
  assert.equal(s.link.status, 'reconnecting');
  s = freeze(linkChanged(s, 'open'));
  step = linkOpened(s);
  assert.deepEqual(step.effects, [info('Reconnected.'), { type: 'join' }]);
});

test('joinStarted sends the kept token and the last seq held, one join at a time', async (t) => {
  const grant = { token: 't1', seat: 'white' };
  const cases = [
    { name: 'first visit', session: newSession('r1'), kept: null, want: { type: 'join' } },
    { name: 'with a kept seat', session: newSession('r1'), kept: grant, want: { type: 'join', token: 't1' } },
    { name: 'after a drop', session: { ...newSession('r1'), room: { ...newSession('r1').room, lastSeq: 14 } }, kept: grant, want: { type: 'join', token: 't1', since: 14 } },
    { name: 'with the identity key', session: newSession('r1'), kept: null, identity: 'k'.repeat(43), want: { type: 'join', identity: 'k'.repeat(43) } },
  ];
  for (const tc of cases) {
    await t.test(tc.name, () => {
      const step = joinStarted(freeze(tc.session), tc.kept, tc.identity);
      assert.deepEqual(step.effects, [{ type: 'send', msg: tc.want }]);
      assert.deepEqual(step.session.joining, { grant: tc.kept });
      assert.equal(step.session.grant, tc.kept, 'the session holds the grant the browser keeps');
      const again = joinStarted(freeze(step.session), tc.kept);
      assert.deepEqual(again.effects, [], 'a join is on its way');
      assert.equal(again.session, step.session);
    });
  }
});

test('joined takes the room, and the kept grant follows the seat the server names', async (t) => {
  const grant = { token: 't1', seat: 'white' };
  const cases = [
    { name: 'spectator', kept: null, seat: null, wantSeat: null, wantGrant: null, effects: [] },
    { name: 'seat given back', kept: grant, seat: 'white', wantSeat: 'white', wantGrant: grant, effects: [] },
    { name: 'the token seats no one any more', kept: grant, seat: null, wantSeat: null, wantGrant: null, effects: [{ type: 'keepGrant', grant: null }] },
    {
      name: 'the seat was switched meanwhile', kept: grant, seat: 'black', wantSeat: 'black', wantGrant: { token: 't1', seat: 'black' },
      effects: [{ type: 'keepGrant', grant: { token: 't1', seat: 'black' } }],
    },
  ];
  for (const tc of cases) {
    await t.test(tc.name, () => {
      const s = freeze(joinStarted(newSession('r1'), tc.kept).session);
      const step = answered(s, { type: 'join' }, joinedMsg({ seat: tc.seat }));
      assert.equal(step.session.room.seat, tc.wantSeat);
      assert.equal(step.session.room.lastSeq, 1);
      assert.equal(step.session.room.state.version, 1);
      assert.deepEqual(step.session.grant, tc.wantGrant);
      assert.equal(step.session.joining, null);
      assert.deepEqual(step.effects, tc.effects);
    });
  }
});

test('opening a link seats no one; the creator takes the colour they chose, once', async (t) => {
  const both = { black: ANN, white: { kind: 'human', name: 'Bob' } };
  const cases = [
    { name: 'a visitor only watches', sitOn: null, answer: {}, want: [] },
    { name: 'a visitor to a room with both seats open only watches', sitOn: null, answer: { state: state({ seats: { black: OPEN, white: OPEN } }) }, want: [] },
    { name: 'the creator chose white', sitOn: 'white', answer: {}, want: [{ type: 'sit', seat: 'white' }] },
    { name: 'the creator chose black', sitOn: 'black', answer: { state: state({ seats: { black: OPEN, white: BOT } }) }, want: [{ type: 'sit', seat: 'black' }] },
    { name: 'the chosen seat was taken meanwhile', sitOn: 'white', answer: { state: state({ seats: both }) }, want: [] },
    { name: 'finished', sitOn: 'white', answer: { state: state({ status: 'finished', toMove: null }) }, want: [] },
    { name: 'already seated by a token', sitOn: 'white', answer: { seat: 'black' }, want: [] },
  ];
  for (const tc of cases) {
    await t.test(tc.name, () => {
      const s = freeze(joinStarted(newSession('r1', { sitOn: tc.sitOn }), null).session);
      const step = answered(s, { type: 'join' }, joinedMsg(tc.answer));
      assert.deepEqual(step.effects, tc.want);
      assert.equal(step.session.sitOn, null, 'the first answer decides');
      // A later join (after a reconnect, or a gap) never sits by itself.
      const again = answered(freeze(joinStarted(step.session, null).session), { type: 'join' }, joinedMsg({ ...tc.answer, full: false }));
      assert.deepEqual(again.effects, []);
    });
  }
});

test('a refused join: a bad token is forgotten and the room watched, a missing room ends the page', async (t) => {
  const kept = { token: 'old', seat: 'black' };
  const cases = [
    {
      name: 'bad token', code: 'bad_token', grant: null, gone: false,
      effects: [{ type: 'keepGrant', grant: null }, errorToast('bad_token'), { type: 'join' }],
    },
    { name: 'room not found', code: 'room_not_found', grant: kept, gone: true, effects: [{ type: 'notFound' }] },
    { name: 'dropped: the next open joins', code: 'disconnected', grant: kept, gone: false, effects: [] },
    { name: 'anything else is said', code: 'busy', grant: kept, gone: false, effects: [errorToast('busy')] },
  ];
  for (const tc of cases) {
    await t.test(tc.name, () => {
      const s = freeze(joinStarted(newSession('r1'), kept).session);
      const step = refused(s, { type: 'join', token: 'old' }, err(tc.code));
      assert.equal(step.session.joining, null, 'another join may start');
      assert.deepEqual(step.session.grant, tc.grant);
      assert.equal(step.session.gone, tc.gone);
      assert.deepEqual(step.effects, tc.effects);
    });
  }
});

test('sitting: the seat asked for, then held with its grant kept', () => {
  let s = joinedSession();
  let step = sitAsked(s, 'white', 'Bob');
  assert.deepEqual(step.effects, [{ type: 'send', msg: { type: 'sit', seat: 'white', name: 'Bob' } }]);
  assert.equal(step.session.sitting, 'white');
  s = freeze(step.session);
  step = answered(s, { type: 'sit', seat: 'white', name: 'Bob' }, { type: 'seated', id: 2, room: 'r1', seat: 'white', token: 'tok' });
  assert.equal(step.session.sitting, null);
  assert.equal(step.session.room.seat, 'white');
  assert.deepEqual(step.session.grant, { token: 'tok', seat: 'white' });
  assert.deepEqual(step.effects, [{ type: 'keepGrant', grant: { token: 'tok', seat: 'white' } }]);

  // Someone else was quicker.
  step = refused(s, { type: 'sit', seat: 'white', name: 'Bob' }, err('seat_taken'));
  assert.equal(step.session.sitting, null);
  assert.equal(step.session.room.seat, null);
  assert.deepEqual(step.effects, [errorToast('seat_taken')]);
});

test('movePlayed sends one move at a time, at the version shown, and not from the replay', () => {
  assert.deepEqual(movePlayed(freeze(newSession('r1')), 'f5').effects, [], 'no state yet');
  const s = joinedSession({ seat: 'black', state: state({ version: 6, status: 'playing' }) });
  const step = movePlayed(s, 'f5');
  assert.deepEqual(step.effects, [{ type: 'send', msg: { type: 'move', move: 'f5', at: 6 } }]);
  assert.equal(step.session.moving, true);
  const moving = freeze(step.session);
  assert.deepEqual(movePlayed(moving, 'd3').effects, [], 'a double click sends nothing more');
  assert.equal(answered(moving, { type: 'move' }, { type: 'ack', seq: 7 }).session.moving, false);
  const no = refused(moving, { type: 'move' }, err('illegal_move'));
  assert.equal(no.session.moving, false);
  assert.deepEqual(no.effects, [errorToast('illegal_move')]);

  const replaying = freeze(showPly(s, 0));
  assert.equal(replaying.room.cursor, 0);
  assert.deepEqual(movePlayed(replaying, 'f5'), { session: replaying, effects: [info(REPLAY_HINT)] });
  assert.equal(showPly(replaying, null).room.cursor, null);
});

test('a refused command is said in words; a room no longer joined is joined again', async (t) => {
  const s = joinedSession({ seat: 'black' });
  const cases = [
    { name: 'not your turn', code: 'not_your_turn', want: [errorToast('not_your_turn')] },
    { name: 'dropped', code: 'disconnected', want: [errorToast('disconnected')] },
    { name: 'not joined', code: 'not_joined', want: [errorToast('not_joined'), { type: 'join' }] },
  ];
  for (const tc of cases) {
    await t.test(tc.name, () => {
      const step = refused(s, { type: 'undo' }, err(tc.code));
      assert.equal(step.session, s);
      assert.deepEqual(step.effects, tc.want);
      assert.deepEqual(commandRefused(s, err(tc.code)).effects, tc.want);
    });
  }
  await t.test('nothing is said once the page has left the room', () => {
    assert.deepEqual(refused(freeze(left(s)), { type: 'undo' }, err('not_your_turn')).effects, []);
    assert.deepEqual(received(freeze(left(s)), { type: 'error', code: 'rate_limited', message: 'slow down' }).effects, []);
  });
  await t.test('an answer that changes nothing', () => {
    assert.deepEqual(answered(s, { type: 'undo' }, { type: 'ack', seq: 3 }), { session: s, effects: [] });
  });
});

test('received: events for this room, errors that name no room, nothing else', async (t) => {
  const s = joinedSession({ seat: 'black' });
  await t.test('another room', () => {
    const step = received(s, { ...eventMsg({ seq: 2, type: 'move', seat: 'black', move: 'f5', board: START }), room: 'r2' });
    assert.deepEqual(step, { session: s, effects: [] });
    assert.deepEqual(received(s, { type: 'error', room: 'r2', code: 'busy' }).effects, []);
  });
  await t.test('an error that names no room', () => {
    assert.deepEqual(received(s, { type: 'error', code: 'rate_limited', message: 'slow down' }).effects, [errorToast('rate_limited')]);
  });
  await t.test('an unknown type', () => {
    assert.deepEqual(received(s, { type: 'presence', room: 'r1' }), { session: s, effects: [] });
  });
  await t.test('the next event', () => {
    const step = received(s, eventMsg({ seq: 2, type: 'move', seat: 'black', move: 'f5', board: START }, { moves: ['f5'] }));
    assert.equal(step.session.room.lastSeq, 2);
    assert.deepEqual(step.session.room.state.moves, ['f5']);
    assert.deepEqual(step.effects, []);
    // The same event again (a resend) changes nothing, not even the object.
    assert.equal(received(freeze(step.session), eventMsg({ seq: 2, type: 'move', seat: 'black', move: 'f5', board: START })).session, step.session);
  });
  await t.test('a gap joins again with since', () => {
    const step = received(s, eventMsg({ seq: 5, type: 'move', seat: 'black', move: 'f5', board: START }));
    assert.equal(step.session.room.state.version, 5, 'the state is whole and taken');
    assert.equal(step.session.room.lastSeq, 1);
    assert.deepEqual(step.effects, [{ type: 'join' }]);
    assert.deepEqual(joinStarted(freeze(step.session), null).effects, [{ type: 'send', msg: { type: 'join', since: 1 } }]);
  });
  await t.test('resync: the whole stored log joined again, with the seat kept, and said', () => {
    const later = received(s, eventMsg({ seq: 2, type: 'move', seat: 'black', move: 'f5', board: START }, { moves: ['f5'] })).session;
    const step = received(freeze(later), { type: 'resync', room: 'r1', message: 'the stored game changed after a server failure' });
    assert.equal(step.session.room.lastSeq, 0, 'the log held is forgotten');
    assert.deepEqual(step.effects, [info('The stored game changed after a server failure.'), { type: 'join' }]);
    const grant = { token: 't0k', seat: 'black' };
    assert.deepEqual(joinStarted(freeze(step.session), grant).effects, [{ type: 'send', msg: { type: 'join', token: 't0k' } }], 'no since: the whole log');
    const answer = answered(joinStarted(freeze(step.session), grant).session, { type: 'join' },
      joinedMsg({ seat: 'black', full: true, state: state({ version: 1 }) })).session;
    assert.equal(answer.room.lastSeq, 1, 'the stored log replaces what was shown');
    assert.equal(answer.room.events.length, 1);
    assert.equal(received(s, { type: 'resync', room: 'r2', message: 'x' }).session, s, 'another room: nothing');
  });
  await t.test('thinking and viewers', () => {
    const bot = joinedSession({ seat: 'black', state: state({ status: 'playing', toMove: 'white', seats: { black: ANN, white: BOT } }) });
    const msg = { type: 'thinking', room: 'r1', seat: 'white', depth: 7, best: 'c4', score: 1, nodes: 10, nps: 100, pv: ['c4'], exact: false };
    assert.equal(received(bot, msg).session.room.thinking.depth, 7);
    assert.equal(received(s, { ...msg, seat: 'black' }).session, s, 'not a bot: dropped, nothing drawn again');
    assert.equal(received(s, { type: 'viewers', room: 'r1', count: 4 }).session.room.state.viewers, 4);
  });
});

test('the seat follows a switch and a stand, and so does the kept grant', () => {
  const grant = { token: 't1', seat: 'black' };
  const s = joinedSession({ seat: 'black' }, { grant });
  let step = received(s, eventMsg({ seq: 2, type: 'switch', by: 'black' }));
  assert.equal(step.session.room.seat, 'white');
  assert.deepEqual(step.session.grant, { token: 't1', seat: 'white' });
  assert.deepEqual(step.effects, [{ type: 'keepGrant', grant: { token: 't1', seat: 'white' } }]);

  step = received(s, eventMsg({ seq: 2, type: 'seat', seat: 'black', kind: 'open' }));
  assert.equal(step.session.room.seat, null);
  assert.equal(step.session.grant, null);
  assert.deepEqual(step.effects, [{ type: 'keepGrant', grant: null }]);

  // A bot put in the other seat changes nothing of mine.
  step = received(s, eventMsg({ seq: 2, type: 'seat', seat: 'white', kind: 'bot', level: 2 }));
  assert.equal(step.session.room.seat, 'black');
  assert.deepEqual(step.effects, []);

  // A spectator follows nothing; a switch with no grant kept keeps none.
  assert.equal(received(joinedSession(), eventMsg({ seq: 2, type: 'switch', by: 'black' })).session.room.seat, null);
  const noGrant = received(joinedSession({ seat: 'black' }), eventMsg({ seq: 2, type: 'switch', by: 'black' }));
  assert.equal(noGrant.session.room.seat, 'white');
  assert.deepEqual(noGrant.effects, []);
});

test('events the board does not show are said, to the right people', async (t) => {
  const cases = [
    { name: 'my request declined', seat: 'black', ev: { type: 'undo_decline', seat: 'white' }, want: ['Your take-back request was declined.'] },
    { name: 'I declined', seat: 'white', ev: { type: 'undo_decline', seat: 'white' }, want: [] },
    { name: 'a spectator hears no decline', seat: null, ev: { type: 'undo_decline', seat: 'white' }, want: [] },
    { name: 'undo of one ply', seat: null, ev: { type: 'undo', plies: 1, by: 'black', board: START }, want: ['One ply was taken back.'] },
    { name: 'undo of two plies', seat: 'black', ev: { type: 'undo', plies: 2, by: 'black', board: START }, want: ['2 plies were taken back.'] },
    { name: 'the other resigned', seat: 'black', ev: { type: 'resign', seat: 'white' }, want: ['White resigned.'] },
    { name: 'I resigned', seat: 'white', ev: { type: 'resign', seat: 'white' }, want: [] },
    { name: 'rematch', seat: 'white', ev: { type: 'rematch', by: 'black' }, want: ['A new game has started.'] },
    { name: 'someone sat down', seat: 'black', ev: { type: 'seat', seat: 'white', kind: 'human', name: 'Bob' }, want: ['Bob sat down as white.'] },
    { name: 'a bot sat down', seat: 'black', ev: { type: 'seat', seat: 'white', kind: 'bot', level: 2 }, want: [] },
    { name: 'a move', seat: 'black', ev: { type: 'move', seat: 'black', move: 'f5', board: START }, want: [] },
  ];
  for (const tc of cases) {
    await t.test(tc.name, () => {
      const step = received(joinedSession({ seat: tc.seat }), eventMsg({ seq: 2, ...tc.ev }));
      assert.deepEqual(step.effects.filter((e) => e.type === 'toast'), tc.want.map(info));
    });
  }
  await t.test('my own sit is not news, even when its event comes before the answer', () => {
    const sitting = freeze(sitAsked(joinedSession(), 'white', 'Bob').session);
    const step = received(sitting, eventMsg({ seq: 2, type: 'seat', seat: 'white', kind: 'human', name: 'Bob' }));
    assert.deepEqual(step.effects, []);
  });
  await t.test('after a gap the notice still comes, before the join', () => {
    const step = received(joinedSession({ seat: 'white' }), eventMsg({ seq: 4, type: 'rematch', by: 'black' }));
    assert.deepEqual(step.effects, [info('A new game has started.'), { type: 'join' }]);
  });
});

test('grantRead follows what another tab left in the browser', () => {
  const s = joinedSession({ seat: 'black' }, { grant: { token: 't1', seat: 'black' } });
  assert.equal(grantRead(s, { token: 't1', seat: 'black' }), s, 'the same grant changes nothing');
  assert.equal(grantRead(s, null).grant, null);
  assert.deepEqual(grantRead(s, { token: 't2', seat: 'white' }).grant, { token: 't2', seat: 'white' });
  // A switch then moves the token the browser keeps: none.
  const step = received(freeze(grantRead(s, null)), eventMsg({ seq: 2, type: 'switch', by: 'black' }));
  assert.deepEqual(step.effects, []);
});

test('maxLevel follows GET /api/games for the room\'s game', () => {
  const games = [{ game: 'reversi', maxLevel: 10 }, { game: 'gomoku', maxLevel: 6 }];
  assert.equal(maxLevel(freeze(gamesListed(newSession('r1'), games))), DEFAULT_MAX_LEVEL, 'no state yet');
  const gomoku = joinedSession({ state: state({ game: 'gomoku', size: 15 }) });
  assert.equal(maxLevel(gomoku), DEFAULT_MAX_LEVEL, 'before the answer');
  assert.equal(maxLevel(gamesListed(gomoku, games)), 6);
  assert.equal(maxLevel(gamesListed(gomoku, [{ game: 'reversi', maxLevel: 10 }])), DEFAULT_MAX_LEVEL);
});

test('left: the page stops following the room', () => {
  const s = joinedSession();
  assert.equal(left(s).gone, true);
  assert.equal(s.gone, false);
});

/** at is a time of a step: mono on the page's monotonic clock, wall on its wall clock. */
function at(mono, wall = 0) {
  return { mono, wall };
}

const BOB = { kind: 'human', name: 'Bob' };
const PEOPLE = { black: ANN, white: BOB };
const CLOCK = {
  kind: 'fischer', base: 60, increment: 0, black: 60000, white: 55000, running: 'white',
  asOf: '2026-11-22T18:00:10Z', deadline: '2026-11-22T18:01:05Z', firstMove: false,
};

test('a new state notes when it arrived, for the clocks; other messages do not', () => {
  let s = freeze(joinStarted(newSession('r1'), null).session);
  s = freeze(answered(s, { type: 'join' }, joinedMsg({ state: state({ clock: CLOCK }) }), at(500)).session);
  assert.equal(s.stateAt, 500);
  s = freeze(received(s, eventMsg({ seq: 2, type: 'move', seat: 'black', move: 'f5', board: START }, { clock: CLOCK }), at(1700)).session);
  assert.equal(s.stateAt, 1700);
  s = freeze(received(s, { type: 'viewers', room: 'r1', count: 3, spectators: 1 }, at(2000)).session);
  assert.equal(s.stateAt, 1700, 'a viewer count carries no clock');
  assert.equal(s.room.state.spectators, 1);
  s = freeze(received(s, { type: 'presence', room: 'r1', seat: 'white', present: false, since: '2026-11-22T18:00:20Z', claimAt: '2026-11-22T18:00:35Z' }, at(2500)).session);
  assert.equal(s.stateAt, 1700, 'nor does presence');
  assert.equal(received(s, eventMsg({ seq: 2, type: 'move', seat: 'black', move: 'f5', board: START }), at(9000)).session.stateAt, 1700, 'an event held already changes nothing');
});

test('presence: the opponent is told who left and who came back, the one who left is not', async (t) => {
  const base = { seats: PEOPLE, status: 'playing', presence: { black: true, white: true } };
  const gone = { type: 'presence', room: 'r1', seat: 'white', present: false, since: '2026-11-22T18:00:20Z', claimAt: '2026-11-22T18:00:50Z' };
  const back = { type: 'presence', room: 'r1', seat: 'white', present: true };
  await t.test('black hears that white left, then came back', () => {
    let s = joinedSession({ seat: 'black', state: state(base) });
    let step = received(s, gone, at(1000));
    assert.deepEqual(step.effects, [info('Bob (white) left the game.')]);
    s = freeze(step.session);
    assert.equal(s.room.state.presence.white, false);
    step = received(s, back, at(2000));
    assert.deepEqual(step.effects, [info('Bob is back.')]);
    assert.equal(step.session.room.state.presence.white, true);
    assert.equal(step.session.claim, null);
  });
  await t.test('a spectator hears it too', () => {
    assert.deepEqual(received(joinedSession({ state: state(base) }), gone, at(0)).effects, [info('Bob (white) left the game.')]);
  });
  await t.test('another tab of the player who left hears nothing', () => {
    assert.deepEqual(received(joinedSession({ seat: 'white', state: state(base) }), gone, at(0)).effects, []);
  });
  await t.test('nothing is said twice, nor after the game', () => {
    const s = freeze(received(joinedSession({ seat: 'black', state: state(base) }), gone, at(0)).session);
    assert.deepEqual(received(s, gone, at(10)).effects, []);
    const over = joinedSession({ seat: 'black', state: state({ ...base, status: 'finished', toMove: null }) });
    assert.deepEqual(received(over, gone, at(0)).effects, []);
  });
  await t.test('a bot seat has no presence worth a word', () => {
    const s = joinedSession({ seat: 'black', state: state({ ...base, seats: { black: ANN, white: BOT } }) });
    assert.deepEqual(received(s, gone, at(0)).effects, []);
  });
});

test('claimChoice: the grace period counted on the page\'s own clock, then the choices', async (t) => {
  const base = { seats: PEOPLE, status: 'playing', presence: { black: true, white: true }, moves: ['f5'] };
  const gone = { type: 'presence', room: 'r1', seat: 'white', present: false, since: '2026-11-22T18:00:20Z', claimAt: '2026-11-22T18:00:50Z' };
  await t.test('from a presence message: claimAt less since, from its arrival', () => {
    const s = freeze(received(joinedSession({ seat: 'black', state: state(base) }), gone, at(1000, 99e12)).session);
    assert.deepEqual(s.claim, { at: '2026-11-22T18:00:50Z', from: 31000 }, 'the wall clock plays no part');
    assert.deepEqual(claimChoice(s, 1000), { gone: 'white', name: 'Bob', waitMs: 30000, abort: true });
    assert.equal(claimChoice(s, 30999).waitMs, 1);
    assert.equal(claimChoice(s, 31000).waitMs, 0);
    assert.equal(claimChoice(s, 99999).waitMs, 0);
  });
  await t.test('from a joined state with a clock: claimAt less asOf', () => {
    const st = state({ ...base, presence: { black: true, white: false }, gone: { white: '2026-11-22T18:00:00Z' }, claimAt: '2026-11-22T18:00:15Z', clock: CLOCK });
    const s0 = freeze(joinStarted(newSession('r1'), { token: 't', seat: 'black' }).session);
    const s = answered(s0, { type: 'join' }, joinedMsg({ seat: 'black', state: st }), at(200, 0)).session;
    assert.deepEqual(s.claim, { at: '2026-11-22T18:00:15Z', from: 5200 });
  });
  await t.test('from a joined state without a clock: claimAt against the wall clock', () => {
    const st = state({ ...base, presence: { black: true, white: false }, claimAt: '2026-11-22T18:00:15Z' });
    const s0 = freeze(joinStarted(newSession('r1'), null).session);
    const s = answered(s0, { type: 'join' }, joinedMsg({ seat: 'black', state: st }), at(200, Date.parse('2026-11-22T18:00:05Z'))).session;
    assert.deepEqual(s.claim, { at: '2026-11-22T18:00:15Z', from: 10200 });
    const late = answered(s0, { type: 'join' }, joinedMsg({ seat: 'black', state: st }), at(200, Date.parse('2026-11-22T18:09:00Z'))).session;
    assert.equal(late.claim.from, 200, 'past: at once');
  });
  await t.test('a later state with the same claimAt keeps the time placed', () => {
    let s = freeze(received(joinedSession({ seat: 'black', state: state(base) }), gone, at(1000)).session);
    s = received(s, eventMsg({ seq: 2, type: 'move', seat: 'black', move: 'f5', board: START }, { ...base, presence: { black: true, white: false }, claimAt: gone.claimAt }), at(5000)).session;
    assert.equal(s.claim.from, 31000);
  });
  await t.test('abort only while fewer than two moves each', () => {
    const st = state({ ...base, moves: ['f5', 'd6', 'c3', 'c4'] });
    const s = freeze(received(joinedSession({ seat: 'black', state: st }), gone, at(0)).session);
    assert.equal(claimChoice(s, 40000).abort, false);
  });
  await t.test('nothing to claim', () => {
    const s = freeze(received(joinedSession({ seat: 'black', state: state(base) }), gone, at(0)).session);
    assert.equal(claimChoice(joinedSession({ seat: 'black', state: state(base) }), 0), null, 'the opponent is here');
    assert.equal(claimChoice({ ...s, room: { ...s.room, seat: null } }, 0), null, 'a spectator claims nothing');
    const over = received(joinedSession({ seat: 'black', state: state({ ...base, status: 'finished' }) }), gone, at(0)).session;
    assert.equal(claimChoice(over, 60000), null, 'the game is over');
    const bot = joinedSession({ seat: 'black', state: state({ ...base, seats: { black: ANN, white: BOT }, presence: { black: true, white: false } }) });
    assert.equal(claimChoice(bot, 0), null, 'a bot never leaves');
  });
});

test('a rematch takes both players to the next game with the same token; a spectator gets the link', async (t) => {
  const over = { seats: PEOPLE, status: 'finished', toMove: null, result: { winner: 'black', reason: 'resign', black: 2, white: 2, margin: 0 } };
  const ev = { seq: 2, type: 'rematch', by: 'white', next: 'r2' };
  await t.test('black follows as white', () => {
    const s = joinedSession({ seat: 'black', state: state(over) }, { grant: { token: 'tb', seat: 'black' } });
    const step = received(s, eventMsg(ev, { ...over, next: 'r2' }));
    assert.deepEqual(step.effects, [info('Rematch agreed: on to the next game.'), { type: 'follow', room: 'r2', grant: { token: 'tb', seat: 'white' } }]);
    assert.equal(step.session.grant.seat, 'black', 'this room keeps its grant: the finished game stays at its address');
  });
  await t.test('a spectator stays', () => {
    const step = received(joinedSession({ state: state(over) }), eventMsg(ev, { ...over, next: 'r2' }));
    assert.deepEqual(step.effects, [info('The players started a rematch: follow “Next game” to watch it.')]);
  });
  await t.test('an older log\'s rematch in the same room stays', () => {
    const s = joinedSession({ seat: 'black', state: state(over) }, { grant: { token: 'tb', seat: 'black' } });
    const step = received(s, eventMsg({ seq: 2, type: 'rematch', by: 'white' }));
    assert.deepEqual(step.effects, [info('A new game has started.')]);
  });
  await t.test('a rematch read in a joined log is not followed', () => {
    const s0 = freeze(joinStarted(newSession('r1'), { token: 'tb', seat: 'black' }).session);
    const step = answered(s0, { type: 'join' }, joinedMsg({ seat: 'black', state: state({ ...over, next: 'r2' }), events: [{ seq: 1, type: 'rematch', by: 'white', next: 'r2' }] }));
    assert.deepEqual(step.effects, []);
  });
});

test('the creator cancels the invitation: stand, then say so and leave', () => {
  const s = joinedSession({ seat: 'black' }, { grant: { token: 't', seat: 'black' } });
  let step = inviteCancelled(s);
  assert.deepEqual(step.effects, [{ type: 'send', msg: { type: 'stand' } }]);
  const cancelling = freeze(step.session);
  assert.deepEqual(inviteCancelled(cancelling).effects, [], 'one at a time');
  step = answered(cancelling, { type: 'stand' }, { type: 'ack', seq: 2 });
  assert.deepEqual(step.effects, [info('Invitation cancelled: you left the room.'), { type: 'leave' }]);
  assert.equal(step.session.cancelling, false);
  // A plain stand stays in the room.
  assert.deepEqual(answered(s, { type: 'stand' }, { type: 'ack', seq: 2 }).effects, []);
  // A refused stand is said, and the page stays.
  step = refused(cancelling, { type: 'stand' }, err('unavailable'));
  assert.deepEqual(step.effects, [errorToast('unavailable')]);
  assert.equal(step.session.cancelling, false);
  assert.deepEqual(inviteCancelled(joinedSession()).effects, [], 'a spectator has nothing to cancel');
});
