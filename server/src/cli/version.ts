/** The version of policyset (package.json), for --version and the reports that name their tool. */
export function cliVersion(): string {
  try {
    // A require, not a read beside __dirname: the CLI also runs as one bundle (server/out/cli/bundle.js), which holds it.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- JSON, read when asked for only
    return (require('../../../package.json') as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}
