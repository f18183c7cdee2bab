import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import * as net from 'node:net';

/** Every process group started here, so that an exit, a failure or Ctrl+C still ends them all. */
const groups = new Set<number>();

function killGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false; // the group is gone
  }
}

process.on('exit', () => {
  for (const pgid of groups) killGroup(pgid, 'SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    for (const pgid of groups) killGroup(pgid, 'SIGKILL');
    process.exit(130);
  });
}

/** Starts a process as the leader of its own session and process group (setsid), so that its whole tree can be ended. */
export function spawnGroup(command: string, args: string[], options: SpawnOptions): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true });
  if (child.pid !== undefined) groups.add(child.pid);
  return child;
}

const groupAlive = (pgid: number) => killGroup(pgid, 0);

/** SIGTERM to the whole group, SIGKILL to what is left after a grace period; resolves when the group is gone. */
export async function stopGroup(child: ChildProcess, graceMs = 3000): Promise<void> {
  const pgid = child.pid;
  if (pgid === undefined) return;
  killGroup(pgid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (groupAlive(pgid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  if (groupAlive(pgid)) killGroup(pgid, 'SIGKILL');
  while (groupAlive(pgid) && Date.now() < deadline + 2000) await new Promise((resolve) => setTimeout(resolve, 50));
  groups.delete(pgid);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

/** Polls a condition until it holds (returns a value) or the time is up. Never a fixed sleep. */
export async function poll<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs: number,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? `: ${(lastError as Error).message}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
