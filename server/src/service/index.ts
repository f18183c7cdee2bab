// The policy set language service: pure, no editor or transport API, no file system.
// The editor features are in ./features (imported apart: the CLI does not load them).
export { validateText, validateDocument, validationSteps, parsePolicyDocument, withModel, severityOf, validateSplitSet } from './validate';
export type { ValidateOptions, ValidationResult, PolicyDocument } from './validate';
export { RULES } from './rules';
export { FIX_KINDS } from './rules';
export type { Rule, RuleMeta, FixKind } from './rules';
export { DefinitionCatalog, normalizeDefinitionId, cloudOfPath, DEFAULT_CLOUD } from './definitions';
export type { DefinitionInfo, DefinitionParameter, SetInfo } from './definitions';
export { decodeUtf8, decodeText, encodingOf, encodeText } from './json/encoding';
export type { DecodedText, TextEncodingName } from './json/encoding';
export { splitSetOf, siblingsOf, splitPartOf } from './model/splitSet';
export type { SplitPart, PartText } from './model/splitSet';
export { loadSchemas, bundledSchema, SCHEMA_IDS } from './schema/schemas';
export * from './diagnostics';
export type { DocumentKind } from './model/documentKind';
export { NOT_A_POLICY_DOCUMENT, mentionsPolicyKeys, placeholderAtSyntaxError } from './model/documentKind';
export { ITEM_TYPES } from './model/itemTypes';
export * from './quota';
export * from './versions';
export { uncheckedReferencesOf, uncheckedTotal, addUnchecked, noUnchecked, describeUnchecked, type UncheckedReferences } from './unchecked';
export { evaluate, isSet, namedBy, aliasCatalogue, resourcesOf, relatedIn, evaluationJson, explainResult, isFixture } from './evaluate';
export type {
  EvaluateInput,
  MemberResult,
  PatchOperation,
  EvaluationContext,
  Outcome,
  Resource,
  TraceEntry,
  Json as EvaluationJson,
  JsonObject,
  ResourceResults,
  FixtureExpectation,
  FixtureRun,
} from './evaluate';
