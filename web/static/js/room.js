// Room: one game on screen: the board, the players, the controls, the move
// list with replay, the bot's thinking, the evaluation graph and the export.

import { h, replace } from './dom.js';
import { eyeIcon } from './icons.js';
import { BoardView } from './board.js';
import { drawGraph } from './graph.js';
import { Connection } from './socket.js';
import { socketURLs } from './config.js';
import { listGames, roomAnalysis } from './api.js';
import { ProtocolError, errorText } from './errors.js';
import { toast, banner } from './toast.js';
import { playerName, seatGrant, saveSeatGrant } from './prefs.js';
import { formatTranscript, moveRows } from './notation.js';
import {
  SEATS, other, newRoom, onJoined, onEvent, onThinking, onViewers, history, view, evalSeries,
  seatName, turnText, passNotice, resultText, formatScore, canAct, capital, createStore, spectators, lastMoveText,
} from './store.js';
import { describeRoom } from './lobby.js';

/** RESIGN_CONFIRM_MS is how long the resign button waits for the second, confirming click. */
const RESIGN_CONFIRM_MS = 4000;

/** @typedef {import('./store.js').Room} Room */
/** @typedef {import('./store.js').Seat} Seat */

/**
 * mountRoom shows room id in root, connects, takes the free seat when there
 * is one (or the saved seat after a refresh), and returns a function that
 * leaves the room.
 * @param {HTMLElement} root
 * @param {string} id
 * @returns {() => void}
 */
