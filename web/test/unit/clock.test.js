import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  face, formatClock, lowTime, nextChange, describeControl, customControl, DEFAULT_BOUNDS, TENTHS_BELOW_MS,
} from '../../static/js/clock.js';

/** clock builds a 3+2 state clock with white's clock running, as of asOf. */
function clock(over = {}) {
  return {
    kind: 'fischer', base: 180, increment: 2, black: 172400, white: 180000, running: 'white',
    asOf: '2026-11-22T18:00:09.412Z', deadline: '2026-11-22T18:03:09.412Z', firstMove: false, ...over,
  };
}

test('face counts the running side down from the moment the state arrived', async (t) => {
  const c = clock();
  // The state arrived at 1000 on the page's monotonic clock.
  const cases = [
    { name: 'at arrival', now: 1000, want: { black: 172400, white: 180000 } },
    { name: 'a second later', now: 2000, want: { black: 172400, white: 179000 } },
    { name: 'ninety seconds later', now: 91_000, want: { black: 172400, white: 90000 } },
    { name: 'never below zero', now: 500_000, want: { black: 172400, white: 0 } },
    { name: 'a clock that seems to run backwards is held', now: 900, want: { black: 172400, white: 180000 } },
  ];
  for (const tc of cases) {
    await t.test(tc.name, () => {
      const f = face(c, 1000, tc.now);
      assert.deepEqual({ black: f.black, white: f.white }, tc.want);
      assert.equal(f.running, 'white');
      assert.equal(f.firstMove, null);
    });
  }
});

test('face ignores the wall clock: only the two monotonic times count', () => {
  // The same state read at the same monotonic times gives the same face,
  // whatever Date.now() says (the server's asOf may be far from it).
  const c = clock({ asOf: '2001-01-01T00:00:00Z', deadline: '2001-01-01T00:03:00Z' });
  assert.equal(face(c, 50, 1050).white, 179000);
});

test('face stands still when no clock runs', () => {
  const f = face(clock({ running: null, deadline: null }), 0, 60_000);
  assert.deepEqual(f, { black: 172400, white: 180000, running: null, firstMove: null });
});

test('a first move has its own limit and costs nothing from the clock', () => {
  const c = clock({ black: 180000, running: 'black', firstMove: true, deadline: '2026-11-22T18:00:39.412Z' });
  let f = face(c, 0, 0);
  assert.equal(f.firstMove, 30000, 'deadline minus asOf');
  assert.equal(f.black, 180000);
  f = face(c, 0, 25_500);
  assert.equal(f.firstMove, 4500);
  assert.equal(f.black, 180000, 'the clock stands still');
  assert.equal(face(c, 0, 40_000).firstMove, 0);
});

test('formatClock', async (t) => {
  const cases = [
    { ms: 180000, want: '3:00' },
    { ms: 179001, want: '2:59' },
    { ms: 60000, want: '1:00' },
    { ms: 10000, want: '0:10' },
    { ms: 9999, want: '9.9', name: 'tenths under ten seconds' },
    { ms: 9300, want: '9.3' },
    { ms: 420, want: '0.4' },
    { ms: 0, want: '0.0' },
    { ms: -5, want: '0.0', name: 'never negative' },
    { ms: 3723000, want: '1:02:03', name: 'hours' },
    { ms: 3 * 86400000, want: '3 d 0 h', kind: 'correspondence' },
    { ms: 2 * 86400000 + 23 * 3600000 + 59 * 60000, want: '2 d 23 h', kind: 'correspondence' },
    { ms: 5 * 3600000 + 12 * 60000 + 30000, want: '5 h 12 m', kind: 'correspondence' },
    { ms: 59 * 60000 + 59000, want: '59:59', kind: 'correspondence' },
    { ms: 5000, want: '0:05', kind: 'correspondence', name: 'no tenths in correspondence' },
  ];
  for (const tc of cases) {
    await t.test(tc.name || `${tc.ms} ms ${tc.kind || ''}`, () => assert.equal(formatClock(tc.ms, /** @type {any} */ (tc.kind)), tc.want));
  }
});

