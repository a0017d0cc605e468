import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  cellName, parseCell, parseBoard, startBoard, countStones, formatTranscript, parseTranscript, moveRows, PASS,
} from '../../static/js/notation.js';

test('cellName and parseCell', async (t) => {
  const cases = [
    { name: 'reversi a1 is top-left', game: 'reversi', size: 8, cell: 'a1', r: 0, c: 0 },
    { name: 'reversi h8 is bottom-right', game: 'reversi', size: 8, cell: 'h8', r: 7, c: 7 },
    { name: 'reversi f5', game: 'reversi', size: 8, cell: 'f5', r: 4, c: 5 },
    { name: 'gomoku a1 is bottom-left', game: 'gomoku', size: 15, cell: 'a1', r: 14, c: 0 },
    { name: 'gomoku h8 is the centre of 15x15', game: 'gomoku', size: 15, cell: 'h8', r: 7, c: 7 },
    { name: 'gomoku o15 is top-right', game: 'gomoku', size: 15, cell: 'o15', r: 0, c: 14 },
    { name: 'gomoku j10 on 19x19', game: 'gomoku', size: 19, cell: 'j10', r: 9, c: 9 },
    { name: 'gomoku s19 corner', game: 'gomoku', size: 19, cell: 's19', r: 0, c: 18 },
  ];
  for (const tc of cases) {
    await t.test(tc.name, () => {
      assert.deepEqual(parseCell(tc.game, tc.size, tc.cell), { r: tc.r, c: tc.c });
      assert.equal(cellName(tc.game, tc.size, tc.r, tc.c), tc.cell);
      assert.deepEqual(parseCell(tc.game, tc.size, tc.cell.toUpperCase()), { r: tc.r, c: tc.c });
    });
  }
});

test('parseCell refuses bad names', async (t) => {
  const cases = [
    { name: 'off the reversi board', game: 'reversi', size: 8, cell: 'i1' },
    { name: 'row 9 on reversi', game: 'reversi', size: 8, cell: 'a9' },
    { name: 'row 0', game: 'reversi', size: 8, cell: 'a0' },
    { name: 'p on 15x15', game: 'gomoku', size: 15, cell: 'p1' },
    { name: 'row 16 on 15x15', game: 'gomoku', size: 15, cell: 'a16' },
    { name: 'leading zero', game: 'gomoku', size: 15, cell: 'a01' },
    { name: 'empty', game: 'gomoku', size: 15, cell: '' },
    { name: 'pass is not a cell', game: 'reversi', size: 8, cell: 'pass' },
    { name: 'three digits', game: 'gomoku', size: 19, cell: 'a100' },
  ];
  for (const tc of cases) {
    await t.test(tc.name, () => assert.throws(() => parseCell(tc.game, tc.size, tc.cell), /notation:/));
  }
  assert.throws(() => cellName('reversi', 8, 8, 0), RangeError);
});

test('every cell name round-trips on every board', () => {
  for (const [game, size] of [['reversi', 8], ['gomoku', 15], ['gomoku', 19]]) {
    const seen = new Set();
    for (let r = 0; r < size; r++) {
      for (let c = 0; c < size; c++) {
        const name = cellName(game, size, r, c);
        assert.ok(!seen.has(name), `${name} named twice`);
        seen.add(name);
        assert.deepEqual(parseCell(game, size, name), { r, c });
      }
    }
    assert.equal(seen.size, size * size);
  }
});

test('startBoard matches the protocol layout', () => {
  const b = startBoard('reversi', 8);
  assert.equal(b.length, 64);
  // d4 and e5 white, d5 and e4 black; a1 is index 0, row by row from the top.
  assert.equal(b[3 * 8 + 3], 'O');
  assert.equal(b[4 * 8 + 4], 'O');
  assert.equal(b[4 * 8 + 3], 'X');
  assert.equal(b[3 * 8 + 4], 'X');
  assert.deepEqual(countStones(b), { black: 2, white: 2 });
  assert.equal(startBoard('gomoku', 15), '-'.repeat(225));
});

