// What the web suite (in the browser) tells web.test.ts (in Node), one console line each.

/** The prefix of the lines each test's result, and each measurement (`<prefix>metric {...}`), is read from. */
export const RESULT_PREFIX = '[policyset-web]';

export interface WebResult {
  suite: string;
  title: string;
  state: 'passed' | 'failed';
  error?: string;
}

/** The authentication provider the web suite registers, named in the workspace settings web.test.ts writes. */
export const WEB_AUTH_PROVIDER = 'policyset-web-test';
/** The token it gives (a test's, accepted by the local service only). */
export const WEB_TOKEN = 'web-test-token-2c9e';

/** What web.test.ts tells the suite, in the workspace's web-test.json. */
export interface WebTestInfo {
  serviceUrl: string;
  /** An address where nothing answers. */
  closedUrl: string;
  /** A built-in set the local service has. */
  builtIn: string;
}
