import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, readdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createStack } from '@weft/stacks';
import { applyChanges, openStore } from '@weft/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChangeSetFixture, comparableRanking } from '../testing/change-set-fixture.ts';
import { changeSetStores } from '../testing/update-stores.ts';

const mainScript = join(dirname(fileURLToPath(import.meta.url)), '..', 'main.ts');

/** What a store answers: its counts, some nodes, and bm25-rel's rankings of the fixture's queries. */
async function answers(directory: string, fixture: ChangeSetFixture) {
  const store = await openStore(directory);
  try {
    const retriever = await createStack('bm25-rel', store);
    const rankings: string[][] = [];
    for (const query of fixture.queries.slice(0, 25)) {
      const { ranking } = await retriever.doRetrieve({ query, limit: 10 });
      rankings.push(comparableRanking(ranking, 10).map((c) => `${c.id} ${c.score}`));
    }
    return {
      counts: store.manifest.counts,
      nodes: await store.graph.doGetNodes([fixture.deleted, fixture.added, 'author:0', 'paper:30']),
      names: (await store.graph.doLookup(['Renamed Quorvath'], { fuzzy: false }))[0]?.map((m) => m.id),
      rankings,
    };
  } finally {
    await store.close();
  }
}

/** A seeded random number generator (mulberry32): the same kill points on every run. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `weft update --db <store> <changes>` in a child process of its own (`env`: the default, this one's). */
function spawnUpdate(store: string, changes: string, env?: NodeJS.ProcessEnv) {
  return spawn(
    process.execPath,
    [
      '--conditions=@weft/source',
      '--disable-warning=ExperimentalWarning',
      mainScript,
      'update',
      '--db',
      store,
      changes,
    ],
    { stdio: 'ignore', ...(env ? { env } : {}) },
  );
}

describe('weft update killed at random points', () => {
  let root: string;
  let fixture: ChangeSetFixture;
  let template: string;
  let before: Awaited<ReturnType<typeof answers>>;
  let after: Awaited<ReturnType<typeof answers>>;
  let updateMs = 0;
  beforeAll(async () => {
    ({
      root,
      fixture,
      stores: { template },
    } = await changeSetStores('weft-update-kill-', { template: 'before' }));
    before = await answers(template, fixture);
    const updated = join(root, 'updated');
    await cp(template, updated, { recursive: true });
    updateMs = (await applyChanges(updated, fixture.changes)).seconds * 1000;
    after = await answers(updated, fixture);
  }, 300_000);
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('leaves after each of 24 kills a store that answers as before or as after, and a re-run succeeds', async () => {
    expect(after).not.toEqual(before);
    const random = seededRandom(22);
    const store = join(root, 'store');
    const outcomes = { before: 0, after: 0, leftovers: 0 };
    for (let kill = 0; kill < 24; kill++) {
      await rm(store, { recursive: true, force: true });
      await cp(template, store, { recursive: true });
      const child = spawnUpdate(store, fixture.changes);
      const exited = new Promise<NodeJS.Signals | null>((resolve) =>
        child.on('exit', (_code, signal) => resolve(signal)),
      );
      // The update has begun once it holds the lock (the process has loaded its modules by then).
      while (!existsSync(join(store, '.update.lock')) && child.exitCode === null) await sleep(5);
      await sleep(random() * updateMs * 1.2);
      child.kill('SIGKILL');
      await exited;
      const left = existsSync(join(store, 'versions')) ? await readdir(join(store, 'versions')) : [];
      if (left.length > 0 || existsSync(join(store, '.update.lock'))) outcomes.leftovers++;
      const seen = await answers(store, fixture);
      if (JSON.stringify(seen) === JSON.stringify(before)) outcomes.before++;
      else {
        expect(seen, `kill ${kill}: neither as before nor as after`).toEqual(after);
        outcomes.after++;
      }
      // A re-run after the kill (its lock and half-written version left behind) succeeds.
      await applyChanges(store, fixture.changes);
      expect(await answers(store, fixture)).toEqual(after);
    }
    console.log(`weft update kill loop: ${JSON.stringify(outcomes)}`);
    expect(outcomes.before + outcomes.after).toBe(24);
  }, 900_000);

  it('killed at each step of an in-place update, answers as before up to the graph commit and as after from it', async () => {
    const store = join(root, 'paused');
    // Where the update pauses (WEFT_UPDATE_PAUSE_AT) before it is killed, and what the store then holds.
    const steps = [
      ['graph-applied', 'before'], // the graph's transaction open, nothing committed
      ['graph-committed', 'after'], // the graph committed; no index version, no manifest yet
      ['manifest-committed', 'after'], // the manifest committed; the graph not yet checkpointed
    ] as const;
    for (const [step, expected] of steps) {
      await rm(store, { recursive: true, force: true });
      await cp(template, store, { recursive: true });
      const child = spawnUpdate(store, fixture.changes, { ...process.env, WEFT_UPDATE_PAUSE_AT: step });
      const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
      const paused = join(store, '.update-paused');
      while (!existsSync(paused) && child.exitCode === null) await sleep(10);
      expect(existsSync(paused), `${step}: the update reached the step`).toBe(true);
      // A reader opening now waits for the graph the update holds; it answers once the update is gone.
      const reading = answers(store, fixture);
      await sleep(300);
      child.kill('SIGKILL');
      await exited;
      await rm(paused, { force: true });
      const seen = await reading;
      expect(JSON.stringify(seen), `${step}: the reader that waited`).toBe(
        JSON.stringify(expected === 'before' ? before : after),
      );
      expect(await answers(store, fixture), `${step}: reopened`).toEqual(
        expected === 'before' ? before : after,
      );
      // The next update succeeds on what the kill left, in place again.
      const next = await applyChanges(store, fixture.changes);
      expect(next.mode, step).toBe('in-place');
      expect(next.version, step).toBe(expected === 'before' ? 1 : 2);
      expect(await answers(store, fixture)).toEqual(after);
    }
  }, 600_000);
});
