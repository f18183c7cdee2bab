import { parentPort, workerData } from 'node:worker_threads';
import { loadCatalog, type DefinitionSources } from './definitions';
import { lintBytes, type LintSettings } from './lintEngine';

export interface WorkerInit {
  sources: DefinitionSources | undefined;
  extraDefinitions: Array<{ file: string; text: string }>;
  settings: LintSettings;
}

export interface WorkerTask {
  file: string;
  bytes: Uint8Array;
  explicit: boolean;
}

async function run() {
  const init = workerData as WorkerInit;
  const catalog = init.sources ? await loadCatalog(init.sources, init.extraDefinitions) : undefined;
  parentPort!.on('message', (task: WorkerTask) => {
    parentPort!.postMessage(lintBytes(task.file, task.bytes, task.explicit, catalog, init.settings));
  });
  parentPort!.postMessage('ready');
}

run().catch((error: unknown) => parentPort!.postMessage({ fatal: error instanceof Error ? error.message : String(error) }));
