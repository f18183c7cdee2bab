import { spawn, type SpawnOptions } from 'node:child_process';
import * as path from 'node:path';
import { REPO_ROOT } from './corpus';

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  milliseconds: number;
}

export const CLI = path.join(REPO_ROOT, 'bin', 'policyset.js');

/** Runs the CLI as a separate process, as a user would, with a timeout that only catches hangs. */
export function runCli(args: string[], options: SpawnOptions & { timeoutMs?: number; wrapper?: string[] } = {}): Promise<RunResult> {
  const started = Date.now();
  const command = options.wrapper ? [...options.wrapper, process.execPath] : [process.execPath];
  return new Promise((resolve, reject) => {
    const child = spawn(command[0], [...command.slice(1), CLI, ...args], { cwd: REPO_ROOT, ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`policyset ${args.join(' ')} did not finish in ${options.timeoutMs ?? 120000} ms`));
    }, options.timeoutMs ?? 120000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, milliseconds: Date.now() - started });
    });
  });
}

/** A one-line message, without a stack trace. */
export function isCleanMessage(stderr: string): boolean {
  return !/\n\s+at /.test(stderr) && stderr.trim().length > 0;
}
