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
