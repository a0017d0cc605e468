// Clocks: both sides' time in a timed room, the running side counted down
// from the moment its state arrived (clock.js says how), with tenths in the
// last ten seconds of a Fischer game, a warning colour when time is low, and
// the first-move limit while a side has not made its first move. Between
// states the part draws itself again just when the shown time changes.

import { h } from './dom.js';
import { capital } from './store.js';
import { face, formatClock, lowTime, nextChange, describeControl } from './clock.js';
import { SEATS } from './store.js';

/** @typedef {import('./part.js').Part} Part */
/** @typedef {import('./part.js').Frame} Frame */
/** @typedef {import('./clock.js').ClockState} ClockState */

/**
 * clocksPart shows the clocks of a timed room; nothing in an untimed one.
 * @returns {Part}
 */
export function clocksPart() {
  const times = {
    black: h('span', { class: 'clock-time', id: 'clock-black-time' }),
    white: h('span', { class: 'clock-time', id: 'clock-white-time' }),
  };
  const boxes = {
    black: h('div', { class: 'clock clock-black', id: 'clock-black', role: 'timer' },
      h('span', { class: 'stone stone-black', 'aria-hidden': 'true' }), times.black),
    white: h('div', { class: 'clock clock-white', id: 'clock-white', role: 'timer' },
      h('span', { class: 'stone stone-white', 'aria-hidden': 'true' }), times.white),
  };
  const first = h('p', { class: 'first-move small', id: 'first-move', role: 'status' });
  const el = h('section', { class: 'clocks', id: 'clocks', 'aria-label': 'Clocks' },
    h('div', { class: 'clock-row' }, boxes.black, boxes.white), first);
  el.hidden = true;
  /** @type {{clock: ClockState, at: number}|null} */
  let shown = null;
  /** @type {ReturnType<typeof setTimeout>|undefined} */
  let timer;

  /** tick draws the clocks as of now and waits until the display would change. */
  function tick() {
    clearTimeout(timer);
    if (!shown || !el.isConnected) return;
    const { clock, at } = shown;
    const f = face(clock, at, performance.now());
    const kind = clock.kind === 'correspondence' ? 'correspondence' : 'fischer';
    for (const seat of SEATS) {
      const ms = f[seat];
      const text = formatClock(ms, kind);
      if (times[seat].textContent !== text) times[seat].textContent = text;
      boxes[seat].classList.toggle('running', f.running === seat);
      boxes[seat].classList.toggle('low', lowTime(clock, ms));
      boxes[seat].classList.toggle('out', ms <= 0);
      boxes[seat].setAttribute('aria-label', `${capital(seat)}'s clock: ${text}${f.running === seat ? ', running' : ''}`);
    }
    if (f.running && f.firstMove != null) {
      first.hidden = false;
      first.textContent = `${capital(f.running)} has ${formatClock(f.firstMove, kind)} to make a first move, or the game is aborted.`;
      first.classList.toggle('low', f.firstMove < 10_000);
    } else {
      first.hidden = true;
      first.textContent = '';
    }
    // Count on while a clock runs and time is left; the server stores the flag.
    const left = f.running ? (f.firstMove ?? f[f.running]) : 0;
    if (left > 0) timer = setTimeout(tick, nextChange(left));
  }

  return {
    el,
    draw({ state: s, session }) {
      const clock = s.clock ?? null;
      if (!clock) {
        el.hidden = true;
        shown = null;
        clearTimeout(timer);
        return;
      }
      if (shown && shown.clock === clock && shown.at === session.stateAt) return;
      el.hidden = false;
      shown = { clock, at: session.stateAt };
      el.setAttribute('aria-label', `Clocks (${describeControl(clock)})`);
      tick();
    },
  };
}
