// Prefs: what the browser remembers between visits (localStorage): the
// player's name, its identity key, the chat's settings, the sound switch
// and, per room, the secret seat token.

import { isIdentityKey, newIdentityKey } from './identity.js';

/** KEY_PREFIX keeps our keys apart from anything else on the origin. */
const KEY_PREFIX = 'boardhall.';

/** NAME_MAX is the longest name the server accepts (docs/protocol.md, sit). */
export const NAME_MAX = 24;

/** @returns {Storage|null} */
function storage() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // storage disabled: the seat lasts as long as the tab
  }
}

/**
 * playerName returns the name to sit down with: the one saved, or a new
 * "Guest 1234" that is then saved.
 * @returns {string}
 */
export function playerName() {
  const s = storage();
  const saved = s?.getItem(KEY_PREFIX + 'name');
  if (saved && saved.trim()) return saved.trim().slice(0, NAME_MAX);
  const name = `Guest ${1000 + Math.floor(Math.random() * 9000)}`;
  s?.setItem(KEY_PREFIX + 'name', name);
  return name;
}

/**
 * savedName returns the name saved in this browser, or '' when there is none
 * (the seat card then asks for one instead of making one up).
 * @returns {string}
 */
export function savedName() {
  const saved = storage()?.getItem(KEY_PREFIX + 'name');
  return saved ? cleanName(saved) : '';
}

/**
 * setPlayerName saves the name (trimmed, at most NAME_MAX characters, without
 * control characters, which the server refuses).
 * @param {string} name
 * @returns {string} the name saved
 */
export function setPlayerName(name) {
  const clean = cleanName(name);
  if (clean) storage()?.setItem(KEY_PREFIX + 'name', clean);
  return clean;
}

/**
 * cleanName trims a name, drops control characters and cuts it to NAME_MAX characters.
 * @param {string} name
 * @returns {string}
 */
export function cleanName(name) {
  // eslint-disable-next-line no-control-regex
  return Array.from(String(name).replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim()).slice(0, NAME_MAX).join('').trim();
}

/**
 * @typedef {{token: string, seat: 'black'|'white'}} SeatGrant
 */

/**
 * seatGrant returns the saved seat token for a room, if any.
 * @param {string} room
 * @returns {SeatGrant|null}
 */
export function seatGrant(room) {
  const raw = storage()?.getItem(KEY_PREFIX + 'seat.' + room);
  if (!raw) return null;
  try {
    const g = JSON.parse(raw);
    return typeof g.token === 'string' && g.token ? g : null;
  } catch {
    return null;
  }
}

/**
 * saveSeatGrant keeps a room's seat token, or forgets it when grant is null.
 * @param {string} room
 * @param {SeatGrant|null} grant
 */
export function saveSeatGrant(room, grant) {
  const s = storage();
  if (!s) return;
  if (grant) s.setItem(KEY_PREFIX + 'seat.' + room, JSON.stringify(grant));
  else s.removeItem(KEY_PREFIX + 'seat.' + room);
}

/** @returns {Storage|null} */
function tabStorage() {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}

/**
 * saveSitIntent notes, for this tab only, the seat the creator of a room chose,
 * which the room page takes once it has joined.
 * @param {string} room
 * @param {'black'|'white'} seat
 */
export function saveSitIntent(room, seat) {
  tabStorage()?.setItem(KEY_PREFIX + 'sitOn.' + room, seat);
}

/**
 * takeSitIntent returns the seat saveSitIntent noted for a room, and forgets
 * it: a reload or a later visit seats no one by itself.
 * @param {string} room
 * @returns {'black'|'white'|null}
 */
export function takeSitIntent(room) {
  const s = tabStorage();
  const seat = s?.getItem(KEY_PREFIX + 'sitOn.' + room);
  s?.removeItem(KEY_PREFIX + 'sitOn.' + room);
  return seat === 'black' || seat === 'white' ? seat : null;
}

/**
 * @typedef {{muted: string[], hideSpectators: boolean}} ChatPrefs what the
 * browser keeps about the chat: the authors muted (chat lines' author ids)
 * and whether the spectators' lines are hidden
 */

/** MUTED_KEEP bounds the muted authors kept, oldest dropped first. */
const MUTED_KEEP = 500;

/**
 * chatPrefs returns the chat settings this browser keeps.
 * @returns {ChatPrefs}
 */
export function chatPrefs() {
  const raw = storage()?.getItem(KEY_PREFIX + 'chat');
  try {
    const p = raw ? JSON.parse(raw) : null;
    const muted = Array.isArray(p?.muted) ? p.muted.filter((/** @type {unknown} */ a) => typeof a === 'string') : [];
    return { muted, hideSpectators: p?.hideSpectators === true };
  } catch {
    return { muted: [], hideSpectators: false };
  }
}

/**
 * saveChatPrefs keeps the chat settings.
 * @param {ChatPrefs} p
 */
export function saveChatPrefs(p) {
  storage()?.setItem(KEY_PREFIX + 'chat', JSON.stringify({ muted: p.muted.slice(-MUTED_KEEP), hideSpectators: p.hideSpectators }));
}

/**
 * identityKey returns this browser's identity key (identity.js), made the
 * first time it is needed and kept from then on. Without storage the key
 * lasts as long as the page.
 * @returns {string}
 */
export function identityKey() {
  const s = storage();
  const kept = s?.getItem(KEY_PREFIX + 'identity');
  if (isIdentityKey(kept)) return kept;
  const key = newIdentityKey();
  try {
    s?.setItem(KEY_PREFIX + 'identity', key);
  } catch {
    // storage full or refused: the key serves this page only
  }
  return key;
}

/**
 * soundOn says whether the room page makes sounds (on unless switched off).
 * @returns {boolean}
 */
export function soundOn() {
  return storage()?.getItem(KEY_PREFIX + 'sound') !== 'off';
}

/**
 * setSoundOn keeps the sound switch.
 * @param {boolean} on
 */
export function setSoundOn(on) {
  storage()?.setItem(KEY_PREFIX + 'sound', on ? 'on' : 'off');
}
