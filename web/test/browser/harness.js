// Harness for the browser tests: builds and starts the real server on a free
// 127.0.0.1 port, launches Debian's chromium through playwright-core, and
// waits on page state (never on the clock).

import { spawn, execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { before, after } from 'node:test';
import assert from 'node:assert/strict';

/** REPO is the repository root (web/test/browser/../../..). */
export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * SCREENSHOTS is where the screenshots go: docs/screenshots (the pictures the docs show)
 * only when UPDATE_SCREENSHOTS=1 asks for them, so that a plain test run leaves the
 * working tree as it was; otherwise a throwaway directory under the system's temp dir.
 */
export const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1'
  ? join(REPO, 'docs', 'screenshots')
  : join(tmpdir(), 'boardhall-screenshots');

/** CHROMIUM is Debian's chromium; `npx playwright install` cannot work here. */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** CHROMIUM_ARGS keep the browser quiet, offline and headless on a shared machine. */
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/** STARTUP_MS bounds the wait for the server's /healthz: a cold `go build` of the server fits. */
const STARTUP_MS = 180_000;

/**
 * chromiumMissing returns why the browser tests cannot run, or '' when they
 * can. With CI=true a missing browser is a failure, not a skip.
 * @returns {string}
 */
export function chromiumMissing() {
  if (existsSync(CHROMIUM)) return '';
  const how = `chromium not found at ${CHROMIUM}: install it with "apt-get install -y chromium chromium-driver"`;
  if (process.env.CI) throw new Error(how);
  return how;
}

/** freePort asks the kernel for a free port on 127.0.0.1. */
async function freePort() {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (srv.address());
      srv.close(() => res(port));
    });
  });
}

/**
 * buildServer builds cmd/server into a temporary directory and returns the
 * binary's path and a function that removes it.
 */
export async function buildServer() {
  const dir = mkdtempSync(join(tmpdir(), 'boardhall-web-'));
  const bin = join(dir, 'server');
  await promisify(execFile)('go', ['build', '-o', bin, './cmd/server'], { cwd: REPO, maxBuffer: 16 << 20 });
  return { bin, dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * startServer starts a built server on 127.0.0.1 (a free port unless one is
 * given) with the in-memory store, or Redis when redisURL is given, and
 * resolves once /healthz answers. args are more flags (e.g. a short
 * `-claim-grace` for the tests of an abandoned game).
 * @param {{bin: string, dir: string}} build
 * @param {{port?: number, redisURL?: string, args?: string[]}} [opts]
 * @returns {Promise<{url: string, port: number, stop: () => Promise<void>, log: () => string}>}
 */
export async function startServer(build, opts = {}) {
  const { bin, dir } = build;
  const port = opts.port || (await freePort());
  const addr = `127.0.0.1:${port}`;
  // Every test browser comes from 127.0.0.1: the per-address room limit is off unless a
  // test sets it.
  const proc = spawn(bin, ['-addr', addr, '-rooms-per-minute', '0', ...(opts.args || [])], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, REDIS_URL: opts.redisURL || '' } });
  let log = '';
  const keep = (/** @type {Buffer} */ b) => {
    log = (log + b.toString()).slice(-20000);
  };
  proc.stdout.on('data', keep);
  proc.stderr.on('data', keep);
  /** @type {Promise<void>} */
  const exited = new Promise((res) => proc.once('exit', () => res()));
  const url = `http://${addr}`;
  const deadline = Date.now() + STARTUP_MS;
  let up = false;
  while (!up) {
    if (proc.exitCode != null) throw new Error(`server exited with ${proc.exitCode}:\n${log}`);
    if (Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`server did not answer /healthz within ${STARTUP_MS} ms:\n${log}`);
    }
    try {
      const res = await fetch(`${url}/healthz`);
      up = res.ok;
    } catch {
      // not listening yet: wait for the next poll or for the process to exit
      await Promise.race([exited, new Promise((r) => setTimeout(r, 50))]);
    }
  }
  return {
    url,
    port,
    log: () => log,
    async stop() {
      await stopProcess(proc, exited);
    },
  };
}

/**
 * stopProcess ends a child with SIGTERM (SIGKILL after ten seconds) and waits for it.
 * @param {import('node:child_process').ChildProcess} proc
 * @param {Promise<void>} exited
 */
async function stopProcess(proc, exited) {
  if (proc.exitCode != null || proc.signalCode != null) return;
  proc.kill('SIGTERM');
  const killer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(killer);
}

/** REDIS_SERVER is the redis-server binary for the restart test (optional). */
export const REDIS_SERVER = process.env.REDIS_SERVER || '/usr/bin/redis-server';

/**
 * startRedis starts a private, unsaved redis-server on a free 127.0.0.1 port
 * and resolves once it accepts connections.
 * @returns {Promise<{url: string, stop: () => Promise<void>}>}
 */
