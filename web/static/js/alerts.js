// Alerts: the sounds, generated tones played with Web Audio (sound.js says
// which and when; no audio files), the browser notification that it is your
// turn while the tab is hidden (asked for only from a click), and the
// header's two switches: sound on or off (kept in the browser) and "Notify me".

import { TONES } from './sound.js';
import { soundOn, setSoundOn } from './prefs.js';

/** @typedef {import('./sound.js').Cue} Cue */

/** VOLUME is the tones' peak gain: audible, never startling. */
const VOLUME = 0.12;

/** @type {AudioContext|null} */
let audio = null;

/**
 * context returns the page's audio context, made on first use. Browsers
 * start it suspended until the page is clicked: unlock resumes it then.
 * @returns {AudioContext|null}
 */
function context() {
  if (audio) return audio;
  const Ctx = globalThis.AudioContext;
  if (!Ctx) return null;
  audio = new Ctx();
  return audio;
}

function unlock() {
  const ctx = context();
  if (ctx && ctx.state === 'suspended') ctx.resume().catch(() => { /* not allowed yet: the next click tries again */ });
}

/**
 * playCue plays a cue's tones, unless the sound is switched off.
 * @param {Cue|null} cue
 */
export function playCue(cue) {
  if (!cue || !soundOn()) return;
  const ctx = context();
  if (!ctx || ctx.state !== 'running') return;
  const t0 = ctx.currentTime + 0.01;
  for (const tone of TONES[cue]) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = 'sine';
    osc.frequency.value = tone.hz;
    const start = t0 + tone.at;
    const end = start + tone.dur;
    // A short attack and release: no clicks at the edges.
    gain.gain.setValueAtTime(0, start);
    gain.gain.linearRampToValueAtTime(VOLUME, start + 0.01);
    gain.gain.setValueAtTime(VOLUME, Math.max(start + 0.01, end - 0.03));
    gain.gain.linearRampToValueAtTime(0, end);
    osc.connect(gain).connect(ctx.destination);
    osc.start(start);
    osc.stop(end + 0.02);
  }
}

/**
 * notifyTurn shows a browser notification that it is the player's turn,
 * when the person allowed it; clicking it brings the tab forward.
 * @param {string} body what the game is
 */
export function notifyTurn(body) {
  if (typeof Notification !== 'function' || Notification.permission !== 'granted') return;
  try {
    const n = new Notification('Your turn · Board Hall', { body, tag: 'boardhall-turn', icon: '/icon.svg' });
    n.onclick = () => {
      window.focus();
      n.close();
    };
  } catch {
    // some browsers allow notifications only from a service worker: the tab's title still says it
  }
}

/**
 * mountAlertSwitches wires the header's sound switch and "Notify me" button,
 * and resumes the audio on the first click of the page.
 */
export function mountAlertSwitches() {
  document.addEventListener('pointerdown', unlock);
  document.addEventListener('keydown', unlock);
  const sound = document.getElementById('sound-toggle');
  if (sound) {
    const draw = () => {
      const on = soundOn();
      sound.setAttribute('aria-pressed', String(on));
      sound.textContent = on ? 'Sound on' : 'Sound off';
      sound.title = on ? 'Switch the sounds off' : 'Switch the sounds on';
    };
    sound.addEventListener('click', () => {
      setSoundOn(!soundOn());
      draw();
    });
    draw();
  }
  const notify = document.getElementById('notify-toggle');
  if (notify) {
    const can = typeof Notification === 'function';
    const draw = () => {
      notify.hidden = !can || Notification.permission !== 'default';
    };
    notify.addEventListener('click', () => {
      if (!can) return;
      Notification.requestPermission().then(draw, draw);
    });
    draw();
  }
}
