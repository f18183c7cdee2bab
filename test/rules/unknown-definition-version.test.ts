// PS8005 unknown-definition-version: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, DEF, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { withCatalog, ref, LOCATIONS } from '../support/ruleDocuments/definitions';

const invalid: InvalidCase[] = [
  {
    name: 'a definitionVersion matching no version',
    text: ref(DEF.main, `"definitionVersion": |"2.*.*"|,\n        "parameters": { ${LOCATIONS} }`),
    code: 'PS8005',
    options: withCatalog,
    data: { knownVersions: ['1.2.0', '1.1.0', '1.0.0'] },
  },
  {
    name: 'a definitionVersion N.N.* matching no version',
    text: ref(DEF.main, `"definitionVersion": |"1.3.*"|,\n        "parameters": { ${LOCATIONS} }`),
    code: 'PS8005',
    options: withCatalog,
  },
  {
    name: 'an exact definitionVersion that does not exist',
    text: ref(DEF.main, `"definitionVersion": |"1.0.1"|,\n        "parameters": { ${LOCATIONS} }`),
    code: 'PS8005',
    options: withCatalog,
  },
  {
    name: 'a -preview definitionVersion of a missing major',
    text: ref(DEF.stable, `"definitionVersion": |"2.*.*-preview"|`),
    code: 'PS8005',
    options: withCatalog,
  },
];

const valid: ValidCase[] = [
  {
    name: "definitionVersion '2.*.*' against versions '2.0.0-PREVIEW' (664 references match only ignoring case)",
    text: ref(DEF.preview, `"definitionVersion": "2.*.*"`),
    options: withCatalog,
    notCodes: ['PS8005'],
  },
  {
    name: 'a definitionVersion that only the second cloud variant has is known (the variants are all looked through)',
    text: ref(DEF.twoClouds, `"definitionVersion": "2.1.*",\n        "parameters": { "cloudOnly": { "value": "a" } }`),
    options: withCatalog,
    notCodes: ['PS8005'],
  },
];

run('unknown-definition-version', { valid, invalid });
