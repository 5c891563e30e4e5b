import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { type AppOptions, createApp } from './create-app.ts';
import { RequestTracker } from './request-tracker.ts';

export interface StartServerOptions extends Omit<AppOptions, 'tracker'> {
  /** Interface to listen on (default 127.0.0.1: only this machine; say 0.0.0.0 to expose it). */
  readonly host?: string;
  /** Port (default 8080; 0 picks a free one). */
  readonly port?: number;
}

/** A listening server; `shutdown` drains it, `closed` settles once it has stopped. */
export interface ServerHandle {
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly tracker: RequestTracker;
  /**
   * Stops accepting connections and refuses new requests (503), lets in-flight requests finish —
   * aborting them after the grace period — then closes every connection. Idempotent.
   */
  shutdown(): Promise<void>;
  readonly closed: Promise<void>;
}

/**
 * Serves the API (and the assets) of `createApp` on Node's HTTP server. Node's own timeouts bound
 * what a slow client can hold: headers must arrive within 10 s and a whole request within 60 s, so
 * a connection that trickles its body is cut rather than kept open.
 */
export async function startServer(options: StartServerOptions): Promise<ServerHandle> {
  const tracker = new RequestTracker();
  const { app, limits } = createApp({ ...options, tracker });
  const host = options.host ?? '127.0.0.1';
  const server = createAdaptorServer({ fetch: app.fetch, hostname: host }) as Server;
  server.headersTimeout = 10_000;
  server.requestTimeout = 60_000;
  server.keepAliveTimeout = 5_000;
  server.listen(options.port ?? 8080, host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const closed = once(server, 'close').then(() => undefined);

  let shuttingDown: Promise<void> | undefined;
  const shutdown = () => {
    shuttingDown ??= (async () => {
      tracker.startDraining();
      server.close();
      server.closeIdleConnections();
      const grace = new Promise<'grace'>((resolve) =>
        setTimeout(resolve, limits.shutdownGraceMs, 'grace').unref(),
      );
      if ((await Promise.race([tracker.idle().then(() => 'idle' as const), grace])) === 'grace') {
        tracker.stopAll('shutdown: grace period over');
        await tracker.idle();
      }
      // Answers already written have `Connection: close`; give their sockets a moment to flush.
      await new Promise((resolve) => setImmediate(resolve));
      server.closeIdleConnections();
      const lingering = setTimeout(() => server.closeAllConnections(), 1_000).unref();
      await closed;
      clearTimeout(lingering);
    })();
    return shuttingDown;
  };

  const shownHost = host.includes(':') ? `[${host}]` : host;
  return { url: `http://${shownHost}:${port}`, host, port, tracker, shutdown, closed };
}
