import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';

/** RFC 4180 field: always quoted, `"` doubled (what Kùzu's CSV reader expects with its defaults). */
export function csvField(value: string): string {
  return `"${value.replaceAll('"', '""')}"`;
}

/** Buffered CSV writer with back-pressure, for millions of rows in bounded memory. */
export class CsvFileWriter {
  private readonly stream: WriteStream;
  private buffer: string[] = [];
  private size = 0;
  /** True once a field held a line break: Kùzu's parallel CSV reader cannot read those. */
  hasLineBreaks = false;

  constructor(path: string, header: readonly string[]) {
    this.stream = createWriteStream(path);
    this.buffer.push(`${header.join(',')}\n`);
  }

  async row(fields: readonly string[]): Promise<void> {
    let line = '';
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i]!;
      if (!this.hasLineBreaks && (field.includes('\n') || field.includes('\r'))) this.hasLineBreaks = true;
      line += i === 0 ? csvField(field) : `,${csvField(field)}`;
    }
    this.buffer.push(`${line}\n`);
    this.size += line.length;
    if (this.size >= 1 << 20) await this.flush();
  }

  private async flush(): Promise<void> {
    const chunk = this.buffer.join('');
    this.buffer = [];
    this.size = 0;
    if (!this.stream.write(chunk)) await once(this.stream, 'drain');
  }

  async close(): Promise<void> {
    await this.flush();
    const closed = once(this.stream, 'close');
    this.stream.end();
    await closed;
  }
}
