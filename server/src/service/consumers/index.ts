// A set's consumers: assignments and exemptions, recognised by content, resolved to the set they assign.
export { consumersOf } from './recognise';
export { resolveConsumer, resolveTarget, type ResolvedConsumer, type ResolvedTarget, type TargetDeclaration } from './resolve';
export {
  isPlaceholderValue,
  holdsPlaceholder,
  type ConsumerModel,
  type ConsumerShape,
  type ConsumerTarget,
  type PassedParameter,
  type ReferenceIdUse,
} from './model';
export { assignsSet, usesOfSet, usesOfName, type ConsumerUse, type SetIdentity } from './uses';
export { parameterFileUses, parameterFilesNamedBy, type ParameterFileUse, type ResolvedParameterFileUse } from './parameterFile';
export { parseCsv, type ParsedCsv, type CsvCell, type CsvRecord } from './csv';
export { siteOf, breaksOf, type ConsumerSite, type ConsumerBreak } from './breaks';
