// Room: the room page's wiring. It holds the session (session.js) in a store,
// passes it everything that happens (the connection's messages and status,
// the answers to what was sent, the page's clicks), carries out the effects
// each step asks for (send, toast, keep the seat grant...) and draws every new
// session with RoomView (roomview.js). Deciding is session.js's job and
// drawing RoomView's: this file only connects them to the socket, the
// browser's storage and the page.

import { Connection } from './socket.js';
import { socketURLs } from './config.js';
import { listGames } from './api.js';
import { ProtocolError } from './errors.js';
import { toast, banner } from './toast.js';
import { playerName, setPlayerName, seatGrant, saveSeatGrant, takeSitIntent, chatPrefs, saveChatPrefs, cleanName, identityKey,
} from './prefs.js';
import { createStore } from './store.js';
import {
  newSession, linkChanged, linkOpened, bannerText, joinStarted, sitAsked, movePlayed, answered, refused, received,
  grantRead, gamesListed, showPly, left, inviteCancelled, chatSent, authorMuted, unmutedAll, spectatorsHidden,
} from './session.js';
import { RoomView, showConnecting, showNotFound } from './roomview.js';
import { moment, cues, lowIn, loudest, turnNotice } from './sound.js';
import { playCue, notifyTurn } from './alerts.js';

/** @typedef {import('./session.js').Session} Session */
/** @typedef {import('./session.js').Step} Step */
/** @typedef {import('./session.js').Effect} Effect */
/** @typedef {import('./session.js').Command} Command */

/**
 * now is the time a step happens at: the page's monotonic clock, which every
 * count-down uses, and the wall clock for the rare claimAt without a server
 * time beside it.
 * @returns {import('./session.js').Now}
 */
function now() {
  return { mono: performance.now(), wall: Date.now() };
}

/**
 * mountRoom shows room id in root, connects, takes the seat back after a
 * refresh (or, for the room's creator, the colour they chose), and returns a
 * function that leaves the room. Anyone else watches until they take a seat.
 * @param {HTMLElement} root
 * @param {string} id
 * @param {(path: string) => void} navigate shows another page (the next game of a rematch, the lobby)
 * @returns {() => void}
 */
