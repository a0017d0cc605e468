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
    { name: 'unknown types say nothing', ev: { type: 'chat', seat: 'black' }, who: NOBODY, want: '' },
    { name: 'a draw offer, heard by the opponent', ev: { type: 'draw_offer', seat: 'black' }, who: { me: 'white', was: 'white', sitting: null }, want: 'Black offers a draw.' },
    { name: 'my own draw offer says nothing', ev: { type: 'draw_offer', seat: 'black' }, who: { me: 'black', was: 'black', sitting: null }, want: '' },
    { name: 'my draw offer declined', ev: { type: 'draw_decline', seat: 'white' }, who: { me: 'black', was: 'black', sitting: null }, want: 'Your draw offer was declined.' },
    { name: 'a draw agreed', ev: { type: 'draw', seat: 'white' }, who: NOBODY, want: 'The game is drawn by agreement.' },
    { name: 'a rematch offer', ev: { type: 'rematch_offer', seat: 'white' }, who: { me: 'black', was: 'black', sitting: null }, want: 'White offers a rematch.' },
    { name: 'my rematch offer declined', ev: { type: 'rematch_decline', seat: 'white' }, who: { me: 'black', was: 'black', sitting: null }, want: 'Your rematch offer was declined.' },
    { name: 'a rematch in the same room (older logs)', ev: { type: 'rematch', by: 'black' }, who: NOBODY, want: 'A new game has started.' },
    { name: 'a rematch in a new room, for a player', ev: { type: 'rematch', by: 'black', next: 'r2' }, who: { me: 'black', was: 'black', sitting: null }, want: 'Rematch agreed: on to the next game.' },
    { name: 'a rematch in a new room, for a spectator', ev: { type: 'rematch', by: 'black', next: 'r2' }, who: NOBODY, want: 'The players started a rematch: follow “Next game” to watch it.' },
    { name: 'a flag', ev: { type: 'flag', seat: 'white' }, who: NOBODY, want: "White's time ran out." },
    { name: 'an abort', ev: { type: 'abort', seat: 'white' }, who: NOBODY, want: 'The game was aborted: no result.' },
    { name: 'a claim of the win', ev: { type: 'claim', seat: 'black', kind: 'win' }, who: NOBODY, want: 'Black claimed the win after the opponent left.' },
    { name: 'my claim of a draw', ev: { type: 'claim', seat: 'black', kind: 'draw' }, who: { me: 'black', was: 'black', sitting: null }, want: 'You called the game a draw after the opponent left.' },
    { name: 'a claim named claim', ev: { type: 'claim', seat: 'black', claim: 'abort' }, who: NOBODY, want: 'Black aborted the game after the opponent left.' },
    { name: 'nor do names of Object.prototype', ev: { type: 'constructor' }, who: NOBODY, want: '' },
  ];
  for (const tc of cases) {
    await t.test(tc.name, () => assert.equal(eventNotice({ seq: 1, time: '', ...tc.ev }, tc.who), tc.want));
  }
});
