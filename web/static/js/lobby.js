// Lobby: open rooms, live games to watch, and the form to create a room.

import { h, replace } from './dom.js';
import { createRoom, listGames, listRooms } from './api.js';
import { ProtocolError, errorText } from './errors.js';
import { toast } from './toast.js';
import { playerName, setPlayerName, NAME_MAX } from './prefs.js';
import { seatName, capital, spectators } from './store.js';
import { eyeIcon } from './icons.js';

/** LOBBY_REFRESH_MS is how often the lobby asks for the room list while it is on screen. */
const LOBBY_REFRESH_MS = 4000;

/** FALLBACK_GAMES are the games of docs/protocol.md, used only until GET /api/games answers. */
const FALLBACK_GAMES = [
  { game: 'reversi', sizes: [8], rules: [], maxLevel: 10 },
  { game: 'gomoku', sizes: [15, 19], rules: ['freestyle', 'standard', 'renju'], maxLevel: 6 },
];

/** RULE_NAMES are the Gomoku rules in words. */
const RULE_NAMES = /** @type {Record<string, string>} */ ({ freestyle: 'Freestyle', standard: 'Standard (exactly five)', renju: 'Renju' });

/**
 * describeRoom writes a room's game in a few words: "Reversi", "Gomoku 15×15 renju".
 * @param {{game: string, size: number, rule: string}} r
 */
export function describeRoom(r) {
  if (r.game === 'reversi') return 'Reversi';
  return `Gomoku ${r.size}×${r.size}${r.rule ? ` · ${r.rule}` : ''}`;
}

/**
 * mountLobby draws the lobby into root and returns a function that stops it.
 * @param {HTMLElement} root
 * @param {(path: string) => void} navigate
 * @returns {() => void}
 */
