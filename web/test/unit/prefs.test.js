import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { playerName, setPlayerName, seatGrant, saveSeatGrant } from '../../static/js/prefs.js';

/** MemoryStorage is the Web Storage interface over a Map, as node has no localStorage. */
class MemoryStorage {
  constructor() { this.m = new Map(); }
  getItem(k) { return this.m.has(k) ? this.m.get(k) : null; }
  setItem(k, v) { this.m.set(k, String(v)); }
  removeItem(k) { this.m.delete(k); }
}

beforeEach(() => {
  globalThis.localStorage = /** @type {any} */ (new MemoryStorage());
});

test('playerName makes up a guest name once and keeps it', () => {
  const first = playerName();
  assert.match(first, /^Guest \d{4}$/);
  assert.equal(playerName(), first);
  assert.equal(setPlayerName('  Ann\u0007 '), 'Ann');
  assert.equal(playerName(), 'Ann');
  assert.equal(setPlayerName('   '), '', 'an empty name is not saved');
  assert.equal(playerName(), 'Ann');
});

test('seat grants are kept per room and forgotten', () => {
  assert.equal(seatGrant('r1'), null);
  saveSeatGrant('r1', { token: 't1', seat: 'white' });
  assert.deepEqual(seatGrant('r1'), { token: 't1', seat: 'white' });
  assert.equal(seatGrant('r2'), null);
  saveSeatGrant('r1', null);
  assert.equal(seatGrant('r1'), null);
});

test('a damaged grant reads as none', () => {
  localStorage.setItem('boardhall.seat.r1', '{not json');
  assert.equal(seatGrant('r1'), null);
  localStorage.setItem('boardhall.seat.r1', JSON.stringify({ seat: 'black' }));
  assert.equal(seatGrant('r1'), null);
});