export function mountRoom(root, id) {
  document.title = `Room ${id} · Board Hall`;
  const store = createStore(newRoom(id));
  let stopped = false;
  let autoSat = false;
  /** @type {Seat|null} the seat asked for and not yet answered */
  let sitting = null;
  let everOpen = false;
  let maxLevel = 10;
  /** @type {Promise<void>|null} */
  let joining = null;
  /** @type {RoomUI|null} */
  let ui = null;
  /** @type {any[]} what GET /api/games said, once it answers */
  let gamesKnown = [];

  replace(root, h('main', { class: 'room-loading' }, h('p', { class: 'muted' }, 'Connecting to the room…')));

  const conn = new Connection({
    urls: socketURLs(),
    onMessage,
    onOpen: () => {
      if (everOpen) toast('Reconnected.', 'info');
      everOpen = true;
      banner(null);
      join();
    },
    onStatus: (status, detail) => {
      if (status === 'reconnecting' && detail) {
        const secs = Math.max(1, Math.round(detail.waitMs / 1000));
        const what = everOpen ? 'Connection lost.' : 'Cannot reach the server.';
        banner(`${what} Reconnecting in ${secs} s… (attempt ${detail.attempt})`);
      }
      ui?.setLink(status);
    },
  });

  /** @param {any} e */
  function showError(e) {
    if (stopped) return;
    const pe = e instanceof ProtocolError ? e : new ProtocolError('internal', String(e?.message || e));
    toast(pe.userText, 'error', pe.code);
  }

  /**
   * act sends a player command and shows any error in words.
   * @param {Record<string, any>} msg
   * @returns {Promise<any>}
   */
  function act(msg) {
    return conn.request({ room: id, ...msg }).catch((e) => {
      showError(e);
      if (e.code === 'not_joined') join();
      return null;
    });
  }

  /**
   * join watches the room again (with the seat token and the last seq held);
   * one join runs at a time.
   * @returns {Promise<void>}
   */
  async function join() {
    if (joining) return joining;
    joining = joinOnce().then((again) => {
      joining = null;
      if (again) return join();
    });
    return joining;
  }

  /**
   * joinOnce sends one join and takes its answer.
   * @returns {Promise<boolean>} true when the seat token was refused and the
   * room should be joined again as a spectator
   */
  async function joinOnce() {
    const room = store.get();
    const grant = seatGrant(id);
    /** @type {Record<string, any>} */
    const msg = { type: 'join', room: id };
    if (grant) msg.token = grant.token;
    if (room.lastSeq > 0) msg.since = room.lastSeq;
    try {
      const answer = await conn.request(msg);
      store.update((r) => onJoined(r, answer));
      if (grant && answer.seat == null) saveSeatGrant(id, null);
      if (grant && answer.seat && answer.seat !== grant.seat) saveSeatGrant(id, { token: grant.token, seat: answer.seat });
      maybeSit();
    } catch (e) {
      const code = /** @type {ProtocolError} */ (e).code;
      if (code === 'bad_token') {
        saveSeatGrant(id, null);
        showError(e);
        return true;
      }
      if (code === 'room_not_found') notFound();
      else if (code !== 'disconnected') showError(e);
    }
    return false;
  }

  // Opening a room's link takes the free seat, or spectates when both are taken.
  function maybeSit() {
    const room = store.get();
    if (autoSat || room.seat || !room.state) return;
    autoSat = true;
    if (room.state.status === 'finished') return;
    const seat = SEATS.find((s) => room.state?.seats[s].kind === 'open');
    if (seat) sit(seat);
  }

  /** @param {Seat} seat */
  async function sit(seat) {
    sitting = seat;
    const answer = await act({ type: 'sit', seat, name: playerName() });
    sitting = null;
    if (!answer) return;
    saveSeatGrant(id, { token: answer.token, seat: answer.seat });
    store.update((r) => ({ ...r, seat: answer.seat }));
  }

  /** @param {any} msg */
  function onMessage(msg) {
    // An error that answers no request may name no room (a flood warning): show it anyway.
    if (msg.room !== id && !(msg.type === 'error' && !msg.room)) return;
    switch (msg.type) {
      case 'event': {
        const before = store.get();
        const { room, gap, fresh } = onEvent(before, msg);
        let next = room;
        if (fresh && !gap) next = followSeat(before, next, msg.event);
        store.set(next);
        if (fresh) notice(before, next, msg.event);
        if (gap) join();
        break;
      }
      case 'thinking':
        store.update((r) => onThinking(r, msg));
        break;
      case 'viewers':
        store.update((r) => onViewers(r, msg));
        break;
      case 'error':
        showError(new ProtocolError(msg.code, msg.message));
        break;
      default:
    }
  }

  /**
   * followSeat keeps this tab's seat right after a switch (the token follows
   * the player to the other colour) or after the seat was given up.
   * @param {Room} before
   * @param {Room} room
   * @param {any} ev
   * @returns {Room}
   */
  function followSeat(before, room, ev) {
    const me = before.seat;
    if (!me) return room;
    if (ev.type === 'switch') {
      const seat = other(me);
      const grant = seatGrant(id);
      if (grant) saveSeatGrant(id, { token: grant.token, seat });
      return { ...room, seat };
    }
    if (ev.type === 'seat' && ev.seat === me && ev.kind !== 'human') {
      saveSeatGrant(id, null);
      return { ...room, seat: null };
    }
    return room;
  }

  /**
   * notice tells people about events that change nothing on the board.
   * @param {Room} before
   * @param {Room} room
   * @param {any} ev
   */
  function notice(before, room, ev) {
    const me = room.seat;
    switch (ev.type) {
      case 'undo_decline':
        if (me && ev.seat !== me) toast('Your take-back request was declined.', 'info');
        break;
      case 'undo':
        toast(`${ev.plies === 1 ? 'One ply was' : `${ev.plies} plies were`} taken back.`, 'info');
        break;
      case 'resign':
        if (ev.seat !== me) toast(`${capital(ev.seat)} resigned.`, 'info');
        break;
      case 'rematch':
        toast('A new game has started.', 'info');
        break;
      case 'seat':
        if (ev.kind === 'human' && ev.seat !== before.seat && ev.seat !== me && ev.seat !== sitting) toast(`${ev.name} sat down as ${ev.seat}.`, 'info');
        break;
      default:
    }
  }

  function notFound() {
    stopped = true;
    conn.close();
    document.title = 'Room not found · Board Hall';
    replace(root, h('main', { class: 'card not-found', role: 'alert' },
      h('h2', null, 'Room not found'),
      h('p', null, errorText('room_not_found')),
      h('a', { class: 'button primary', href: '/', 'data-link': '' }, 'Back to the lobby')));
  }

  listGames().then((games) => {
    const s = store.get().state;
    const info = games.find((g) => g.game === (s?.game || ''));
    if (info) maxLevel = info.maxLevel;
    gamesKnown = games;
    if (ui) ui.update(store.get());
  }, () => { /* the lobby reports API trouble; the room keeps the default levels */ });

  store.subscribe((room) => {
    if (stopped || !room.state) return;
    if (!ui) {
      const info = gamesKnown.find((g) => g.game === room.state?.game);
      if (info) maxLevel = info.maxLevel;
      ui = new RoomUI(root, room, {
        play: (move) => play(move),
        act,
        sit,
        cursor: (c) => store.update((r) => ({ ...r, cursor: c })),
        maxLevel: () => maxLevel,
      });
      ui.setLink(conn.status);
    }
    ui.update(room);
  });

  // Phones drop sockets of tabs in the background: when the page is seen
  // again, or the network is back, do not wait out the backoff.
  const wake = () => {
    if (!document.hidden) conn.retryNow();
  };
  document.addEventListener('visibilitychange', wake);
  window.addEventListener('online', wake);

  /** @type {boolean} a move is on its way: a double click must not send a second */
  let moving = false;

  /** @param {string} move */
  function play(move) {
    const room = store.get();
    const s = room.state;
    if (!s || moving) return;
    if (room.cursor != null) {
      toast('You are looking at an earlier position. Press “Live” to return to the game.', 'info');
      return;
    }
    moving = true;
    act({ type: 'move', move, at: s.version }).finally(() => {
      moving = false;
    });
  }

  return () => {
    stopped = true;
    document.removeEventListener('visibilitychange', wake);
    window.removeEventListener('online', wake);
    conn.close();
    banner(null);
  };
}

