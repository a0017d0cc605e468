// MyGamesPage: the games this browser played, finished and under way
// (GET /api/my-games with its identity key), with how each stands and a link.
// It says plainly that the list hangs on the key this browser keeps.

import { h, replace } from './dom.js';
import { myGamesList } from './api.js';
import { identityKey } from './prefs.js';
import { myGames } from './mygames.js';
import { ProtocolError } from './errors.js';

/** @typedef {import('./mygames.js').MyGame} MyGame */

/**
 * mountMyGames draws the page into root and returns a function that stops it.
 * @param {HTMLElement} root
 * @returns {() => void}
 */
export function mountMyGames(root) {
  document.title = 'My games · Board Hall';
  let stopped = false;
  const running = h('ul', { class: 'room-list', id: 'my-running' }, h('li', { class: 'empty muted' }, 'Loading…'));
  const finished = h('ul', { class: 'room-list', id: 'my-finished' });
  replace(root, h('main', { class: 'my-games', id: 'my-games' },
    h('section', { class: 'card' },
      h('h1', null, 'My games'),
      h('p', { class: 'muted small', id: 'my-games-key' },
        'There are no accounts: this list is kept under a random key that this browser made and keeps. ',
        'Clearing this site’s data, or playing from another browser, loses the list, not the games: each stays at its own address.')),
    h('section', { class: 'card' }, h('h2', null, 'Under way'), running),
    h('section', { class: 'card' }, h('h2', null, 'Finished'), finished)));

  myGamesList(identityKey()).then(
    (games) => {
      if (stopped) return;
      const { running: r, finished: f } = myGames(games);
      fill(running, r, 'No game under way.');
      fill(finished, f, 'No finished game yet.');
    },
    (e) => {
      if (stopped) return;
      const err = e instanceof ProtocolError ? e : new ProtocolError('network');
      replace(running, h('li', { class: 'empty', role: 'alert' }, `Could not load your games: ${err.userText}`));
    },
  );
  return () => {
    stopped = true;
  };
}

/**
 * @param {HTMLElement} list
 * @param {MyGame[]} games
 * @param {string} empty
 */
function fill(list, games, empty) {
  replace(list, games.length ? games.map(item) : h('li', { class: 'empty muted' }, empty));
}

/**
 * item is one game: what it is, against whom, with which colour, how it stands.
 * @param {MyGame} g
 */
function item(g) {
  const action = g.status === 'finished' ? 'Replay' : 'Open';
  return h('li', { class: `room-item my-game my-${g.tone}`, dataset: { room: g.id, status: g.status, tone: g.tone } },
    h('div', { class: 'room-main' },
      h('span', { class: 'room-game' }, g.title),
      h('span', { class: 'room-seats' }, h('span', { class: `dot dot-${g.seat}`, 'aria-hidden': 'true' }), `You played ${g.seat} against ${g.opponent}`)),
    h('div', { class: 'room-meta' }, h('span', { class: 'my-outcome' }, g.outcome)),
    h('a', { class: 'button small', href: g.url, 'data-link': '', 'aria-label': `${action} ${g.title} against ${g.opponent}` }, action));
}
