// Browser tests of the hall as a place (issue 14) and of hints on one's own
// turn (issue 12.8): chat between players with a spectator's lines apart, the
// games this browser played listed after a reload, quick pairing of two
// browsers. The real server, the real client, real chromium; every wait is
// on the page's state or a message, never on the clock.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  chromiumMissing, browserSuite, roomState, waitRoom, shot, openPerson,
} from './harness.js';

const missing = chromiumMissing();
if (missing) console.log(`# skipping the browser tests: ${missing}`);

/** VIEWPORT is a desktop window. */
const VIEWPORT = { width: 1280, height: 900 };

describe('the hall in chromium', { skip: missing || false }, () => {
  // Quick pairing offers a bot after 8 s alone instead of the default 30 s: long enough
  // for the two-browser pairing test to meet, short enough not to idle.
  const suite = browserSuite(['-pair-wait', '8s']);

  /**
   * person opens a fresh browser context with its own storage (harness.js openPerson).
   * @param {string} name
   */
  function person(name) {
    return openPerson(suite.browser, name, suite.pageErrors, { baseURL: suite.server.url, viewport: VIEWPORT });
  }

  /**
   * createRoom fills the lobby form (Reversi) and returns the room id once the page shows the room.
   * @param {import('playwright-core').Page} page
   * @param {{opponent?: 'open'|'bot', level?: number}} [o]
   */
  async function createRoom(page, o = {}) {
    await page.goto('/');
    await page.locator('.create-form').getByText('Reversi', { exact: true }).click();
    await page.locator('input[name=colour][value=black]').check({ force: true });
    await page.locator(`input[name=opponent][value=${o.opponent || 'open'}]`).check({ force: true });
    if (o.level) await page.locator('#bot-level').fill(String(o.level));
    await page.locator('#create-room').click();
    await page.waitForURL(/\/r\/[A-Za-z0-9_-]+$/);
    await page.locator('#room').waitFor();
    return (await roomState(page))?.room || '';
  }

  /**
   * lines reads the chat lines a page shows in one tab's list, as text.
   * @param {import('playwright-core').Page} page
   * @param {'players'|'spectators'} tab
   */
  async function lines(page, tab) {
    return page.locator(`#chat-${tab} .chat-line .chat-text`).allTextContents();
  }

  test('two people chat; a spectator\'s line is shown apart, can be hidden, and its author muted; the lobby is pushed; hints on one\'s own turn only', async () => {
    const ann = await person('Ann');
    const id = await createRoom(ann);
    await waitRoom(ann, { seat: 'black' });
    const bob = await person('Bob');
    await bob.goto(`/r/${id}`);
    await bob.locator('#sit-white').click();
    await waitRoom(bob, { seat: 'white', status: 'playing' });

    await waitRoom(ann, { seat: 'black', status: 'playing' });
    // A quick message, and a line with markup, which stays text.
    await ann.locator('#chat [data-quick="Good luck"]').click();
    await bob.locator('#chat-players .chat-text', { hasText: 'Good luck' }).waitFor();
    await bob.locator('#chat-input').fill('<b>you too</b>');
    await bob.locator('#chat-send').click();
    await ann.locator('#chat-players .chat-text', { hasText: '<b>you too</b>' }).waitFor();
    assert.equal(await ann.locator('#chat-players b').count(), 0, 'markup is shown as text');
    assert.equal(await ann.locator('#chat-players .chat-who').last().textContent(), 'Bob (white): ');

    // The lobby is pushed: Carol sees the game live, and its first ply, without a reload.
    const carol = await person('');
    await carol.goto('/');
    const item = carol.locator(`#live-rooms [data-room="${id}"]`);
    await item.locator('.room-plies', { hasText: '0 plies' }).waitFor();
    await ann.locator('.cell.legal').first().click();
    await item.locator('.room-plies', { hasText: '1 ply' }).waitFor();
    // Hints are shown only on one's own turn (12.8): Bob's now, not Ann's.
    await waitRoom(ann, { plies: 1, toMove: 'white' });
    await waitRoom(bob, { plies: 1, toMove: 'white' });
    assert.equal(await ann.locator('.cell.legal').count(), 0, 'no hints for the side not to move');
    assert.ok(await bob.locator('.cell.legal').count() > 0, 'hints for the side to move');
    assert.equal(await item.locator('.room-watching').textContent(), ' 0 spectators');

    // Carol watches, gives a name and speaks: her line is in the spectators' tab.
    await item.getByRole('link').click();
    await waitRoom(carol, { room: id, seat: '' });
    assert.deepEqual(await lines(carol, 'players'), ['Good luck', '<b>you too</b>'], 'a late viewer gets the recent lines');
    await carol.locator('#chat-name').fill('');
    await carol.locator('#chat-input').fill('nice opening');
    await carol.locator('#chat-send').click();
    await carol.locator('.toast', { hasText: 'Give a name' }).waitFor();
    await carol.locator('#chat-name').fill('Carol');
    await carol.locator('#chat-send').click();
    await carol.locator('#chat-spectators .chat-text', { hasText: 'nice opening' }).waitFor();
    assert.equal(await carol.evaluate(() => localStorage.getItem('boardhall.name')), 'Carol', 'the name is remembered');

    await ann.locator('#chat-tab-spectators', { hasText: 'Spectators (1)' }).waitFor();
    assert.deepEqual(await lines(ann, 'players'), ['Good luck', '<b>you too</b>'], 'the players\' tab holds only the players');
    await ann.locator('#chat-tab-spectators').click();
    assert.deepEqual(await lines(ann, 'spectators'), ['nice opening']);
    await shot(ann, 'chat.png');

    // Ann hides the spectators' lines; the choice outlives a reload.
    await ann.locator('#chat-hide-spectators').check();
    await ann.locator('#chat-tab-spectators').waitFor({ state: 'hidden' });
    await ann.locator('#chat-spectators').waitFor({ state: 'hidden' });
    await ann.reload();
    await waitRoom(ann, { seat: 'black' });
    await ann.locator('#chat-players .chat-text', { hasText: 'Good luck' }).waitFor();
    assert.equal(await ann.locator('#chat-tab-spectators').isVisible(), false);
    assert.equal(await ann.locator('#chat-hide-spectators').isChecked(), true);

    // Bob mutes Carol: her lines are gone from his page, and come back when unmuted.
    await bob.locator('#chat-tab-spectators').click();
    await bob.locator('#chat-spectators .chat-line', { hasText: 'nice opening' }).getByRole('button', { name: 'Mute Carol' }).click();
    await bob.locator('#chat-spectators .chat-text', { hasText: 'nice opening' }).waitFor({ state: 'detached' });
    await bob.locator('#chat-muted', { hasText: '1 line from muted people hidden' }).waitFor();
    await bob.locator('#chat-unmute-all').click();
    await bob.locator('#chat-spectators .chat-text', { hasText: 'nice opening' }).waitFor();

    // Too fast: the refusal is said in words.
    for (const t of ['1', '2', '3', '4', '5']) {
      await bob.locator('#chat-input').fill(t);
      await bob.locator('#chat-send').click();
    }
    await bob.locator('.toast[data-code="rate_limited"]', { hasText: 'one line a second' }).first().waitFor();

    await ann.context().close();
    await bob.context().close();
    await carol.context().close();
  });

  test('My games lists a finished game after a reload; the sound switch is kept', async () => {
    const gil = await person('Gil');
    const id = await createRoom(gil, { opponent: 'bot', level: 1 });
    await waitRoom(gil, { seat: 'black', toMove: 'black' });
    await gil.locator('.cell.legal').first().click();
    await waitRoom(gil, { plies: 2, toMove: 'black' });
    await gil.locator('#btn-resign').click();
    await gil.locator('#btn-resign', { hasText: 'Really resign?' }).click();
    await waitRoom(gil, { status: 'finished', result: 'resign' });
    const key = await gil.evaluate(() => localStorage.getItem('boardhall.identity'));
    assert.match(key || '', /^[A-Za-z0-9_-]{43}$/, 'the identity key was made and kept');

    await gil.locator('#nav-my-games').click();
    await gil.waitForURL(/\?view=my-games$/);
    await gil.reload();
    const item = gil.locator(`#my-finished [data-room="${id}"]`);
    await item.waitFor();
    assert.match(await item.locator('.my-outcome').textContent() || '', /^Lost \d+–\d+ by resignation$/);
    assert.match(await gil.locator('#my-games-key').textContent() || '', /loses the list, not the games/);
    await shot(gil, 'my-games.png');
    // The sound switch is kept in the browser.
    assert.equal(await gil.locator('#sound-toggle').getAttribute('aria-pressed'), 'true');
    await gil.locator('#sound-toggle').click();
    assert.equal(await gil.locator('#sound-toggle').getAttribute('aria-pressed'), 'false');
    await gil.reload();
    await item.waitFor();
    assert.equal(await gil.locator('#sound-toggle').getAttribute('aria-pressed'), 'false');
    assert.equal(await gil.locator('#sound-toggle').textContent(), 'Sound off');
    await item.getByRole('link').click();
    await waitRoom(gil, { room: id, status: 'finished' });

    // Another browser has another key, and so another list.
    const hal = await person('Hal');
    await hal.goto('/?view=my-games');
    await hal.locator('#my-finished .empty').waitFor();
    assert.equal(await hal.locator(`[data-room="${id}"]`).count(), 0);
    await gil.context().close();
    await hal.context().close();
  });

  test('quick pairing: a cancel leaves the queue; two browsers asking the same are seated in one room', async () => {
    const ivy = await person('Ivy');
    await ivy.goto('/');
    await ivy.locator('.create-form').getByText('Reversi', { exact: true }).click();
    await ivy.locator('#time-control').selectOption({ label: '3+2' });
    await ivy.locator('#play-now').click();
    await ivy.locator('#pairing-text', { hasText: 'Looking for an opponent for Reversi · 3+2' }).waitFor();
    await ivy.locator('#pair-cancel').click();
    await ivy.locator('#pairing').waitFor({ state: 'hidden' });

    const jon = await person('Jon');
    await jon.goto('/');
    await jon.locator('.create-form').getByText('Reversi', { exact: true }).click();
    await jon.locator('#time-control').selectOption({ label: '3+2' });
    await jon.locator('#play-now').click();
    await jon.locator('#pairing-text', { hasText: 'Looking for an opponent' }).waitFor();
    await ivy.locator('#play-now').click();
    await ivy.waitForURL(/\/r\/[A-Za-z0-9_-]+$/);
    await jon.waitForURL(/\/r\/[A-Za-z0-9_-]+$/);
    assert.equal(new URL(ivy.url()).pathname, new URL(jon.url()).pathname, 'one room');
    await waitRoom(ivy, { status: 'playing' });
    await waitRoom(jon, { status: 'playing' });
    const a = await roomState(ivy);
    const b = await roomState(jon);
    assert.deepEqual([a.seat, b.seat].sort(), ['black', 'white'], 'each in a seat of their own');
    assert.match(await ivy.locator('.room-title').textContent() || '', /Reversi · 3\+2/);
    // The pairing's token is the seat grant: a reload keeps the seat.
    await jon.reload();
    await waitRoom(jon, { seat: b.seat });
    await ivy.context().close();
    await jon.context().close();
  });

  test('a renju board explains its forbidden cross; a Reversi board has no such legend', async () => {
    const kim = await person('Kim');
    await kim.goto('/');
    await kim.locator('.create-form').getByText('Gomoku', { exact: true }).click();
    await kim.locator('#gomoku-rule').selectOption('renju');
    await kim.locator('input[name=opponent][value=bot]').check({ force: true });
    await kim.locator('#create-room').click();
    await kim.waitForURL(/\/r\/[A-Za-z0-9_-]+$/);
    await waitRoom(kim, { seat: 'black' });
    assert.match(await kim.locator('#renju-legend').textContent() || '', /cross marks a point black may not play under renju/);
    await createRoom(kim);
    await waitRoom(kim, { seat: 'black' });
    assert.equal(await kim.locator('#renju-legend').count(), 0);
    await kim.context().close();
  });

  test('quick pairing with nobody else: a bot of the level offered, in a room made for it', async () => {
    const lea = await person('Lea');
    await lea.goto('/');
    await lea.locator('.create-form').getByText('Gomoku', { exact: true }).click();
    await lea.locator('#gomoku-size').selectOption('19');
    await lea.locator('#play-now').click();
    await lea.locator('#pairing-text', { hasText: 'Looking for an opponent for Gomoku 19×19 · freestyle' }).waitFor();
    // The server waits 8 s (-pair-wait, above) for a second person before it offers a bot.
    await lea.locator('#pair-bot').waitFor({ timeout: 30_000 });
    const offer = await lea.locator('#pairing-text').textContent() || '';
    const level = (/level (\d+)/.exec(offer) || [])[1];
    assert.ok(level, offer);
    await lea.locator('#pair-bot').click();
    await lea.waitForURL(/\/r\/[A-Za-z0-9_-]+$/);
    await lea.locator('#room').waitFor();
    await lea.waitForFunction(() => /^(black|white)$/.test(document.getElementById('room')?.dataset.seat || ''));
    const me = (await roomState(lea)).seat;
    const bot = me === 'black' ? 'white' : 'black';
    await lea.locator(`#player-${bot} .badge.bot`, { hasText: `level ${level}` }).waitFor();
    assert.match(await lea.locator('.room-title').textContent() || '', /Gomoku 19×19/);
    await lea.context().close();
  });
});
