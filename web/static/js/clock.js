// Clock: the game clocks of docs/protocol.md ("Clocks"), counted down on the
// client. Pure: every function takes the time from its caller, so the unit
// tests run in node on an injected clock and never sleep.
//
// The server sends both clocks in milliseconds as of its message. The page
// notes performance.now() when the message arrives and counts the running
// side down from there: monotonic time against the page's own arrival time,
// never the client's wall clock against the server's, so a wrong or jumping
// system clock does not move the display.

/** @typedef {import('./store.js').Seat} Seat */

/**
 * @typedef {object} TimeControl a room's time control (POST /api/rooms `clock`)
 * @property {'untimed'|'fischer'|'correspondence'} kind
 * @property {number} [base] Fischer: seconds on each clock at the start
 * @property {number} [increment] Fischer: seconds added after each move
 * @property {number} [days] correspondence: days for each move
 */

/**
 * @typedef {object} ClockState the state's `clock`: the time control and both clocks as of asOf
 * @property {'fischer'|'correspondence'} kind
 * @property {number} [base]
 * @property {number} [increment]
 * @property {number} [days]
 * @property {number} black milliseconds left, as of asOf
 * @property {number} white
 * @property {Seat|null} running the side whose clock runs, null when none does
 * @property {string} asOf
 * @property {string|null} deadline when the running side's time (or first-move limit) runs out
 * @property {boolean} firstMove the running side has not made its first move: its own limit runs, not its clock
 */

/**
 * @typedef {object} Face what the clocks show at one instant
 * @property {number} black milliseconds left
 * @property {number} white
 * @property {Seat|null} running
 * @property {number|null} firstMove while the running side's first move is awaited: milliseconds left for it
 */

/** SECOND, MINUTE, HOUR, DAY are milliseconds. */
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** TENTHS_BELOW_MS is where a Fischer clock starts showing tenths, as players expect in a scramble. */
export const TENTHS_BELOW_MS = 10 * SECOND;

/**
 * face is what the clocks show at now: the running side counted down by the
 * time since the state arrived (both in performance.now() milliseconds),
 * never below zero. With firstMove the running side's clock stands still (a
 * first move costs nothing from it) and its first-move limit counts down
 * instead: the time from asOf to deadline, less the same elapsed time. Both
 * are differences of the server's own times, so the client's wall clock
 * plays no part.
 * @param {ClockState} clock
 * @param {number} receivedAt performance.now() when the state arrived
 * @param {number} now performance.now() now
 * @returns {Face}
 */
export function face(clock, receivedAt, now) {
  const elapsed = Math.max(0, now - receivedAt);
  const out = { black: clock.black, white: clock.white, running: clock.running ?? null, firstMove: /** @type {number|null} */ (null) };
  const side = out.running;
  if (!side) return out;
  if (clock.firstMove) {
    const limit = clock.deadline ? Date.parse(clock.deadline) - Date.parse(clock.asOf) : NaN;
    out.firstMove = Number.isFinite(limit) ? Math.max(0, limit - elapsed) : null;
    return out;
  }
  out[side] = Math.max(0, clock[side] - elapsed);
  return out;
}

/**
 * formatClock writes milliseconds left as players read them. Fischer: "4:59",
 * "1:02:03", tenths under TENTHS_BELOW_MS ("9.3"); correspondence: days and
 * hours ("2 d 23 h"), hours and minutes under a day ("5 h 12 m"), minutes and
 * seconds under an hour. Time is rounded down, as clocks are.
 * @param {number} ms
 * @param {'fischer'|'correspondence'} [kind]
 * @returns {string}
 */
