import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backoff, Connection, BACKOFF_FIRST_MS, BACKOFF_MAX_MS } from '../../static/js/socket.js';
import { socketURLs } from '../../static/js/config.js';

test('backoff doubles from 0.5 s to 10 s with jitter', async (t) => {
  const cases = [
    { attempt: 0, cap: 500 },
    { attempt: 1, cap: 1000 },
    { attempt: 2, cap: 2000 },
    { attempt: 4, cap: 8000 },
    { attempt: 5, cap: BACKOFF_MAX_MS },
    { attempt: 100, cap: BACKOFF_MAX_MS },
  ];
  for (const tc of cases) {
    await t.test(`attempt ${tc.attempt}`, () => {
      assert.equal(backoff(tc.attempt, () => 0), tc.cap / 2);
      assert.equal(backoff(tc.attempt, () => 0.999999), tc.cap);
      const r = backoff(tc.attempt);
      assert.ok(r >= tc.cap / 2 && r <= tc.cap, `${r} within [${tc.cap / 2}, ${tc.cap}]`);
    });
  }
  assert.equal(BACKOFF_FIRST_MS, 500);
});

test('socketURLs follows the page', () => {
  assert.deepEqual(socketURLs({ protocol: 'http:', host: '127.0.0.1:8080' }), ['ws://127.0.0.1:8080/ws']);
  assert.deepEqual(socketURLs({ protocol: 'https:', host: 'example.test' }), ['wss://example.test/ws']);
});

/**
 * FakeSocket stands in for the browser's WebSocket in node: the test opens,
 * feeds and closes it by hand. The real one is exercised by the browser tests.
 */
class FakeSocket {
  static all = [];
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.sent = [];
    FakeSocket.all.push(this);
  }
  send(s) { this.sent.push(JSON.parse(s)); }
  close() { this.readyState = 3; }
  serverOpen() { this.readyState = 1; this.onopen?.(); }
  serverSend(m) { this.onmessage?.({ data: JSON.stringify(m) }); }
  serverClose() { this.readyState = 3; this.onclose?.(); }
}

test('Connection matches answers by id, reconnects with backoff and moves through the address list', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  FakeSocket.all = [];
  const messages = [];
  const statuses = [];
  let opens = 0;
  const conn = new Connection({
    urls: ['ws://a/ws', 'ws://b/ws'],
    WebSocketImpl: /** @type {any} */ (FakeSocket),
    onMessage: (m) => messages.push(m),
    onStatus: (s) => statuses.push(s),
    onOpen: () => opens++,
  });
  const first = FakeSocket.all[0];
  assert.equal(first.url, 'ws://a/ws');
  await assert.rejects(conn.request({ type: 'ping' }), { code: 'disconnected' }, 'not open yet');
  first.serverOpen();
  assert.equal(opens, 1);

  const answer = conn.request({ type: 'join', room: 'r1' });
  const failing = conn.request({ type: 'move', room: 'r1', move: 'a1' });
  const [join, mv] = first.sent;
  assert.equal(join.type, 'join');
  assert.notEqual(join.id, mv.id);
  first.serverSend({ type: 'event', room: 'r1', event: { seq: 1 } });
  first.serverSend({ type: 'error', id: mv.id, room: 'r1', code: 'illegal_move', message: 'a1: reversi: no flips' });
  first.serverSend({ type: 'joined', id: join.id, room: 'r1', seat: null });
  assert.equal((await answer).type, 'joined');
  await assert.rejects(failing, (e) => e.code === 'illegal_move' && /allowed/.test(e.userText));
  assert.deepEqual(messages.map((m) => m.type), ['event'], 'answers go to their request, events to onMessage');

  // A drop rejects what waits and reconnects after the first backoff.
  const lost = conn.request({ type: 'resign', room: 'r1' });
  first.serverClose();
  await assert.rejects(lost, { code: 'disconnected' });
  assert.equal(statuses.at(-1), 'reconnecting');
  t.mock.timers.tick(BACKOFF_FIRST_MS);
  assert.equal(FakeSocket.all.length, 2);
  assert.equal(FakeSocket.all[1].url, 'ws://a/ws', 'the first retry goes to the same address');
  // That attempt fails: the next goes to the next address, after a longer wait.
  FakeSocket.all[1].serverClose();
  t.mock.timers.tick(BACKOFF_FIRST_MS - 1);
  assert.equal(FakeSocket.all.length, 2, 'still waiting');
  t.mock.timers.tick(BACKOFF_FIRST_MS * 2);
  assert.equal(FakeSocket.all.length, 3);
  assert.equal(FakeSocket.all[2].url, 'ws://b/ws');
  FakeSocket.all[2].serverOpen();
  assert.equal(opens, 2, 'onOpen runs again so the rooms are joined again');
  assert.equal(statuses.at(-1), 'open');

  // The server asks to reconnect elsewhere.
  FakeSocket.all[2].serverSend({ type: 'reconnect', reason: 'shutdown', retryMs: 200 });
  t.mock.timers.tick(200);
  assert.equal(FakeSocket.all.length, 4);
  assert.equal(FakeSocket.all[3].url, 'ws://a/ws');

  conn.close();
  FakeSocket.all[3].serverClose();
  t.mock.timers.tick(BACKOFF_MAX_MS * 2);
  assert.equal(FakeSocket.all.length, 4, 'no reconnect after close');
  assert.equal(statuses.at(-1), 'closed');
});