/**
 * RoomUI draws a room. It is built once, when the first state arrives (the
 * game and board size are known then), and updated on every change.
 */
class RoomUI {
  /**
   * @param {HTMLElement} root
   * @param {Room} room
   * @param {object} cb
   * @param {(move: string) => void} cb.play
   * @param {(msg: Record<string, any>) => Promise<any>} cb.act
   * @param {(seat: Seat) => void} cb.sit
   * @param {(cursor: number|null) => void} cb.cursor
   * @param {() => number} cb.maxLevel
   */
  constructor(root, room, cb) {
    const s = /** @type {import('./store.js').RoomState} */ (room.state);
    this.cb = cb;
    this.game = s.game;
    this.size = s.size;
    this.room = room;
    this.resignArmed = false;
    /** @type {Map<string, string>} what each part was last drawn from */
    this.keys = new Map();
    this.board = new BoardView({ game: s.game, size: s.size, onPlay: cb.play });
    this.status = h('p', { class: 'status', id: 'status', role: 'status', 'aria-live': 'polite' });
    this.passLine = h('p', { class: 'pass-notice', id: 'pass-notice' });
    this.players = h('div', { class: 'players' });
    this.thinking = h('div', { class: 'thinking', id: 'thinking', 'aria-live': 'off' });
    this.undoBox = h('div', { class: 'undo-box', id: 'undo-box', role: 'alert' });
    this.controls = h('div', { class: 'controls', role: 'group', 'aria-label': 'Game controls' });
    this.moves = h('ol', { class: 'moves', id: 'moves', 'aria-label': 'Moves' });
    this.replayBar = h('div', { class: 'replay', role: 'group', 'aria-label': 'Replay' });
    this.graphBox = h('div', { class: 'graph-box', id: 'graph' });
    this.exportBox = h('div', { class: 'export' });
    this.viewers = h('span', { class: 'viewers', id: 'viewers' });
    this.link = h('span', { class: 'link-state', id: 'link-state' });
    const invite = `${location.origin}/r/${encodeURIComponent(s.id)}`;
    const inviteInput = /** @type {HTMLInputElement} */ (h('input', { id: 'invite-link', readonly: true, value: invite, 'aria-label': 'Invite link' }));
    this.el = h('main', { class: `room room-${s.game}`, id: 'room', dataset: { room: s.id, game: s.game } },
      h('section', { class: 'board-area' },
        h('div', { class: 'room-head' },
          h('h1', { class: 'room-title' }, describeRoom(s)),
          this.viewers, this.link),
        h('div', { class: 'board-wrap' }, this.board.el),
        this.status, this.passLine),
      h('aside', { class: 'panel' },
        this.players, this.thinking, this.undoBox, this.controls,
        h('section', { class: 'card history' },
          h('h2', null, 'Moves'), this.moves, this.replayBar),
        h('section', { class: 'card' }, h('h2', null, 'Evaluation'), this.graphBox,
          h('p', { class: 'legend small muted' },
            h('span', { class: 'key key-eval' }), ' engine score ',
            s.game === 'reversi' ? [h('span', { class: 'key key-discs' }), ' disc difference'] : null,
            ' (black up)')),
        h('section', { class: 'card invite', id: 'invite' }, h('h2', null, 'Invite'),
          h('p', { class: 'small muted invite-hint' }, 'Send this link to a friend: opening it takes the free seat. Others who open it watch.'),
          h('div', { class: 'copy-row' }, inviteInput, shareButton(invite, describeRoom(s)))),
        h('section', { class: 'card' }, h('h2', null, 'Game record'), this.exportBox),
      ),
    );
    this.moves.addEventListener('keydown', (e) => this.replayKey(e));
    this.replayBar.addEventListener('keydown', (e) => this.replayKey(e));
    replace(root, this.el);
  }

