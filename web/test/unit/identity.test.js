import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newIdentityKey, base64url, isIdentityKey, KEY_PATTERN, KEY_BYTES } from '../../static/js/identity.js';
import { myGame, myGames } from '../../static/js/mygames.js';
import { isMyGames, MY_GAMES } from '../../static/js/routes.js';
import { sitAsked, newSession } from '../../static/js/session.js';

test('newIdentityKey: 32 random bytes from getRandomValues, base64url, 43 characters', async (t) => {
  await t.test('from crypto', () => {
    const a = newIdentityKey();
    const b = newIdentityKey();
    assert.match(a, KEY_PATTERN);
    assert.equal(a.length, 43);
    assert.notEqual(a, b);
    assert.ok(isIdentityKey(a));
  });
  await t.test('from the bytes given', () => {
    let asked = 0;
    const key = newIdentityKey((bytes) => {
      asked = bytes.length;
      return bytes.fill(0xff);
    });
    assert.equal(asked, KEY_BYTES);
    assert.equal(key, '_'.repeat(42) + '8');
  });
  await t.test('base64url has no +, / or padding', () => {
    assert.equal(base64url(new Uint8Array([0xfb, 0xff])), '-_8');
    assert.equal(base64url(new Uint8Array([0])), 'AA');
  });
});

test('isIdentityKey: what the server accepts', async (t) => {
  const cases = [
    { in: 'a'.repeat(43), want: true },
    { in: 'a'.repeat(32), want: true },
    { in: 'a'.repeat(31), want: false },
    { in: 'a'.repeat(129), want: false },
    { in: 'a'.repeat(42) + '=', want: false },
    { in: 'a'.repeat(42) + '+', want: false },
    { in: null, want: false },
    { in: 42, want: false },
  ];
  for (const tc of cases) await t.test(String(tc.in), () => assert.equal(isIdentityKey(tc.in), tc.want));
});

test('sit carries the identity key', () => {
  const { effects } = sitAsked(newSession('r1'), 'white', 'Bob', 'k'.repeat(43));
  assert.deepEqual(effects, [{ type: 'send', msg: { type: 'sit', seat: 'white', name: 'Bob', identity: 'k'.repeat(43) } }]);
  assert.deepEqual(sitAsked(newSession('r1'), 'white', 'Bob').effects[0], { type: 'send', msg: { type: 'sit', seat: 'white', name: 'Bob' } });
});

test('the My games route', () => {
  assert.equal(isMyGames('/', '?view=my-games'), true);
  assert.equal(isMyGames('/', ''), false);
  assert.equal(isMyGames('/r/x', '?view=my-games'), false);
  assert.ok(MY_GAMES.startsWith('/?'));
});

/** line is a my-games line: Ann black against Bob. */
function line(over) {
  return {
    id: 'q7', game: 'reversi', size: 8, rule: '', status: 'finished', mySeat: 'black', plies: 60,
    seats: { black: { kind: 'human', name: 'Ann' }, white: { kind: 'human', name: 'Bob' } }, updatedAt: '2026-11-22T18:00:05Z', ...over,
  };
}

test('myGame says how a game stands from this player\'s seat', async (t) => {
  const cases = [
    { name: 'won on discs', g: line({ result: { winner: 'black', reason: 'no_moves', black: 40, white: 24 } }), outcome: 'Won 40–24', tone: 'won' },
    { name: 'lost as white, scores from my side', g: line({ mySeat: 'white', result: { winner: 'black', reason: 'no_moves', black: 40, white: 24 } }), outcome: 'Lost 24–40', tone: 'lost' },
    { name: 'lost on time', g: line({ result: { winner: 'white', reason: 'timeout', black: 10, white: 12 } }), outcome: 'Lost 10–12 on time', tone: 'lost' },
    { name: 'drawn by agreement', g: line({ result: { winner: null, reason: 'agreement', black: 30, white: 30 } }), outcome: 'Drawn 30–30 by agreement', tone: 'drawn' },
    { name: 'aborted', g: line({ result: { winner: null, reason: 'aborted', black: 2, white: 2 } }), outcome: 'Aborted', tone: 'aborted' },
    { name: 'gomoku five, no disc score', g: line({ game: 'gomoku', size: 15, rule: 'renju', result: { winner: 'black', reason: 'five', black: 9, white: 8 } }), outcome: 'Won with five in a row', tone: 'won' },
    { name: 'under way', g: line({ status: 'playing', plies: 1, result: null }), outcome: 'Under way, 1 ply', tone: 'playing' },
    { name: 'waiting', g: line({ status: 'waiting', plies: 0, result: null, seats: { black: { kind: 'human', name: 'Ann' }, white: { kind: 'open' } } }), outcome: 'Waiting for an opponent', tone: 'waiting' },
  ];
  for (const tc of cases) {
    await t.test(tc.name, () => {
      const g = myGame(tc.g);
      assert.equal(g.outcome, tc.outcome);
      assert.equal(g.tone, tc.tone);
    });
  }
  const g = myGame(line({ mySeat: 'white', clock: { kind: 'fischer', base: 180, increment: 2 }, result: null, status: 'playing' }));
  assert.equal(g.opponent, 'Ann');
  assert.equal(g.url, '/r/q7');
  assert.equal(g.title, 'Reversi · 3+2');
  assert.equal(myGame(line({ seats: { black: { kind: 'human', name: 'Ann' }, white: { kind: 'bot', level: 4 } } })).opponent, 'Bot (level 4)');
});

test('myGames puts the games under way apart from the finished, in the order sent', () => {
  const { running, finished } = myGames([line({ id: 'a' }), line({ id: 'b', status: 'playing' }), null, line({ id: 'c', status: 'waiting' }), line({ id: 'd' })]);
  assert.deepEqual(running.map((g) => g.id), ['b', 'c']);
  assert.deepEqual(finished.map((g) => g.id), ['a', 'd']);
  assert.deepEqual(myGames(undefined), { running: [], finished: [] });
});
