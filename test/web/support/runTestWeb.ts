// Runs the web suite with @vscode/test-web, in a process of its own (web.test.ts starts it under a timeout:
// test-web never exits when the browser fails to start). Argument: a JSON RunConfig. Exit code: the suite's.
import type { WebTools } from './install';

export interface RunConfig {
  tools: WebTools;
  extensionDevelopmentPath: string;
  extensionTestsPath: string;
  folderPath: string;
  port: number;
}

interface Launcher {
  launch(options: Record<string, unknown>): Promise<unknown>;
}

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? '{}') as RunConfig;
  // test-web launches Playwright's own Chromium, which cannot be downloaded here: Debian's is used instead.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const chromium = (require(config.tools.playwright) as { chromium: Launcher }).chromium;
  const launch = chromium.launch.bind(chromium);
  chromium.launch = (options) =>
    launch({
      ...options,
      executablePath: config.tools.chromium,
      args: [
        ...((options['args'] as string[] | undefined) ?? []),
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { runTests } = require(config.tools.testWeb) as { runTests(options: Record<string, unknown>): Promise<void> };
  await runTests({
    browserType: 'chromium',
    headless: true,
    quality: 'stable',
    commit: config.tools.commit,
    testRunnerDataDir: config.tools.testRunnerDataDir,
    extensionDevelopmentPath: config.extensionDevelopmentPath,
    extensionTestsPath: config.extensionTestsPath,
    folderPath: config.folderPath,
    port: config.port,
    printServerLog: false,
  });
}

main().then(
  () => process.exit(0),
  (error: Error) => {
    console.error(`test-web: ${error.message}`);
    process.exit(1);
  },
);