  /** @param {import('./socket.js').LinkStatus} status */
  setLink(status) {
    const words = { connecting: 'Connecting…', open: 'Online', reconnecting: 'Offline', closed: 'Closed' };
    this.link.textContent = words[status] || status;
    this.link.className = `link-state link-${status}`;
  }

  /** @param {KeyboardEvent} e */
  replayKey(e) {
    const s = this.room.state;
    if (!s) return;
    const n = s.moves.length;
    const at = this.room.cursor ?? n;
    let next = null;
    if (e.key === 'ArrowLeft') next = Math.max(0, at - 1);
    else if (e.key === 'ArrowRight') next = Math.min(n, at + 1);
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = n;
    if (next == null) return;
    e.preventDefault();
    this.cb.cursor(next >= n ? null : next);
  }

  /** @param {Room} room */
  update(room) {
    this.room = room;
    const s = /** @type {import('./store.js').RoomState} */ (room.state);
    const me = room.seat;
    const can = canAct(room);
    const v = /** @type {import('./store.js').View} */ (view(room));
    const plies = history(room.events);

    // While a seat waits for a person, the invite comes first.
    this.el.classList.toggle('waiting', s.status === 'waiting' && SEATS.some((k) => s.seats[k].kind === 'open'));
    Object.assign(this.el.dataset, {
      version: String(s.version), plies: String(s.moves.length), status: s.status,
      seat: me || '', toMove: s.toMove || '', gameNo: String(s.gameNo), lastMove: s.lastMove || '',
    });

    const title = `${describeRoom(s)}: ${seatName(s.seats.black)} vs ${seatName(s.seats.white)}`;
    document.title = `${can.move ? '● Your turn · ' : ''}${title} · Board Hall`;

    this.board.render({
      board: v.board,
      legal: new Set(v.live && s.game === 'reversi' ? s.legal : []),
      forbidden: new Set(v.live && s.toMove === 'black' ? s.forbidden || [] : []),
      lastMove: v.lastMove,
      flipped: v.live ? s.flipped || [] : [],
      winLine: new Set(v.live ? s.winLine || [] : []),
      interactive: can.move,
      toMove: v.live ? s.toMove : null,
    });

    let status = s.result ? turnText(s, me) : [lastMoveText(s), turnText(s, me)].filter(Boolean).join(' ');
    if (!v.live) status = `Replay: position after ${v.ply} of ${s.moves.length} plies. ${status}`;
    this.status.textContent = status;
    this.status.classList.toggle('your-turn', can.move);
    this.status.classList.toggle('finished', s.status === 'finished');
    const pass = v.live ? passNotice(s) : '';
    this.passLine.textContent = pass;
    this.passLine.hidden = !pass;
    const watching = spectators(s);
    const words = `${watching} ${watching === 1 ? 'spectator' : 'spectators'}`;
    replace(this.viewers, eyeIcon(), ` ${words}`);
    this.viewers.setAttribute('aria-label', words);
    this.viewers.title = `${s.viewers} ${s.viewers === 1 ? 'connection' : 'connections'} to this room, players included`;

    // Each part is drawn again only when what it shows changed, so that a
    // stream of thinking or viewer messages neither costs much nor takes the
    // keyboard focus away from a button or closes an open menu.
    const focused = document.activeElement && this.el.contains(document.activeElement) ? document.activeElement.id : '';
    this.part('players', [s.seats, s.counts, s.toMove, s.result, me, can.sit, this.cb.maxLevel(), s.status], () => this.renderPlayers(room, can));
    this.part('thinking', [room.thinking, s.toMove, s.seats, s.result], () => this.renderThinking(room));
    this.part('undo', [s.undoRequest, me, can.answerUndo], () => this.renderUndo(room, can));
    this.part('controls', [can, me, s.seats, s.status, s.result, this.resignArmed], () => this.renderControls(room, can));
    this.part('moves', [s.moves, room.cursor, v.ply], () => this.renderMoves(room, v));
    this.askAnalysis(room);
    const analysis = this.analysis && this.analysis.version === s.version ? this.analysis : null;
    this.part('graph', [room.lastSeq, s.version, room.cursor, analysis?.version], () => replace(this.graphBox, drawGraph({
      game: s.game, plies: plies.length, ...evalSeries(s.game, plies, analysis),
      cursor: room.cursor, onPick: (ply) => this.cb.cursor(ply >= s.moves.length ? null : ply),
    })));
    this.part('export', [s.moves], () => this.renderExport(s));
    if (focused && document.activeElement?.id !== focused) document.getElementById(focused)?.focus();
  }

