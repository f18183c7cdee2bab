// The language server in a browser's Web Worker (VS Code for the Web): the same adapter and service as
// in Node, over the worker's messages. Bundled by scripts/bundle.js into dist/browser/server.js.
import { BrowserMessageReader, BrowserMessageWriter, createConnection } from 'vscode-languageserver/browser';
import { startServer } from '../startServer';
import { browserHost } from './browserHost';

declare const self: ConstructorParameters<typeof BrowserMessageReader>[0] & { location: { href: string } };

/** The rule pages ship in the extension beside dist/: reachable when the worker was loaded over http(s), not from a Blob URL. */
function docsBaseUrl(): string {
  const here = self.location.href;
  return /^https?:/i.test(here) ? new URL('../../docs/rules', here).href : '';
}

startServer(createConnection(new BrowserMessageReader(self), new BrowserMessageWriter(self)), browserHost(docsBaseUrl()));
