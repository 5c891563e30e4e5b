/** One deb822 stanza: field name -> value (continuation lines joined with `\n`, leading space kept off). */
export type Stanza = Readonly<Record<string, string>>;

/**
 * Parses deb822 text (apt's Packages and Translation files): stanzas are separated by blank lines,
 * a field is `Name: value`, and a line starting with a space or tab continues the previous field.
 * Continuation lines are kept as they are, less their first space (` .` stays `.`).
 */
export function parseStanzas(text: string): Stanza[] {
  const stanzas: Stanza[] = [];
  let current: Record<string, string> = {};
  let field: string | undefined;
  let empty = true;
  for (const line of text.split('\n')) {
    if (line.trim() === '') {
      if (!empty) stanzas.push(current);
      current = {};
      field = undefined;
      empty = true;
      continue;
    }
    if (line.startsWith(' ') || line.startsWith('\t')) {
      if (field !== undefined) current[field] += `\n${line.slice(1)}`;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    field = line.slice(0, colon);
    current[field] = line.slice(colon + 1).trim();
    empty = false;
  }
  if (!empty) stanzas.push(current);
  return stanzas;
}

/**
 * A long description as plain text: the continuation lines of `Description` / `Description-en`
 * (after the synopsis), ` .` lines become paragraph breaks, verbatim (indented) lines are kept.
 */
export function longDescription(description: string): { synopsis: string; body: string } {
  const [synopsis = '', ...rest] = description.split('\n');
  const paragraphs: string[] = [];
  let lines: string[] = [];
  for (const raw of rest) {
    if (raw.trim() === '.') {
      if (lines.length > 0) paragraphs.push(lines.join('\n'));
      lines = [];
    } else lines.push(raw.startsWith(' ') ? raw : raw.trim());
  }
  if (lines.length > 0) paragraphs.push(lines.join('\n'));
  return { synopsis: synopsis.trim(), body: paragraphs.join('\n\n') };
}

/** One package relation: its alternatives (`a | b`), names only (versions, arch qualifiers dropped). */
export function relationAlternatives(field: string | undefined): string[][] {
  if (!field) return [];
  return field
    .split(',')
    .map((group) =>
      group
        .split('|')
        .map((alternative) =>
          alternative
            .trim()
            .replace(/\s*\(.*?\)/g, '')
            .replace(/\s*\[.*?\]/g, '')
            .replace(/\s*<.*?>/g, '')
            .split(':')[0]!
            .trim(),
        )
        .filter((name) => name !== ''),
    )
    .filter((group) => group.length > 0);
}

/** `Source: foo (1.2-3)` -> `foo`; a package without `Source` is built from the source of its own name. */
export function sourceName(stanza: Stanza): string {
  return (stanza.Source ?? stanza.Package ?? '').replace(/\s*\(.*\)\s*$/, '').trim();
}

/** `Debian Games Team <pkg-games-devel@...>` -> `Debian Games Team`. */
export function maintainerName(field: string | undefined): string | undefined {
  if (!field) return undefined;
  const name = field.replace(/\s*<[^>]*>\s*$/, '').trim();
  return name === '' ? undefined : name;
}

/** `Tag: game::strategy, role::program,\n use::gameplaying` -> the tags. */
export function debtags(field: string | undefined): string[] {
  if (!field) return [];
  return field
    .split(/[,\s]+/)
    .map((tag) => tag.trim())
    .filter((tag) => tag.includes('::'));
}