  /**
   * askAnalysis fetches the engine's judgement of every position once the game has
   * been still for a moment (a bot's quick reply does not cost two requests). The
   * graph is drawn again when it arrives; a failure just leaves the graph as it was.
   * @param {any} room
   */
  askAnalysis(room) {
    const s = room.state;
    if (!s || this.analysisAsked === s.version) return;
    this.analysisAsked = s.version;
    clearTimeout(this.analysisTimer);
    this.analysisTimer = setTimeout(async () => {
      try {
        const a = await roomAnalysis(s.id);
        if (a.version !== this.analysisAsked) return;
        this.analysis = a;
        this.update(this.room);
      } catch {
        // the graph keeps the bots' own scores; nothing for the user to do
      }
    }, 400);
  }

  /**
   * part runs draw when key differs from the last time this part was drawn.
   * @param {string} name
   * @param {any} key JSON-able
   * @param {() => void} draw
   */
  part(name, key, draw) {
    const k = JSON.stringify(key);
    if (this.keys.get(name) === k) return;
    this.keys.set(name, k);
    draw();
  }

  /**
   * @param {Room} room
   * @param {ReturnType<typeof canAct>} can
   */
  renderPlayers(room, can) {
    const s = /** @type {import('./store.js').RoomState} */ (room.state);
    const me = room.seat;
    replace(this.players, SEATS.map((seat) => {
      const info = s.seats[seat];
      const toMove = s.toMove === seat;
      const won = s.result?.winner === seat;
      const badges = [];
      if (seat === me) badges.push(h('span', { class: 'badge you' }, 'You'));
      if (info.kind === 'bot') badges.push(h('span', { class: 'badge bot' }, `Bot · level ${info.level}`));
      if (won) badges.push(h('span', { class: 'badge won' }, 'Winner'));
      const controls = [];
      if (can.sit && info.kind === 'open') {
        controls.push(h('button', { class: 'button small', type: 'button', id: `sit-${seat}`, 'data-sit': seat, onclick: () => this.cb.sit(seat) }, `Play ${seat}`));
      }
      // A seated player may set a seat that is not another person's: a bot,
      // its level, or open again.
      if (me && s.status !== 'finished' && info.kind !== 'human') controls.push(this.seatSelect(seat, info));
      return h('div', {
        class: `player player-${seat}${toMove ? ' to-move' : ''}${seat === me ? ' mine' : ''}`,
        id: `player-${seat}`,
        'aria-label': `${capital(seat)}: ${seatName(info)}, ${s.counts[seat]} ${s.game === 'reversi' ? 'discs' : 'stones'}${toMove ? ', to move' : ''}`,
      },
        h('span', { class: `stone stone-${seat}`, 'aria-hidden': 'true' }),
        h('div', { class: 'player-info' },
          h('div', { class: 'player-name' }, info.kind === 'human' ? info.name : info.kind === 'bot' ? 'Bot' : 'Open seat', ...badges),
          h('div', { class: 'player-sub muted small' }, capital(seat), toMove && !s.result ? ' · to move' : '')),
        h('div', { class: 'count', title: s.game === 'reversi' ? 'Discs' : 'Stones' }, String(s.counts[seat])),
        controls.length ? h('div', { class: 'player-controls' }, controls) : null,
      );
    }));
  }

