// Socket: one WebSocket to the server, with request/answer matching by id and
// reconnection with backoff (docs/protocol.md, "Reconnecting").

import { ProtocolError } from './errors.js';

/** BACKOFF_FIRST_MS is the first wait before reconnecting, as the protocol suggests. */
export const BACKOFF_FIRST_MS = 500;
/** BACKOFF_MAX_MS caps the doubling wait, so a long outage is retried every ten seconds. */
export const BACKOFF_MAX_MS = 10000;
/** PING_EVERY_MS is how often an idle client checks that the link is alive; well under the server's 60 s drop. */
export const PING_EVERY_MS = 25000;
/** PONG_WAIT_MS is how long a ping may go unanswered before the link is treated as dead. */
export const PONG_WAIT_MS = 10000;

/**
 * backoff returns the wait before reconnect attempt n (0 for the first):
 * BACKOFF_FIRST_MS doubling up to BACKOFF_MAX_MS, with "equal jitter" (half
 * fixed, half random) so that many clients dropped together do not return together.
 * @param {number} attempt
 * @param {() => number} [random] returns [0, 1)
 * @returns {number} milliseconds
 */
export function backoff(attempt, random = Math.random) {
  const cap = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** Math.min(attempt, 20));
  return Math.round(cap / 2 + (cap / 2) * random());
}

/** @typedef {'connecting'|'open'|'reconnecting'|'closed'} LinkStatus */

/**
 * Connection is the client's socket. It connects at once, answers each
 * request's promise with the server's answer of the same id, passes every
 * other message to onMessage, and after a drop connects again (to the next
 * address in the list) with backoff, calling onOpen each time it is up so the
 * caller can join its rooms again.
 */
export class Connection {
  /**
   * @param {object} opts
   * @param {string[]} opts.urls addresses to try, in order
   * @param {(msg: any) => void} opts.onMessage messages that answer no request
   * @param {(status: LinkStatus, detail?: {attempt: number, waitMs: number}) => void} [opts.onStatus]
   * @param {() => void} [opts.onOpen] called after every (re)connect
   * @param {typeof WebSocket} [opts.WebSocketImpl]
   */
  constructor({ urls, onMessage, onStatus = () => {}, onOpen = () => {}, WebSocketImpl = globalThis.WebSocket }) {
    if (!urls.length) throw new Error('socket: no server address');
    this.urls = urls;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.onOpen = onOpen;
    this.WebSocketImpl = WebSocketImpl;
    /** @type {WebSocket|null} */
    this.ws = null;
    this.urlIndex = 0;
    this.attempt = 0;
    this.nextId = 1;
    /** @type {Map<number, {resolve: (m: any) => void, reject: (e: Error) => void}>} */
    this.pending = new Map();
    this.closed = false;
    /** @type {any} */
    this.retryTimer = null;
    /** @type {any} */
    this.pingTimer = null;
    /** @type {any} */
    this.pongTimer = null;
    this.status = /** @type {LinkStatus} */ ('connecting');
    this.open();
  }

  /** @param {LinkStatus} status @param {any} [detail] */
  setStatus(status, detail) {
    this.status = status;
    this.onStatus(status, detail);
  }

  open() {
    if (this.closed) return;
    const url = this.urls[this.urlIndex % this.urls.length];
    let ws;
    try {
      ws = new this.WebSocketImpl(url);
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.attempt = 0;
      this.setStatus('open');
      this.schedulePing();
      this.onOpen();
    };
    ws.onmessage = (e) => {
      if (this.ws !== ws) return;
      let msg;
      try {
        msg = JSON.parse(String(e.data));
      } catch {
        return; // the server sends only JSON; a torn frame is not ours to act on
      }
      this.received(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.dropped();
    };
    ws.onerror = () => {}; // onclose follows and does the work
  }

  /** @param {any} msg */
  received(msg) {
    this.schedulePing();
    if (msg.type === 'reconnect') {
      // The server is going away: move on to the next address after its wait.
      this.urlIndex++;
      this.restart(typeof msg.retryMs === 'number' ? msg.retryMs : BACKOFF_FIRST_MS);
      return;
    }
    const waiter = msg.id != null ? this.pending.get(msg.id) : undefined;
    if (waiter && msg.type !== 'event') {
      this.pending.delete(msg.id);
      if (msg.type === 'error') waiter.reject(new ProtocolError(msg.code, msg.message));
      else waiter.resolve(msg);
      return;
    }
    this.onMessage(msg);
  }

  dropped() {
    this.ws = null;
    this.stopPing();
    for (const [, w] of this.pending) w.reject(new ProtocolError('disconnected'));
    this.pending.clear();
    if (this.closed) {
      this.setStatus('closed');
      return;
    }
    if (this.attempt > 0) this.urlIndex++; // a failed attempt tries the next address
    this.retry();
  }

  retry() {
    const waitMs = backoff(this.attempt);
    this.attempt++;
    this.setStatus('reconnecting', { attempt: this.attempt, waitMs });
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.open(), waitMs);
  }

  /**
   * restart closes the link and opens it again after waitMs.
   * @param {number} waitMs
   */
  restart(waitMs) {
    const ws = this.ws;
    this.ws = null;
    this.stopPing();
    for (const [, w] of this.pending) w.reject(new ProtocolError('disconnected'));
    this.pending.clear();
    if (ws) ws.close();
    this.setStatus('reconnecting', { attempt: this.attempt, waitMs });
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.open(), waitMs);
  }

  schedulePing() {
    this.stopPing();
    this.pingTimer = setTimeout(() => {
      this.request({ type: 'ping' }).catch(() => {});
      this.pongTimer = setTimeout(() => this.restart(0), PONG_WAIT_MS);
    }, PING_EVERY_MS);
  }

  stopPing() {
    clearTimeout(this.pingTimer);
    clearTimeout(this.pongTimer);
  }

  /**
   * request sends a message with a fresh id and resolves with the server's
   * answer (joined, seated, ack, pong), or rejects with a ProtocolError
   * carrying the server's error code, or 'disconnected' when the link drops
   * first (the action may or may not have been stored: the state after the
   * reconnect tells).
   * @param {Record<string, any>} msg
   * @returns {Promise<any>}
   */
  request(msg) {
    const ws = this.ws;
    if (!ws || ws.readyState !== 1) return Promise.reject(new ProtocolError('disconnected'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      ws.send(JSON.stringify({ ...msg, id }));
    });
  }

  /**
   * notify sends a message that the server answers without its id (a
   * lobby_subscribe is answered by lobby messages, which come to onMessage):
   * no promise waits for it. It returns whether the message was sent; after a
   * reconnect, onOpen is the place to send it again.
   * @param {Record<string, any>} msg
   * @returns {boolean}
   */
  notify(msg) {
    const ws = this.ws;
    if (!ws || ws.readyState !== 1) return false;
    ws.send(JSON.stringify(msg));
    return true;
  }

  /**
   * retryNow skips the rest of a backoff wait (the tab came back to the front,
   * or the device is online again). It does nothing while connected.
   */
  retryNow() {
    if (this.closed || this.ws || this.status !== 'reconnecting') return;
    clearTimeout(this.retryTimer);
    this.open();
  }

  /** close ends the connection for good. */
  close() {
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.stopPing();
    const ws = this.ws;
    this.ws = null;
    for (const [, w] of this.pending) w.reject(new ProtocolError('disconnected'));
    this.pending.clear();
    if (ws) ws.close();
    this.setStatus('closed');
  }
}
