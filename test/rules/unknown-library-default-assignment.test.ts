// PS9216 unknown-library-default-assignment: the default values it must pass (valid) and the ones it must report, with the exact range (invalid).
import { run, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { defaultValues, withLibrary } from '../support/ruleDocuments/libraryDefaults';

const invalid: InvalidCase[] = [
  {
    name: 'an assignment the library does not define, with did you mean',
    text: defaultValues(`{ "policy_assignment_name": |"Enforce-Tags"|, "parameter_names": ["tagName"] }`),
    code: 'PS9216',
    options: withLibrary(),
    data: { name: 'Enforce-Tags', suggestion: 'Enforce-Tagging' },
  },
  {
    name: 'found by content, without the $schema',
    text: `{ "defaults": [{ "default_name": "a", "policy_assignments": [{ "policy_assignment_name": |"Gone-Entirely"|, "parameter_names": [] }] }] }`,
    code: 'PS9216',
    options: withLibrary(),
    data: { messageId: 'unknown' },
  },
];

const valid: ValidCase[] = [
  {
    name: 'assignments of the library, any casing, whether or not their set is known',
    text: defaultValues(`{ "policy_assignment_name": "enforce-tagging", "parameter_names": ["tagName"] },
        { "policy_assignment_name": "Other", "parameter_names": ["x"] }`),
    notCodes: ['PS9216'],
    options: withLibrary(),
  },
  {
    name: 'a library that depends on another whose files were not given',
    text: defaultValues(`{ "policy_assignment_name": "From-The-Other-Library", "parameter_names": ["x"] }`),
    notCodes: ['PS9216'],
    options: withLibrary(false),
  },
  {
    name: 'no library given (the editor)',
    text: defaultValues(`{ "policy_assignment_name": "Enforce-Tags", "parameter_names": ["x"] }`),
    notCodes: ['PS9216'],
  },
];

run('unknown-library-default-assignment', { valid, invalid });
