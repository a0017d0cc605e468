// ChatPanel: the room's chat as a part of the panel. The players' lines and
// the spectators' lines in two tabs (as lichess keeps its spectator room
// apart), a switch for a player to hide the spectators' lines, a mute button
// on each line, the quick messages, and the line to write (with a name for a
// spectator, remembered in the browser). Lines are text nodes, never HTML.
// What it shows comes from the session (chat.js chatView); it keeps only
// which tab is open.

import { h, replace } from './dom.js';
import { changes } from './part.js';
import { chatView, speaker, QUICK_MESSAGES, CHAT_MAX } from './chat.js';
import { savedName, NAME_MAX } from './prefs.js';

/** @typedef {import('./part.js').Part} Part */
/** @typedef {import('./part.js').RoomActions} RoomActions */
/** @typedef {import('./chat.js').ChatLine} ChatLine */

/** @typedef {'players'|'spectators'} ChatTab */

/**
 * chatPart is the chat.
 * @param {RoomActions} actions
 * @returns {Part}
 */
export function chatPart(actions) {
  /** @type {ChatTab|null} the tab chosen by a click; until then, the speaker's own */
  let chosen = null;
  const tabs = /** @type {Record<ChatTab, HTMLElement>} */ ({
    players: h('button', { type: 'button', role: 'tab', class: 'chat-tab', id: 'chat-tab-players', 'aria-controls': 'chat-players' }),
    spectators: h('button', { type: 'button', role: 'tab', class: 'chat-tab', id: 'chat-tab-spectators', 'aria-controls': 'chat-spectators' }),
  });
  const lists = /** @type {Record<ChatTab, HTMLElement>} */ ({
    players: h('ol', { class: 'chat-lines', id: 'chat-players', role: 'tabpanel', 'aria-labelledby': 'chat-tab-players', 'aria-live': 'polite', tabindex: 0 }),
    spectators: h('ol', { class: 'chat-lines', id: 'chat-spectators', role: 'tabpanel', 'aria-labelledby': 'chat-tab-spectators', 'aria-live': 'polite', tabindex: 0 }),
  });
  const hide = /** @type {HTMLInputElement} */ (h('input', { type: 'checkbox', id: 'chat-hide-spectators' }));
  const hideRow = h('label', { class: 'chat-hide small' }, hide, ' Hide the spectators’ lines');
  const mutedRow = h('p', { class: 'chat-muted small muted', id: 'chat-muted' });
  const quick = h('div', { class: 'chat-quick', role: 'group', 'aria-label': 'Quick messages' },
    QUICK_MESSAGES.map((text) => h('button', { type: 'button', class: 'button small', dataset: { quick: text }, onclick: () => say(text) }, text)));
  const name = /** @type {HTMLInputElement} */ (h('input', {
    id: 'chat-name', name: 'chat-name', maxlength: NAME_MAX, autocomplete: 'nickname', placeholder: 'Your name', value: savedName(),
  }));
  const nameRow = h('label', { class: 'chat-name small', for: 'chat-name' }, 'Your name (spectators speak with one) ', name);
  const input = /** @type {HTMLInputElement} */ (h('input', {
    id: 'chat-input', name: 'chat', maxlength: CHAT_MAX, autocomplete: 'off', placeholder: 'Say something', 'aria-label': 'Chat line',
  }));
  const form = h('form', { class: 'chat-form', 'aria-label': 'Send a chat line' },
    input, h('button', { type: 'submit', class: 'button small', id: 'chat-send' }, 'Send'));
  const el = h('section', { class: 'card chat', id: 'chat', 'aria-label': 'Chat' },
    h('h2', null, 'Chat'),
    h('div', { class: 'chat-tabs', role: 'tablist', 'aria-label': 'Whose lines' }, tabs.players, tabs.spectators),
    hideRow, lists.players, lists.spectators, mutedRow, quick, nameRow, form);

  /** @param {string} text */
  function say(text) {
    actions.chat(text, name.value);
  }
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (actions.chat(input.value, name.value)) input.value = '';
  });
  hide.addEventListener('change', () => actions.hideSpectators(hide.checked));
  for (const tab of /** @type {ChatTab[]} */ (['players', 'spectators'])) {
    tabs[tab].addEventListener('click', () => {
      chosen = tab;
      actions.redraw();
    });
  }

  const changed = changes();
  return {
    el,
    draw({ session, me }) {
      const { chat, muted, hideSpectators } = session;
      const hidden = !!me && hideSpectators;
      const open = hidden ? 'players' : chosen ?? (me ? 'players' : 'spectators');
      if (!changed([chat.length && chat[chat.length - 1].id, chat.length, muted, hidden, open, me])) return;
      const v = chatView(chat, muted);
      hideRow.hidden = !me;
      hide.checked = hideSpectators;
      nameRow.hidden = !!me;
      tabs.spectators.hidden = hidden;
      replace(tabs.players, `Players (${v.players.length})`);
      replace(tabs.spectators, `Spectators (${v.spectators.length})`);
      for (const tab of /** @type {ChatTab[]} */ (['players', 'spectators'])) {
        tabs[tab].setAttribute('aria-selected', String(tab === open));
        tabs[tab].classList.toggle('active', tab === open);
        lists[tab].hidden = tab !== open;
        const lines = v[tab];
        replace(lists[tab], lines.length
          ? lines.map((l) => lineItem(l, me))
          : h('li', { class: 'empty muted small' }, tab === 'players' ? 'The players have said nothing yet.' : 'No spectator has spoken.'));
        lists[tab].scrollTop = lists[tab].scrollHeight;
      }
      mutedRow.hidden = !muted.length;
      replace(mutedRow, v.hidden ? `${v.hidden} ${v.hidden === 1 ? 'line' : 'lines'} from muted people hidden. ` : `${muted.length} muted. `,
        h('button', { type: 'button', class: 'linkish', id: 'chat-unmute-all', onclick: () => actions.unmuteAll() }, 'Unmute all'));
    },
  };

  /**
   * lineItem is one line: who said it, the text (as text), and a mute button
   * unless it is this player's own.
   * @param {ChatLine} l
   * @param {string|null} me
   */
  function lineItem(l, me) {
    const who = speaker(l);
    return h('li', { class: `chat-line${l.seat ? ` chat-${l.seat}` : ''}`, dataset: { author: l.author, id: l.id } },
      h('span', { class: 'chat-who' }, who, ': '),
      h('span', { class: 'chat-text' }, l.text),
      l.seat && l.seat === me ? null : h('button', {
        type: 'button', class: 'chat-mute', title: `Mute ${who} for you`, 'aria-label': `Mute ${who}`, onclick: () => actions.mute(l.author),
      }, 'Mute'));
  }
}
