/** One server-sent event: its name (`message` when none) and its data lines joined. */
export interface SseEvent {
  readonly event: string;
  readonly data: string;
}

/**
 * An incremental reader of a `text/event-stream`: `push` a chunk of text, get the events it
 * completed; a partial event waits for the next chunk.
 */
export function sseReader(): { push(chunk: string): SseEvent[] } {
  let buffer = '';
  return {
    push(chunk) {
      buffer += chunk.replace(/\r\n?/g, '\n');
      const events: SseEvent[] = [];
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let event = 'message';
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) continue;
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'event') event = value;
          else if (field === 'data') data.push(value);
        }
        if (data.length > 0) events.push({ event, data: data.join('\n') });
        end = buffer.indexOf('\n\n');
      }
      return events;
    },
  };
}

/** An answer's text cut into plain pieces and bracketed citations (`[id]`, `[id, id]`). */
export function citationPieces(text: string): ({ text: string } | { ids: string[]; raw: string })[] {
  const pieces: ({ text: string } | { ids: string[]; raw: string })[] = [];
  let at = 0;
  for (const match of text.matchAll(/\[([^[\]\n]+)\]/g)) {
    const ids = match[1]!.split(/[,;]\s*/).map((p) => p.trim());
    if (ids.some((id) => id === '' || /\s/.test(id))) continue;
    if (match.index > at) pieces.push({ text: text.slice(at, match.index) });
    pieces.push({ ids, raw: match[0] });
    at = match.index + match[0].length;
  }
  if (at < text.length) pieces.push({ text: text.slice(at) });
  return pieces;
}
