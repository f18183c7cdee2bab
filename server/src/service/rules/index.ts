// The registry of every rule, sorted by code. Codes are added, never reused.
import type { Rule } from './types';
import { jsonSyntax } from './json-syntax';
import { duplicateKey } from './duplicate-key';
import { documentTooLarge } from './document-too-large';
import { nestingTooDeep } from './nesting-too-deep';
import { invalidEncoding } from './invalid-encoding';
import { nonUtf8Encoding } from './non-utf8-encoding';
import { schemaType } from './schema-type';
import { missingRequiredProperty } from './missing-required-property';
import { invalidEnumValue } from './invalid-enum-value';
import { unknownProperty } from './unknown-property';
import { propertyNameCasing } from './property-name-casing';
import { enumValueCasing } from './enum-value-casing';
import { invalidWorkspaceItem } from './invalid-workspace-item';
import { unknownItemType } from './unknown-item-type';
import { invalidVersionName } from './invalid-version-name';
import { invalidVersion } from './invalid-version';
import { invalidDefinitionVersion } from './invalid-definition-version';
import { responseOnlyProperty } from './response-only-property';
import { invalidApiVersion } from './invalid-api-version';
import { versionNotBumped } from './version-not-bumped';
import { duplicateReferenceId } from './duplicate-reference-id';
import { missingReferenceId } from './missing-reference-id';
import { invalidPolicyDefinitionId } from './invalid-policy-definition-id';
import { undefinedGroup } from './undefined-group';
import { duplicateGroupName } from './duplicate-group-name';
import { unusedGroup } from './unused-group';
import { groupNameCasing } from './group-name-casing';
import { defaultValueTypeMismatch } from './default-value-type-mismatch';
import { allowedValueTypeMismatch } from './allowed-value-type-mismatch';
import { defaultNotAllowed } from './default-not-allowed';
import { schemaOnNonObject } from './schema-on-non-object';
import { invalidParameterSchema } from './invalid-parameter-schema';
import { parameterNameCasingConflict } from './parameter-name-casing-conflict';
import { valueViolatesParameterSchema } from './value-violates-parameter-schema';
import { uncheckedSchemaPattern } from './unchecked-schema-pattern';
import { undefinedParameter } from './undefined-parameter';
import { parameterReferenceCasing } from './parameter-reference-casing';
import { unusedParameter } from './unused-parameter';
import { malformedExpression } from './malformed-expression';
import { undefinedTemplateParameter } from './undefined-template-parameter';
import { escapedExpressionOutsideTemplate } from './escaped-expression-outside-template';
import { unknownCustomDefinition } from './unknown-custom-definition';
import { definitionNamedTwice } from './definition-named-twice';
import { unknownDefinitionParameter } from './unknown-definition-parameter';
import { missingDefinitionParameter } from './missing-definition-parameter';
import { definitionParameterTypeMismatch } from './definition-parameter-type-mismatch';
import { definitionValueNotAllowed } from './definition-value-not-allowed';
import { unknownDefinitionVersion } from './unknown-definition-version';
import { unknownDefinition } from './unknown-definition';
import { deprecatedDefinition } from './deprecated-definition';
import { definitionParameterCasing } from './definition-parameter-casing';
import { parameterTypeFlow } from './parameter-type-flow';
import { tooManyReferences } from './too-many-references';
import { tooManyParameters } from './too-many-parameters';
import { requestTooLarge } from './request-too-large';
import { displayNameTooLong } from './display-name-too-long';
import { descriptionTooLong } from './description-too-long';
import { commentInJson } from './comment-in-json';
import { invalidDeploymentCapacity } from './invalid-deployment-capacity';
import { unknownModelClass } from './unknown-model-class';
import { modelQuotaExceeded } from './model-quota-exceeded';
import { tooManyResourcesInRegion } from './too-many-resources-in-region';
import { quotaNotChecked } from './quota-not-checked';
import { unknownAssignmentParameter } from './unknown-assignment-parameter';
import { missingAssignmentParameter } from './missing-assignment-parameter';
import { assignmentValueTypeMismatch } from './assignment-value-type-mismatch';
import { assignmentValueNotAllowed } from './assignment-value-not-allowed';
import { unknownMemberReferenceId } from './unknown-member-reference-id';
import { referenceIdOnDefinitionAssignment } from './reference-id-on-definition-assignment';
import { duplicateDefaultMessage } from './duplicate-default-message';
import { expiredExemption } from './expired-exemption';
import { libraryAssignmentParameterNotPassed } from './library-assignment-parameter-not-passed';
import { duplicateParameterFileColumn } from './duplicate-parameter-file-column';
import { parameterFileRowNotMember } from './parameter-file-row-not-member';
import { parameterFileMemberWithoutRow } from './parameter-file-member-without-row';
import { invalidParameterFileCell } from './invalid-parameter-file-cell';
import { unknownParameterFileParameter } from './unknown-parameter-file-parameter';
import { unknownAssignmentDefinitionVersion } from './unknown-assignment-definition-version';
import { unknownLibraryDefaultAssignment } from './unknown-library-default-assignment';
import { unknownLibraryDefaultParameter } from './unknown-library-default-parameter';

