// A lint process: receives its settings, then file paths, and answers with one result per file.
import { loadCatalog, type DefinitionSources } from '../node/definitions';
import { lintBytes, unreadableResult, type FileResult, type LintSettings } from './lint/lintFile';
import { readBytes } from '../node/files';

export interface ChildInit {
  type: 'init';
  sources: DefinitionSources | undefined;
  extraDefinitions: Array<{ file: string; text: string }>;
  settings: LintSettings;
}

export interface ChildTask {
  type: 'task';
  index: number;
  file: string;
  explicit: boolean;
}

export type ChildMessage = { type: 'ready' } | { type: 'result'; index: number; result: FileResult } | { type: 'fatal'; message: string };

const send = (message: ChildMessage) => process.send!(message);

let ready: Promise<Parameters<typeof lintBytes>[3]> | undefined;
let settings: LintSettings | undefined;

process.on('message', (message: ChildInit | ChildTask) => {
  if (message.type === 'init') {
    settings = message.settings;
    ready = message.sources ? loadCatalog(message.sources, message.extraDefinitions) : Promise.resolve(undefined);
    ready.then(() => send({ type: 'ready' })).catch((error: unknown) => send({ type: 'fatal', message: (error as Error).message }));
    return;
  }
  void ready!.then(async (catalog) => {
    let result: FileResult;
    try {
      result = lintBytes(message.file, await readBytes(message.file), message.explicit, catalog, settings!);
    } catch (error) {
      result = unreadableResult(message.file, error);
    }
    send({ type: 'result', index: message.index, result });
  });
});
process.on('disconnect', () => process.exit(0));