export function mountRoom(root, id, navigate) {
  document.title = `Room ${id} · Board Hall`;
  showConnecting(root);
  const store = createStore(newSession(id, { sitOn: takeSitIntent(id), ...chatPrefs() }));
  /** @type {RoomView|null} built when the first state arrives */
  let roomView = null;
  /** @type {import('./sound.js').Moment|null} what the last sounds were decided from */
  let heard = null;
  /** @type {any} the timer that looks again when this player's clock turns low */
  let lowTimer = null;

  const conn = new Connection({
    urls: socketURLs(),
    onMessage: (msg) => apply(received(store.get(), msg, now())),
    onOpen: () => apply(linkOpened(store.get())),
    onStatus: (status, detail) => set(linkChanged(store.get(), status, detail)),
  });

  /**
   * set takes the next session: the room is drawn at once, and the banner at
   * the top of the page follows the connection and the server's game store.
   * @param {Session} session
   */
  function set(session) {
    const before = store.get();
    store.set(session);
    if (session.link !== before.link || session.storage !== before.storage) banner(bannerText(session));
    if (session.room !== before.room || session.stateAt !== before.stateAt) listen();
  }

  /**
   * listen makes the sounds the session calls for (sound.js), tells a player
   * in a hidden tab that it is their turn, and looks again when their
   * running clock turns low.
   */
  function listen() {
    const session = store.get();
    if (session.gone) return;
    const t = performance.now();
    const now = moment(session, t);
    const played = cues(heard, now);
    heard = now;
    playCue(loudest(played));
    if (turnNotice(played, document.hidden)) notifyTurn(document.title.replace(/^● Your turn · /, ''));
    clearTimeout(lowTimer);
    const wait = lowIn(session, t);
    if (wait != null) lowTimer = setTimeout(listen, wait + 1);
  }

  /**
   * apply takes a step: its session first, then its effects in order.
   * @param {Step} step
   */
  function apply({ session, effects }) {
    set(session);
    for (const effect of effects) run(effect);
  }

  /** @param {Effect} effect */
  function run(effect) {
    switch (effect.type) {
      case 'send':
        send(effect.msg);
        break;
      case 'join':
        apply(joinStarted(store.get(), seatGrant(id), identityKey()));
        break;
      case 'sit':
        apply(sitAsked(store.get(), effect.seat, playerName(), identityKey()));
        break;
      case 'toast':
        toast(effect.text, effect.tone, effect.code);
        break;
      case 'keepGrant':
        saveSeatGrant(id, effect.grant);
        break;
      case 'follow':
        if (effect.grant) saveSeatGrant(effect.room, effect.grant);
        navigate(`/r/${encodeURIComponent(effect.room)}`);
        break;
      case 'leave':
        navigate('/');
        break;
      case 'keepChat':
        saveChatPrefs({ muted: effect.muted, hideSpectators: effect.hideSpectators });
        break;
      case 'notFound':
        conn.close();
        showNotFound(root);
        break;
      default:
    }
  }

  /**
   * send sends a command for this room and hands the answer, or the error, to the session.
   * @param {Command} msg
   */
  function send(msg) {
    conn.request({ room: id, ...msg }).then(
      (answer) => apply(answered(store.get(), msg, answer, now())),
      (e) => apply(refused(store.get(), msg, e instanceof ProtocolError ? e : new ProtocolError('internal', String(e?.message || e)))),
    );
  }

  /** @type {import('./part.js').RoomActions} */
  const actions = {
    play: (move) => apply(movePlayed(store.get(), move)),
    send,
    sit: (seat, name) => {
      if (name === undefined) {
        run({ type: 'sit', seat });
        return;
      }
      const kept = setPlayerName(name);
      if (!kept) {
        toast('Please enter a name (1 to 24 characters) to take the seat.', 'error');
        document.getElementById('sit-name')?.focus();
        return;
      }
      apply(sitAsked(store.get(), seat, kept, identityKey()));
    },
    cancelInvite: () => apply(inviteCancelled(store.get())),
    chat: (text, name) => {
      const session = store.get();
      const speaker = session.room.seat ? '' : cleanName(name);
      if (speaker) setPlayerName(speaker);
      const next = chatSent(session, text, speaker);
      apply(next);
      return next.effects.some((e) => e.type === 'send');
    },
    mute: (author) => apply(authorMuted(store.get(), author)),
    unmuteAll: () => apply(unmutedAll(store.get())),
    hideSpectators: (hide) => apply(spectatorsHidden(store.get(), hide)),
    showPly: (ply) => set(showPly(store.get(), ply)),
    redraw: () => draw(store.get()),
  };

  /** @param {Session} session */
  function draw(session) {
    if (session.gone || !session.room.state) return;
    if (!roomView) roomView = new RoomView(root, session, actions);
    roomView.update(session);
  }
  store.subscribe(draw);

  listGames().then(
    (games) => set(gamesListed(store.get(), games)),
    () => { /* the lobby reports API trouble; the room keeps the default levels */ },
  );

  // Another tab of this room may take, switch or give up the seat: the
  // session follows the grant the browser keeps.
  const reread = () => set(grantRead(store.get(), seatGrant(id)));
  // Phones drop sockets of tabs in the background: when the page is seen
  // again, or the network is back, do not wait out the backoff.
  const wake = () => {
    if (!document.hidden) conn.retryNow();
  };
  window.addEventListener('storage', reread);
  document.addEventListener('visibilitychange', wake);
  window.addEventListener('online', wake);

  return () => {
    clearTimeout(lowTimer);
    set(left(store.get()));
    window.removeEventListener('storage', reread);
    document.removeEventListener('visibilitychange', wake);
    window.removeEventListener('online', wake);
    conn.close();
    banner(null);
  };
}
