// Documents the schema rules' tests share (test/rules/).
import { defId } from '../ruleTester';

export const REF = `{ "policyDefinitionId": "${defId('d1')}" }`;
