import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { MESSAGES, errorText, ProtocolError } from '../../static/js/errors.js';
import { cleanName, NAME_MAX } from '../../static/js/prefs.js';
import { scaleY, reversiSpan } from '../../static/js/graph.js';
import { roomId } from '../../static/js/routes.js';

test('every error code in docs/protocol.md has words', () => {
  const doc = readFileSync(new URL('../../../docs/protocol.md', import.meta.url), 'utf8');
  const table = doc.slice(doc.indexOf('### Error codes'));
  const codes = [...table.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
  assert.ok(codes.length >= 20, `found ${codes.length} codes`);
  for (const code of codes) assert.ok(Object.hasOwn(MESSAGES, code), `no message for ${code}`);
});

test('errorText', async (t) => {
  await t.test('known code', () => assert.equal(errorText('not_your_turn', "it is black's turn"), 'Not your turn.'));
  await t.test('bad_request carries the server reason', () => assert.equal(errorText('bad_request', 'renju is played on 15x15'), 'The server did not understand that request: renju is played on 15x15'));
  await t.test('bad_request without a reason', () => assert.equal(errorText('bad_request'), 'The server did not understand that request.'));
  await t.test('a renju refusal is shown as the server says it', () => assert.equal(errorText('illegal_move', 'h8 is forbidden to black under renju: it would make a double three'), 'h8 is forbidden to black under renju: it would make a double three'));
  await t.test('an engine\'s words are not shown', () => assert.equal(errorText('illegal_move', 'a1: reversi: no discs to flip'), MESSAGES.illegal_move));
  await t.test('too_many_requests has words', () => assert.match(errorText('too_many_requests'), /Too many rooms/));
  await t.test('too_many_requests says which limit', () => assert.equal(errorText('too_many_requests', 'too many rooms created from your address; try again in a minute'), 'Too many rooms created from your address; try again in a minute.'));
  await t.test('unknown code keeps the server message', () => assert.equal(errorText('weird', 'boom'), 'Something went wrong (weird): boom'));
  await t.test('no code', () => assert.equal(errorText(''), 'Something went wrong (unknown error)'));
  await t.test('inherited names are not codes', () => assert.match(errorText('constructor'), /Something went wrong/));
  const e = new ProtocolError('stale', 'moved on');
  assert.equal(e.code, 'stale');
  assert.match(e.userText, /position changed/);
});

test('cleanName', async (t) => {
  const cases = [
    { name: 'trims', in: '  Ann  ', want: 'Ann' },
    { name: 'drops control characters', in: 'A\u0000n\u0007n\n', want: 'Ann' },
    { name: 'cuts to the limit', in: 'x'.repeat(40), want: 'x'.repeat(NAME_MAX) },
    { name: 'counts characters, not UTF-16 units', in: '😀'.repeat(30), want: '😀'.repeat(NAME_MAX) },
    { name: 'empty stays empty', in: '   ', want: '' },
  ];
  for (const tc of cases) await t.test(tc.name, () => assert.equal(cleanName(tc.in), tc.want));
});

test('scaleY keeps the graph inside its box', () => {
  assert.equal(scaleY('reversi', 0), 0);
  assert.equal(scaleY('reversi', 64), 1);
  assert.equal(scaleY('reversi', -100), -1);
  assert.equal(scaleY('gomoku', 10000), 1);
  assert.equal(scaleY('gomoku', -20000), -1);
  const g = scaleY('gomoku', 500);
  assert.ok(g > 0 && g < 1);
  assert.equal(scaleY('reversi', 8, 16), 0.5);
});

test('reversiSpan fits the largest difference between 8 and 64 discs', async (t) => {
  const cases = [
    { name: 'no points', pts: [], want: 8 },
    { name: 'quiet opening', pts: [{ y: 2 }, { y: -3 }], want: 8 },
    { name: 'a lead of 20', pts: [{ y: 4 }, { y: -20 }], want: 22 },
    { name: 'a wipe-out', pts: [{ y: 64 }], want: 64 },
  ];
  for (const tc of cases) await t.test(tc.name, () => assert.equal(reversiSpan(tc.pts), tc.want));
});

test('roomId reads the room from the path', async (t) => {
  const cases = [
    { path: '/r/q7dk2m9xta', want: 'q7dk2m9xta' },
    { path: '/r/q7dk2m9xta/', want: 'q7dk2m9xta' },
    { path: '/r/', want: null },
    { path: '/r/a/b', want: null },
    { path: '/', want: null },
    { path: '/r/%2e%2e', want: null },
  ];
  for (const tc of cases) await t.test(tc.path, () => assert.equal(roomId(tc.path), tc.want));
});
