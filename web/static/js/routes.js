// Routes: which page a path shows.

/**
 * roomId returns the room id of a "/r/{id}" path, or null.
 * @param {string} path
 * @returns {string|null}
 */
export function roomId(path) {
  const m = /^\/r\/([A-Za-z0-9_-]{1,64})\/?$/.exec(path);
  return m ? m[1] : null;
}

/** MY_GAMES is the address of the games this browser played: the server serves the page at "/" and "/r/{id}" only, so it is a query of "/". */
export const MY_GAMES = '/?view=my-games';

/**
 * isMyGames says whether a path and query show the games this browser played.
 * @param {string} path
 * @param {string} search location.search
 * @returns {boolean}
 */
export function isMyGames(path, search) {
  return (path === '/' || path === '/index.html') && new URLSearchParams(search).get('view') === 'my-games';
}
