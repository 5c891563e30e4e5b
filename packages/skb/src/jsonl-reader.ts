import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';

export interface JsonlLine {
  /** 1-based line number in the (decompressed) file. */
  readonly line: number;
  readonly text: string;
}

/**
 * The non-blank lines of a `.jsonl` or `.jsonl.gz` file, one at a time: only the current line is in
 * memory, so files of any size stream in bounded memory.
 */
export async function* readJsonlLines(path: string): AsyncGenerator<JsonlLine> {
  const file = createReadStream(path, { highWaterMark: 1 << 20 });
  const input = path.endsWith('.gz') ? file.pipe(createGunzip()) : file;
  // A read error (e.g. truncated gzip) on the piped stream must reach the reader's loop.
  file.on('error', (error) => input.destroy(error));
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let line = 0;
  try {
    for await (const text of lines) {
      line++;
      if (text.trim().length === 0) continue;
      yield { line, text };
    }
  } finally {
    lines.close();
    input.destroy();
    file.destroy();
  }
}