test('parseBoard', async (t) => {
  await t.test('good', () => assert.equal(parseBoard(startBoard('reversi', 8), 8).length, 64));
  await t.test('short', () => assert.throws(() => parseBoard('XO-', 8), /64 cells/));
  await t.test('bad character', () => assert.throws(() => parseBoard('X'.repeat(63) + 'x', 8), /"x" at index 63/));
  await t.test('not a string', () => assert.throws(() => parseBoard(null, 8), /must have/));
});

test('transcripts round-trip and match the engines', async (t) => {
  const cases = [
    { name: 'reversi opening', game: 'reversi', size: 8, moves: ['f5', 'd6', 'c3', 'd3', 'c4'], text: 'f5d6c3d3c4' },
    { name: 'reversi with a pass', game: 'reversi', size: 8, moves: ['f5', PASS, 'c3'], text: 'f5pac3' },
    { name: 'gomoku two-digit rows', game: 'gomoku', size: 15, moves: ['h8', 'i9', 'j10', 'a11', 'b2'], text: 'h8i9j10a11b2' },
    { name: 'empty game', game: 'gomoku', size: 15, moves: [], text: '' },
    { name: 'gomoku 19x19', game: 'gomoku', size: 19, moves: ['j10', 's19', 'a1'], text: 'j10s19a1' },
  ];
  for (const tc of cases) {
    await t.test(tc.name, () => {
      assert.equal(formatTranscript(tc.game, tc.moves), tc.text);
      assert.deepEqual(parseTranscript(tc.game, tc.size, tc.text), tc.moves);
    });
  }
});

test('parseTranscript reads hand-written records', async (t) => {
  const cases = [
    { name: 'spaces and capitals', game: 'reversi', size: 8, text: 'F5 D6 C3', want: ['f5', 'd6', 'c3'] },
    { name: 'commas and hyphens', game: 'reversi', size: 8, text: 'f5-d6,c3', want: ['f5', 'd6', 'c3'] },
    { name: 'long pass', game: 'reversi', size: 8, text: 'f5 pass c3', want: ['f5', PASS, 'c3'] },
    { name: 'gomoku separated', game: 'gomoku', size: 15, text: 'h8 i9, j10', want: ['h8', 'i9', 'j10'] },
  ];
  for (const tc of cases) {
    await t.test(tc.name, () => assert.deepEqual(parseTranscript(tc.game, tc.size, tc.text), tc.want));
  }
  await t.test('off-board point', () => assert.throws(() => parseTranscript('gomoku', 15, 'h8a16'), /off a 15x15/));
  await t.test('garbage', () => assert.throws(() => parseTranscript('reversi', 8, 'f5zz'), /move 2/));
  await t.test('pass in gomoku', () => assert.throws(() => formatTranscript('gomoku', ['h8', PASS]), /only Reversi/));
});

test('parseTranscript never throws anything but a notation error (fuzz)', () => {
  // A deterministic pseudo-random generator, so a failure is reproducible.
  let seed = 12345;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCS0123456789 ,-pa';
  for (let i = 0; i < 3000; i++) {
    const len = Math.floor(rnd() * 20);
    let s = '';
    for (let j = 0; j < len; j++) s += alphabet[Math.floor(rnd() * alphabet.length)];
    for (const [game, size] of [['reversi', 8], ['gomoku', 15], ['gomoku', 19]]) {
      let moves;
      try {
        moves = parseTranscript(game, size, s);
      } catch (e) {
        assert.match(String(e.message), /^notation:/, `input ${JSON.stringify(s)}`);
        continue;
      }
      // What parses formats back to something that parses the same.
      assert.deepEqual(parseTranscript(game, size, formatTranscript(game, moves)), moves, `input ${JSON.stringify(s)}`);
    }
  }
});

test('moveRows numbers the plies in pairs', () => {
  assert.deepEqual(moveRows([]), []);
  assert.deepEqual(moveRows(['f5', 'd6', 'c3']), [
    { no: 1, plies: [{ ply: 0, move: 'f5' }, { ply: 1, move: 'd6' }] },
    { no: 2, plies: [{ ply: 2, move: 'c3' }] },
  ]);
});
