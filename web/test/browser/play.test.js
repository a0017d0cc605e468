// Browser tests of playing people for real (issue 11): clocks, an opponent
// who leaves and the claim that follows, invitations that seat no one by
// themselves, draw offers, abort, and a rematch that swaps colours and keeps
// the first game at its own address. The real server, the real client, real
// chromium; every wait is on the page's state, never on the clock.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  chromiumMissing, browserSuite, roomState, waitRoom, shot, openPerson, watchErrors,
} from './harness.js';

const missing = chromiumMissing();
if (missing) console.log(`# skipping the browser tests: ${missing}`);

/** VIEWPORT is a desktop window. */
const VIEWPORT = { width: 1280, height: 820 };

/**
 * CLAIM_GRACE is the server's grace period here: how long a player may be
 * gone before the opponent may claim. Short, so that the abandoned-game test
 * takes seconds rather than the 15 s a 1+0 game has by default.
 */
const CLAIM_GRACE = '2s';

describe('playing people in chromium', { skip: missing || false }, () => {
  const suite = browserSuite(['-claim-grace', CLAIM_GRACE]);

  /**
   * person opens a fresh browser context with its own storage, recording every
   * toast it shows (harness.js openPerson).
   * @param {string} name
   */
  function person(name) {
    return openPerson(suite.browser, name, suite.pageErrors, { baseURL: suite.server.url, viewport: VIEWPORT });
  }

  /**
   * createRoom fills the lobby form and returns the room id once the page shows the room.
   * @param {import('playwright-core').Page} page
   * @param {{colour?: 'black'|'white'|'random', clock?: string}} o clock: the time control's option text
   */
  async function createRoom(page, o = {}) {
    await page.goto('/');
    await page.locator('.create-form').getByText('Reversi', { exact: true }).click();
    await page.locator(`input[name=colour][value=${o.colour || 'black'}]`).check({ force: true });
    await page.locator('input[name=opponent][value=open]').check({ force: true });
    if (o.clock) await page.locator('#time-control').selectOption({ label: o.clock });
    await page.locator('#create-room').click();
    await page.waitForURL(/\/r\/[A-Za-z0-9_-]+$/);
    await page.locator('#room').waitFor();
    return (await roomState(page))?.room || '';
  }

  /**
   * toastSeen waits until a page has shown a toast with this text.
   * @param {import('playwright-core').Page} page
   * @param {string} text
   */
  async function toastSeen(page, text) {
    await page.waitForFunction((t) => /** @type {any} */ (window).__toastsSeen.includes(t), text);
  }

  /**
   * play makes a legal move on the page whose turn it is and waits until the
   * other page shows it.
   * @param {import('playwright-core').Page} mover
   * @param {import('playwright-core').Page} other
   */
  async function play(mover, other) {
    const s = await roomState(mover);
    await waitRoom(mover, { toMove: s.seat });
    await mover.locator('.cell.legal').first().click();
    await waitRoom(other, { plies: s.plies + 1 });
    await waitRoom(mover, { plies: s.plies + 1 });
  }

  test('a 1+0 game: clocks count down; one player closes the tab, the other is told and claims the win', async () => {
    const ann = await person('Ann');
    const id = await createRoom(ann, { clock: '1+0' });
    await waitRoom(ann, { seat: 'black', status: 'waiting' });
    assert.match(await ann.locator('.room-title').textContent() || '', /Reversi · 1\+0/);
    // No clock runs while a seat waits for a person.
    assert.equal(await ann.locator('#clock-black-time').textContent(), '1:00');
    assert.equal(await ann.locator('#clock-white-time').textContent(), '1:00');
    assert.equal(await ann.locator('.clock.running').count(), 0);

    const bob = await person('Bob');
    await bob.goto(`/r/${id}`);
    await bob.locator('#sit-white').click();
    await waitRoom(bob, { seat: 'white', status: 'playing' });
    await ann.locator('#presence-white.online').waitFor();

    // Black's first move has its own limit, counted down on the page.
    await ann.locator('#first-move', { hasText: 'Black has' }).waitFor();
    await ann.waitForFunction(() => /Black has 0:(2\d|1\d) to make a first move/.test(document.getElementById('first-move')?.textContent || ''));
    await play(ann, bob);
    await bob.locator('#first-move', { hasText: 'White has' }).waitFor();
    await play(bob, ann);
    // From its second move on, a side's own clock runs: black's, now.
    await ann.locator('#clock-black.running').waitFor();
    await ann.locator('#first-move').waitFor({ state: 'hidden' });
    await ann.waitForFunction(() => {
      const t = document.getElementById('clock-black-time')?.textContent || '';
      return /^0:5\d$/.test(t);
    });
    assert.equal(await bob.locator('#clock-white-time').textContent(), '1:00', 'the side not to move stands still');
    await shot(ann, 'clocks.png');
    await play(ann, bob);
    await bob.locator('#clock-white.running').waitFor();

    // Bob closes his tab: Ann is told, and may claim once the grace period is over.
    await bob.context().close();
    await toastSeen(ann, 'Bob (white) left the game.');
    await ann.locator('#presence-white.offline').waitFor();
    await ann.locator('#claim-box').waitFor();
    await ann.locator('#btn-claim-win').waitFor({ timeout: 30_000 });
    // Two moves each were not played yet: abort is still offered.
    assert.equal(await ann.locator('#btn-claim-abort').count(), 1);
    assert.equal(await ann.locator('#btn-claim-bot').count(), 1);
    await ann.locator('#btn-claim-win').click();
    await waitRoom(ann, { status: 'finished', result: 'abandoned' });
    assert.equal(await ann.locator('#result').textContent(), 'Black wins: White left the game.');
    await ann.locator('#claim-box').waitFor({ state: 'hidden' });
    assert.equal(await ann.locator('.clock.running').count(), 0, 'the clocks stop with the game');
    await ann.context().close();
  });

  test('a player who left and came back is told of; one who stays away gets a bot in the seat', async () => {
    const ann = await person('Ann');
    const id = await createRoom(ann, {});
    const bob = await person('Bob');
    await bob.goto(`/r/${id}`);
    await bob.locator('#sit-white').click();
    await waitRoom(bob, { seat: 'white', status: 'playing' });
    await play(ann, bob);

    // Bob closes his tab and opens the room again: his browser keeps the seat.
    await bob.close();
    await toastSeen(ann, 'Bob (white) left the game.');
    await ann.locator('#presence-white.offline').waitFor();
    const again = await bob.context().newPage();
    watchErrors(again, 'Bob again', suite.pageErrors);
    await again.goto(`/r/${id}`);
    await waitRoom(again, { seat: 'white' });
    await toastSeen(ann, 'Bob is back.');
    await ann.locator('#presence-white.online').waitFor();
    await ann.locator('#claim-box').waitFor({ state: 'hidden' });

    // He leaves for good: once the grace period is over Ann hands his seat to a bot, which plays on.
    await again.close();
    await ann.locator('#btn-claim-bot').waitFor({ timeout: 30_000 });
    await ann.locator('#claim-bot-level').selectOption('1');
    await ann.locator('#btn-claim-bot').click();
    await ann.locator('#player-white .badge.bot', { hasText: 'level 1' }).waitFor();
    await waitRoom(ann, { plies: 2, toMove: 'black' });
    await ann.locator('#claim-box').waitFor({ state: 'hidden' });
    await bob.context().close();
    await ann.context().close();
  });

  test('an invite link seats no one until they ask; the creator chooses the colour and may cancel', async () => {
    const ann = await person('Ann');
    const id = await createRoom(ann, { colour: 'white' });
    await waitRoom(ann, { seat: 'white', status: 'waiting' });
    assert.match(await ann.locator('.invite-hint').textContent() || '', /take the open seat when they choose/);

    // A second browser opens the link: it watches, and is offered the seat.
    const bob = await person('');
    await bob.goto(`/r/${id}`);
    await waitRoom(bob, { room: id, seat: '' });
    await bob.locator('#seat-offer', { hasText: 'Ann invites you to play black.' }).waitFor();
    assert.equal(await bob.locator('#sit-name').inputValue(), '', 'no name is made up');
    // A third opens it too: nobody has sat down by opening the link.
    const carol = await person('Carol');
    await carol.goto(`/r/${id}`);
    await waitRoom(carol, { room: id, seat: '' });
    assert.equal(await carol.locator('#sit-name').inputValue(), 'Carol', 'the name this browser remembers');
    await ann.locator('#player-black .player-name', { hasText: 'Open seat' }).waitFor();
    assert.equal((await roomState(ann)).status, 'waiting');
    await shot(bob, 'invite.png');

    // A seat needs a name.
    await bob.locator('#sit-black').click();
    await bob.locator('.toast', { hasText: 'Please enter a name' }).waitFor();
    assert.equal((await roomState(bob)).seat, '');
    await bob.locator('#sit-name').fill('Bobby');
    await bob.locator('#sit-black').click();
    await waitRoom(bob, { seat: 'black', status: 'playing' });
    assert.equal(await bob.evaluate(() => localStorage.getItem('boardhall.name')), 'Bobby', 'the name is remembered');
    await ann.locator('#player-black .player-name', { hasText: 'Bobby' }).waitFor();
    // Carol just watches now.
    await carol.locator('#seat-offer').waitFor({ state: 'hidden' });
    await carol.locator('.spectating').waitFor();
    await waitRoom(carol, { seat: '', status: 'playing' });
    for (const p of [ann, bob, carol]) await p.context().close();

    // Dan creates a room and calls the invitation off: he stands up and leaves.
    const dan = await person('Dan');
    const gone = await createRoom(dan, {});
    await waitRoom(dan, { seat: 'black' });
    await dan.locator('#btn-cancel-invite').click();
    await dan.locator('#create-room').waitFor();
    await toastSeen(dan, 'Invitation cancelled: you left the room.');
    const record = await (await fetch(`${suite.server.url}/api/rooms/${gone}`)).json();
    assert.equal(record.state.seats.black.kind, 'open', 'the seat was given up');
    await dan.context().close();
  });

  test('a draw offer declined, then accepted; a rematch swaps colours and the first game stays viewable', async () => {
    const ann = await person('Ann');
    const id = await createRoom(ann, {});
    const bob = await person('Bob');
    await bob.goto(`/r/${id}`);
    await bob.locator('#sit-white').click();
    await waitRoom(bob, { seat: 'white', status: 'playing' });
    await waitRoom(ann, { seat: 'black', status: 'playing' });
    await play(ann, bob);
    await play(bob, ann);

    // Ann offers a draw: Bob declines, then accepts the second offer.
    await ann.locator('#btn-draw').click();
    await bob.locator('#draw-box', { hasText: 'Black offers a draw.' }).waitFor();
    await bob.locator('#draw-decline').click();
    await toastSeen(ann, 'Your draw offer was declined.');
    await ann.locator('#draw-box').waitFor({ state: 'hidden' });
    await ann.locator('#btn-draw').click();
    await ann.locator('#draw-box', { hasText: 'Draw offered' }).waitFor();
    await bob.locator('#draw-accept').click();
    for (const p of [ann, bob]) await waitRoom(p, { status: 'finished', result: 'agreement' });
    assert.equal(await ann.locator('#result').textContent(), 'Draw by agreement.');

    // Bob offers a rematch; Ann accepts. Both pages follow to the next game, colours swapped.
    await bob.locator('#btn-rematch').click();
    await ann.locator('#rematch-box', { hasText: 'White offers a rematch' }).waitFor();
    await ann.locator('#rematch-accept').click();
    await waitRoom(ann, { gameNo: 2, prev: id, seat: 'white' });
    await waitRoom(bob, { gameNo: 2, prev: id, seat: 'black' });
    const next = (await roomState(ann)).room;
    assert.notEqual(next, id);
    assert.ok(ann.url().endsWith(`/r/${next}`));
    assert.deepEqual(await ann.evaluate(([a, b]) => [
      JSON.parse(localStorage.getItem(`boardhall.seat.${a}`) || 'null')?.seat,
      JSON.parse(localStorage.getItem(`boardhall.seat.${b}`) || 'null')?.seat,
    ], [id, next]), ['black', 'white'], 'the same token, kept under each room');
    await ann.locator('#player-white .badge.you').waitFor();

    // Before both sides have moved the game may be aborted.
    await ann.locator('#btn-abort').click();
    for (const p of [ann, bob]) await waitRoom(p, { status: 'finished', result: 'aborted' });
    assert.equal(await bob.locator('#result').textContent(), 'Game aborted: no result.');

    // The first game is still at its own address, with its moves, and listed under Finished.
    await ann.locator('#prev-game').click();
    await waitRoom(ann, { room: id, status: 'finished', result: 'agreement', next, plies: 2, seat: 'black' });
    assert.equal(await ann.locator('#moves .ply').count(), 2);
    assert.equal(await ann.locator('#next-game').getAttribute('href'), `/r/${next}`);
    await ann.goto('/');
    await ann.locator(`#finished-rooms [data-room="${id}"]`).waitFor();
    for (const p of [ann, bob]) await p.context().close();
  });
});
