import { defaultServerConditions } from 'vite';
import { defineConfig, type ViteUserConfig } from 'vitest/config';

/**
 * Test tiers, by file name (see CONTRIBUTING.md):
 * - `*.test.ts`      unit: fast, deterministic, no shared data;
 * - `*.int.test.ts`  integration: real Kùzu / LanceDB on the WordNet bundle, slower;
 * - `*.test-d.ts`    type tests (`expectTypeOf`), compiled by each package's `typecheck` task.
 */
export const unitInclude = ['src/**/*.test.ts'];
export const unitExclude = ['src/**/*.int.test.ts', '**/node_modules/**', '**/dist/**'];
export const intInclude = ['src/**/*.int.test.ts'];

// Workspace packages export their TypeScript sources under this condition, so tests never run
// against a stale dist/ build.
const conditions = ['@weft/source', ...defaultServerConditions];

const shared = {
  resolve: { conditions },
  ssr: { resolve: { conditions } },
} satisfies ViteUserConfig;

const testDefaults = {
  // Native addons (Kùzu, LanceDB) are safest in child processes.
  pool: 'forks' as const,
  env: { LANCEDB_LOG: 'error', RUST_LOG: 'error' },
  testTimeout: 60_000,
  hookTimeout: 120_000,
};

/** Config for one package: both tiers, selected by `--project unit|int`. */
export function packageConfig(): ViteUserConfig {
  return defineConfig({
    ...shared,
    test: {
      ...testDefaults,
      projects: [
        { ...shared, test: { ...testDefaults, name: 'unit', include: unitInclude, exclude: unitExclude } },
        { ...shared, test: { ...testDefaults, name: 'int', include: intInclude } },
      ],
    },
  });
}

/** Config for the whole repository: every package's tests in two projects. */
export function workspaceConfig(options: { roots: string[]; jsonOutputFile?: string }): ViteUserConfig {
  const prefixed = (patterns: string[]) =>
    options.roots.flatMap((root) => patterns.map((pattern) => `${root}/*/${pattern}`));
  return defineConfig({
    ...shared,
    test: {
      ...testDefaults,
      reporters: options.jsonOutputFile ? ['default', 'json'] : ['default'],
      ...(options.jsonOutputFile ? { outputFile: { json: options.jsonOutputFile } } : {}),
      projects: [
        {
          ...shared,
          test: {
            ...testDefaults,
            name: 'unit',
            include: prefixed(unitInclude),
            exclude: prefixed(unitExclude),
          },
        },
        { ...shared, test: { ...testDefaults, name: 'int', include: prefixed(intInclude) } },
      ],
    },
  });
}
