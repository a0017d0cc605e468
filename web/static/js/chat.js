// Chat: a room's chat lines, pure. The lines as the server sent them (joined
// and chat messages), split into the players' and the spectators' (shown
// apart, as lichess does), without the authors this browser muted; the quick
// messages; a line checked before it is sent. Nothing here touches the DOM:
// chatpanel.js draws it, session.js keeps it.

/**
 * @typedef {object} ChatLine a line as docs/protocol.md (Chat) sends it
 * @property {string} id
 * @property {string} time
 * @property {'black'|'white'|null} seat the speaker's seat; null for a spectator
 * @property {string} name
 * @property {string} author an opaque id of the sender, the same for the same browser
 * @property {string} text plain text, shown as text and never as HTML
 */

/** CHAT_MAX is the longest line the server takes, in characters. */
export const CHAT_MAX = 140;

/** CHAT_KEEP is how many lines a room keeps (the server's last 200), and so the page. */
export const CHAT_KEEP = 200;

/** QUICK_MESSAGES are the lines a player sends with one click. */
export const QUICK_MESSAGES = Object.freeze(['Hi', 'Good luck', 'Good game', 'Thanks']);

/**
 * isLine says whether a value has the fields of a chat line (a line from an
 * older or newer server that does not is left out rather than shown wrong).
 * @param {any} l
 * @returns {l is ChatLine}
 */
function isLine(l) {
  return l != null && typeof l.id === 'string' && typeof l.text === 'string' && typeof l.author === 'string';
}

/**
 * chatJoined is the chat after a join: the room's recent lines, oldest first
 * (joined.chat), which replace what the page had.
 * @param {unknown} lines joined.chat
 * @returns {ChatLine[]}
 */
export function chatJoined(lines) {
  return Array.isArray(lines) ? lines.filter(isLine).slice(-CHAT_KEEP) : [];
}

/**
 * chatAdded is the chat with one more line; the same array when the line is
 * already there (a join that raced the chat message) or is not a line.
 * @param {ChatLine[]} lines
 * @param {unknown} line
 * @returns {ChatLine[]}
 */
export function chatAdded(lines, line) {
  if (!isLine(line) || lines.some((l) => l.id === line.id)) return lines;
  return [...lines, line].slice(-CHAT_KEEP);
}

/**
 * @typedef {object} ChatView what the chat shows
 * @property {ChatLine[]} players the players' lines, the muted left out
 * @property {ChatLine[]} spectators the spectators' lines, the muted left out
 * @property {number} hidden how many lines muting left out
 */

/**
 * chatView splits the lines into the players' and the spectators', leaving
 * out those of the authors muted in this browser.
 * @param {ChatLine[]} lines
 * @param {readonly string[]} muted authors
 * @returns {ChatView}
 */
export function chatView(lines, muted) {
  const mute = new Set(muted);
  /** @type {ChatView} */
  const v = { players: [], spectators: [], hidden: 0 };
  for (const l of lines) {
    if (mute.has(l.author)) v.hidden++;
    else (l.seat ? v.players : v.spectators).push(l);
  }
  return v;
}

/**
 * muteToggled mutes an author, or unmutes one who was muted.
 * @param {readonly string[]} muted
 * @param {string} author
 * @returns {string[]}
 */
export function muteToggled(muted, author) {
  return muted.includes(author) ? muted.filter((a) => a !== author) : [...muted, author];
}

/**
 * speaker names a line's author: "Ann (black)" for a player, the name given for a spectator.
 * @param {ChatLine} line
 * @returns {string}
 */
export function speaker(line) {
  return line.seat ? `${line.name || line.seat} (${line.seat})` : line.name || 'Spectator';
}

/**
 * chatText checks a line before it is sent: trimmed, control characters
 * turned to spaces (the server refuses them), at most CHAT_MAX characters.
 * @param {string} text
 * @returns {{text: string} | {error: string}}
 */
export function chatText(text) {
  // eslint-disable-next-line no-control-regex
  const clean = String(text).replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').trim();
  if (!clean) return { error: 'Write something first.' };
  const n = Array.from(clean).length;
  if (n > CHAT_MAX) return { error: `A line is at most ${CHAT_MAX} characters (this one has ${n}).` };
  return { text: clean };
}

/**
 * chatRefusal says in words why the server refused a line.
 * @param {string} code
 * @param {string} serverMessage the server's own words, if any
 * @param {string} fallback the error's general sentence (errors.js)
 * @returns {string}
 */
export function chatRefusal(code, serverMessage, fallback) {
  switch (code) {
    case 'rate_limited':
      return 'Not so fast: one line a second, three at most in a row. That line was not sent.';
    case 'bad_request':
      return `That line was not sent: ${serverMessage || `a line is 1 to ${CHAT_MAX} characters of text, and a spectator gives a name`}.`;
    default:
      return fallback;
  }
}
