// Lobby: open rooms, live games to watch and finished games, pushed by the
// server over the socket (lobby_subscribe), and the form to create a room:
// the game, the time control, the creator's colour and the opponent (a person
// invited by link, or a bot); or "Play someone now" for the form's game and
// time control (pairing.js decides, this page carries it out on the socket).

import { h, replace } from './dom.js';
import { createRoom, listOffer } from './api.js';
import { Connection } from './socket.js';
import { socketURLs } from './config.js';
import { lobbyLists, roomFacts } from './lobbylists.js';
import { ProtocolError, errorText } from './errors.js';
import { toast } from './toast.js';
import { playerName, setPlayerName, saveSitIntent, saveSeatGrant, identityKey, NAME_MAX } from './prefs.js';
import { IDLE, pairStarted, pairAnswered, pairRefused, pairCancelled, pairReceived, botChosen, pairingText } from './pairing.js';
import { seatName, capital } from './store.js';
import { describeControl, customControl, DEFAULT_PRESETS, DEFAULT_BOUNDS } from './clock.js';
import { eyeIcon } from './icons.js';

/** FALLBACK_GAMES are the games of docs/protocol.md, used only until GET /api/games answers. */
const FALLBACK_GAMES = [
  { game: 'reversi', sizes: [8], rules: [], maxLevel: 10 },
  { game: 'gomoku', sizes: [15, 19, 20], rules: ['freestyle', 'standard', 'renju'], maxLevel: 6 },
];

/** RULE_NAMES are the Gomoku rules in words. */
const RULE_NAMES = /** @type {Record<string, string>} */ ({ freestyle: 'Freestyle', standard: 'Standard (exactly five)', renju: 'Renju' });

/**
 * describeRoom writes a room's game in a few words, with its time control
 * when it has one: "Reversi", "Gomoku 15×15 · renju", "Reversi · 3+2".
 * @param {{game: string, size: number, rule: string, clock?: import('./clock.js').TimeControl|import('./clock.js').ClockState|null}} r
 */
export function describeRoom(r) {
  const game = r.game === 'reversi' ? 'Reversi' : `Gomoku ${r.size}×${r.size}${r.rule ? ` · ${r.rule}` : ''}`;
  return r.clock && r.clock.kind !== 'untimed' ? `${game} · ${describeControl(r.clock)}` : game;
}

/**
 * @typedef {'black'|'white'|'random'} ColourChoice
 */

/**
 * creatorSeat is the seat the creator takes: the colour chosen, or one drawn
 * at random (random in [0, 1)).
 * @param {ColourChoice} choice
 * @param {number} random
 * @returns {'black'|'white'}
 */
