import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiKeys, type ServerHandle, startServer } from '@weft/server';
import { toyStoreDirectory } from '@weft/server/testing';
import { createStackRegistry } from '@weft/stacks';
import { type OpenedStore, openStore } from '@weft/store';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explorerAssets } from './explorer-assets.ts';

/**
 * The explorer on a server with API keys and no model (headless Chromium, as explorer.int.test.ts):
 * the page opens and asks for a key, keeps it for the tab and sends it with every request; the answer
 * panel answers from the stack being viewed and shows the evidence; "+ draw" refits the view and
 * draws no edge twice; a long query without spaces does not widen the page. Screenshots go to
 * $WEFT_EXPLORER_SHOTS (a folder) when it is set.
 */
const chromiumPath = process.env.WEFT_CHROMIUM ?? '/usr/bin/chromium';
const haveChromium = existsSync(chromiumPath);
const key = 'explorer-key-of-the-test-0123456789';

describe.skipIf(!haveChromium)('the explorer with API keys, in headless Chromium', () => {
  let directory: Awaited<ReturnType<typeof toyStoreDirectory>>;
  let store: OpenedStore;
  let server: ServerHandle;
  let browser: Browser;

  beforeAll(async () => {
    directory = await toyStoreDirectory();
    store = await openStore(directory.db);
    server = await startServer({
      store,
      registry: createStackRegistry(),
      port: 0,
      assets: explorerAssets(),
      apiKeys: ApiKeys.parse(`${key} read\n`, 'keys.txt'),
    });
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.shutdown();
    await store?.close();
    await directory?.cleanup();
  });

  const shot = async (page: import('playwright-core').Page, name: string) => {
    const folder = process.env.WEFT_EXPLORER_SHOTS;
    if (!folder) return;
    await mkdir(folder, { recursive: true });
    await page.screenshot({ path: join(folder, name), fullPage: true });
  };

  it('asks for the key, sends it everywhere, answers from the viewed stack with its evidence, draws no edge twice', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const unkeyed: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (/^\/(query|ask|stacks|nodes)/.test(path) && request.headers().authorization !== `Bearer ${key}`)
        unkeyed.push(`${request.method()} ${path}`);
    });

    // The printed address opens the page, not a raw 401; the page asks for the key.
    const opened = await page.goto(`${server.url}/`);
    expect(opened?.status()).toBe(200);
    await page.waitForSelector('#key-form:not([hidden])');
    expect(await page.textContent('#key-reason')).toMatch(/needs an API key/);
    await shot(page, 'keys-prompt.png');
    await page.fill('#api-key', 'wrong-key-of-the-explorer-test-0000');
    await page.click('#key-form button[type=submit]');
    await page.waitForFunction(() =>
      /refused the key/.test(document.querySelector('#key-reason')?.textContent ?? ''),
    );
    await page.fill('#api-key', key);
    await page.click('#key-form button[type=submit]');
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.isHidden('#key-form')).toBe(true);
    expect(await page.evaluate(() => sessionStorage.getItem('weft-api-key'))).toBe(key);
    unkeyed.length = 0; // the two refused tries above went without the right key, as they must

    // Two stacks; the picture of mor-offline's result (the second ticked) is the one viewed.
    await page.fill('#query', 'Nikon zoom lens');
    await page.check('input[value="bm25"]');
    await page.check('input[value="mor-offline"]');
    await page.uncheck('input[value="default"]');
    await page.click('button[type=submit]');
    await page.waitForSelector('.column[data-stack="mor-offline"] .result');
    await page.click('.column[data-stack="mor-offline"] .result >> nth=0');
    await page.waitForSelector('#picture[data-drawn="mor-offline:p:nikkor"]');

    // "+ draw" of Nikon's made_by neighbours: p:nikkor —made_by→ b:nikon is drawn by the paths already.
    await page.click('.picture-nodes li[data-node="b:nikon"] button');
    await page.waitForSelector('#node h3:text-is("Nikon")');
    await page.click('#node button.expand[data-edge="made_by:in"]');
    await page.waitForSelector('#graph[data-expanded]');
    const edges = ((await page.getAttribute('#graph', 'data-edges')) ?? '').split(' ');
    expect(edges).toContain('p:nikkor>b:nikon:made_by');
    expect(edges).toContain('p:d850>b:nikon:made_by');
    expect(edges.length).toBe(new Set(edges).size);
    expect(await page.getAttribute('#graph', 'data-unseen')).toBe('0');
    await shot(page, 'keys-expanded.png');

    // The answer: from the stack being viewed, and with no model on the server, its evidence.
    await page.click('#ask-button');
    await page.waitForSelector('#answer[data-status="no-model"]');
    expect(await page.textContent('#answer h2')).toBe('Answer from mor-offline’s evidence');
    expect(await page.locator('#answer li[data-evidence]').count()).toBeGreaterThan(0);
    expect(await page.textContent('#answer')).toMatch(/AF-S Nikkor 200-500mm/);
    await shot(page, 'keys-answer.png');

    // A long query without spaces wraps: the page gets no wider than the window.
    await page.fill('#query', 'x'.repeat(900));
    await page.click('button[type=submit]');
    await page.waitForFunction(() => /“x{20}/.test(document.querySelector('#status')?.textContent ?? ''));
    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      window: document.documentElement.clientWidth,
    }));
    expect(widths.page).toBeLessThanOrEqual(widths.window);
    await shot(page, 'keys-long-query.png');

    // The key is kept for the tab: a reload asks nothing.
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.isHidden('#key-form')).toBe(true);
    expect(unkeyed).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