  /**
   * seatSelect lets a seated player put a bot (of some level) in a seat, or open it.
   * @param {Seat} seat
   * @param {import('./store.js').SeatInfo} info
   */
  seatSelect(seat, info) {
    const max = this.cb.maxLevel();
    const sel = /** @type {HTMLSelectElement} */ (h('select', { class: 'seat-select', id: `seat-select-${seat}`, 'aria-label': `${capital(seat)} seat` },
      h('option', { value: 'open' }, 'Open seat'),
      Array.from({ length: max }, (_, i) => h('option', { value: `bot:${i + 1}` }, `Bot level ${i + 1}`))));
    sel.value = info.kind === 'bot' ? `bot:${info.level}` : 'open';
    sel.addEventListener('change', () => {
      const [kind, level] = sel.value.split(':');
      /** @type {Record<string, any>} */
      const msg = { type: 'set_seat', seat, kind };
      if (kind === 'bot') msg.level = Number(level);
      this.cb.act(msg);
    });
    return sel;
  }

  /** @param {Room} room */
  renderThinking(room) {
    const s = /** @type {import('./store.js').RoomState} */ (room.state);
    const t = room.thinking;
    const botToMove = s.toMove && s.seats[s.toMove]?.kind === 'bot' && !s.result;
    this.thinking.hidden = !botToMove;
    if (!botToMove) {
      replace(this.thinking);
      return;
    }
    const who = `${capital(/** @type {string} */ (s.toMove))} bot`;
    if (!t) {
      replace(this.thinking, h('span', { class: 'spinner', 'aria-hidden': 'true' }), ` ${who} is thinking…`);
      return;
    }
    const nodes = t.nodes >= 1e6 ? `${(t.nodes / 1e6).toFixed(1)}M` : t.nodes >= 1e3 ? `${Math.round(t.nodes / 1e3)}k` : String(t.nodes);
    const nps = t.nps >= 1e6 ? `${(t.nps / 1e6).toFixed(1)}M/s` : `${Math.round(t.nps / 1e3)}k/s`;
    replace(this.thinking,
      h('span', { class: 'spinner', 'aria-hidden': 'true' }),
      h('span', null, ` ${who} thinking: `),
      h('span', { class: 'think-depth' }, `depth ${t.depth}${t.exact ? ' (exact)' : ''}`), ' · ',
      h('span', null, 'best ', h('b', { class: 'think-best' }, t.best || '…')), ' · ',
      h('span', { title: "score from the bot's side" }, `score ${formatScore(s.game, t.score)}`), ' · ',
      h('span', { class: 'muted' }, `${nodes} nodes, ${nps}`),
      t.pv.length > 1 ? h('div', { class: 'pv small muted' }, `line: ${t.pv.join(' ')}`) : null);
  }

