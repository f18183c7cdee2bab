// The language features the server offers: one list, from which the capabilities it declares at
// initialize are made (featureCapabilities) and the "Features" row of server/README.md is generated
// (scripts/generators/server-features.js). A feature is its capability, its handler (a call of the pure
// service, through the safe runner) and the words that describe it.
import {
  ErrorCodes,
  ResponseError,
  type Connection,
  type CodeLens,
  type CompletionList,
  type ServerCapabilities,
  type WorkspaceEdit,
} from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import {
  doHover,
  findDefinition,
  referencedDefinitionAt,
  findReferences,
  prepareRename,
  rename,
  documentSymbols,
  foldingRanges,
  selectionRanges,
  format,
  getCodeActions,
  getFixAllAction,
  getCompletions,
  getInlayHints,
  getDocumentLinks,
  getWorkspaceSymbols,
  getDocumentHighlights,
  getCodeLenses,
  consumerDeclarationAt,
  declarationRange,
  COMPLETION_TRIGGER_CHARACTERS,
  QUICK_FIX,
  SOURCE_FIX_ALL,
  type ConsumerDocument,
  type FeatureOptions,
  type SymbolSources,
} from '../service/features';
import { parsePolicyDocument, type PolicyDocument, type ValidateOptions } from '../service';
import { APPLY_EDIT_COMMAND, EVALUATE_SAMPLES_COMMAND, SHOW_REFERENCES_COMMAND } from './protocol';
import { FixtureLenses } from './fixtureLenses';
import { cancelled, type Runner } from './runner';
import type { ServerSettings } from './settings';

export interface FeatureContext {
  connection: Connection;
  handle: Runner;
  featureOptions(uri: string): FeatureOptions;
  /** The URI of a definition's `source` (a path or a URI), or undefined (see ServerHost). */
  sourceUri(source: string): string | undefined;
  /** Whether the client takes code actions as literals (read at initialize). */
  codeActionLiterals(): boolean;
  /**
   * The options a document is checked with, for the fixes that apply all at once; undefined when it gets no
   * such fixes (a document the config ignores, a part of a split-layout set).
   */
  fixAllOptions(document: TextDocument, parsed: PolicyDocument): ValidateOptions | undefined;
  /** The settings as last read. */
  settings(): ServerSettings;
  /** What workspace symbols are found in: the open documents and the known definitions and sets. */
  symbolSources(): SymbolSources;
  /** A document's text: the open document's, else the file's (undefined when it cannot be read). */
  readText(uri: string): string | undefined;
  /** The workspace's documents that hold consumers of sets (open ones with their unsaved text), but `except`. */
  consumerDocuments(except: string): ConsumerDocument[];
  /** The `policyset test` fixtures that name a set or definition, and their runs (the code lens). */
  fixtureLenses: FixtureLenses;
  logError(message: string): void;
}

/** The kinds a fixture's `target` can be. */
const EVALUATED_KINDS = new Set(['policySetDefinition', 'policySetDefinitionVersion', 'policyDefinition']);

export interface LspFeature {
  /** How server/README.md describes it (the LSP method's name, and what is particular about ours). */
  readme: string;
  capabilities: ServerCapabilities;
  register(context: FeatureContext): void;
}

const offsetOf = (document: TextDocument, position: { line: number; character: number }) => document.offsetAt(position);
/** A rename that cannot be done answers InvalidRequest with the reason. */
const refuse = (answer: object) => {
  if ('error' in answer) throw new ResponseError(ErrorCodes.InvalidRequest, (answer as { error: string }).error);
};
const triggers = COMPLETION_TRIGGER_CHARACTERS.map((c) => `\`${c}\``).join(' ');

