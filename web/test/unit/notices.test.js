import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventNotice } from '../../static/js/notices.js';

const NOBODY = { me: null, was: null, sitting: null };

test('eventNotice', async (t) => {
  const cases = [
    { name: 'undo', ev: { type: 'undo', plies: 3 }, who: NOBODY, want: '3 plies were taken back.' },
    { name: 'resign, heard by a spectator', ev: { type: 'resign', seat: 'black' }, who: NOBODY, want: 'Black resigned.' },
    { name: 'a person sits down', ev: { type: 'seat', seat: 'black', kind: 'human', name: 'Ann' }, who: NOBODY, want: 'Ann sat down as black.' },
    { name: 'this tab sat down by its token', ev: { type: 'seat', seat: 'black', kind: 'human', name: 'Ann' }, who: { me: 'black', was: null, sitting: null }, want: '' },
    { name: 'this tab already held the seat', ev: { type: 'seat', seat: 'black', kind: 'human', name: 'Ann' }, who: { me: null, was: 'black', sitting: null }, want: '' },
    { name: 'this tab asked for the seat', ev: { type: 'seat', seat: 'white', kind: 'human', name: 'Bob' }, who: { me: null, was: null, sitting: 'white' }, want: '' },
    { name: 'a seat opened', ev: { type: 'seat', seat: 'white', kind: 'open' }, who: NOBODY, want: '' },
    { name: 'a move says nothing', ev: { type: 'move', seat: 'black', move: 'f5' }, who: NOBODY, want: '' },
    { name: 'unknown types say nothing', ev: { type: 'draw_offer', seat: 'black' }, who: NOBODY, want: '' },
    { name: 'nor do names of Object.prototype', ev: { type: 'constructor' }, who: NOBODY, want: '' },
  ];
  for (const tc of cases) {
    await t.test(tc.name, () => assert.equal(eventNotice({ seq: 1, time: '', ...tc.ev }, tc.who), tc.want));
  }
});