test('Connection drops a link whose ping goes unanswered', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  FakeSocket.all = [];
  const conn = new Connection({ urls: ['ws://a/ws'], WebSocketImpl: /** @type {any} */ (FakeSocket), onMessage: () => {} });
  FakeSocket.all[0].serverOpen();
  t.mock.timers.tick(25000);
  assert.equal(FakeSocket.all[0].sent.at(-1).type, 'ping');
  t.mock.timers.tick(10000);
  assert.equal(FakeSocket.all[0].readyState, 3, 'the dead link is closed');
  t.mock.timers.tick(1);
  assert.equal(FakeSocket.all.length, 2, 'and a new one is opened');
  conn.close();
});

test('retryNow skips the backoff wait, and only then', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  FakeSocket.all = [];
  const conn = new Connection({ urls: ['ws://a/ws'], WebSocketImpl: /** @type {any} */ (FakeSocket), onMessage: () => {} });
  FakeSocket.all[0].serverOpen();
  conn.retryNow();
  assert.equal(FakeSocket.all.length, 1, 'connected: nothing to do');
  FakeSocket.all[0].serverClose();
  assert.equal(FakeSocket.all.length, 1, 'waiting out the backoff');
  conn.retryNow();
  assert.equal(FakeSocket.all.length, 2, 'the wait was skipped');
  t.mock.timers.tick(BACKOFF_MAX_MS);
  assert.equal(FakeSocket.all.length, 2, 'the skipped timer does not fire a second attempt');
  conn.close();
});

test('notify sends without an id, and only while the link is up', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  FakeSocket.all = [];
  const messages = [];
  const conn = new Connection({ urls: ['ws://a/ws'], WebSocketImpl: /** @type {any} */ (FakeSocket), onMessage: (m) => messages.push(m) });
  const ws = FakeSocket.all[0];
  assert.equal(conn.notify({ type: 'lobby_subscribe' }), false, 'not open yet');
  ws.serverOpen();
  assert.equal(conn.notify({ type: 'lobby_subscribe' }), true);
  assert.deepEqual(ws.sent, [{ type: 'lobby_subscribe' }]);
  ws.serverSend({ type: 'lobby', open: [], live: [], finished: [] });
  assert.deepEqual(messages.map((m) => m.type), ['lobby'], 'the lists come to onMessage');
  conn.close();
});
