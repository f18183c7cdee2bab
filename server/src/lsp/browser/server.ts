// The language server in a browser's Web Worker (VS Code for the Web): the same adapter and service as
// in Node, over the worker's messages. Bundled by scripts/bundle.js into dist/browser/server.js.
import { BrowserMessageReader, BrowserMessageWriter, createConnection } from 'vscode-languageserver/browser';
import { startServer } from '../startServer';
import { browserHost, docsBaseUrlOf } from './browserHost';

declare const self: ConstructorParameters<typeof BrowserMessageReader>[0] & { location: { href: string } };

startServer(
  createConnection(new BrowserMessageReader(self), new BrowserMessageWriter(self)),
  browserHost(docsBaseUrlOf(self.location.href)),
);