  /**
   * @param {Room} room
   * @param {ReturnType<typeof canAct>} can
   */
  renderUndo(room, can) {
    const s = /** @type {import('./store.js').RoomState} */ (room.state);
    const req = s.undoRequest;
    this.undoBox.hidden = !req;
    if (!req) {
      replace(this.undoBox);
      return;
    }
    if (can.answerUndo) {
      replace(this.undoBox,
        h('p', null, `${capital(req.by)} asks to take back their last move.`),
        h('div', { class: 'row' },
          h('button', { class: 'button primary small', type: 'button', id: 'undo-accept', onclick: () => this.cb.act({ type: 'undo_reply', accept: true }) }, 'Accept'),
          h('button', { class: 'button small', type: 'button', id: 'undo-decline', onclick: () => this.cb.act({ type: 'undo_reply', accept: false }) }, 'Decline')));
    } else if (req.by === room.seat) {
      replace(this.undoBox, h('p', null, 'Take-back requested. Waiting for your opponent to answer…'));
    } else {
      replace(this.undoBox, h('p', null, `${capital(req.by)} asked to take back a move.`));
    }
  }

  /**
   * @param {Room} room
   * @param {ReturnType<typeof canAct>} can
   */
  renderControls(room, can) {
    const s = /** @type {import('./store.js').RoomState} */ (room.state);
    const me = room.seat;
    const opp = me ? s.seats[other(me)] : null;
    /** @type {HTMLElement[]} */
    const buttons = [];
    if (me) {
      const undoWord = opp?.kind === 'human' ? 'Ask to undo' : 'Undo';
      buttons.push(btn('undo', undoWord, !can.undo, () => this.cb.act({ type: 'undo' })));
      const resign = btn('resign', this.resignArmed ? 'Really resign?' : 'Resign', !can.resign, () => {
        if (!this.resignArmed) {
          this.resignArmed = true;
          this.update(this.room);
          setTimeout(() => {
            this.resignArmed = false;
            this.update(this.room);
          }, RESIGN_CONFIRM_MS);
          return;
        }
        this.resignArmed = false;
        this.cb.act({ type: 'resign' });
      });
      if (this.resignArmed) resign.classList.add('danger');
      buttons.push(resign);
      buttons.push(btn('switch', 'Switch sides', !can.switchSides, () => this.cb.act({ type: 'switch' })));
      buttons.push(btn('rematch', 'Rematch', !can.rematch, () => this.cb.act({ type: 'rematch' })));
      buttons.push(btn('stand', 'Leave seat', !can.stand, () => this.cb.act({ type: 'stand' })));
    } else {
      buttons.push(h('p', { class: 'muted small spectating' }, 'You are watching this game.'));
    }
    if (s.status === 'finished') {
      const r = resultText(s);
      buttons.unshift(h('p', { class: 'result', id: 'result' }, r));
    }
    replace(this.controls, buttons);
  }

