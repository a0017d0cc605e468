// RoomView: the room page drawn from a session: the layout, the board, the
// status lines, the links to the games before and after, and the parts of
// the panel (players.js, clocks.js, invite.js, presence.js, thinking.js,
// offers.js, controls.js, moves.js, evaluation.js, record.js). It holds no
// state of the session; its parts keep only how they look (an armed button,
// the analysis they fetched).

import { h, svg, replace } from './dom.js';
import { eyeIcon } from './icons.js';
import { BoardView } from './board.js';
import { errorText } from './errors.js';
import { describeRoom } from './lobby.js';
import {
  SEATS, canAct, history, view, seatName, turnText, passNotice, lastMoveText, spectators, plural, hintMoves,
} from './store.js';
import { changes } from './part.js';
import { playersPart } from './players.js';
import { thinkingPart } from './thinking.js';
import { undoRequestPart, drawOfferPart, rematchOfferPart } from './offers.js';
import { clocksPart } from './clocks.js';
import { claimPart } from './presence.js';
import { controlsPart } from './controls.js';
import { movesPart } from './moves.js';
import { evaluationPart } from './evaluation.js';
import { invitePart, seatOfferPart } from './invite.js';
import { recordPart } from './record.js';
import { chatPart } from './chatpanel.js';

/** @typedef {import('./session.js').Session} Session */
/** @typedef {import('./part.js').Part} Part */
/** @typedef {import('./part.js').Frame} Frame */
/** @typedef {import('./part.js').RoomActions} RoomActions */
/** @typedef {import('./store.js').RoomState} RoomState */

/** LINK_WORDS says the connection's status in a word. */
const LINK_WORDS = /** @type {Readonly<Record<string, string>>} */ (Object.freeze({
  connecting: 'Connecting…', open: 'Online', reconnecting: 'Offline', closed: 'Closed',
}));

/**
 * showConnecting fills root while the room's first state is on its way.
 * @param {HTMLElement} root
 */
export function showConnecting(root) {
  replace(root, h('main', { class: 'room-loading' }, h('p', { class: 'muted' }, 'Connecting to the room…')));
}

/**
 * showNotFound says that the room does not exist (any more).
 * @param {HTMLElement} root
 */
export function showNotFound(root) {
  document.title = 'Room not found · Board Hall';
  replace(root, h('main', { class: 'card not-found', role: 'alert' },
    h('h2', null, 'Room not found'),
    h('p', null, errorText('room_not_found')),
    h('a', { class: 'button primary', href: '/', 'data-link': '' }, 'Back to the lobby')));
}

/**
 * renjuLegend says what the cross on a renju board means.
 * @returns {HTMLElement}
 */
function renjuLegend() {
  const cross = svg('svg', { class: 'legend-mark', viewBox: '-0.5 -0.5 1 1', 'aria-hidden': 'true' },
    svg('path', { class: 'legend-forbid', d: 'M-0.3 -0.3L0.3 0.3M0.3 -0.3L-0.3 0.3' }));
  return h('p', { class: 'legend small muted', id: 'renju-legend' }, cross,
    ' While black is to move, a cross marks a point black may not play under renju: it would make a double three, a double four or an overline.');
}

/**
 * frame derives, once per update, what the parts draw from.
 * @param {Session} session one with a state
 * @returns {Frame}
 */
function frame(session) {
  const room = session.room;
  return {
    session,
    room,
    state: /** @type {RoomState} */ (room.state),
    me: room.seat,
    can: canAct(room),
    shown: /** @type {import('./store.js').View} */ (view(room)),
    plies: history(room.events),
  };
}

/**
 * RoomView draws a room. It is built once, when the first state arrives (the
 * game and board size are known then), and updated on every change.
 */
