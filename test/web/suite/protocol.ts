// What the web suite (in the browser) tells web.test.ts (in Node), one console line each.

/** The prefix of the lines each test's result, and each measurement (`<prefix>metric {...}`), is read from. */
export const RESULT_PREFIX = '[policyset-web]';

export interface WebResult {
  suite: string;
  title: string;
  state: 'passed' | 'failed';
  error?: string;
}