export async function startRedis() {
  const port = await freePort();
  const proc = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  /** @type {Promise<void>} */
  const exited = new Promise((res) => proc.once('exit', () => res()));
  let out = '';
  await new Promise((res, rej) => {
    const onData = (/** @type {Buffer} */ b) => {
      out += b.toString();
      if (/Ready to accept connections/.test(out)) res(undefined);
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', onData);
    exited.then(() => rej(new Error(`redis-server exited:\n${out}`)));
  });
  return { url: `redis://127.0.0.1:${port}/0`, stop: () => stopProcess(proc, exited) };
}

/**
 * launchBrowser starts chromium headless. playwright-core's launch gives it a
 * fresh temporary user-data dir, removed when the browser closes.
 */
export async function launchBrowser() {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}

/**
 * roomState reads the state the room page exposes on #room's data attributes.
 * @param {import('playwright-core').Page} page
 */
export async function roomState(page) {
  return page.evaluate(() => {
    const el = document.getElementById('room');
    if (!el) return null;
    const d = el.dataset;
    return {
      room: d.room || '', version: Number(d.version), plies: Number(d.plies), status: d.status || '',
      seat: d.seat || '', toMove: d.toMove || '', lastMove: d.lastMove || '', gameNo: Number(d.gameNo),
      next: d.next || '', prev: d.prev || '', result: d.result || '',
    };
  });
}

/**
 * waitRoom waits until the room page's state satisfies all of want's fields.
 * @param {import('playwright-core').Page} page
 * @param {Record<string, string|number>} want
 * @param {number} [timeout]
 */
export async function waitRoom(page, want, timeout = 30_000) {
  await page.waitForFunction((w) => {
    const el = document.getElementById('room');
    if (!el) return false;
    return Object.entries(w).every(([k, v]) => el.dataset[k] === String(v));
  }, want, { timeout });
}

/**
 * shot saves a screenshot under SCREENSHOTS (docs/screenshots with UPDATE_SCREENSHOTS=1).
 * @param {import('playwright-core').Page} page
 * @param {string} name
 */
export async function shot(page, name) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // Toasts come and go; the kept pictures show the screen itself.
  await page.evaluate(() => {
    document.getElementById('toasts')?.replaceChildren();
    /** @type {HTMLElement|null} */ (document.activeElement)?.blur?.();
  });
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(SCREENSHOTS, name), animations: 'disabled', caret: 'hide' });
}

/**
 * watchErrors collects uncaught page errors and console errors, which fail the test.
 * @param {import('playwright-core').Page} page
 * @param {string} who
 * @param {string[]} sink
 */
export function watchErrors(page, who, sink) {
  page.on('pageerror', (e) => sink.push(`${who}: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/WebSocket connection|Failed to load resource/.test(m.text())) sink.push(`${who}: console: ${m.text()}`);
  });
}

/**
 * openPerson opens a fresh browser context (its own localStorage, so its own
 * seat grants and identity) and a page in it: the player's name saved unless
 * name is empty, every toast's text recorded in window.__toastsSeen (a toast
 * goes away after a few seconds), page errors collected in errors, and any
 * further init scripts run before the page's own.
 * @param {import('playwright-core').Browser} browser
 * @param {string} name
 * @param {string[]} errors
 * @param {{baseURL: string, viewport: {width: number, height: number}, colorScheme?: 'light'|'dark', initScripts?: (() => void)[]}} opts
 */
export async function openPerson(browser, name, errors, opts) {
  const context = await browser.newContext({ viewport: opts.viewport, colorScheme: opts.colorScheme || 'light', baseURL: opts.baseURL });
  if (name) {
    await context.addInitScript((n) => {
      if (!localStorage.getItem('boardhall.name')) localStorage.setItem('boardhall.name', n);
    }, name);
  }
  await context.addInitScript(() => {
    const seen = /** @type {string[]} */ ([]);
    Object.defineProperty(window, '__toastsSeen', { value: seen });
    new MutationObserver((records) => {
      for (const r of records) {
        for (const n of r.addedNodes) {
          if (n instanceof HTMLElement && n.classList.contains('toast')) seen.push(n.firstElementChild?.textContent || '');
        }
      }
    }).observe(document, { subtree: true, childList: true });
  });
  for (const script of opts.initScripts || []) await context.addInitScript(script);
  const page = await context.newPage();
  watchErrors(page, name || 'nameless', errors);
  return page;
}

/**
 * @typedef {object} Suite what a describe block of browser tests shares: set in
 *   its before hook, so read its fields inside tests and hooks only
 * @property {Awaited<ReturnType<typeof buildServer>>} build the built server (to start more)
 * @property {Awaited<ReturnType<typeof startServer>>} server the server the tests use
 * @property {import('playwright-core').Browser} browser
 * @property {string[]} pageErrors errors of every page opened through openPerson
 */

/**
 * browserSuite registers, in the describe block it is called from, the hooks
 * every browser test file needs: before, build the server, start it with
 * args and launch chromium; after, stop both and fail if any page had an
 * error.
 * @param {string[]} [args] more server flags
 * @returns {Suite}
 */
export function browserSuite(args = []) {
  const suite = /** @type {Suite} */ ({ pageErrors: [] });
  before(async () => {
    suite.build = await buildServer();
    suite.server = await startServer(suite.build, { args });
    suite.browser = await launchBrowser();
  });
  after(async () => {
    await suite.browser?.close();
    await suite.server?.stop();
    suite.build?.remove();
    assert.deepEqual(suite.pageErrors, [], 'errors in the pages');
  });
  return suite;
}
