import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readmeInstall } from './readme-install.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));

const readme = (section: string) =>
  `# X\n\n## Quick start\n\n\`\`\`sh\n./dev test\n\`\`\`\n\n${section}\n## Next\n`;

describe('readmeInstall', () => {
  it('reads the shell lines and the program of "Use it as a library"', () => {
    const text = readme(
      [
        '## Use it as a library',
        '',
        'Text.',
        '',
        '```sh',
        '# a comment line',
        'npm init -y   # a new project',
        '',
        'npm install @weft/core @weft/store --no-fund   # then the program',
        'node main.ts',
        '```',
        '',
        '```ts',
        "import { retrieve } from '@weft/core';",
        '```',
      ].join('\n'),
    );
    expect(readmeInstall(text)).toEqual({
      commands: [
        'npm init -y   # a new project',
        'npm install @weft/core @weft/store --no-fund   # then the program',
        'node main.ts',
      ],
      install: 'npm install @weft/core @weft/store --no-fund   # then the program',
      packages: ['@weft/core', '@weft/store'],
      program: "import { retrieve } from '@weft/core';\n",
    });
  });

  it('refuses a section without an npm install line or without a program', () => {
    expect(() =>
      readmeInstall(readme('## Use it as a library\n\n```sh\nls\n```\n\n```ts\nx\n```\n')),
    ).toThrow(/no "npm install" line/);
    expect(() => readmeInstall(readme('## Use it as a library\n\n```sh\nnpm install a\n```\n'))).toThrow(
      /no ts block/,
    );
    expect(() => readmeInstall('# X\n')).toThrow(/no "## Use it as a library" section/);
  });

  it("finds in this repository's README single packages, the engines @weft/store needs among them", async () => {
    const install = readmeInstall(await readFile(`${root}README.md`, 'utf8'));
    expect(install.packages).toEqual(
      expect.arrayContaining(['@weft/store', '@weft/graph-kuzu', '@weft/index-lancedb']),
    );
    expect(install.program).toContain("from '@weft/store'");
    expect(install.program).toContain('/tmp/wordnet-3.1');
  });
});
