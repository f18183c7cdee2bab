// Every y/N prompt on a real terminal (issue 31): the CLI runs in a pseudo-terminal (node-pty), a person types
// y or n, and the screen shows the question and the answer as a terminal shows them, never readline's cursor
// codes or the echo escaped as text (`\u001b[1G\u001b[0JDeploy? [y/N]`). Against the local service.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as pty from 'node-pty';
import { CLI } from '../support/run';
import { startLocalService, type LocalService } from '../fake-service/localService';

const TOKEN = 'TOKEN-prompt-pty-3f9a1d';
const SUB = '2c3d4e5f-5a1d-4c2e-9f8a-0123456789ab';
const SET = {
  name: 'prompted-set',
  properties: {
    displayName: 'Prompted',
    version: '1.0.0',
    policyDefinitions: [
      {
        policyDefinitionReferenceId: 'a',
        policyDefinitionId: '/providers/Microsoft.Authorization/policyDefinitions/3aa03346-d8c5-4994-a5bc-7652c2a2aef1',
      },
    ],
  },
};

/** Runs the CLI on a terminal of its own; types `answer` and Enter once the question is on the screen. */
function onTerminal(args: string[], answer: string): Promise<{ screen: string; code: number }> {
  return new Promise((resolve, reject) => {
    const term = pty.spawn(process.execPath, [CLI, ...args], {
      cols: 120,
      rows: 40,
      cwd: dir,
      env: { ...process.env, POLICYSET_ACCESS_TOKEN: TOKEN, NO_COLOR: '1' } as Record<string, string>,
    });
    let screen = '';
    let typed = false;
    const timer = setTimeout(() => {
      term.kill();
      reject(new Error(`no exit in 60 s; the screen:\n${screen}`));
    }, 60_000);
    term.onData((data) => {
      screen += data;
      if (!typed && screen.includes('[y/N] ')) {
        typed = true;
        term.write(`${answer}\r`);
      }
    });
    term.onExit(({ exitCode }) => {
      clearTimeout(timer);
      resolve({ screen, code: exitCode });
    });
  });
}

/** The lines as a terminal shows them: cursor moves and erasures (CSI sequences) done, not shown. */
const shown = (screen: string) =>
  screen
    .replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '')
    .split(/\r?\n/)
    .map((line) => line.replace(/^.*\r(?!$)/, '').replace(/\r$/, ''));

let dir: string;
let service: LocalService;
before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-prompt-'));
  fs.writeFileSync(path.join(dir, 'set.json'), JSON.stringify(SET, null, 2));
  service = await startLocalService();
});
after(async () => {
  await service.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('y/N prompts in a pseudo-terminal', () => {
  const args = () => ['deploy', 'set.json', '--subscription', SUB, '--base-url', service.url];

  test('y: the question and the answer as typed, no escape written as text; exactly one PUT', async () => {
    service.requests.length = 0;
    const { screen, code } = await onTerminal(args(), 'y');
    assert.equal(code, 0, screen);
    assert.ok(!screen.includes('\\u001b') && !screen.includes('\\u00'), `escaped control codes on the screen:\n${JSON.stringify(screen)}`);
    assert.ok(shown(screen).includes('Deploy? [y/N] y'), JSON.stringify(shown(screen)));
    assert.match(screen, /created \/subscriptions\/.*\/versions\/1\.0\.0/);
    assert.deepEqual(
      service.requests.map((r) => r.method),
      ['PUT'],
    );
  });

  test('n: not deployed, nothing sent, no escape written as text', async () => {
    service.requests.length = 0;
    const { screen, code } = await onTerminal(args(), 'n');
    assert.equal(code, 1, screen);
    assert.ok(!screen.includes('\\u001b') && !screen.includes('\\u00'), `escaped control codes on the screen:\n${JSON.stringify(screen)}`);
    assert.ok(shown(screen).includes('Deploy? [y/N] n'), JSON.stringify(shown(screen)));
    assert.match(screen, /policyset: not deployed/);
    assert.equal(service.requests.length, 0);
  });

  test('a service-derived name in a question stays escaped: the eventstream name with an escape sequence', async () => {
    // The question's own parts come from the service here: its control characters are shown as text.
    const name = 'evil\u001b[2Jname';
    const workspace = '11111111-2222-4333-8444-555555555555';
    const item = '66666666-7777-4888-8999-aaaaaaaaaaaa';
    await fetch(`${service.url}/_local/eventstreams`, {
      method: 'POST',
      body: JSON.stringify({ id: item, workspaceId: workspace, displayName: name, type: 'Eventstream' }),
    });
    const { screen, code } = await onTerminal(
      ['eventstream', 'delete', workspace, item, '--items-base-url', service.url, '--base-url', service.url],
      'n',
    );
    assert.equal(code, 1, screen);
    assert.ok(!screen.includes('\u001b[2J'), "the service's escape sequence reached the terminal");
    assert.ok(
      shown(screen).some((line) => line.startsWith("Delete eventstream 'evil\\u001b[2Jname'? [y/N] n")),
      JSON.stringify(shown(screen)),
    );
  });
});
