// PS9217 unknown-library-default-parameter: the default values it must pass (valid) and the ones it must report, with the exact range (invalid).
import { run, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { defaultValues, withLibrary } from '../support/ruleDocuments/libraryDefaults';

const invalid: InvalidCase[] = [
  {
    name: 'a parameter the set does not declare, with did you mean',
    text: defaultValues(`{ "policy_assignment_name": "Enforce-Tagging", "parameter_names": ["effect", |"tagNames"|] }`),
    code: 'PS9217',
    options: withLibrary(),
    data: { parameter: 'tagNames', assignment: 'Enforce-Tagging', suggestion: 'tagName' },
    related: ['', ''],
  },
  {
    name: 'found whether or not the library is complete',
    text: defaultValues(`{ "policy_assignment_name": "Enforce-Tagging", "parameter_names": [|"nothingLikeIt"|] }`),
    code: 'PS9217',
    options: withLibrary(false),
    data: { messageId: 'unknown' },
  },
];

const valid: ValidCase[] = [
  {
    name: 'declared parameters, any casing',
    text: defaultValues(`{ "policy_assignment_name": "Enforce-Tagging", "parameter_names": ["TAGNAME", "effect"] }`),
    notCodes: ['PS9217'],
    options: withLibrary(),
  },
  {
    name: 'the set of the assignment is not known',
    text: defaultValues(`{ "policy_assignment_name": "Other", "parameter_names": ["x"] }`),
    notCodes: ['PS9217'],
    options: withLibrary(),
  },
  {
    name: 'an assignment the library does not define (unknown-library-default-assignment says so)',
    text: defaultValues(`{ "policy_assignment_name": "Enforce-Tags", "parameter_names": ["x"] }`),
    notCodes: ['PS9217'],
    options: withLibrary(),
  },
];

run('unknown-library-default-parameter', { valid, invalid });
