// PS1005 comment-in-json: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, defId, a3, type InvalidCase } from '../support/ruleTester';

const invalid: InvalidCase[] = [
  {
    name: 'a comment in a .json file (the service takes strict JSON only): on the comment',
    text: a3(`{
    |// keep in step with the storage baseline|
    "policyDefinitions": [{ "policyDefinitionId": "${defId('00000000-0000-0000-0000-0000000000a1')}" }]
  }`),
    code: 'PS1005',
    options: { uri: 'file:///repo/set.json' },
  },
];

run('comment-in-json', { valid: [], invalid });
