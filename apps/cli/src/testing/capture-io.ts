import { PassThrough } from 'node:stream';

/** Test support: a CommandIo whose stdout and stderr are collected as strings. */
export function captureIo(cwd = process.cwd()) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.on('data', (chunk) => out.push(String(chunk)));
  stderr.on('data', (chunk) => err.push(String(chunk)));
  return { io: { stdout, stderr, cwd }, out: () => out.join(''), err: () => err.join('') };
}
