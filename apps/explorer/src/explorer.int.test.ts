import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type ServerHandle, startServer } from '@weft/server';
import { cannedAnswerModel, toyStoreDirectory } from '@weft/server/testing';
import { createStackRegistry } from '@weft/stacks';
import { type OpenedStore, openStore } from '@weft/store';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explorerAssets } from './explorer-assets.ts';

/**
 * The explorer in headless Chromium (Debian's `chromium` package, driven by playwright-core; no
 * browser is downloaded) against `weft serve` on a real toy store: query two stacks, open the picture
 * of a result reached through the graph, check that the graph is drawn, browse eval records.
 * Set WEFT_EXPLORER_SCREENSHOT=<file.png> to keep the screenshot.
 */
const chromiumPath = process.env.WEFT_CHROMIUM ?? '/usr/bin/chromium';
const haveChromium = existsSync(chromiumPath);
if (!haveChromium)
  console.warn(
    `explorer browser test skipped: no Chromium at ${chromiumPath} (apt-get install -y chromium, or set WEFT_CHROMIUM)`,
  );

describe.skipIf(!haveChromium)('the explorer in headless Chromium', () => {
  let directory: Awaited<ReturnType<typeof toyStoreDirectory>>;
  let store: OpenedStore;
  let server: ServerHandle;
  let browser: Browser;
  let shots: string;

  beforeAll(async () => {
    directory = await toyStoreDirectory();
    store = await openStore(directory.db);
    server = await startServer({
      store,
      registry: createStackRegistry(),
      port: 0,
      assets: explorerAssets(),
      // POST /ask answers with this canned reply, citing one node of the evidence and one invented id.
      createOptions: {
        languageModel: cannedAnswerModel([
          'The AF-S Nikkor 200-500mm is a telephoto zoom lens ',
          'made by Nikon [p:nikkor]. It also fits [p:zz-invented].',
        ]),
      },
    });
    shots = await mkdtemp(join(tmpdir(), 'weft-explorer-'));
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.shutdown();
    await store?.close();
    await directory?.cleanup();
    if (shots) await rm(shots, { recursive: true, force: true });
  });

  it('runs a query on two stacks, draws how a result was reached, and shows a node', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(`${server.url}/`);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.textContent('#store')).toMatch(/toy-cameras · 15 nodes/);

    await page.fill('#query', 'Nikon zoom lens');
    await page.check('input[value="bm25"]');
    await page.check('input[value="mor-offline"]');
    await page.uncheck('input[value="default"]');
    await page.click('button[type=submit]');
    await page.waitForSelector('.column[data-stack="mor-offline"] .result');
    expect(await page.locator('.column').count()).toBe(2);
    expect(await page.textContent('.column[data-stack="bm25"]')).toMatch(/Telephoto zoom lens/);
    // No result is opened for you: the top one may be wrong.
    expect(await page.getAttribute('#picture', 'data-drawn')).toBeNull();
    expect(await page.textContent('#status')).toMatch(/Choose a result to see how it was reached/);

    // Open the picture of mor-offline's top result: reached from the anchor "Nikon" over made_by.
    await page.click('.column[data-stack="mor-offline"] .result >> nth=0');
    await page.waitForSelector('#picture[data-drawn^="mor-offline:"]');
    await page.waitForSelector('#graph canvas');
    await page.waitForTimeout(300);
    // Arrows as the edges are stored: product —made_by→ brand, although the walk went brand → product.
    expect(await page.getAttribute('#graph', 'data-edges')).toContain('p:nikkor>b:nikon:made_by');
    expect(Number(await page.getAttribute('#graph', 'data-zoom'))).toBeGreaterThanOrEqual(0.75);
    const legend = await page.locator('.picture-nodes').textContent();
    expect(legend).toMatch(/Nikon\s+brand · anchor “Nikon”/);
    expect(legend).toMatch(/AF-S Nikkor 200-500mm\s+product · result/);
    expect(await page.textContent('.plan-paths')).toMatch(/“Nikon” = Nikon ←made_by product/);
    // The graph is drawn: Cytoscape's canvases hold painted pixels.
    const painted = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLCanvasElement>('#graph canvas')].reduce((sum, canvas) => {
        const context = canvas.getContext('2d');
        if (!context || canvas.width === 0 || canvas.height === 0) return sum;
        const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
        let count = 0;
        for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) count++;
        return sum + count;
      }, 0),
    );
    expect(painted).toBeGreaterThan(1000);

    const file = process.env.WEFT_EXPLORER_SCREENSHOT ?? join(shots, 'explorer.png');
    await mkdir(dirname(file), { recursive: true });
    await page.screenshot({ path: file, fullPage: true });
    const png = await readFile(file);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.length).toBeGreaterThan(20_000);

    // A node of the picture opens with its document and neighbours.
    await page.click('.picture-nodes li[data-node="b:nikon"] button');
    await page.waitForSelector('#node h3:text-is("Nikon")');
    expect(await page.textContent('#node')).toMatch(/Japanese maker of cameras and optics/);
    expect(await page.textContent('#node')).toMatch(/←made_by \(3\)/);

    // The question's words are marked in the results and in the node's document.
    expect(await page.locator('.column[data-stack="bm25"] mark').first().textContent()).toMatch(
      /zoom|lens|Nikon/i,
    );

    // Expand a node's neighbours into the canvas, by edge type, with their count.
    expect(await page.textContent('#node')).toMatch(/←made_by \(3\)\s*\+ draw/);
    const before = Number(await page.getAttribute('#graph', 'data-nodes'));
    await page.click('#node button.expand[data-edge="made_by:in"]');
    await page.waitForSelector('#graph[data-expanded]');
    expect(Number(await page.getAttribute('#graph', 'data-nodes'))).toBeGreaterThan(before);
    expect(await page.getAttribute('#graph', 'data-edges')).toContain('p:d850>b:nikon:made_by');
    // Layout and fit-to-view.
    await page.selectOption('.toolbar select', 'force');
    expect(await page.getAttribute('#graph', 'data-layout')).toBe('force');
    await page.click('#fit');
    await page.screenshot({ path: join(shots, 'expanded.png') });
    if (process.env.WEFT_EXPLORER_SCREENSHOT)
      await page.screenshot({
        path: process.env.WEFT_EXPLORER_SCREENSHOT.replace(/\.png$/, '-expanded.png'),
      });

    // The answer panel: POST /ask streamed, citations linked to nodes, invented ids marked.
    await page.fill('#query', 'Nikon zoom lens');
    await page.click('#ask-button');
    await page.waitForSelector('#answer[data-status="answered"]');
    expect(await page.textContent('#answer')).toMatch(/Cites 1 node of the evidence/);
    expect(
      await page.getAttribute(
        '#answer button[data-cite="zz-invented"], #answer button[data-cite="p:zz-invented"]',
        'class',
      ),
    ).toMatch(/invalid/);
    await page.click('#answer button[data-cite="p:nikkor"]');
    await page.waitForSelector('#node h3:text-is("AF-S Nikkor 200-500mm")');
    if (process.env.WEFT_EXPLORER_SCREENSHOT)
      await page.screenshot({
        path: process.env.WEFT_EXPLORER_SCREENSHOT.replace(/\.png$/, '-answer.png'),
        fullPage: true,
      });

    // Search a node by name: it opens, on a canvas of its own.
    await page.fill('#node-name', 'Leica');
    await page.press('#node-name', 'Enter');
    await page.click('#node-matches button[data-node]');
    await page.waitForSelector('#picture[data-drawn^="explore:"]');
    expect(await page.textContent('#node h3')).toMatch(/Leica/);

    // Back and forward: back to the query before a result was chosen, forward to the result's picture.
    expect(page.url()).toContain('#q=Nikon+zoom+lens&s=bm25%2Cmor-offline&r=mor-offline%3Ap%3Anikkor');
    await page.click('#back');
    await page.waitForSelector('#picture:not([data-drawn])');
    expect(page.url()).not.toContain('&r=');
    await page.click('#forward');
    await page.waitForSelector('#picture[data-drawn="mor-offline:p:nikkor"]');
    // The address is a link to the view: a new page opens it as it was.
    const linked = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await linked.goto(page.url());
    await linked.waitForSelector('#picture[data-drawn="mor-offline:p:nikkor"]');
    expect(await linked.locator('.column').count()).toBe(2);
    await linked.close();

    // A query that fails leaves nothing of the previous one: no picture, no node, an error status.
    await page.fill('#query', 'x'.repeat(1001));
    await page.click('button[type=submit]');
    await page.waitForSelector('#status.error');
    expect(await page.textContent('#status')).toMatch(/failed: .*longer than 1000 characters/);
    expect(await page.getAttribute('#picture', 'data-drawn')).toBeNull();
    expect(await page.locator('#graph').count()).toBe(0);
    expect(await page.textContent('#node')).toMatch(/Choose a node/);
    expect(errors.filter((e) => !/400 \(Bad Request\)/.test(e))).toEqual([]);
    await page.close();
  });

  it('browses the wins and losses of two stacks in eval records', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/`);
    await page.waitForSelector('body[data-ready="true"]');
    const line = (stack: string, queryId: string, query: string, mrr: number) =>
      JSON.stringify({
        stack,
        queryId,
        query,
        split: 'test',
        ranking: [{ id: 'p:nikkor', score: 1 }],
        gold: ['p:nikkor'],
        metrics: { hit1: mrr === 1 ? 1 : 0, hit5: 1, recall20: 1, mrr },
        timeMs: 1,
        llmCalls: 0,
        inputTokens: 0,
        outputTokens: 0,
      });
    const records = [
      line('bm25', 'q1', 'Nikon zoom lens', 0.5),
      line('mor-offline', 'q1', 'Nikon zoom lens', 1),
      line('bm25', 'q2', 'full frame cameras', 1),
      line('mor-offline', 'q2', 'full frame cameras', 0.25),
    ].join('\n');
    await page.setInputFiles('#eval input[type=file]', {
      name: 'records.jsonl',
      mimeType: 'application/json',
      buffer: Buffer.from(records),
    });
    await page.waitForSelector('.eval-summary');
    expect(await page.textContent('.eval-summary')).toMatch(
      /2 queries: mor-offline wins 1, loses 1, ties 0 against bm25/,
    );
    expect(await page.locator('.eval-table tbody tr').count()).toBe(2);
    expect(await page.locator('#eval select[aria-label=show] option').allTextContents()).toEqual([
      'all queries',
      'wins of B',
      'losses of B',
      'ties',
    ]);
    // Running a query from the table asks both stacks live and draws their pictures side by side.
    await page.click('.eval-table tr.win button');
    await page.waitForSelector('.column[data-stack="mor-offline"] .result');
    expect(await page.inputValue('#query')).toBe('Nikon zoom lens');
    await page.waitForSelector('#picture[data-drawn="compare:bm25|mor-offline"]');
    await page.waitForSelector('.side-by-side [data-pane="mor-offline"] canvas');
    expect(await page.locator('.side-by-side .graph canvas').count()).toBeGreaterThan(1);
    expect(await page.textContent('.side-by-side')).toMatch(
      /mor-offline: gold “AF-S Nikkor 200-500mm” at rank 1/,
    );
    expect(await page.getAttribute('.side-by-side [data-pane="mor-offline"]', 'data-edges')).toContain(
      'p:nikkor>b:nikon:made_by',
    );
    if (process.env.WEFT_EXPLORER_SCREENSHOT)
      await page.screenshot({
        path: process.env.WEFT_EXPLORER_SCREENSHOT.replace(/\.png$/, '-eval.png'),
        fullPage: true,
      });
    await page.close();
  });
});
