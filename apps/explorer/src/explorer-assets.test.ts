import { describe, expect, it } from 'vitest';
import { explorerAssets } from './explorer-assets.ts';

describe('explorerAssets', () => {
  const assets = explorerAssets();
  const text = async (path: string) => {
    const asset = await assets(path);
    return asset && { type: asset.contentType, body: String(asset.body) };
  };

  it('serves the page, its stylesheet and Cytoscape.js', async () => {
    expect(await text('/')).toMatchObject({
      type: 'text/html; charset=utf-8',
      body: expect.stringContaining('/app/main.ts'),
    });
    expect((await text('/explorer.css'))?.type).toBe('text/css; charset=utf-8');
    const cytoscape = await text('/vendor/cytoscape.mjs');
    expect(cytoscape?.type).toBe('text/javascript; charset=utf-8');
    expect(cytoscape?.body).toMatch(/export\s*\{/);
  });

  it("serves @weft/eval's metric rounding, which the page's import map names, as JavaScript", async () => {
    const rounding = await text('/vendor/format-percent.js');
    expect(rounding?.type).toBe('text/javascript; charset=utf-8');
    expect(rounding?.body).toContain('export function formatPercent(');
    expect(rounding?.body).not.toMatch(/value: number/);
    expect((await text('/'))?.body).toContain('"@weft/eval/format-percent": "/vendor/format-percent.js"');
    // The page module imports it by that name, and the rounding is the one weft eval uses.
    expect((await text('/app/eval-view.ts'))?.body).toContain("from '@weft/eval/format-percent'");
    const url = `data:text/javascript,${encodeURIComponent(rounding!.body)}`;
    const { formatPercent } = (await import(url)) as typeof import('@weft/eval/format-percent');
    expect(formatPercent(59.947)).toBe('59.9');
  });

  it('serves the page modules as JavaScript, types stripped and .ts imports kept', async () => {
    const module = await text('/app/path-graph.ts');
    expect(module?.type).toBe('text/javascript; charset=utf-8');
    expect(module?.body).toContain('export function buildPicture(');
    expect(module?.body).not.toMatch(/export interface|: Picture\b/);
    expect((await text('/app/main.ts'))?.body).toMatch(/from '\.\/api-client\.ts'/);
  });

  it('serves nothing outside its folders, and no tests', async () => {
    for (const path of [
      '/package.json',
      '/app/../explorer-assets.ts',
      '/app/path-graph.test.ts',
      '/app/missing.ts',
      '/../package.json',
      '/app/sub/x.ts',
      '/index.htm',
    ])
      expect(await assets(path), path).toBeUndefined();
  });
});
