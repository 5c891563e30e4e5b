import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { WeftError } from '@weft/core';
import type { StackEntry, StackRegistry } from '@weft/stacks';

/** A file path (`./my-stacks.ts`, `/abs/x.js`) rather than a package name (`my-weft-stacks`). */
const isPath = (specifier: string) =>
  specifier.startsWith('.') || path.isAbsolute(specifier) || /\.[cm]?[jt]s$/.test(specifier);

function moduleUrl(specifier: string, cwd: string): string {
  if (isPath(specifier)) {
    const file = path.resolve(cwd, specifier);
    if (!existsSync(file))
      throw new WeftError({
        code: 'WEFT_BAD_INPUT',
        message: `--stacks ${specifier}: no such file (${file})`,
      });
    return pathToFileURL(file).href;
  }
  try {
    // A package installed where the command runs, as `import` from a file in cwd would find it.
    return pathToFileURL(createRequire(path.join(cwd, 'package.json')).resolve(specifier)).href;
  } catch {
    throw new WeftError({
      code: 'WEFT_BAD_INPUT',
      message: `--stacks ${specifier}: no such package installed under ${cwd} (give a file path, or install it)`,
    });
  }
}

function isStackEntry(value: unknown): value is StackEntry {
  const entry = value as Partial<StackEntry> | null;
  return (
    typeof entry === 'object' &&
    entry !== null &&
    typeof entry.name === 'string' &&
    typeof entry.description === 'string' &&
    typeof entry.create === 'function'
  );
}

/**
 * The stacks a module contributes (`weft … --stacks <module>`): its `stacks` export, an array of
 * `StackEntry` (`@weft/stacks`), or a default export of one. A module that exports neither is an
 * error naming the module; so is a stack whose name is taken (by a built-in or another module).
 */
export async function registerExternalStacks(
  registry: StackRegistry,
  specifiers: readonly string[],
  cwd: string,
): Promise<StackEntry[]> {
  const added: StackEntry[] = [];
  for (const specifier of specifiers) {
    const loaded = (await import(moduleUrl(specifier, cwd))) as { stacks?: unknown; default?: unknown };
    const exported = loaded.stacks ?? loaded.default;
    const entries = Array.isArray(exported) ? exported : [exported];
    const bad = entries.findIndex((entry) => !isStackEntry(entry));
    if (exported === undefined || entries.length === 0 || bad >= 0)
      throw new WeftError({
        code: 'WEFT_BAD_INPUT',
        message: `--stacks ${specifier}: the module must export \`stacks\`, an array of stack entries ({ name, description, create, training? } of @weft/stacks)${bad >= 0 && exported !== undefined ? `; entry ${bad} is not one` : ''}`,
      });
    registry.register(...entries);
    added.push(...entries);
  }
  return added;
}
