import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { WordnetDataError } from './wordnet-data-error.ts';

/**
 * The licence at the top of a WordNet data file, without its line numbers and padding
 * (`  14 WordNet 3.1 Copyright 2011 by Princeton University.  All rights reserved.  `). WordNet's licence
 * asks for its notice on every copy, so a data file without one is an error rather than a bundle
 * without a licence.
 */
export async function readLicenceHeader(path: string): Promise<string> {
  const input = createReadStream(path, 'utf8');
  const lines: string[] = [];
  try {
    for await (const text of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
      if (!text.startsWith('  ')) break;
      lines.push(text.replace(/^ {2}\d+ ?/, '').trimEnd());
    }
  } finally {
    input.destroy();
  }
  if (lines.length === 0) throw new WordnetDataError(`${path}:1`, 'no licence header');
  return lines.join('\n');
}
