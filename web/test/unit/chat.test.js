import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  chatJoined, chatAdded, chatView, muteToggled, speaker, chatText, chatRefusal, CHAT_MAX, CHAT_KEEP, QUICK_MESSAGES,
} from '../../static/js/chat.js';
import { newSession, joinStarted, answered, received, refused, chatSent, authorMuted, unmutedAll, spectatorsHidden } from '../../static/js/session.js';
import { ProtocolError } from '../../static/js/errors.js';
import { startBoard } from '../../static/js/notation.js';

/** line is a chat line; a spectator's unless seat is given. */
function line(id, author, text, seat = null, name = seat ? 'Ann' : 'Eve') {
  return { id, time: '2026-11-22T18:00:40Z', seat, name, author, text };
}

const ANN = line('1', 'a1', 'Good luck', 'black');
const BOB = line('2', 'b2', 'You too', 'white', 'Bob');
const EVE = line('3', 'e3', 'nice opening');
const MAL = line('4', 'm4', '<b>spam</b>');

test('chatJoined keeps the lines, oldest first, and drops what is not a line', () => {
  assert.deepEqual(chatJoined([ANN, { id: 5 }, null, BOB]), [ANN, BOB]);
  assert.deepEqual(chatJoined(undefined), []);
  const many = Array.from({ length: CHAT_KEEP + 5 }, (_, i) => line(String(i), 'x', 'hi'));
  assert.equal(chatJoined(many).length, CHAT_KEEP);
  assert.equal(chatJoined(many)[0].id, '5');
});

test('chatAdded appends once: a line already there (a join that raced it) is not doubled', () => {
  const lines = [ANN];
  assert.deepEqual(chatAdded(lines, BOB), [ANN, BOB]);
  assert.equal(chatAdded(lines, ANN), lines);
  assert.equal(chatAdded(lines, { text: 'no id' }), lines);
});

test('chatView puts the players and the spectators apart and leaves out the muted', async (t) => {
  const lines = [ANN, EVE, BOB, MAL];
  await t.test('nobody muted', () => {
    const v = chatView(lines, []);
    assert.deepEqual(v.players, [ANN, BOB]);
    assert.deepEqual(v.spectators, [EVE, MAL]);
    assert.equal(v.hidden, 0);
  });
  await t.test('a spectator muted', () => {
    const v = chatView(lines, ['m4']);
    assert.deepEqual(v.spectators, [EVE]);
    assert.equal(v.hidden, 1);
  });
  await t.test('the opponent muted', () => {
    const v = chatView(lines, ['b2']);
    assert.deepEqual(v.players, [ANN]);
    assert.equal(v.hidden, 1);
  });
});

test('muteToggled mutes, and unmutes the muted', () => {
  assert.deepEqual(muteToggled([], 'e3'), ['e3']);
  assert.deepEqual(muteToggled(['e3', 'b2'], 'e3'), ['b2']);
});

test('speaker names a player by seat and a spectator by the name given', () => {
  assert.equal(speaker(ANN), 'Ann (black)');
  assert.equal(speaker(EVE), 'Eve');
  assert.equal(speaker(line('9', 'z', 'x', null, '')), 'Spectator');
});

test('chatText checks a line before it is sent', async (t) => {
  const cases = [
    { name: 'trims', in: '  gg  ', want: { text: 'gg' } },
    { name: 'control characters become spaces', in: 'a\u0007b', want: { text: 'a b' } },
    { name: 'markup stays text', in: '<img src=x>', want: { text: '<img src=x>' } },
    { name: 'the limit is in characters', in: '😀'.repeat(CHAT_MAX), want: { text: '😀'.repeat(CHAT_MAX) } },
    { name: 'over the limit', in: 'x'.repeat(CHAT_MAX + 1), want: { error: `A line is at most ${CHAT_MAX} characters (this one has ${CHAT_MAX + 1}).` } },
    { name: 'empty', in: '   ', want: { error: 'Write something first.' } },
  ];
  for (const tc of cases) await t.test(tc.name, () => assert.deepEqual(chatText(tc.in), tc.want));
});

test('chatRefusal says why in words', () => {
  assert.match(chatRefusal('rate_limited', '', 'x'), /one line a second/);
  assert.equal(chatRefusal('bad_request', 'a chat line is at most 140 characters', 'x'), 'That line was not sent: a chat line is at most 140 characters.');
  assert.match(chatRefusal('bad_request', '', 'x'), /1 to 140 characters/);
  assert.equal(chatRefusal('not_joined', '', 'fallback'), 'fallback');
});

