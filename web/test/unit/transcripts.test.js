import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { formatTranscript, parseTranscript } from '../../static/js/notation.js';

// The same fixtures are read by the engines' parsers in web/notation_test.go.
const { cases } = JSON.parse(readFileSync(new URL('../../testdata/transcripts.json', import.meta.url), 'utf8'));

test('the client writes and reads the shared transcripts', async (t) => {
  assert.ok(cases.length >= 5);
  for (const tc of cases) {
    await t.test(tc.name, () => {
      const moves = parseTranscript(tc.game, tc.size, tc.text);
      if (tc.moves) assert.deepEqual(moves, tc.moves);
      assert.equal(formatTranscript(tc.game, moves), tc.text);
      if (tc.full) assert.ok(moves.length >= 60, `a full game has at least 60 plies, got ${moves.length}`);
    });
  }
});
