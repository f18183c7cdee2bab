// PS8007 deprecated-definition: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, DEF, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { withCatalog, ref, MULTI, withVariants } from '../support/ruleDocuments/definitions';

const invalid: InvalidCase[] = [
  {
    name: 'a definition deprecated in every variant that applies',
    text: ref(`${MULTI}deprecated-both`, '').replace(`"${MULTI}deprecated-both"`, `|"${MULTI}deprecated-both"|`),
    code: 'PS8007',
    options: withVariants,
  },
  {
    name: 'a deprecated definition: info on the ID',
    text: ref(DEF.deprecated, '').replace(`"${DEF.deprecated}"`, `|"${DEF.deprecated}"|`),
    code: 'PS8007',
    options: withCatalog,
    severity: 3,
  },
];

const valid: ValidCase[] = [
  {
    name: 'a definition deprecated in only one variant that applies is not reported deprecated',
    text: ref(`${MULTI}deprecated-split`, ''),
    options: withVariants,
    notCodes: ['PS8007'],
  },
];

run('deprecated-definition', { valid, invalid });
