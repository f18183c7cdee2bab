import {
  SymbolKind,
  type DocumentSymbol,
  type FoldingRange,
  type FormattingOptions,
  type Position,
  type Range,
  type SelectionRange,
  type TextEdit,
} from 'vscode-languageserver-types';
import { createScanner, SyntaxKind } from 'jsonc-parser';
import { keyNodeOf, MAX_DEPTH, propertyIgnoreCase, stringValue, type Node } from '../json';
import type { SetModel } from '../model/policySet';
import type { PolicyDocument } from '../validate';
import { definitionOf, type FeatureOptions } from './hover';
import { jsonViewOf } from './jsonService';

function symbol(
  document: PolicyDocument,
  name: string,
  kind: SymbolKind,
  node: Node,
  selection: Node,
  detail?: string,
  children?: DocumentSymbol[],
): DocumentSymbol {
  const { lines } = document;
  // The range is the whole property (key and value) when the node is a property's value.
  const key = keyNodeOf(node);
  const start = key ? key.offset : node.offset;
  return {
    name: name || '(empty)',
    detail,
    kind,
    range: lines.rangeOf(start, node.offset + node.length),
    selectionRange: lines.rangeOf(selection.offset, selection.offset + selection.length),
    children,
  };
}

function setSymbol(document: PolicyDocument, set: SetModel, options: FeatureOptions): DocumentSymbol {
  const properties = set.properties;
  const name =
    stringValue(propertyIgnoreCase(set.resource, 'name')) ?? stringValue(propertyIgnoreCase(properties, 'displayName')) ?? 'policy set';
  const children: DocumentSymbol[] = [];
  if (set.parametersNode) {
    const parameters = set.parameters
      .filter((p) => p.node)
      .map((p) => symbol(document, p.name, SymbolKind.Variable, p.node!, p.keyNode, p.type));
    children.push(
      symbol(
        document,
        'parameters',
        SymbolKind.Namespace,
        set.parametersNode,
        keyNodeOf(set.parametersNode) ?? set.parametersNode,
        `${parameters.length}`,
        parameters,
      ),
    );
  }
  if (set.groupsNode) {
    const groups = set.groups.map((g) =>
      symbol(document, g.name, SymbolKind.EnumMember, g.node, g.nameNode, stringValue(propertyIgnoreCase(g.node, 'category'))),
    );
    children.push(
      symbol(
        document,
        'policyDefinitionGroups',
        SymbolKind.Namespace,
        set.groupsNode,
        keyNodeOf(set.groupsNode) ?? set.groupsNode,
        `${groups.length}`,
        groups,
      ),
    );
  }
  if (set.referencesNode) {
    const references = set.references.map((r) => {
      const refId = stringValue(r.refIdNode);
      const definition = definitionOf(r, options);
      const idText = stringValue(r.idNode);
      const label = refId ?? definition?.displayName ?? idText?.split('/').pop() ?? `[${r.index}]`;
      return symbol(
        document,
        label,
        SymbolKind.Object,
        r.node,
        r.refIdNode ?? r.idNode ?? r.node,
        definition?.displayName ?? idText?.split('/').pop(),
      );
    });
    children.push(
      symbol(
        document,
        'policyDefinitions',
        SymbolKind.Array,
        set.referencesNode,
        keyNodeOf(set.referencesNode) ?? set.referencesNode,
        `${references.length}`,
        references,
      ),
    );
  }
  const nameNode = propertyIgnoreCase(set.resource, 'name');
  const kind = set.kind === 'policySetDefinitionVersion' ? 'version' : 'policy set';
  return symbol(document, name, SymbolKind.Module, set.resource, nameNode ?? set.resource, kind, children);
}

/**
 * The outline: each policy set with its parameters, groups and references (named by reference id, or
 * by the known definition's name). Other JSON gets the generic outline of the JSON service.
 */
export function documentSymbols(document: PolicyDocument, options: FeatureOptions = {}): DocumentSymbol[] {
  if (document.sets.length) return document.sets.map((set) => setSymbol(document, set, options));
  if (document.parsed.tooLarge || document.parsed.tooDeep) return [];
  const view = jsonViewOf(document);
  return view.service.findDocumentSymbols2(view.textDocument, view.jsonDocument, { resultLimit: 5000 });
}

export function foldingRanges(document: PolicyDocument): FoldingRange[] {
  if (document.parsed.tooLarge || document.parsed.tooDeep) return [];
  const view = jsonViewOf(document);
  return view.service.getFoldingRanges(view.textDocument, { rangeLimit: 5000 });
}

export function selectionRanges(document: PolicyDocument, positions: Position[]): SelectionRange[] {
  if (document.parsed.tooLarge || document.parsed.tooDeep) return [];
  const view = jsonViewOf(document);
  return view.service.getSelectionRanges(view.textDocument, positions, view.jsonDocument);
}

/** Formats the document, or a range of it; a document with syntax errors is formatted as far as the scanner can. */
/**
 * Whether the brackets of a text, counted as written (syntax errors included: `{{{{` is no tree, so the
 * parser's depth check does not see it), nest deeper than MAX_DEPTH. The formatter indents each level, so
 * its work and its output grow with the square of that depth (4,000 '{' took 18 s): such a text is not
 * formatted.
 */
function bracketsTooDeep(text: string): boolean {
  const scanner = createScanner(text, true);
  let depth = 0;
  for (let kind = scanner.scan(); kind !== SyntaxKind.EOF; kind = scanner.scan()) {
    if (kind === SyntaxKind.OpenBraceToken || kind === SyntaxKind.OpenBracketToken) {
      if (++depth > MAX_DEPTH) return true;
    } else if (kind === SyntaxKind.CloseBraceToken || kind === SyntaxKind.CloseBracketToken) depth = Math.max(0, depth - 1);
  }
  return false;
}

export function format(document: PolicyDocument, options: FormattingOptions, range?: Range): TextEdit[] {
  if (document.parsed.tooLarge || document.parsed.tooDeep || bracketsTooDeep(document.parsed.text)) return [];
  const view = jsonViewOf(document);
  return view.service.format(view.textDocument, range, {
    tabSize: options.tabSize,
    insertSpaces: options.insertSpaces,
    insertFinalNewline: options.insertFinalNewline,
    keepLines: false,
  });
}
