// Documents the references rules' tests share (test/rules/).
import { defId } from '../ruleTester';

export const D1 = defId('d1');

export const D2 = defId('d2');
