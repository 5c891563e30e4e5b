/**
 * A progress bar on stderr for long work, redrawn in place — on a terminal only (`isTTY`): a log or a
 * pipe gets no bars (their lines are noise there), and nothing at all when `quiet`. `finish(message)`
 * prints its message everywhere.
 */
export class Progress {
  private readonly stream: NodeJS.WritableStream & { isTTY?: boolean };
  private readonly label: string;
  private readonly total: number | undefined;
  private readonly quiet: boolean;
  private readonly started = performance.now();
  private lastDraw = 0;
  private done = 0;

  constructor(options: { stream: NodeJS.WritableStream; label: string; total?: number; quiet?: boolean }) {
    this.stream = options.stream;
    this.label = options.label;
    this.total = options.total;
    this.quiet = options.quiet ?? false;
  }

  tick(count = 1): void {
    this.update(this.done + count);
  }

  update(done: number): void {
    this.done = done;
    if (this.quiet) return;
    const now = performance.now();
    if (!this.stream.isTTY) return;
    if (now - this.lastDraw < 100) return;
    this.lastDraw = now;
    this.stream.write(`\r${this.line()}\u001b[K`);
  }

  finish(message?: string): void {
    if (this.quiet) return;
    if (!this.stream.isTTY) {
      if (message !== undefined) this.stream.write(`${message}\n`);
      return;
    }
    this.stream.write(`\r${message ?? this.line()}\u001b[K\n`);
  }

  private line(): string {
    const seconds = ((performance.now() - this.started) / 1000).toFixed(1);
    if (!this.total) return `${this.label}: ${this.done.toLocaleString('en-US')} (${seconds}s)`;
    const fraction = Math.min(1, this.done / this.total);
    const width = 24;
    const filled = Math.round(fraction * width);
    const bar = `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
    return `${this.label} ${bar} ${(fraction * 100).toFixed(0).padStart(3)}% ${this.done.toLocaleString('en-US')}/${this.total.toLocaleString('en-US')} (${seconds}s)`;
  }
}

/**
 * One progress bar per phase of a long operation (`onProgress(phase, done, total?)` of `buildStore`
 * and `applyChanges`): phases may run at once (an ingest builds the graph and the indexes together);
 * a finished phase leaves its last line standing (a report after that changes nothing, so a phase
 * reported by more than one source draws one bar). `finish()` closes those still open; `note(text)`
 * writes a line of its own (e.g. a retry notice) rather than onto a bar being drawn.
 */
export function phaseProgress(
  stream: NodeJS.WritableStream,
  labels: Readonly<Record<string, string>> = {},
): {
  onProgress: (phase: string, done: number, total?: number) => void;
  finish: () => void;
  note: (text: string) => void;
} {
  const bars = new Map<string, Progress>();
  const finished = new Set<string>();
  return {
    onProgress(phase, done, total) {
      if (finished.has(phase)) return;
      let progress = bars.get(phase);
      if (!progress) {
        progress = new Progress({ stream, label: labels[phase] ?? phase, ...(total ? { total } : {}) });
        bars.set(phase, progress);
      }
      progress.update(done);
      if (total !== undefined && done >= total) {
        finished.add(phase);
        progress.finish();
      }
    },
    finish() {
      for (const [phase, bar] of bars)
        if (!finished.has(phase)) {
          finished.add(phase);
          bar.finish();
        }
    },
    note(text) {
      // On a terminal a bar may be drawn on the current line: clear it first (it is redrawn on its next update).
      const tty = (stream as NodeJS.WritableStream & { isTTY?: boolean }).isTTY === true;
      stream.write(`${tty && bars.size > finished.size ? '\r\u001b[K' : ''}${text}`);
    },
  };
}