export const FEATURES: LspFeature[] = [
  {
    readme: `completion (trigger characters ${triggers})`,
    capabilities: { completionProvider: { triggerCharacters: COMPLETION_TRIGGER_CHARACTERS, resolveProvider: false } },
    register: ({ connection, handle, featureOptions }) =>
      connection.onCompletion(
        handle(
          'completion',
          (d, p, params) => getCompletions(p, offsetOf(d, params.position), featureOptions(d.uri)),
          { isIncomplete: false, items: [] } as CompletionList,
          { model: false },
        ),
      ),
  },
  {
    readme: 'hover',
    capabilities: { hoverProvider: true },
    register: ({ connection, handle, featureOptions }) =>
      connection.onHover(handle('hover', (d, p, params) => doHover(p, offsetOf(d, params.position), featureOptions(d.uri)), null)),
  },
  {
    readme: 'definition',
    capabilities: { definitionProvider: true },
    register: ({ connection, handle, featureOptions, sourceUri, readText }) =>
      connection.onDefinition(
        handle(
          'definition',
          (d, p, params) => {
            const offset = offsetOf(d, params.position);
            // In a consumer: the set's declaration of what it names, in the set's file (each copy of the set).
            const query = p.consumers.length ? consumerDeclarationAt(p, offset, featureOptions(d.uri)) : undefined;
            if (query) {
              const found = query.sources.flatMap((source) => {
                const uri = sourceUri(source);
                const text = uri ? readText(uri) : undefined;
                const range = text === undefined ? undefined : declarationRange(parsePolicyDocument(text), query);
                return uri && range ? [{ uri, range }] : [];
              });
              if (found.length) return found;
            }
            // On policyDefinitionId / policyDefinitionName: the file of the known definition, when it was read from one.
            const source = referencedDefinitionAt(p, offset, featureOptions(d.uri))?.source;
            const file = source && sourceUri(source);
            if (file) return [{ uri: file, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } }];
            return findDefinition(p, d.uri, offset);
          },
          [],
        ),
      ),
  },
  {
    readme: 'references',
    capabilities: { referencesProvider: true },
    register: ({ connection, handle, consumerDocuments }) =>
      connection.onReferences(
        handle(
          'references',
          (d, p, params) =>
            findReferences(p, d.uri, offsetOf(d, params.position), params.context.includeDeclaration, consumerDocuments(d.uri)),
          [],
        ),
      ),
  },
  {
    readme: 'prepareRename/rename',
    capabilities: { renameProvider: { prepareProvider: true } },
    register: ({ connection, handle, consumerDocuments }) => {
      connection.onPrepareRename(
        handle(
          'prepareRename',
          (d, p, params) => {
            const answer = prepareRename(p, offsetOf(d, params.position));
            refuse(answer);
            return answer as { range: never; placeholder: string };
          },
          null,
        ),
      );
      connection.onRenameRequest(
        handle(
          'rename',
          (d, p, params) => {
            const answer = rename(p, d.uri, offsetOf(d, params.position), params.newName, consumerDocuments(d.uri));
            refuse(answer);
            return answer as Exclude<typeof answer, { error: string }>;
          },
          null,
        ),
      );
    },
  },
  {
    readme: `codeAction (quick fixes, "Fix all <rule> problems in this file", and \`${SOURCE_FIX_ALL}\`, every fix that needs no choice in one edit, for \`editor.codeActionsOnSave\`; as \`CodeAction\` literals, or for clients without literal support as the command \`${APPLY_EDIT_COMMAND}\`, which applies the edit through \`workspace/applyEdit\`)`,
    capabilities: {
      codeActionProvider: { codeActionKinds: [QUICK_FIX, SOURCE_FIX_ALL] },
      executeCommandProvider: { commands: [APPLY_EDIT_COMMAND] },
    },
    register: ({ connection, handle, featureOptions, codeActionLiterals, fixAllOptions }) => {
      connection.onCodeAction(
        handle(
          'codeAction',
          (d, p, params) => {
            const only = params.context.only;
            // A kind asked for covers the kinds below it ('source' covers 'source.fixAll.policyset').
            const asked = (kind: string) => !only || only.some((k) => k === kind || kind.startsWith(`${k}.`));
            const actions = asked(QUICK_FIX)
              ? getCodeActions(p, d.uri, params.context.diagnostics, params.range, {
                  ...featureOptions(d.uri),
                  validation: () => fixAllOptions(d, p),
                })
              : [];
            // Fix-all of the whole document only when asked for by kind (on save, or the Source Action menu): it checks the document again.
            const options = only && asked(SOURCE_FIX_ALL) ? fixAllOptions(d, p) : undefined;
            const fixAll = options && getFixAllAction(p, d.uri, options);
            if (fixAll) actions.push(fixAll);
            // Clients without code action literals get each fix as a command that applies its edit.
            return codeActionLiterals()
              ? actions
              : actions.map((a) => ({ title: a.title, command: APPLY_EDIT_COMMAND, arguments: [a.edit] }));
          },
          [],
        ),
      );
      connection.onExecuteCommand(async (params) => {
        if (params.command !== APPLY_EDIT_COMMAND || !params.arguments?.[0])
          throw new ResponseError(ErrorCodes.InvalidParams, `unknown command '${params.command}'`);
        await connection.workspace.applyEdit(params.arguments[0] as WorkspaceEdit);
      });
    },
  },
  {
    readme: 'documentSymbol (hierarchical)',
    capabilities: { documentSymbolProvider: true },
    register: ({ connection, handle, featureOptions }) =>
      connection.onDocumentSymbol(handle('documentSymbol', (d, p) => documentSymbols(p, featureOptions(d.uri)), [])),
  },
  {
    readme: 'documentHighlight (a parameter, group or reference ID: declarations as Write, uses as Read)',
    capabilities: { documentHighlightProvider: true },
    register: ({ connection, handle }) =>
      connection.onDocumentHighlight(
        handle('documentHighlight', (d, p, params) => getDocumentHighlights(p, offsetOf(d, params.position)), []),
      ),
  },
  {
    readme:
      'inlayHint (definitions and effects, parameter values, definition versions: each a `policySet.inlayHints.*` setting, on by default)',
    capabilities: { inlayHintProvider: { resolveProvider: false } },
    register: ({ connection, handle, featureOptions, settings }) =>
      connection.languages.inlayHint.on(
        handle(
          'inlayHint',
          (d, p, params) =>
            getInlayHints(
              p,
              { start: offsetOf(d, params.range.start), end: offsetOf(d, params.range.end) },
              { ...featureOptions(d.uri), kinds: settings().inlayHints },
            ),
          [],
        ),
      ),
  },
  {
    readme:
      "documentLink (a `policyDefinitionId` to its workspace file or the built-in's Azure portal page, `additionalMetadataId`, `parameterFile`)",
    capabilities: { documentLinkProvider: { resolveProvider: false } },
    register: ({ connection, handle, featureOptions, sourceUri }) =>
      connection.onDocumentLinks(handle('documentLink', (d, p) => getDocumentLinks(p, d.uri, { ...featureOptions(d.uri), sourceUri }), [])),
  },
  {
    readme:
      'workspace/symbol (sets, definitions, parameters, groups and reference IDs of the open documents and the known files, at most 500)',
    capabilities: { workspaceSymbolProvider: true },
    register: ({ connection, symbolSources, logError }) =>
      connection.onWorkspaceSymbol((params, token) => {
        if (token.isCancellationRequested) throw cancelled();
        try {
          return getWorkspaceSymbols(params.query, symbolSources());
        } catch (error) {
          logError(`workspace/symbol failed: ${(error as Error).stack ?? error}`);
          throw new ResponseError(ErrorCodes.InternalError, `workspace/symbol failed: ${(error as Error).message}`);
        }
      }),
  },
  {
    readme: `codeLens and codeLens/resolve: on a set document, "assigned in N places", which runs the client command \`${SHOW_REFERENCES_COMMAND}\` with the consumers' locations (\`workspace/codeLens/refresh\` when consumers change; see docs/consumers.md); on a set or definition that \`policyset test\` fixtures of the workspace name as their \`target\`, "evaluate N samples: k fail", resolved by running them (its command \`${EVALUATE_SAMPLES_COMMAND}\` is the extension's, which shows policySet/fixtureResults)`,
    capabilities: { codeLensProvider: { resolveProvider: true } },
    register: ({ connection, handle, featureOptions, consumerDocuments, fixtureLenses, logError }) => {
      connection.onCodeLens(
        handle(
          'codeLens',
          async (d, p) => {
            const lenses: CodeLens[] = getCodeLenses(p, d.uri, consumerDocuments(d.uri), {
              definitions: featureOptions(d.uri).definitions,
              command: SHOW_REFERENCES_COMMAND,
            });
            if (!fixtureLenses.available || !EVALUATED_KINDS.has(p.kind)) return lenses;
            const fixtures = await fixtureLenses.fixturesNaming(d.uri);
            if (!fixtures.length) return lenses;
            const top = { line: 0, character: 0 };
            return [...lenses, { range: { start: top, end: top }, data: { uri: d.uri, fixtures } }];
          },
          [],
        ),
      );
      connection.onCodeLensResolve(async (lens) => {
        // The consumers' lens comes with its command; a fixtures' lens is resolved by running them.
        const data = lens.data as { uri: string; fixtures: string[] } | undefined;
        if (!data) return lens;
        let title: string;
        try {
          title = FixtureLenses.title(await fixtureLenses.run(data.fixtures));
        } catch (error) {
          logError(`codeLens/resolve failed on ${data.uri}: ${(error as Error).stack ?? error}`);
          title = 'evaluate samples: failed (see the log)';
        }
        return { ...lens, command: { title, command: EVALUATE_SAMPLES_COMMAND, arguments: [{ uri: data.uri }] } };
      });
    },
  },
  {
    readme: 'foldingRange',
    capabilities: { foldingRangeProvider: true },
    register: ({ connection, handle }) => connection.onFoldingRanges(handle('foldingRange', (_d, p) => foldingRanges(p), [])),
  },
  {
    readme: 'selectionRange',
    capabilities: { selectionRangeProvider: true },
    register: ({ connection, handle }) =>
      connection.onSelectionRanges(handle('selectionRange', (_d, p, params) => selectionRanges(p, params.positions), [])),
  },
  {
    readme: 'formatting',
    capabilities: { documentFormattingProvider: true },
    register: ({ connection, handle }) =>
      connection.onDocumentFormatting(handle('formatting', (_d, p, params) => format(p, params.options), [])),
  },
  {
    readme: 'rangeFormatting',
    capabilities: { documentRangeFormattingProvider: true },
    register: ({ connection, handle }) =>
      connection.onDocumentRangeFormatting(handle('rangeFormatting', (_d, p, params) => format(p, params.options, params.range), [])),
  },
];

/** The capabilities of every feature, in the list's order. */
export function featureCapabilities(): ServerCapabilities {
  return Object.assign({}, ...FEATURES.map((feature) => feature.capabilities)) as ServerCapabilities;
}

export function registerFeatures(context: FeatureContext): void {
  for (const feature of FEATURES) feature.register(context);
}

/** The "Features" row of server/README.md: every feature's words, in the list's order. */
export function featuresReadme(): string {
  const words = FEATURES.map((feature) => feature.readme);
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}
