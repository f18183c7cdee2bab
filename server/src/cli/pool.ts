import { Worker } from 'node:worker_threads';
import * as path from 'node:path';
import type { FileResult } from './lintEngine';
import type { WorkerInit, WorkerTask } from './worker';
import { InputError } from './files';

/**
 * Lints tasks on worker threads, largest first, handing each worker its next file when it is done.
 * Results come back in task order.
 */
export async function lintInWorkers(tasks: WorkerTask[], init: WorkerInit, workers: number): Promise<FileResult[]> {
  const order = tasks.map((_, i) => i).sort((a, b) => tasks[b].bytes.length - tasks[a].bytes.length);
  const results: FileResult[] = new Array(tasks.length);
  let next = 0;
  const started: Worker[] = [];
  try {
    await Promise.all(
      Array.from({ length: workers }, () =>
        new Promise<void>((resolve, reject) => {
          const worker = new Worker(path.join(__dirname, 'worker.js'), { workerData: init });
          started.push(worker);
          let current = -1;
          const sendNext = () => {
            if (next >= order.length) {
              void worker.terminate();
              resolve();
              return;
            }
            current = order[next++];
            const task = tasks[current];
            // The bytes move to the worker without a copy, unless they share a buffer with others.
            const own = task.bytes.byteOffset === 0 && task.bytes.byteLength === task.bytes.buffer.byteLength;
            const bytes = own ? task.bytes : task.bytes.slice();
            worker.postMessage({ ...task, bytes }, [bytes.buffer as ArrayBuffer]);
          };
          worker.on('message', (message: FileResult | 'ready' | { fatal: string }) => {
            if (message === 'ready') return sendNext();
            if ('fatal' in message) return reject(new InputError(message.fatal));
            results[current] = message;
            sendNext();
          });
          worker.on('error', reject);
          worker.on('exit', (code) => {
            if (code !== 0 && current >= 0 && !results[current]) reject(new Error(`a lint worker stopped with exit code ${code}`));
          });
        }),
      ),
    );
  } finally {
    for (const worker of started) void worker.terminate();
  }
  return results;
}