export function formatClock(ms, kind = 'fischer') {
  const t = Math.max(0, Math.floor(ms));
  if (kind === 'correspondence') {
    if (t >= DAY) return `${Math.floor(t / DAY)} d ${Math.floor((t % DAY) / HOUR)} h`;
    if (t >= HOUR) return `${Math.floor(t / HOUR)} h ${Math.floor((t % HOUR) / MINUTE)} m`;
  }
  if (kind === 'fischer' && t < TENTHS_BELOW_MS) return `${Math.floor(t / SECOND)}.${Math.floor((t % SECOND) / 100)}`;
  const h = Math.floor(t / HOUR);
  const m = Math.floor((t % HOUR) / MINUTE);
  const s = Math.floor((t % MINUTE) / SECOND);
  const ss = String(s).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/**
 * lowTime says whether a clock is low enough to be shown in warning colours:
 * a tenth of the starting time, but at least 10 s and at most a minute, in
 * Fischer; under an hour in correspondence.
 * @param {ClockState|TimeControl} clock
 * @param {number} ms milliseconds left
 * @returns {boolean}
 */
export function lowTime(clock, ms) {
  if (clock.kind === 'correspondence') return ms < HOUR;
  const tenth = ((clock.base ?? 0) * SECOND) / 10;
  return ms < Math.min(MINUTE, Math.max(10 * SECOND, tenth));
}

/**
 * nextChange is how long until the display of ms (counting down) changes: to
 * the next tenth under TENTHS_BELOW_MS, else to the next whole second (the
 * display rounds down, so one millisecond past the boundary). The page waits
 * that long before drawing again.
 * @param {number} ms
 * @returns {number} milliseconds, at least 1
 */
export function nextChange(ms) {
  const t = Math.max(0, Math.floor(ms));
  const step = t < TENTHS_BELOW_MS ? 100 : SECOND;
  return (t % step) + 1;
}

/**
 * describeControl writes a time control in a few words: "3+2", "3 days a
 * move", "untimed"; minutes+seconds as players write a Fischer control, with
 * seconds for a base that is not whole minutes ("45 s+0").
 * @param {TimeControl|ClockState|null|undefined} tc
 * @returns {string}
 */
export function describeControl(tc) {
  if (!tc || tc.kind === 'untimed') return 'Untimed';
  if (tc.kind === 'correspondence') return `${tc.days} ${tc.days === 1 ? 'day' : 'days'} a move`;
  const base = tc.base ?? 0;
  const b = base % 60 === 0 ? String(base / 60) : `${base} s`;
  return `${b}+${tc.increment ?? 0}`;
}

/**
 * @typedef {object} ClockBounds GET /api/games `clockBounds`
 * @property {number} baseMin seconds
 * @property {number} baseMax seconds
 * @property {number} incrementMax seconds
 * @property {number[]} days
 */

/** DEFAULT_PRESETS are the Fischer presets of docs/protocol.md, until GET /api/games answers. */
export const DEFAULT_PRESETS = Object.freeze([
  { kind: 'fischer', base: 60, increment: 0 }, { kind: 'fischer', base: 180, increment: 2 },
  { kind: 'fischer', base: 300, increment: 3 }, { kind: 'fischer', base: 600, increment: 5 },
  { kind: 'fischer', base: 900, increment: 10 }, { kind: 'fischer', base: 1800, increment: 20 },
].map((p) => Object.freeze(/** @type {TimeControl} */ (p))));

/** DEFAULT_BOUNDS are the bounds of docs/protocol.md, until GET /api/games answers. */
export const DEFAULT_BOUNDS = Object.freeze(/** @type {ClockBounds} */ ({ baseMin: 15, baseMax: 10800, incrementMax: 180, days: [1, 3, 7] }));

/**
 * customControl checks a custom Fischer control typed in minutes and seconds
 * against the bounds, so that the form says what is wrong before the server
 * answers 400.
 * @param {number} minutes base, in minutes (fractions allowed: 0.5 is 30 s)
 * @param {number} increment seconds
 * @param {ClockBounds} bounds
 * @returns {{clock: TimeControl} | {error: string}}
 */
export function customControl(minutes, increment, bounds) {
  const base = Math.round(minutes * 60);
  if (!Number.isFinite(base) || base < bounds.baseMin || base > bounds.baseMax) {
    return { error: `The time must be between ${formatSeconds(bounds.baseMin)} and ${formatSeconds(bounds.baseMax)}.` };
  }
  if (!Number.isInteger(increment) || increment < 0 || increment > bounds.incrementMax) {
    return { error: `The increment must be a whole number of seconds from 0 to ${bounds.incrementMax}.` };
  }
  return { clock: { kind: 'fischer', base, increment } };
}

/**
 * formatSeconds writes a bound in words: "15 seconds", "3 hours", "90 minutes".
 * @param {number} s
 */
function formatSeconds(s) {
  if (s % 3600 === 0) return `${s / 3600} ${s === 3600 ? 'hour' : 'hours'}`;
  if (s % 60 === 0) return `${s / 60} ${s === 60 ? 'minute' : 'minutes'}`;
  return `${s} seconds`;
}
