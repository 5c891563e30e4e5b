// What README.md tells a user to run to use Weft as a library: the shell lines of the first `sh` block
// of "## Use it as a library" and the program of the first `ts` block after it. The release check runs
// exactly these, so the README cannot drift from what was tried.

export const readmeSection = '## Use it as a library';

export interface ReadmeInstall {
  /** The shell lines, in order, without blank or comment-only lines (trailing comments kept: bash drops them). */
  readonly commands: readonly string[];
  /** The `npm install …` line among them. */
  readonly install: string;
  /** The packages that line installs. */
  readonly packages: readonly string[];
  /** The TypeScript program, as shown. */
  readonly program: string;
}

/** The first fenced block of `language` in `lines`, from `from` on. */
function fencedBlock(lines: readonly string[], from: number, language: string): string[] | undefined {
  const start = lines.findIndex((line, i) => i >= from && line.trim() === `\`\`\`${language}`);
  if (start < 0) return undefined;
  const end = lines.findIndex((line, i) => i > start && line.trim() === '```');
  return end < 0 ? undefined : lines.slice(start + 1, end);
}

/** Reads the install lines and the program from README.md's text; throws when the section lost them. */
export function readmeInstall(readme: string): ReadmeInstall {
  const lines = readme.split(/\r?\n/);
  const section = lines.findIndex((line) => line.trim() === readmeSection);
  if (section < 0) throw new Error(`README.md has no "${readmeSection}" section`);
  const next = lines.findIndex((line, i) => i > section && /^## /.test(line));
  const inSection = next < 0 ? lines : lines.slice(0, next);
  const shell = fencedBlock(inSection, section, 'sh');
  if (!shell) throw new Error(`README.md's "${readmeSection}" has no sh block`);
  const program = fencedBlock(inSection, section, 'ts');
  if (!program) throw new Error(`README.md's "${readmeSection}" has no ts block`);
  const commands = shell.map((line) => line.trim()).filter((line) => line && !line.startsWith('#'));
  const install = commands.find((line) => /^npm install\s/.test(line));
  if (!install) throw new Error(`README.md's "${readmeSection}" sh block has no "npm install" line`);
  const packages = install
    .replace(/\s#.*$/, '')
    .trim()
    .split(/\s+/)
    .slice(2)
    .filter((word) => !word.startsWith('-'));
  return { commands, install, packages, program: `${program.join('\n')}\n` };
}
