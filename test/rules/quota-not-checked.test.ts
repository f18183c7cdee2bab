// PS9105 quota-not-checked: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { usage, body, plan, d } from '../support/ruleDocuments/quota';

const invalid: InvalidCase[] = [
  {
    name: 'not checked: the usage is for another region (a 6,000,000 TPM deployment is not passed silently)',
    text: plan([d('huge', '|6000|', '"gpt-4o"', ', "region": "westus"')], `\n  "usage": ${usage(0, 100)},`),
    code: 'PS9105',
    severity: 2,
    message: /was not checked for this deployment: no usage of subscription .* in 'westus': the usage given is for 'eastus'/,
  },
  {
    name: 'not checked: no usage at all',
    text: plan([d('chat', '|10|')]),
    code: 'PS9105',
    message: /no usage was given/,
  },
  {
    name: 'not checked: the usage of the region lists no such model and type',
    text: plan([d('g', '|10|', '"o3-mini"')], `\n  "usage": ${usage(0, 100)},`),
    code: 'PS9105',
    message: /the usage of 'eastus' has no entry for 'o3-mini' \(Standard\)/,
  },
];

const valid: ValidCase[] = [
  { name: 'a lone E6 body: no not-checked warning (it is not a plan)', text: body('"gpt-4o"', '20'), notCodes: ['PS9105'] },
];

run('quota-not-checked', { valid, invalid });