  /**
   * @param {Room} room
   * @param {import('./store.js').View} v
   */
  renderMoves(room, v) {
    const s = /** @type {import('./store.js').RoomState} */ (room.state);
    const n = s.moves.length;
    const rows = moveRows(s.moves);
    replace(this.moves, rows.map((row) => h('li', { class: 'move-row' },
      h('span', { class: 'move-no', 'aria-hidden': 'true' }, `${row.no}.`),
      row.plies.map((p) => h('button', {
        type: 'button',
        class: `ply${p.ply + 1 === v.ply && (room.cursor != null || p.ply + 1 === n) ? ' current' : ''}${p.move === 'pass' ? ' pass' : ''}`,
        'data-ply': p.ply + 1,
        id: `ply-${p.ply + 1}`,
        'aria-label': `Ply ${p.ply + 1}, ${p.ply % 2 === 0 ? 'black' : 'white'} ${p.move}`,
        onclick: () => this.cb.cursor(p.ply + 1 >= n ? null : p.ply + 1),
      }, p.move)))));
    if (!n) replace(this.moves, h('li', { class: 'muted small' }, 'No moves yet.'));
    const cur = this.moves.querySelector('.ply.current');
    if (cur && room.cursor == null) this.moves.scrollTop = this.moves.scrollHeight;
    else if (cur) cur.scrollIntoView({ block: 'nearest' });
    const at = room.cursor ?? n;
    replace(this.replayBar,
      btn('first', '«', at === 0, () => this.cb.cursor(0), 'First position'),
      btn('prev', '‹', at === 0, () => this.cb.cursor(Math.max(0, at - 1)), 'Previous ply'),
      h('span', { class: 'replay-pos', 'aria-live': 'polite' }, `${at} / ${n}`),
      btn('next', '›', at >= n, () => this.cb.cursor(at + 1 >= n ? null : at + 1), 'Next ply'),
      btn('live', room.cursor == null ? '»' : 'Live »', room.cursor == null, () => this.cb.cursor(null), 'Latest position'));
  }

  /** @param {import('./store.js').RoomState} s */
  renderExport(s) {
    const text = formatTranscript(s.game, s.moves);
    const input = /** @type {HTMLInputElement} */ (h('input', { id: 'transcript', readonly: true, value: text, 'aria-label': 'Transcript' }));
    const header = s.game === 'reversi' ? 'Transcript (passes as “pa”)' : `Record (${s.size}×${s.size}${s.rule ? `, ${s.rule}` : ''})`;
    replace(this.exportBox,
      h('p', { class: 'small muted' }, header),
      h('div', { class: 'copy-row' }, input, copyButton(() => input.value, 'Copy', 'copy-transcript')),
      h('p', { class: 'small' }, h('a', { href: `/api/rooms/${encodeURIComponent(s.id)}`, download: `${s.game}-${s.id}.json` }, 'Download the whole record (JSON)')));
  }
}

/**
 * btn makes a control button.
 * @param {string} name
 * @param {string} text
 * @param {boolean} disabled
 * @param {() => void} onclick
 * @param {string} [label]
 */
function btn(name, text, disabled, onclick, label) {
  return h('button', { type: 'button', class: `button small btn-${name}`, id: `btn-${name}`, disabled, onclick, 'aria-label': label }, text);
}

/**
 * shareButton offers the system's share sheet where there is one (phones),
 * else copies the link.
 * @param {string} url
 * @param {string} title
 */
function shareButton(url, title) {
  if (typeof navigator.share !== 'function') return copyButton(() => url, 'Copy link', 'copy-invite');
  return h('button', {
    type: 'button', class: 'button small', id: 'share-invite',
    onclick: () => navigator.share({ title: `${title} · Board Hall`, url }).catch(() => { /* the person closed the sheet */ }),
  }, 'Share');
}

/**
 * copyButton copies text to the clipboard and says so.
 * @param {() => string} get
 * @param {string} text
 * @param {string} id
 */
function copyButton(get, text, id) {
  return h('button', {
    type: 'button', class: 'button small', id,
    onclick: async () => {
      try {
        await navigator.clipboard.writeText(get());
        toast('Copied.', 'info');
      } catch {
        toast('Copying is not allowed here: select the text and copy it by hand.', 'error');
      }
    },
  }, text);
}
