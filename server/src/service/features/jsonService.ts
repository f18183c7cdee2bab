import { getLanguageService, type JSONDocument, type LanguageService } from 'vscode-json-languageservice';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { bundledSchema } from '../schema/schemas';
import type { PolicyDocument } from '../validate';

/**
 * vscode-json-languageservice configured with our schemas, for what it does well on any JSON
 * (property-key and enum completion, schema descriptions, folding, selection ranges, formatting).
 * A document is matched to its schema by content (its kind), not by file name: the JSON service sees
 * it under a synthetic URI per kind.
 */
const SCHEMA_KINDS = ['policySetDefinition', 'policySetDefinitionVersion', 'workspaceItem'] as const;
type SchemaKind = (typeof SCHEMA_KINDS)[number];

const documentUri = (kind: SchemaKind) => `policyset-kind:/${kind}.json`;
const OTHER_URI = 'policyset-kind:/other.json';

let service: LanguageService | undefined;

export function jsonService(): LanguageService {
  if (!service) {
    service = getLanguageService({});
    service.configure({
      validate: false,
      allowComments: false,
      schemas: SCHEMA_KINDS.map((kind) => ({
        uri: `policyset:/bundled/${kind}.schema.json`,
        fileMatch: [documentUri(kind)],
        schema: bundledSchema(kind),
      })),
    });
  }
  return service;
}

export interface JsonView {
  service: LanguageService;
  /** The text under the URI that selects the schema of the document's kind. */
  textDocument: TextDocument;
  jsonDocument: JSONDocument;
}

const views = new WeakMap<PolicyDocument, JsonView>();

/** The JSON service's view of a document: parsed once per document (documents are immutable snapshots). */
export function jsonViewOf(document: PolicyDocument): JsonView {
  let view = views.get(document);
  if (!view) {
    const kind = (SCHEMA_KINDS as readonly string[]).includes(document.kind) ? (document.kind as SchemaKind) : undefined;
    const textDocument = TextDocument.create(kind ? documentUri(kind) : OTHER_URI, 'json', 0, document.parsed.text);
    const svc = jsonService();
    view = { service: svc, textDocument, jsonDocument: svc.parseJSONDocument(textDocument) };
    views.set(document, view);
  }
  return view;
}
