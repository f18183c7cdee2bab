// Editor features over a parsed document: pure, verb-first, one file per feature.
export { findDefinition, findReferences, prepareRename, rename, referencedDefinitionAt } from './navigation';
export type { RenameTarget } from './navigation';
export { doHover, definitionOf } from './hover';
export type { FeatureOptions } from './hover';
export { documentSymbols, foldingRanges, selectionRanges, format } from './structure';
export { jsonService, jsonViewOf } from './jsonService';
export { getCodeActions, getFixAllAction, QUICK_FIX, SOURCE_FIX_ALL } from './codeActions';
export type { CodeActionOptions } from './codeActions';
export { getCompletions, COMPLETION_TRIGGER_CHARACTERS } from './completion';
export type { CompletionOptions } from './completion';
export { fixAllDocument, fixAllText, isFixableRule, MAX_FIX_PASSES } from './fixAll';
export type { FixAllOptions, FixAllResult, AppliedFix } from './fixAll';
