import { fork, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import type { DefinitionCatalog } from '../service';
import type { FileResult, LintSettings } from './lint/lintFile';
import { lintTask, type LintTask } from './lint/lintFile';
import type { ChildInit, ChildMessage, ChildTask } from './child';
import type { DefinitionSources } from '../node/definitions';

/** Helper processes, started early so that they load while this one finds and reads the files. */
export function startHelpers(count: number): ChildProcess[] {
  return Array.from({ length: count }, () =>
    fork(path.join(__dirname, 'child.js'), [], { serialization: 'advanced', stdio: ['ignore', 'ignore', 'inherit', 'ipc'] }),
  );
}

export function stopHelpers(children: ChildProcess[]) {
  for (const child of children) child.kill();
}

export interface PoolOptions {
  /** Helper processes besides this one, from startHelpers. */
  helpers: ChildProcess[];
  sources: DefinitionSources | undefined;
  extraDefinitions: Array<{ file: string; text: string }>;
  settings: LintSettings;
  catalog: DefinitionCatalog | undefined;
}

const yieldToEvents = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Lints on this thread and on helper processes at once, from one queue, largest files first.
 * Each helper always has one task queued ahead, so it never waits for this thread to look up.
 */
export async function lintInParallel(tasks: LintTask[], options: PoolOptions): Promise<FileResult[]> {
  const queue = tasks.map((_, i) => i).sort((a, b) => tasks[b].size - tasks[a].size);
  const results: FileResult[] = new Array(tasks.length);
  const children = options.helpers;
  let failure: Error | undefined;
  let pending = 0;
  let notify: (() => void) | undefined;

  const give = (child: ChildProcess) => {
    const index = queue.shift();
    if (index === undefined) return;
    pending++;
    const task: ChildTask = { type: 'task', index, file: tasks[index].file, explicit: tasks[index].explicit };
    child.send(task);
  };

  for (const child of children) {
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'ready') {
        give(child);
        give(child);
      } else if (message.type === 'result') {
        results[message.index] = message.result;
        pending--;
        give(child);
      } else {
        failure = new Error(message.message);
      }
      notify?.();
    });
    child.on('exit', (code) => {
      if (code && pending > 0) failure ??= new Error(`a lint process stopped with exit code ${code}`);
      notify?.();
    });
    const init: ChildInit = {
      type: 'init',
      sources: options.sources,
      extraDefinitions: options.extraDefinitions,
      settings: options.settings,
    };
    child.send(init);
  }

  try {
    while (queue.length) {
      const index = queue.shift()!;
      const task = tasks[index];
      results[index] = lintTask(task, options.catalog, options.settings);
      await yieldToEvents();
      if (failure) throw failure;
    }
    while (pending > 0 && !failure) await new Promise<void>((resolve) => (notify = resolve));
    if (failure) throw failure;
  } finally {
    stopHelpers(children);
  }
  return results;
}
