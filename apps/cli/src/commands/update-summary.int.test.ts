import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { toySkb } from '@weft/core/test';
import { buildStore } from '@weft/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.ts';
import { captureIo } from '../testing/capture-io.ts';
import { toyWorkspace } from '../testing/toy-store.ts';
import { updateCommand } from './update.ts';

/** weft update's summary on a real (Kùzu + LanceDB) toy store: empty change sets, cascaded edges, progress. */
describe('weft update, what it says', () => {
  let workspace: Awaited<ReturnType<typeof toyWorkspace>>;
  beforeAll(async () => {
    workspace = await toyWorkspace();
    await buildStore({ bundle: workspace.bundle, directory: workspace.db });
  }, 120_000);
  afterAll(() => workspace?.cleanup());

  const version = async () =>
    (JSON.parse(await readFile(join(workspace.db, 'store.json'), 'utf8')) as { storeVersion?: number })
      .storeVersion ?? 0;
  const changeSet = async (name: string, files: Record<string, string>) => {
    const folder = join(workspace.root, name);
    await mkdir(folder, { recursive: true });
    for (const [file, text] of Object.entries(files)) await writeFile(join(folder, file), text);
    return folder;
  };
  const update = async (folder: string, options: { json?: boolean; tty?: boolean } = {}) => {
    const c = captureIo(workspace.root);
    if (options.tty) Object.assign(c.io.stderr, { isTTY: true });
    const code = await runCli(
      ['update', '--db', workspace.db, folder, ...(options.json ? ['--json'] : [])],
      c.io,
      [updateCommand],
    );
    return { code, out: c.out(), err: c.err() };
  };

  it('a change set that changes nothing says so and creates no version (an absent node, empty files)', async () => {
    const absent = await changeSet('absent', { 'deletions.jsonl': '{"node": "p:not-in-the-store"}\n' });
    const empty = await changeSet('empty', { 'nodes.jsonl': '', 'edges.jsonl': '', 'deletions.jsonl': '' });
    for (const folder of [absent, empty]) {
      const plain = await update(folder);
      expect(plain.code).toBe(0);
      expect(plain.out).toMatch(/^Nothing to change: .* stays at version 0 \(no version created\)/);
      const json = JSON.parse((await update(folder, { json: true })).out);
      expect(json).toMatchObject({ unchanged: true, version: 0, previousVersion: 0 });
    }
    expect(await version()).toBe(0);
    expect((await readdir(workspace.db)).filter((f) => /^v\d+|version/.test(f))).toEqual([]);
  });

  it('counts the edges removed with a deleted node, and shows its phases on a terminal', async () => {
    const node = 'p:q2';
    const touching = toySkb().edges.filter((e) => e.src === node || e.dst === node).length;
    expect(touching).toBeGreaterThan(0);
    const folder = await changeSet('delete-q2', { 'deletions.jsonl': `{"node": "${node}"}\n` });
    const { code, out, err } = await update(folder, { tty: true });
    expect(code).toBe(0);
    expect(out).toContain(
      `nodes: 0 upserted, 1 deleted; edges: 0 upserted, ${touching} deleted (${touching} with the deleted nodes)`,
    );
    expect(err).toContain('read and check the change set');
    expect(err).toContain('rewrite the index rows');
    expect(await version()).toBe(1);
    expect(existsSync(join(workspace.db, 'store.json'))).toBe(true);
  });
});