test('lowTime: a tenth of the base, between ten seconds and a minute; an hour in correspondence', async (t) => {
  const cases = [
    { name: '1+0 at 9.9 s', tc: { kind: 'fischer', base: 60 }, ms: 9900, want: true },
    { name: '1+0 at 10 s', tc: { kind: 'fischer', base: 60 }, ms: 10000, want: false },
    { name: '5+3 at 29 s', tc: { kind: 'fischer', base: 300 }, ms: 29000, want: true },
    { name: '5+3 at 31 s', tc: { kind: 'fischer', base: 300 }, ms: 31000, want: false },
    { name: '30+20 at 59 s', tc: { kind: 'fischer', base: 1800 }, ms: 59000, want: true },
    { name: '30+20 at 61 s', tc: { kind: 'fischer', base: 1800 }, ms: 61000, want: false },
    { name: 'correspondence at 59 min', tc: { kind: 'correspondence', days: 1 }, ms: 59 * 60000, want: true },
    { name: 'correspondence at 2 h', tc: { kind: 'correspondence', days: 1 }, ms: 2 * 3600000, want: false },
  ];
  for (const tc of cases) await t.test(tc.name, () => assert.equal(lowTime(/** @type {any} */ (tc.tc), tc.ms), tc.want));
});

test('nextChange waits just until the shown time changes', async (t) => {
  const cases = [
    { ms: 10500, want: 501, name: 'whole seconds above ten' },
    { ms: 61000, want: 1, name: 'on a boundary: one millisecond' },
    { ms: TENTHS_BELOW_MS, want: 1, name: 'ten seconds turns to 9.9 next' },
    { ms: 5350, want: 51, name: 'tenths below ten' },
    { ms: 0, want: 1 },
  ];
  for (const tc of cases) {
    await t.test(tc.name || String(tc.ms), () => {
      const wait = nextChange(tc.ms);
      assert.equal(wait, tc.want);
      if (tc.ms > 0) assert.notEqual(formatClock(tc.ms - wait), formatClock(tc.ms - wait + 1), 'the display changes exactly then');
    });
  }
});

test('nextChange drives a countdown on an injected clock through every tenth of the last second', () => {
  // A fake timer: the display is read each time the part would wake.
  const c = clock({ white: 1000 });
  let now = 0;
  const seen = [];
  for (let guard = 0; guard < 50; guard++) {
    const f = face(c, 0, now);
    seen.push(formatClock(f.white));
    if (f.white <= 0) break;
    now += nextChange(f.white);
  }
  // Rounded down, as clocks are: "0.0" shows for the last 99 ms, and again when out.
  assert.deepEqual(seen, ['1.0', '0.9', '0.8', '0.7', '0.6', '0.5', '0.4', '0.3', '0.2', '0.1', '0.0', '0.0']);
});

test('describeControl', () => {
  assert.equal(describeControl(null), 'Untimed');
  assert.equal(describeControl({ kind: 'untimed' }), 'Untimed');
  assert.equal(describeControl({ kind: 'fischer', base: 60, increment: 0 }), '1+0');
  assert.equal(describeControl({ kind: 'fischer', base: 180, increment: 2 }), '3+2');
  assert.equal(describeControl({ kind: 'fischer', base: 45, increment: 1 }), '45 s+1');
  assert.equal(describeControl({ kind: 'correspondence', days: 1 }), '1 day a move');
  assert.equal(describeControl({ kind: 'correspondence', days: 7 }), '7 days a move');
});

test('customControl checks a custom clock against the bounds', async (t) => {
  const cases = [
    { name: '5+3', min: 5, inc: 3, want: { clock: { kind: 'fischer', base: 300, increment: 3 } } },
    { name: 'a quarter minute is the least', min: 0.25, inc: 0, want: { clock: { kind: 'fischer', base: 15, increment: 0 } } },
    { name: 'three hours is the most', min: 180, inc: 180, want: { clock: { kind: 'fischer', base: 10800, increment: 180 } } },
    { name: 'too short', min: 0.2, inc: 0, error: /between 15 seconds and 3 hours/ },
    { name: 'too long', min: 181, inc: 0, error: /between/ },
    { name: 'not a number', min: NaN, inc: 0, error: /between/ },
    { name: 'increment too big', min: 5, inc: 181, error: /0 to 180/ },
    { name: 'fractional increment', min: 5, inc: 1.5, error: /whole number/ },
  ];
  for (const tc of cases) {
    await t.test(tc.name, () => {
      const got = customControl(tc.min, tc.inc, DEFAULT_BOUNDS);
      if (tc.error) assert.match(/** @type {any} */ (got).error, tc.error);
      else assert.deepEqual(got, tc.want);
    });
  }
});
