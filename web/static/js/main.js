// Main: the router. "/" is the lobby, "/r/{id}" a room, "/?view=my-games"
// the games this browser played; links marked data-link change the page
// without reloading it.

import { mountLobby } from './lobby.js';
import { mountRoom } from './room.js';
import { mountMyGames } from './mygamespage.js';
import { h, replace } from './dom.js';
import { roomId, isMyGames } from './routes.js';
import { mountAlertSwitches } from './alerts.js';

/** @type {(() => void) | null} */
let unmount = null;


function route() {
  const root = /** @type {HTMLElement} */ (document.getElementById('app'));
  if (unmount) unmount();
  unmount = null;
  const path = location.pathname;
  const id = roomId(path);
  if (id) unmount = mountRoom(root, id, navigate);
  else if (isMyGames(path, location.search)) unmount = mountMyGames(root);
  else if (path === '/' || path === '/index.html') unmount = mountLobby(root, navigate);
  else {
    document.title = 'Not found · Board Hall';
    replace(root, h('main', { class: 'card not-found' }, h('h2', null, 'Page not found'), h('a', { class: 'button primary', href: '/', 'data-link': '' }, 'Back to the lobby')));
  }
  window.scrollTo(0, 0);
}

/**
 * navigate shows another page of the client without a reload.
 * @param {string} path
 */
export function navigate(path) {
  history.pushState(null, '', path);
  route();
}

document.addEventListener('click', (e) => {
  const a = /** @type {Element} */ (e.target).closest?.('a[data-link]');
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  navigate(a.getAttribute('href') || '/');
});
window.addEventListener('popstate', route);
mountAlertSwitches();
route();
