import { ReferencePathTraverser } from '@weft/core/test';
import { toyNikonPlan } from '@weft/conformance';
import { describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.ts';
import { createStackRegistry } from '@weft/stacks';
import { captureIo } from '../testing/capture-io.ts';
import { toyOpener } from '../testing/toy-store.ts';
import { createQueryCommand } from './query.ts';

// A planned, structural stack, so that --explain has anchors, metapaths and multi-hop paths to show.
const registry = createStackRegistry().register({
  name: 'toy-planned',
  description: 'the conformance Nikon plan, traversed by the reference path traverser',
  create: (store) => ({
    name: 'toy-planned',
    context: store.context,
    planner: { specificationVersion: 'v1', name: 'fixed-plan', doPlan: async () => toyNikonPlan() },
    traversers: [new ReferencePathTraverser()],
  }),
});

describe('weft query', () => {
  it('exits 2 and says how to build one when --db is not a store', async () => {
    const c = captureIo();
    const code = await runCli(['query', 'dog', '--db', '/nonexistent/weft-store'], c.io, [
      createQueryCommand(),
    ]);
    expect(code).toBe(2);
    expect(c.err()).toMatch(/not a Weft store \(no store\.json\); build one with weft ingest/);
  });

  it('prints ranked nodes with id, type, name and score, and closes the store', async () => {
    const opener = toyOpener();
    const c = captureIo();
    const code = await runCli(
      ['query', 'Nikkor telephoto', '--db', 'store', '--stack', 'bm25', '--limit', '2'],
      c.io,
      [createQueryCommand({ openStore: opener.open, registry })],
    );
    expect(c.err()).toBe('');
    expect(code).toBe(0);
    const lines = c.out().trim().split('\n');
    expect(lines[0]).toMatch(/#\s+id\s+type\s+score\s+name/);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^\s+1\s+p:nikkor\s+product\s+\d+\.\d{4}\s+AF-S Nikkor 200-500mm$/);
    expect(opener.opened).toHaveLength(1);
    expect(opener.closed()).toBe(1);
    expect(opener.opened[0]!.directory).toBe(`${process.cwd()}/store`);
  });

  it('gives JSON results, and the plan and trajectories with --explain', async () => {
    const opener = toyOpener();
    const c = captureIo();
    const code = await runCli(
      ['query', 'Nikon gear for wildlife', '--db', 'x', '--stack', 'toy-planned', '--json', '--explain'],
      c.io,
      [createQueryCommand({ openStore: opener.open, registry })],
    );
    expect(code).toBe(0);
    const out = JSON.parse(c.out());
    expect(out.stack).toBe('toy-planned');
    expect(out.results.map((r: { id: string }) => r.id)).toContain('p:d850');
    expect(out.results[0]).toEqual({
      rank: 1,
      id: expect.any(String),
      type: 'product',
      name: expect.any(String),
      score: expect.any(Number),
    });
    expect(out.explanation.plan.anchors[0].mention).toBe('Nikon');
    expect(out.explanation.trajectories['p:d850'][0].hops[0].node).toBe('b:nikon');
  });

  it('--explain renders the plan, anchors, metapaths and per result the hops that reached it', async () => {
    const c = captureIo();
    const code = await runCli(
      ['query', 'Nikon gear for wildlife', '--db', 'x', '--stack', 'toy-planned', '--explain'],
      c.io,
      [createQueryCommand({ openStore: toyOpener().open, registry })],
    );
    expect(code).toBe(0);
    const out = c.out();
    expect(out).toContain('Plan:');
    expect(out).toContain('“Nikon” (confidence 0.90) → Nikon [b:nikon] (brand) 1');
    expect(out).toContain('[0] "Nikon" (brand) ←made_by— product [“wildlife”]');
    expect(out).toMatch(/1\. .+ \(product\) \[p:/);
    expect(out).toMatch(/via Nikon \(brand\).* ←made_by— Nikon D850 \(product\)/);
    expect(out).toContain('traverser reference-path');
  });

  it('--explain works for a plain search stack too', async () => {
    const c = captureIo();
    expect(
      await runCli(
        ['query', 'trail camera', '--db', 'x', '--stack', 'hybrid-rrf', '--explain', '--limit', '2'],
        c.io,
        [createQueryCommand({ openStore: toyOpener().open, registry })],
      ),
    ).toBe(0);
    expect(c.out()).toContain('anchors: none');
    expect(c.out()).toMatch(/1\. Bushnell Trophy Cam \(product\) \[p:trailcam\]/);
    expect(c.out()).toMatch(/via Bushnell Trophy Cam \(product\) ‹text \d/);
    expect(c.out()).toMatch(/via Bushnell Trophy Cam \(product\) ‹vector›/);
  });

  it('exits 2 on bad usage: no query, no --db, unknown stack', async () => {
    const command = createQueryCommand({ openStore: toyOpener().open, registry });
    const none = captureIo();
    expect(await runCli(['query', '--db', 'x'], none.io, [command])).toBe(2);
    expect(none.err()).toContain('expected exactly one query text');
    const nodb = captureIo();
    expect(await runCli(['query', 'cats'], nodb.io, [command])).toBe(2);
    expect(nodb.err()).toContain('--db is required');
    const unknown = captureIo();
    expect(await runCli(['query', 'cats', '--db', 'x', '--stack', 'nope'], unknown.io, [command])).toBe(2);
    expect(unknown.err().trim().split('\n')).toHaveLength(1);
    expect(unknown.err()).toContain('unknown stack "nope"');
  });

  it('refuses a query longer than the server takes (1,000 characters), before opening the store', async () => {
    const opener = toyOpener();
    const command = createQueryCommand({ openStore: opener.open, registry });
    const c = captureIo();
    expect(await runCli(['query', 'x'.repeat(1001), '--db', 'x'], c.io, [command])).toBe(2);
    expect(c.err()).toContain('the query text is 1,001 characters long; at most 1,000 are allowed');
    expect(opener.opened).toHaveLength(0);
    const json = captureIo();
    expect(await runCli(['query', 'x'.repeat(1001), '--db', 'x', '--json'], json.io, [command])).toBe(2);
    expect(JSON.parse(json.out()).error.code).toBe('WEFT_BAD_USAGE');
    expect(await runCli(['query', 'x'.repeat(1000), '--db', 'x'], captureIo().io, [command])).toBe(0);
  });

  it('--limit must be an integer from 1 to 100: -1, 0, 1e9 and 2.5 are refused with the range', async () => {
    const opener = toyOpener();
    const command = createQueryCommand({ openStore: opener.open, registry });
    for (const limit of ['-1', '0', '1e9', '2.5', 'ten', '101']) {
      const c = captureIo();
      expect(await runCli(['query', 'cats', '--db', 'x', '--limit', limit], c.io, [command])).toBe(2);
      expect(c.err()).toContain(`--limit must be an integer from 1 to 100, got "${limit}"`);
    }
    expect(opener.opened).toHaveLength(0);
    expect(await runCli(['query', 'cats', '--db', 'x', '--limit', '100'], captureIo().io, [command])).toBe(0);
  });
});