export const RULES: readonly Rule[] = [
  jsonSyntax,
  duplicateKey,
  nestingTooDeep,
  invalidEncoding,
  commentInJson,
  nonUtf8Encoding,
  schemaType,
  missingRequiredProperty,
  invalidEnumValue,
  unknownProperty,
  propertyNameCasing,
  enumValueCasing,
  invalidWorkspaceItem,
  unknownItemType,
  invalidVersionName,
  invalidVersion,
  invalidDefinitionVersion,
  responseOnlyProperty,
  invalidApiVersion,
  versionNotBumped,
  duplicateReferenceId,
  missingReferenceId,
  invalidPolicyDefinitionId,
  definitionNamedTwice,
  undefinedGroup,
  duplicateGroupName,
  unusedGroup,
  groupNameCasing,
  defaultValueTypeMismatch,
  allowedValueTypeMismatch,
  defaultNotAllowed,
  schemaOnNonObject,
  invalidParameterSchema,
  valueViolatesParameterSchema,
  uncheckedSchemaPattern,
  parameterNameCasingConflict,
  undefinedParameter,
  parameterReferenceCasing,
  unusedParameter,
  malformedExpression,
  undefinedTemplateParameter,
  escapedExpressionOutsideTemplate,
  unknownDefinitionParameter,
  missingDefinitionParameter,
  definitionParameterTypeMismatch,
  definitionValueNotAllowed,
  unknownDefinitionVersion,
  unknownDefinition,
  deprecatedDefinition,
  unknownCustomDefinition,
  definitionParameterCasing,
  parameterTypeFlow,
  tooManyReferences,
  tooManyParameters,
  requestTooLarge,
  displayNameTooLong,
  descriptionTooLong,
  documentTooLarge,
  invalidDeploymentCapacity,
  unknownModelClass,
  modelQuotaExceeded,
  tooManyResourcesInRegion,
  quotaNotChecked,
  unknownAssignmentParameter,
  missingAssignmentParameter,
  assignmentValueTypeMismatch,
  assignmentValueNotAllowed,
  unknownMemberReferenceId,
  referenceIdOnDefinitionAssignment,
  duplicateDefaultMessage,
  expiredExemption,
  libraryAssignmentParameterNotPassed,
  duplicateParameterFileColumn,
  parameterFileRowNotMember,
  parameterFileMemberWithoutRow,
  invalidParameterFileCell,
  unknownParameterFileParameter,
  unknownAssignmentDefinitionVersion,
  unknownLibraryDefaultAssignment,
  unknownLibraryDefaultParameter,
];

export type { Rule, RuleMeta, SetRule, DocumentRule, ConsumerRule, ParameterFileRule, FixKind } from './types';
export { FIX_KINDS } from './types';