test('the quick messages', () => {
  assert.deepEqual([...QUICK_MESSAGES], ['Hi', 'Good luck', 'Good game', 'Thanks']);
});

/** joinedAs is a session of room r1 joined with seat and chat lines. */
function joinedAs(seat, chat, opts = {}) {
  const s = joinStarted(newSession('r1', opts), null).session;
  const st = {
    id: 'r1', game: 'reversi', size: 8, rule: '', version: 1, gameNo: 1, status: 'playing', board: startBoard('reversi', 8),
    toMove: 'black', legal: [], lastMove: null, flipped: null, counts: { black: 2, white: 2 }, moves: [],
    seats: { black: { kind: 'human', name: 'Ann' }, white: { kind: 'human', name: 'Bob' } }, result: null, winLine: null, undoRequest: null, viewers: 3,
  };
  return answered(s, { type: 'join' }, { type: 'joined', id: 1, room: 'r1', seat, full: true, state: st, events: [], chat }).session;
}

test('session: joined.chat is the chat, chat messages add to it', () => {
  let s = joinedAs(null, [ANN]);
  assert.deepEqual(s.chat, [ANN]);
  s = received(s, { type: 'chat', room: 'r1', line: EVE }).session;
  assert.deepEqual(s.chat, [ANN, EVE]);
  assert.equal(received(s, { type: 'chat', room: 'r1', line: EVE }).session, s, 'a line seen twice changes nothing');
  assert.equal(received(s, { type: 'chat', room: 'other', line: BOB }).session, s, 'another room\'s line is not ours');
  s = joinedAs(null, [ANN, BOB]);
  assert.deepEqual(s.chat, [ANN, BOB], 'a join again replaces the lines');
});

test('session: chatSent sends a player\'s line as the seat, a spectator\'s with a name', async (t) => {
  await t.test('player', () => {
    const { effects } = chatSent(joinedAs('black', []), ' Good luck ', 'ignored');
    assert.deepEqual(effects, [{ type: 'send', msg: { type: 'chat', text: 'Good luck' } }]);
  });
  await t.test('spectator with a name', () => {
    const { effects } = chatSent(joinedAs(null, []), 'nice', 'Eve');
    assert.deepEqual(effects, [{ type: 'send', msg: { type: 'chat', text: 'nice', name: 'Eve' } }]);
  });
  await t.test('spectator without a name is asked for one', () => {
    const { effects } = chatSent(joinedAs(null, []), 'nice', '');
    assert.equal(effects.length, 1);
    assert.equal(effects[0].type, 'toast');
    assert.match(effects[0].text, /Give a name/);
  });
  await t.test('too long', () => {
    const { effects } = chatSent(joinedAs('white', []), 'x'.repeat(141), '');
    assert.equal(effects[0].type, 'toast');
  });
});

test('session: a refused line is explained in words', () => {
  const s = joinedAs('black', []);
  const { effects } = refused(s, { type: 'chat', text: 'hi' }, new ProtocolError('rate_limited', 'one chat line a second, please'));
  assert.equal(effects.length, 1);
  assert.equal(effects[0].code, 'rate_limited');
  assert.match(effects[0].text, /one line a second/);
});

test('session: muting and hiding are kept in the browser', () => {
  let s = joinedAs('black', [ANN, EVE], { muted: ['x'], hideSpectators: false });
  let st = authorMuted(s, 'e3');
  assert.deepEqual(st.session.muted, ['x', 'e3']);
  assert.deepEqual(st.effects, [{ type: 'keepChat', muted: ['x', 'e3'], hideSpectators: false }]);
  s = st.session;
  st = spectatorsHidden(s, true);
  assert.equal(st.session.hideSpectators, true);
  assert.deepEqual(st.effects, [{ type: 'keepChat', muted: ['x', 'e3'], hideSpectators: true }]);
  assert.deepEqual(spectatorsHidden(st.session, true).effects, [], 'already hidden');
  st = unmutedAll(st.session);
  assert.deepEqual(st.session.muted, []);
  assert.deepEqual(st.effects, [{ type: 'keepChat', muted: [], hideSpectators: true }]);
});