export class RoomView {
  /**
   * @param {HTMLElement} root
   * @param {Session} session one with a state
   * @param {RoomActions} actions
   */
  constructor(root, session, actions) {
    const s = /** @type {RoomState} */ (session.room.state);
    this.board = new BoardView({ game: s.game, size: s.size, onPlay: actions.play });
    this.status = h('p', { class: 'status', id: 'status', role: 'status', 'aria-live': 'polite' });
    this.passLine = h('p', { class: 'pass-notice', id: 'pass-notice' });
    this.viewers = h('span', { class: 'viewers', id: 'viewers' });
    this.link = h('span', { class: 'link-state', id: 'link-state' });
    this.linkChanged = changes();
    this.series = h('nav', { class: 'series small', id: 'series', 'aria-label': 'Games of this match' });
    this.seriesChanged = changes();
    const players = playersPart(actions);
    const clocks = clocksPart();
    const seatOffer = seatOfferPart(actions);
    const claim = claimPart(actions);
    const thinking = thinkingPart();
    const undo = undoRequestPart(actions);
    const draw = drawOfferPart(actions);
    const rematch = rematchOfferPart(actions);
    const controls = controlsPart(actions);
    const moves = movesPart(actions);
    const evaluation = evaluationPart(s.game, actions);
    const invite = invitePart(s);
    const record = recordPart();
    const chat = chatPart(actions);
    /** @type {Part[]} the panel's parts, in the order they are drawn */
    const panel = [players, seatOffer, claim, thinking, undo, draw, rematch, controls, moves, chat, evaluation, invite, record];
    /** @type {Part[]} every part: the clocks sit over the board, where a player's eyes are */
    this.parts = [clocks, ...panel];
    this.el = h('main', { class: `room room-${s.game}`, id: 'room', dataset: { room: s.id, game: s.game } },
      h('section', { class: 'board-area' },
        h('div', { class: 'room-head' },
          h('h1', { class: 'room-title' }, describeRoom(s)),
          this.viewers, this.link, this.series),
        clocks.el,
        h('div', { class: 'board-wrap' }, this.board.el),
        this.status, this.passLine, s.rule === 'renju' ? renjuLegend() : null),
      h('aside', { class: 'panel' }, panel.map((p) => p.el)));
    replace(root, this.el);
  }

  /**
   * update draws the session: the page's data attributes and title, the
   * board, the status lines, then each part (which draws again only what
   * changed). The keyboard focus stays where it was.
   * @param {Session} session one with a state
   */
  update(session) {
    const f = frame(session);
    const { state: s, me, can, shown: v } = f;

    // While a seat waits for a person, the invite comes first.
    this.el.classList.toggle('waiting', s.status === 'waiting' && SEATS.some((k) => s.seats[k].kind === 'open'));
    Object.assign(this.el.dataset, {
      version: String(s.version), plies: String(s.moves.length), status: s.status,
      seat: me || '', toMove: s.toMove || '', gameNo: String(s.gameNo), lastMove: s.lastMove || '',
      next: s.next || '', prev: s.prev || '', result: s.result?.reason || '',
      legal: String(s.legal?.length ?? 0),
    });

    const title = `${describeRoom(s)}: ${seatName(s.seats.black)} vs ${seatName(s.seats.white)}`;
    document.title = `${can.move ? '● Your turn · ' : ''}${title} · Board Hall`;

    this.board.render({
      board: v.board,
      legal: new Set(hintMoves(f.room)),
      forbidden: new Set(v.live && s.toMove === 'black' ? s.forbidden || [] : []),
      lastMove: v.lastMove,
      flipped: v.live ? s.flipped || [] : [],
      winLine: new Set(v.live ? s.winLine || [] : []),
      interactive: can.move,
      toMove: v.live ? s.toMove : null,
    });
    this.drawLines(f);

    const focused = document.activeElement && this.el.contains(document.activeElement) ? document.activeElement.id : '';
    for (const part of this.parts) part.draw(f);
    if (focused && document.activeElement?.id !== focused) document.getElementById(focused)?.focus();
  }

  /**
   * drawLines writes the status, the pass notice, the spectators and the
   * connection's status.
   * @param {Frame} f
   */
  drawLines({ session, state: s, me, can, shown: v }) {
    let status = s.result ? turnText(s, me) : [lastMoveText(s), turnText(s, me)].filter(Boolean).join(' ');
    if (!v.live) status = `Replay: position after ${v.ply} of ${plural(s.moves.length, 'ply', 'plies')}. ${status}`;
    this.status.textContent = status;
    this.status.classList.toggle('your-turn', can.move);
    this.status.classList.toggle('finished', s.status === 'finished');
    const pass = v.live ? passNotice(s) : '';
    this.passLine.textContent = pass;
    this.passLine.hidden = !pass;
    const words = plural(spectators(s), 'spectator', 'spectators');
    replace(this.viewers, eyeIcon(), ` ${words}`);
    this.viewers.setAttribute('aria-label', words);
    this.viewers.title = `${plural(s.viewers, 'person', 'people')} in this room, players included`;
    if (this.seriesChanged([s.prev, s.next])) {
      const link = (/** @type {string} */ id, /** @type {string} */ rel, /** @type {string} */ text) =>
        h('a', { href: `/r/${encodeURIComponent(id)}`, 'data-link': '', id: `${rel}-game`, rel }, text);
      replace(this.series, s.prev ? link(s.prev, 'prev', '‹ Previous game') : null, s.next ? link(s.next, 'next', 'Next game ›') : null);
      this.series.hidden = !s.prev && !s.next;
    }
    const link = session.link.status;
    if (this.linkChanged(link)) {
      this.link.textContent = LINK_WORDS[link] || link;
      this.link.className = `link-state link-${link}`;
    }
  }
}
