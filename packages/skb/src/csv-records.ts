import { createReadStream } from 'node:fs';

/**
 * The records of an RFC 4180 CSV file (quoted fields may hold commas, `""` and newlines), one at a
 * time, with the 1-based line each record starts on. Streams: memory is one record.
 */
export async function* readCsvRecords(path: string): AsyncGenerator<{ line: number; fields: string[] }> {
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let afterQuote = false;
  let line = 1;
  let recordLine = 1;
  let pendingCr = false;
  let any = false;
  const endField = () => {
    fields.push(field);
    field = '';
    afterQuote = false;
  };
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    for (const char of chunk as string) {
      if (pendingCr) {
        pendingCr = false;
        if (char === '\n') continue;
      }
      if (quoted) {
        if (char === '"') {
          quoted = false;
          afterQuote = true;
        } else {
          if (char === '\n') line++;
          field += char;
        }
        continue;
      }
      if (char === '"') {
        // `""` inside a quoted field: the closing quote was just seen, reopen and keep one quote.
        if (afterQuote) field += '"';
        quoted = true;
        any = true;
      } else if (char === ',') {
        endField();
        any = true;
      } else if (char === '\n' || char === '\r') {
        if (char === '\r') pendingCr = true;
        if (any || field.length > 0) {
          endField();
          yield { line: recordLine, fields };
        }
        fields = [];
        any = false;
        line++;
        recordLine = line;
      } else {
        field += char;
        any = true;
      }
    }
  }
  if (any || field.length > 0) {
    endField();
    yield { line: recordLine, fields };
  }
}
