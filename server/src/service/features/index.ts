// Editor features over a parsed document: pure, verb-first, one file per feature.
export { findDefinition, findReferences, prepareRename, rename, referencedDefinitionAt } from './navigation';
export type { RenameTarget } from './navigation';
export { doHover, definitionOf } from './hover';
export type { FeatureOptions } from './hover';
export { documentSymbols, foldingRanges, selectionRanges, format } from './structure';
export { jsonService, jsonViewOf } from './jsonService';
export { getCodeActions, QUICK_FIX } from './codeActions';
export type { CodeActionOptions } from './codeActions';
export { getCompletions, COMPLETION_TRIGGER_CHARACTERS } from './completion';
export type { CompletionOptions } from './completion';
export { getInlayHints, shortValue, effectiveEffect, resolveDefinitionVersion, ALL_INLAY_HINTS } from './inlayHints';
export type { InlayHintKinds, InlayHintOptions, OffsetRange } from './inlayHints';
export { getDocumentLinks, builtInDefinitionUrl, policyMetadataUrl } from './documentLinks';
export type { DocumentLinkOptions } from './documentLinks';
export { getWorkspaceSymbols, workspaceSymbolsOfDocument, matchScore, MAX_WORKSPACE_SYMBOLS } from './workspaceSymbols';
export type { SymbolSources, DocumentWorkspaceSymbols, SymbolEntry } from './workspaceSymbols';
export { getDocumentHighlights } from './highlights';