export function mountLobby(root, navigate) {
  document.title = 'Board Hall: Reversi and Gomoku';
  let games = FALLBACK_GAMES;
  let stopped = false;
  /** @type {any} */
  let timer = null;

  const openList = h('ul', { class: 'room-list', id: 'open-rooms', 'aria-live': 'polite' });
  const liveList = h('ul', { class: 'room-list', id: 'live-rooms', 'aria-live': 'polite' });
  const doneList = h('ul', { class: 'room-list', id: 'finished-rooms' });

  const form = buildForm();
  replace(
    root,
    h('main', { class: 'lobby' },
      h('section', { class: 'card create' }, h('h2', null, 'New game'), form.el),
      h('div', { class: 'lists' },
        h('section', { class: 'card' }, h('h2', null, 'Open rooms'), h('p', { class: 'muted small' }, 'Waiting for a player: take the free seat.'), openList),
        h('section', { class: 'card' }, h('h2', null, 'Live games'), h('p', { class: 'muted small' }, 'Watch a game as it is played.'), liveList),
        h('section', { class: 'card' }, h('h2', null, 'Finished'), doneList)),
    ),
  );

  listGames().then(
    (g) => {
      if (stopped || !g.length) return;
      games = g;
      form.update();
    },
    (e) => toast(errorText(e.code, e.serverMessage), 'error', e.code),
  );

  let failed = false;
  async function refresh() {
    if (stopped) return;
    if (document.hidden) {
      // Nobody is looking: ask again when the tab is shown.
      document.addEventListener('visibilitychange', refresh, { once: true });
      return;
    }
    try {
      const rooms = await listRooms();
      if (stopped) return;
      failed = false;
      fill(openList, rooms.filter((r) => r.status === 'waiting'), 'No open rooms. Create one!');
      fill(liveList, rooms.filter((r) => r.status === 'playing'), 'No games being played right now.');
      fill(doneList, rooms.filter((r) => r.status === 'finished').slice(0, 10), 'None yet.');
    } catch (e) {
      const err = /** @type {ProtocolError} */ (e);
      if (!failed && !stopped) toast(`Could not load the rooms: ${err.userText || err.message}`, 'error', err.code);
      failed = true;
    }
    if (!stopped) timer = setTimeout(refresh, LOBBY_REFRESH_MS);
  }
  refresh();

  /**
   * @param {HTMLElement} list
   * @param {any[]} rooms
   * @param {string} empty
   */
  function fill(list, rooms, empty) {
    if (!rooms.length) {
      replace(list, h('li', { class: 'empty muted' }, empty));
      return;
    }
    replace(list, rooms.map((r) => roomItem(r)));
  }

  /** @param {any} r */
  function roomItem(r) {
    const url = `/r/${encodeURIComponent(r.id)}`;
    const action = r.status === 'waiting' ? 'Join' : r.status === 'playing' ? 'Watch' : 'Replay';
    const score = `${r.counts?.black ?? 0}–${r.counts?.white ?? 0}`;
    return h('li', { class: 'room-item', dataset: { room: r.id, status: r.status } },
      h('div', { class: 'room-main' },
        h('span', { class: 'room-game' }, describeRoom(r)),
        h('span', { class: 'room-seats' },
          h('span', { class: 'dot dot-black', 'aria-hidden': 'true' }), seatName(r.seats?.black), ' vs ',
          h('span', { class: 'dot dot-white', 'aria-hidden': 'true' }), seatName(r.seats?.white)),
      ),
      h('div', { class: 'room-meta' },
        h('span', { title: 'Discs or stones, black–white', 'aria-label': `Score ${score}` }, score),
        h('span', { title: 'Plies played' }, `${r.plies ?? 0} plies`),
        h('span', { title: 'Spectators', 'aria-label': `${spectators(r)} watching` }, eyeIcon(), ` ${spectators(r)}`),
      ),
      h('a', { class: 'button small', href: url, 'data-link': '', 'aria-label': `${action} ${describeRoom(r)} ${r.id}` }, action),
    );
  }

  function buildForm() {
    const name = /** @type {HTMLInputElement} */ (h('input', { id: 'player-name', name: 'name', maxlength: NAME_MAX, required: true, autocomplete: 'nickname', value: playerName() }));
    const game = h('fieldset', { class: 'segmented' }, h('legend', null, 'Game'),
      radio('game', 'reversi', 'Reversi', true), radio('game', 'gomoku', 'Gomoku', false));
    const size = /** @type {HTMLSelectElement} */ (h('select', { id: 'gomoku-size', name: 'size' }));
    const rule = /** @type {HTMLSelectElement} */ (h('select', { id: 'gomoku-rule', name: 'rule' }));
    const gomokuOpts = h('div', { class: 'row gomoku-only' },
      h('label', null, 'Board ', size), h('label', null, 'Rule ', rule));
    const black = seatPicker('black', 'open');
    const white = seatPicker('white', 'bot');
    const submit = h('button', { type: 'submit', class: 'button primary', id: 'create-room' }, 'Create room');
    const el = h('form', { class: 'create-form', 'aria-label': 'Create a room' },
      h('label', { class: 'name-field' }, 'Your name ', name),
      game, gomokuOpts, black.el, white.el,
      h('p', { class: 'muted small' }, 'You take the first open seat; share the invite link for the other.'),
      submit);

    function current() {
      const g = /** @type {HTMLInputElement|null} */ (el.querySelector('input[name=game]:checked'))?.value || 'reversi';
      return games.find((x) => x.game === g) || FALLBACK_GAMES[0];
    }
    function update() {
      const info = current();
      gomokuOpts.hidden = info.game !== 'gomoku';
      const keepSize = size.value;
      const keepRule = rule.value;
      replace(size, info.sizes.map((s) => h('option', { value: s }, `${s}×${s}`)));
      replace(rule, info.rules.map((r) => h('option', { value: r }, RULE_NAMES[r] || capital(r))));
      if (keepSize && info.sizes.includes(Number(keepSize))) size.value = keepSize;
      if (keepRule && info.rules.includes(keepRule)) rule.value = keepRule;
      syncRule();
      black.setMax(info.maxLevel);
      white.setMax(info.maxLevel);
    }
    // Renju is defined on the 15x15 board only; the server refuses it on 19x19.
    function syncRule() {
      const renju = /** @type {HTMLOptionElement|null} */ (rule.querySelector('option[value=renju]'));
      if (!renju) return;
      renju.disabled = size.value === '19';
      if (renju.disabled && rule.value === 'renju') rule.value = 'freestyle';
    }
    el.addEventListener('change', (e) => {
      const name = /** @type {HTMLInputElement} */ (e.target).name;
      if (name === 'game') update();
      if (name === 'size') syncRule();
    });
    el.addEventListener('submit', async (e) => {
      e.preventDefault();
      const n = setPlayerName(name.value);
      if (!n) {
        toast('Please enter a name (1 to 24 characters).', 'error');
        name.focus();
        return;
      }
      const info = current();
      /** @type {import('./api.js').CreateRequest} */
      const req = { game: /** @type {any} */ (info.game), black: black.value(), white: white.value() };
      if (info.game === 'gomoku') {
        req.size = Number(size.value);
        req.rule = rule.value;
      }
      submit.setAttribute('disabled', '');
      try {
        const res = await createRoom(req);
        navigate(`/r/${encodeURIComponent(res.id)}`);
      } catch (err) {
        const pe = /** @type {ProtocolError} */ (err);
        toast(`Could not create the room: ${pe.userText || pe.message}`, 'error', pe.code);
      } finally {
        submit.removeAttribute('disabled');
      }
    });
    update();
    return { el, update };
  }

  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/**
 * @param {string} name
 * @param {string} value
 * @param {string} label
 * @param {boolean} checked
 */
function radio(name, value, label, checked) {
  return h('label', { class: 'seg' }, h('input', { type: 'radio', name, value, checked }), h('span', null, label));
}

/**
 * seatPicker is the form's choice for one seat: a person or a bot of some level.
 * @param {'black'|'white'} seat
 * @param {'open'|'bot'} initial
 */
function seatPicker(seat, initial) {
  const level = /** @type {HTMLInputElement} */ (h('input', { type: 'range', min: 1, max: 10, value: 3, id: `${seat}-level`, 'aria-label': `${capital(seat)} bot level` }));
  const out = h('output', { for: `${seat}-level` }, '3');
  level.addEventListener('input', () => (out.textContent = level.value));
  const levelRow = h('span', { class: 'level' }, 'Level ', level, out);
  const el = h('fieldset', { class: 'seat-pick' },
    h('legend', null, h('span', { class: `dot dot-${seat}`, 'aria-hidden': 'true' }), ` ${capital(seat)}${seat === 'black' ? ' (moves first)' : ''}`),
    h('div', { class: 'segmented' }, radio(`${seat}-kind`, 'open', 'Person', initial === 'open'), radio(`${seat}-kind`, 'bot', 'Bot', initial === 'bot')),
    levelRow);
  const kind = () => /** @type {HTMLInputElement|null} */ (el.querySelector(`input[name=${seat}-kind]:checked`))?.value || 'open';
  const sync = () => (levelRow.hidden = kind() !== 'bot');
  el.addEventListener('change', sync);
  sync();
  return {
    el,
    /** @returns {import('./api.js').SeatRequest} */
    value: () => (kind() === 'bot' ? { kind: 'bot', level: Number(level.value) } : { kind: 'open' }),
    /** @param {number} max */
    setMax(max) {
      level.max = String(max);
      if (Number(level.value) > max) level.value = String(max);
      out.textContent = level.value;
    },
  };
}
