import type { ServerHandle } from './start-server.ts';

/**
 * SIGTERM and SIGINT start a graceful shutdown (in-flight requests finish); a second signal stops
 * waiting for them. Returns a function that removes the handlers.
 */
export function shutdownOnSignals(
  handle: Pick<ServerHandle, 'shutdown' | 'tracker'>,
  onSignal?: (signal: NodeJS.Signals) => void,
): () => void {
  let received = 0;
  const handler = (signal: NodeJS.Signals) => {
    received++;
    onSignal?.(signal);
    if (received > 1) handle.tracker.stopAll(`second ${signal}`);
    void handle.shutdown();
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
  return () => {
    process.off('SIGTERM', handler);
    process.off('SIGINT', handler);
  };
}
