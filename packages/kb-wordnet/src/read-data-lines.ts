import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

/** One line of a WordNet data file and its 1-based line number. */
export interface DataLine {
  readonly text: string;
  readonly number: number;
}

/** Streams the synset lines of a data file, skipping the licence header (lines that begin with two spaces). */
export async function* readDataLines(path: string): AsyncGenerator<DataLine> {
  const input = createReadStream(path, 'utf8');
  try {
    let number = 0;
    for await (const text of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
      number++;
      if (!text.startsWith('  ')) yield { text, number };
    }
  } finally {
    input.destroy();
  }
}
