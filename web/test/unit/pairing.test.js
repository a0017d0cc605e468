import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  IDLE, pairStarted, pairAnswered, pairRefused, pairCancelled, pairReceived, botChosen, pairingText, pairCommand,
} from '../../static/js/pairing.js';

const ASK = Object.freeze({ game: 'reversi', size: 8, rule: '', clock: { kind: 'fischer', base: 180, increment: 2 }, name: 'Ann', identity: 'k'.repeat(43) });

test('pairing: asked, acknowledged, paired: the token kept as the room\'s grant', () => {
  let st = pairStarted(IDLE, ASK);
  assert.equal(st.pairing.phase, 'asking');
  assert.deepEqual(st.effects, [{ type: 'send', msg: { type: 'pair', game: 'reversi', size: 8, rule: '', clock: ASK.clock, name: 'Ann', identity: ASK.identity } }]);
  assert.deepEqual(pairStarted(st.pairing, ASK).effects, [], 'a second click while asking sends nothing');
  st = pairAnswered(st.pairing);
  assert.equal(st.pairing.phase, 'waiting');
  st = pairReceived(st.pairing, { type: 'paired', id: 8, room: 'x2kd', seat: 'white', token: 'tok' });
  assert.equal(st.pairing, IDLE);
  assert.deepEqual(st.effects, [{ type: 'seat', room: 'x2kd', grant: { token: 'tok', seat: 'white' } }]);
});

test('pairing: nobody came: a bot of the level offered', () => {
  let st = pairAnswered(pairStarted(IDLE, ASK).pairing);
  st = pairReceived(st.pairing, { type: 'pair_expired', id: 8, botLevel: 4 });
  assert.deepEqual(st.pairing, { phase: 'expired', ask: ASK, botLevel: 4 });
  assert.match(pairingText(st.pairing, 'Reversi · 3+2'), /Play a bot of level 4 instead\?/);
  const chosen = botChosen(st.pairing);
  assert.equal(chosen.pairing, IDLE);
  assert.deepEqual(chosen.effects, [{ type: 'bot', ask: ASK, level: 4 }]);
  assert.deepEqual(pairCancelled(st.pairing), { pairing: IDLE, effects: [] }, 'not now sends nothing: the queue was left');
  assert.equal(pairReceived(pairAnswered(pairStarted(IDLE, ASK).pairing).pairing, { type: 'pair_expired' }).pairing.botLevel, 1, 'a missing level is 1');
});

test('pairing: cancelled while waiting sends unpair', () => {
  const waiting = pairAnswered(pairStarted(IDLE, ASK).pairing).pairing;
  assert.match(pairingText(waiting, 'Reversi · 3+2'), /Looking for an opponent for Reversi · 3\+2/);
  assert.deepEqual(pairCancelled(waiting), { pairing: IDLE, effects: [{ type: 'send', msg: { type: 'unpair' } }] });
  assert.deepEqual(pairCancelled(IDLE), { pairing: IDLE, effects: [] });
  assert.equal(pairingText(IDLE, 'x'), '');
  // A paired message after the cancel is not followed.
  assert.deepEqual(pairReceived(IDLE, { type: 'paired', room: 'r', seat: 'black', token: 't' }), { pairing: IDLE, effects: [] });
});

test('pairing: refused, or the link dropped: out of the queue, said in words', async (t) => {
  await t.test('refused', () => {
    const st = pairRefused(pairStarted(IDLE, ASK).pairing, { code: 'bad_request', userText: 'The server did not understand that request: size must be 15 or 19' });
    assert.equal(st.pairing, IDLE);
    assert.equal(st.effects[0].type, 'toast');
    assert.match(st.effects[0].text, /size must be 15 or 19/);
  });
  await t.test('an error later, without a room', () => {
    const waiting = pairAnswered(pairStarted(IDLE, ASK).pairing).pairing;
    const st = pairReceived(waiting, { type: 'error', id: 8, code: 'unavailable', message: 'store down' });
    assert.equal(st.pairing, IDLE);
    assert.equal(st.effects[0].code, 'unavailable');
  });
  await t.test('dropped', () => {
    const st = pairRefused(pairAnswered(pairStarted(IDLE, ASK).pairing).pairing, { code: 'disconnected', userText: '' });
    assert.match(st.effects[0].text, /no longer waiting/);
  });
  await t.test('idle stays idle', () => assert.deepEqual(pairRefused(IDLE, { code: 'x', userText: '' }), { pairing: IDLE, effects: [] }));
});

test('pairCommand leaves out a missing identity', () => {
  assert.equal('identity' in pairCommand({ ...ASK, identity: '' }), false);
});
