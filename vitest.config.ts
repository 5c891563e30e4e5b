import { workspaceConfig } from '@internal/vitest-config';

export default workspaceConfig({
  roots: ['packages', 'apps', 'tooling'],
  jsonOutputFile: process.env.WEFT_TEST_JSON ?? '.cache/vitest-results.json',
});