export function creatorSeat(choice, random) {
  if (choice === 'black' || choice === 'white') return choice;
  return random < 0.5 ? 'black' : 'white';
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
  /** @type {import('./clock.js').TimeControl[]} */
  let presets = [...DEFAULT_PRESETS];
  let bounds = DEFAULT_BOUNDS;
  let stopped = false;

  const openList = h('ul', { class: 'room-list', id: 'open-rooms', 'aria-live': 'polite' }, h('li', { class: 'empty muted' }, 'Loading…'));
  const liveList = h('ul', { class: 'room-list', id: 'live-rooms', 'aria-live': 'polite' });
  const doneList = h('ul', { class: 'room-list', id: 'finished-rooms' });
  const linkLine = h('p', { class: 'muted small lobby-link', id: 'lobby-link', role: 'status' });
  /** @type {import('./pairing.js').Pairing} */
  let pairing = IDLE;
  let pairingWhat = '';
  const pairLine = h('p', { id: 'pairing-text', role: 'status', 'aria-live': 'polite' });
  const pairButtons = h('div', { class: 'row' });
  const pairBox = h('section', { class: 'card pairing', id: 'pairing', 'aria-label': 'Play someone now' }, pairLine, pairButtons);
  pairBox.hidden = true;

  const form = buildForm();
  replace(
    root,
    h('main', { class: 'lobby' },
      h('div', { class: 'create-col' }, pairBox, h('section', { class: 'card create' }, h('h2', null, 'New game'), form.el)),
      h('div', { class: 'lists' },
        h('section', { class: 'card' }, h('h2', null, 'Open rooms'), h('p', { class: 'muted small' }, 'Waiting for a player: open one to take the free seat.'), openList),
        h('section', { class: 'card' }, h('h2', null, 'Live games'), h('p', { class: 'muted small' }, 'Watch a game as it is played.'), liveList),
        h('section', { class: 'card' }, h('h2', null, 'Finished'), doneList),
        linkLine),
    ),
  );

  listOffer().then(
    (o) => {
      if (stopped || !o.games.length) return;
      games = o.games;
      presets = o.clockPresets;
      bounds = o.clockBounds;
      form.update();
      form.updateClocks();
    },
    (e) => toast(errorText(e.code, e.serverMessage), 'error', e.code),
  );

  // The lists come over the socket, now and whenever they change; after a
  // reconnect the subscription is made again.
  const conn = new Connection({
    urls: socketURLs(),
    onOpen: () => conn.notify({ type: 'lobby_subscribe' }),
    onStatus: (status) => {
      linkLine.textContent = status === 'reconnecting' ? 'Connection lost: the lists are not up to date. Reconnecting…' : '';
      // A dropped connection leaves the pairing queue.
      if (status === 'reconnecting') applyPair(pairRefused(pairing, { code: 'disconnected', userText: errorText('disconnected') }));
    },
    onMessage: (msg) => {
      if (stopped) return;
      if (msg.type === 'paired' || msg.type === 'pair_expired' || (msg.type === 'error' && !msg.room && pairing.phase !== 'idle' && pairing.phase !== 'expired')) {
        applyPair(pairReceived(pairing, msg));
      } else if (msg.type === 'lobby') {
        const lists = lobbyLists(msg);
        fill(openList, lists.open, 'No open rooms. Create one!');
        fill(liveList, lists.live, 'No games being played right now.');
        fill(doneList, lists.finished, 'None yet.');
      } else if (msg.type === 'error' && !msg.room) {
        toast(`Could not load the rooms: ${errorText(msg.code, msg.message)}`, 'error', msg.code);
      }
    },
  });

  /**
   * applyPair takes a step of the pairing: its state drawn, its effects carried out.
   * @param {import('./pairing.js').PairStep} step
   */
  function applyPair({ pairing: next, effects }) {
    pairing = next;
    drawPairing();
    for (const e of effects) {
      switch (e.type) {
        case 'send':
          if (e.msg.type === 'pair') {
            conn.request(e.msg).then(
              () => applyPair(pairAnswered(pairing)),
              (/** @type {ProtocolError} */ err) => applyPair(pairRefused(pairing, err)));
          } else {
            conn.request(e.msg).catch(() => { /* leaving the queue: a dropped link leaves it too */ });
          }
          break;
        case 'seat':
          saveSeatGrant(e.room, e.grant);
          navigate(`/r/${encodeURIComponent(e.room)}`);
          break;
        case 'bot':
          playBot(e.ask, e.level);
          break;
        case 'toast':
          toast(e.text, e.tone, e.code);
          break;
        default:
      }
    }
  }

  function drawPairing() {
    if (stopped) return;
    pairBox.hidden = pairing.phase === 'idle';
    pairLine.textContent = pairingText(pairing, pairingWhat);
    form.pairing(pairing.phase === 'asking' || pairing.phase === 'waiting');
    if (pairing.phase === 'expired') {
      replace(pairButtons,
        h('button', { type: 'button', class: 'button primary', id: 'pair-bot', onclick: () => applyPair(botChosen(pairing)) }, 'Play the bot'),
        h('button', { type: 'button', class: 'button', id: 'pair-dismiss', onclick: () => applyPair(pairCancelled(pairing)) }, 'Not now'));
    } else {
      replace(pairButtons, h('button', { type: 'button', class: 'button', id: 'pair-cancel', onclick: () => applyPair(pairCancelled(pairing)) }, 'Cancel'));
    }
  }

  /**
   * playBot makes a room of the game asked for with a bot of level in one
   * seat, and takes the other (a colour drawn at random).
   * @param {import('./pairing.js').PairAsk} ask
   * @param {number} level
   */
  async function playBot(ask, level) {
    const mine = creatorSeat('random', Math.random());
    /** @type {import('./api.js').CreateRequest} */
    const req = { game: ask.game, black: { kind: 'open' }, white: { kind: 'open' }, identity: ask.identity };
    req[mine === 'black' ? 'white' : 'black'] = { kind: 'bot', level };
    if (ask.clock.kind !== 'untimed') req.clock = ask.clock;
    if (ask.game === 'gomoku') {
      req.size = ask.size;
      req.rule = ask.rule;
    }
    try {
      const res = await createRoom(req);
      saveSitIntent(res.id, mine);
      navigate(`/r/${encodeURIComponent(res.id)}`);
    } catch (err) {
      const pe = /** @type {ProtocolError} */ (err);
      toast(`Could not create the room: ${pe.userText || pe.message}`, 'error', pe.code);
    }
  }

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
    const { action, score, plies, watching, control } = roomFacts(r);
    return h('li', { class: 'room-item', dataset: { room: r.id, status: r.status } },
      h('div', { class: 'room-main' },
        h('span', { class: 'room-game' }, describeRoom(r)),
        h('span', { class: 'room-seats' },
          h('span', { class: 'dot dot-black', 'aria-hidden': 'true' }), seatName(r.seats?.black), ' vs ',
          h('span', { class: 'dot dot-white', 'aria-hidden': 'true' }), seatName(r.seats?.white)),
      ),
      h('div', { class: 'room-meta' },
        h('span', { title: 'Discs or stones, black–white', 'aria-label': `Score ${score}` }, score),
        control ? h('span', { title: 'Time control' }, control) : null,
        h('span', { class: 'room-plies', title: 'Plies played' }, plies),
        h('span', { class: 'room-watching', title: 'Spectators', 'aria-label': watching }, eyeIcon(), ` ${watching}`),
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
    const clock = clockPicker();
    const colour = h('fieldset', { class: 'segmented', id: 'colour-pick' }, h('legend', null, 'You play (black moves first)'),
      radio('colour', 'black', 'Black', true), radio('colour', 'white', 'White', false), radio('colour', 'random', 'Random', false),
      radio('colour', 'watch', 'Neither: watch two bots', false));
    const opponent = opponentPicker();
    const hint = h('p', { class: 'muted small', id: 'create-hint' });
    const submit = h('button', { type: 'submit', class: 'button primary', id: 'create-room' }, 'Create room');
    const playNow = h('button', { type: 'button', class: 'button', id: 'play-now', 'aria-describedby': 'play-now-hint' }, 'Play someone now');
    const playNowHint = h('p', { class: 'muted small', id: 'play-now-hint' }, 'Or be paired with the next person who asks for the same game and time control.');
    const el = h('form', { class: 'create-form', 'aria-label': 'Create a room' },
      h('label', { class: 'name-field' }, 'Your name ', name),
      game, gomokuOpts, clock.el, colour, opponent.el, hint, submit, playNowHint, playNow);

    /**
     * checkNameAndClock reads the name and the time control both buttons need,
     * saying what is wrong (and focusing it) when one is not right.
     */
    function checkNameAndClock() {
      const n = setPlayerName(name.value);
      if (!n) {
        toast('Please enter a name (1 to 24 characters).', 'error');
        name.focus();
        return null;
      }
      const tc = clock.value();
      if ('error' in tc) {
        toast(tc.error, 'error', 'bad_request');
        clock.focus();
        return null;
      }
      return { n, tc };
    }

    playNow.addEventListener('click', () => {
      const checked = checkNameAndClock();
      if (!checked) return;
      const { n, tc } = checked;
      const info = current();
      const gomoku = info.game === 'gomoku';
      /** @type {import('./pairing.js').PairAsk} */
      const ask = {
        game: /** @type {any} */ (info.game), size: gomoku ? Number(size.value) : 8, rule: gomoku ? rule.value : '',
        clock: tc.clock, name: n, identity: identityKey(),
      };
      pairingWhat = describeRoom({ game: ask.game, size: ask.size, rule: ask.rule, clock: ask.clock });
      applyPair(pairStarted(pairing, ask));
    });

    function watching() {
      return /** @type {HTMLInputElement|null} */ (el.querySelector('input[name=colour]:checked'))?.value === 'watch';
    }
    function syncHint() {
      hint.textContent = watching()
        ? 'Two bots of the level chosen under Opponent play each other; you watch.'
        : opponent.value().kind === 'bot'
          ? 'You play the bot as soon as the room is made.'
          : 'You take the seat of your colour; then send the invite link to your opponent. Anyone else who opens it watches.';
    }

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
      opponent.setMax(info.maxLevel);
    }
    // Renju is defined on the 15x15 board only; the server refuses it on 19x19 and 20x20.
    function syncRule() {
      const renju = /** @type {HTMLOptionElement|null} */ (rule.querySelector('option[value=renju]'));
      if (!renju) return;
      renju.disabled = size.value !== '15';
      if (renju.disabled && rule.value === 'renju') rule.value = 'freestyle';
    }
    el.addEventListener('change', (e) => {
      const name = /** @type {HTMLInputElement} */ (e.target).name;
      if (name === 'game') update();
      if (name === 'size') syncRule();
      if (name === 'colour' && watching()) opponent.pickBot(); // the level of both bots
      syncHint();
    });
    el.addEventListener('submit', async (e) => {
      e.preventDefault();
      const checked = checkNameAndClock();
      if (!checked) return;
      const { n, tc } = checked;
      const info = current();
      const picked = /** @type {HTMLInputElement|null} */ (el.querySelector('input[name=colour]:checked'))?.value || 'black';
      const watch = picked === 'watch';
      const mine = creatorSeat(/** @type {ColourChoice} */ (watch ? 'black' : picked), Math.random());
      const theirs = mine === 'black' ? 'white' : 'black';
      /** @type {import('./api.js').CreateRequest} */
      const req = { game: /** @type {any} */ (info.game), black: { kind: 'open' }, white: { kind: 'open' }, identity: identityKey() };
      req[theirs] = opponent.value();
      if (watch) req.black = req.white = { kind: 'bot', level: opponent.level() };
      if (tc.clock.kind !== 'untimed') req.clock = tc.clock;
      if (info.game === 'gomoku') {
        req.size = Number(size.value);
        req.rule = rule.value;
      }
      submit.setAttribute('disabled', '');
      try {
        const res = await createRoom(req);
        if (!watch) saveSitIntent(res.id, mine);
        navigate(`/r/${encodeURIComponent(res.id)}`);
      } catch (err) {
        const pe = /** @type {ProtocolError} */ (err);
        toast(`Could not create the room: ${pe.userText || pe.message}`, 'error', pe.code);
      } finally {
        submit.removeAttribute('disabled');
      }
    });
    update();
    syncHint();
    return {
      el, update, updateClocks: () => clock.setChoices(presets, bounds),
      /** @param {boolean} waiting whether a pairing is under way: the buttons wait with it */
      pairing(waiting) {
        playNow.toggleAttribute('disabled', waiting);
        submit.toggleAttribute('disabled', waiting);
      },
    };
  }

  return () => {
    if (pairing.phase === 'asking' || pairing.phase === 'waiting') conn.notify({ type: 'unpair' });
    stopped = true;
    conn.notify({ type: 'lobby_unsubscribe' });
    conn.close();
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
 * opponentPicker is the form's choice of opponent: a person (invited by
 * link) or a bot of some level.
 */
function opponentPicker() {
  const level = /** @type {HTMLInputElement} */ (h('input', { type: 'range', min: 1, max: 10, value: 3, id: 'bot-level', 'aria-label': 'Bot level' }));
  const out = h('output', { for: 'bot-level' }, '3');
  level.addEventListener('input', () => (out.textContent = level.value));
  const levelRow = h('span', { class: 'level' }, 'Level ', level, out);
  const el = h('fieldset', { class: 'seat-pick', id: 'opponent-pick' },
    h('legend', null, 'Opponent'),
    h('div', { class: 'segmented' }, radio('opponent', 'open', 'A person (invite)', true), radio('opponent', 'bot', 'Bot', false)),
    levelRow);
  const kind = () => /** @type {HTMLInputElement|null} */ (el.querySelector('input[name=opponent]:checked'))?.value || 'open';
  const sync = () => (levelRow.hidden = kind() !== 'bot');
  el.addEventListener('change', sync);
  sync();
  return {
    el,
    /** @returns {import('./api.js').SeatRequest} */
    value: () => (kind() === 'bot' ? { kind: 'bot', level: Number(level.value) } : { kind: 'open' }),
    /** @returns {number} the level chosen, whichever opponent is picked */
    level: () => Number(level.value),
    /** pickBot chooses a bot opponent (and so shows its level) */
    pickBot() {
      const bot = /** @type {HTMLInputElement|null} */ (el.querySelector('input[name=opponent][value=bot]'));
      if (bot) bot.checked = true;
      sync();
    },
    /** @param {number} max */
    setMax(max) {
      level.max = String(max);
      if (Number(level.value) > max) level.value = String(max);
      out.textContent = level.value;
    },
  };
}

/**
 * clockPicker is the form's time control: untimed, a Fischer preset, a
 * custom Fischer clock (minutes + increment seconds, checked against the
 * server's bounds) or correspondence days.
 */
function clockPicker() {
  const select = /** @type {HTMLSelectElement} */ (h('select', { id: 'time-control', name: 'clock' }));
  const minutes = /** @type {HTMLInputElement} */ (h('input', { type: 'number', id: 'clock-minutes', name: 'minutes', min: 0.25, step: 0.25, value: 5, inputmode: 'decimal' }));
  const increment = /** @type {HTMLInputElement} */ (h('input', { type: 'number', id: 'clock-increment', name: 'increment', min: 0, step: 1, value: 3, inputmode: 'numeric' }));
  const custom = h('div', { class: 'row custom-clock' },
    h('label', null, 'Minutes ', minutes), h('label', null, 'Increment (s) ', increment));
  const el = h('div', { class: 'clock-pick' }, h('label', null, 'Time control ', select), custom);
  /** @type {import('./clock.js').ClockBounds} */
  let bounds = DEFAULT_BOUNDS;
  /** @type {Record<string, import('./clock.js').TimeControl>} */
  let byValue = {};

  /**
   * @param {import('./clock.js').TimeControl[]} presets
   * @param {import('./clock.js').ClockBounds} b
   */
  function setChoices(presets, b) {
    bounds = b;
    const keep = select.value;
    byValue = { untimed: { kind: 'untimed' } };
    /** @type {HTMLElement[]} */
    const fischer = presets.map((p) => {
      const v = `fischer:${p.base}+${p.increment ?? 0}`;
      byValue[v] = p;
      return h('option', { value: v }, describeControl(p));
    });
    fischer.push(h('option', { value: 'custom' }, 'Custom…'));
    const days = b.days.map((d) => {
      const v = `days:${d}`;
      byValue[v] = { kind: 'correspondence', days: d };
      return h('option', { value: v }, describeControl({ kind: 'correspondence', days: d }));
    });
    replace(select,
      h('option', { value: 'untimed' }, 'Untimed'),
      h('optgroup', { label: 'Clock (minutes + seconds a move)' }, fischer),
      h('optgroup', { label: 'Correspondence' }, days));
    minutes.min = String(b.baseMin / 60);
    minutes.max = String(b.baseMax / 60);
    increment.max = String(b.incrementMax);
    select.value = keep && (keep === 'custom' || Object.hasOwn(byValue, keep)) ? keep : 'untimed';
    sync();
  }
  const sync = () => (custom.hidden = select.value !== 'custom');
  select.addEventListener('change', sync);
  setChoices([...DEFAULT_PRESETS], DEFAULT_BOUNDS);
  return {
    el,
    setChoices,
    focus: () => (select.value === 'custom' ? minutes : select).focus(),
    /** @returns {{clock: import('./clock.js').TimeControl} | {error: string}} */
    value() {
      if (select.value === 'custom') return customControl(Number(minutes.value), Number(increment.value), bounds);
      return { clock: byValue[select.value] ?? { kind: 'untimed' } };
    },
  };
}
