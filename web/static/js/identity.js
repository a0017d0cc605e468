// Identity: this browser's identity key (docs/protocol.md, Identity and my
// games), pure: 32 random bytes in base64url, 43 characters, made once and
// kept by prefs.js. It is sent when taking a seat, pairing and creating a
// room; the server keeps only its hash. Losing it loses the list of one's
// games, not the games.

/** KEY_BYTES is the key's length in random bytes: 256 bits, not to be guessed. */
export const KEY_BYTES = 32;

/** KEY_PATTERN is a key as this client makes it: 43 base64url characters. */
export const KEY_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** SERVER_KEY_PATTERN is what the server accepts: 32 to 128 base64url characters. */
const SERVER_KEY_PATTERN = /^[A-Za-z0-9_-]{32,128}$/;

/**
 * base64url writes bytes in base64url without padding.
 * @param {Uint8Array} bytes
 * @returns {string}
 */
export function base64url(bytes) {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * newIdentityKey makes a key from KEY_BYTES random bytes.
 * @param {(bytes: Uint8Array) => Uint8Array} [fill] fills the array with random bytes (crypto.getRandomValues)
 * @returns {string}
 */
export function newIdentityKey(fill = (b) => globalThis.crypto.getRandomValues(b)) {
  return base64url(fill(new Uint8Array(KEY_BYTES)));
}

/**
 * isIdentityKey says whether a kept value is a key the server takes.
 * @param {unknown} key
 * @returns {key is string}
 */
export function isIdentityKey(key) {
  return typeof key === 'string' && SERVER_KEY_PATTERN.test(key);
}
