import { workspaceConfig } from '@internal/vitest-config';

export default workspaceConfig({
  // '.' takes in the packages that sit at the top level, like examples/ (its tests are examples/src/…).
  roots: ['packages', 'apps', 'devkit', 'tooling', '.'],
  jsonOutputFile: process.env.WEFT_TEST_JSON ?? '.cache/vitest-results.json',
});
