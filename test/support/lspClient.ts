import { after } from 'node:test';
import { startServerProcess, type LspProcess } from './lspProcess';

export type LspClient = LspProcess;

export interface StartOptions {
  /** Advertise pull diagnostics. */
  pull?: boolean;
  /** More client capabilities, merged over the defaults. */
  capabilities?: Record<string, unknown>;
  initializationOptions?: unknown;
  rootUri?: string | null;
  /** Called before `initialize`: for answers to the server's requests (serverRequestHandlers). */
  setup?: (client: LspClient) => void;
}

/**
 * Starts the real server over stdio, stopped when the calling test or suite ends (call it in a test's or
 * a suite's body, not in a hook), and completes the initialize handshake.
 */
export async function startLanguageServer(options: StartOptions = {}): Promise<LspClient> {
  const client = startServerProcess();
  after(() => client.stop());
  options.setup?.(client);
  const initialized = await client.request('initialize', {
    processId: process.pid,
    rootUri: options.rootUri ?? null,
    capabilities: { ...(options.pull ? { textDocument: { diagnostic: { dynamicRegistration: false } } } : {}), ...options.capabilities },
    initializationOptions: options.initializationOptions,
  });
  if (initialized.error) throw new Error(`initialize failed: ${initialized.error.message}`);
  client.notify('initialized', {});
  return client;
}
