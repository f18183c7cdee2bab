import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort, poll, spawnGroup, stopGroup } from './processes';
import type { E2eTools } from './install';

/** A code-server (a real VS Code: web workbench and Node extension host) on 127.0.0.1, with its own folders. */
export class CodeServer {
  private constructor(
    readonly url: string,
    readonly home: string,
    readonly extensionsDir: string,
    private readonly child: ChildProcess,
    readonly logFile: string,
  ) {}

  /**
   * `settings`: more user settings. `machineSettings`: the remote machine's settings, where settings of the
   * `machine` and `machine-overridable` scopes must go (code-server's window is a remote one: it ignores them
   * in the user settings).
   */
  static async start(
    tools: E2eTools,
    options: { vsix: string; settings?: Record<string, unknown>; machineSettings?: Record<string, unknown> },
  ): Promise<CodeServer> {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-e2e-'));
    const dirs = { userData: path.join(home, 'user-data'), extensions: path.join(home, 'extensions'), xdg: path.join(home, 'xdg') };
    for (const dir of Object.values(dirs)) fs.mkdirSync(dir, { recursive: true });
    const config = path.join(home, 'config.yaml');
    fs.writeFileSync(config, 'auth: none\ncert: false\n');
    // Settings that keep the workbench quiet and fast: no welcome page, no chat, no trust prompt.
    fs.mkdirSync(path.join(dirs.userData, 'User'), { recursive: true });
    fs.writeFileSync(
      path.join(dirs.userData, 'User', 'settings.json'),
      JSON.stringify(
        {
          'workbench.startupEditor': 'none',
          'workbench.tips.enabled': false,
          'security.workspace.trust.enabled': false,
          'extensions.autoUpdate': false,
          'extensions.autoCheckUpdates': false,
          'update.mode': 'none',
          'telemetry.telemetryLevel': 'off',
          'chat.disableAIFeatures': true,
          'workbench.secondarySideBar.defaultVisibility': 'hidden',
          'editor.quickSuggestions': { other: false, comments: false, strings: false },
          'window.restoreWindows': 'none',
          ...options.settings,
        },
        null,
        2,
      ),
    );
    if (options.machineSettings) {
      fs.mkdirSync(path.join(dirs.userData, 'Machine'), { recursive: true });
      fs.writeFileSync(path.join(dirs.userData, 'Machine', 'settings.json'), JSON.stringify(options.machineSettings, null, 2));
    }
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PATH: `${path.dirname(tools.node24)}${path.delimiter}${process.env.PATH ?? ''}`,
      HOME: home,
      XDG_CONFIG_HOME: path.join(dirs.xdg, 'config'),
      XDG_DATA_HOME: path.join(dirs.xdg, 'data'),
      XDG_CACHE_HOME: path.join(dirs.xdg, 'cache'),
      XDG_RUNTIME_DIR: path.join(dirs.xdg, 'runtime'),
    };
    const common = [
      '--config',
      config,
      '--user-data-dir',
      dirs.userData,
      '--extensions-dir',
      dirs.extensions,
      '--disable-telemetry',
      '--disable-update-check',
    ];

    // Install the packaged extension as a person would.
    await new Promise<void>((resolve, reject) => {
      const installer = spawn(tools.node24, [tools.codeServerEntry, ...common, '--install-extension', options.vsix], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      installer.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      installer.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const timer = setTimeout(() => installer.kill('SIGKILL'), 120_000);
      installer.on('error', reject);
      installer.on('close', (code) => {
        clearTimeout(timer);
        if (code === 0) resolve();
        else reject(new Error(`code-server --install-extension failed (exit code ${code}):\n${output}`));
      });
    });

    const port = await freePort();
    const logFile = path.join(home, 'code-server.log');
    const out = fs.openSync(logFile, 'a');
    const child = spawnGroup(
      tools.node24,
      [
        tools.codeServerEntry,
        ...common,
        '--bind-addr',
        `127.0.0.1:${port}`,
        '--auth',
        'none',
        '--disable-workspace-trust',
        '--vscode-option',
        'enable-smoke-test-driver',
      ],
      { env, stdio: ['ignore', out, out] },
    );
    fs.closeSync(out);
    const server = new CodeServer(`http://127.0.0.1:${port}`, home, dirs.extensions, child, logFile);
    let exited = false;
    child.on('exit', () => (exited = true));
    try {
      await poll(
        'code-server to answer /healthz',
        async () => {
          if (exited) throw new Error(`code-server exited:\n${fs.readFileSync(logFile, 'utf8').slice(-3000)}`);
          const response = await fetch(`${server.url}/healthz`);
          return response.ok || undefined;
        },
        60_000,
      );
    } catch (error) {
      await server.stop();
      throw error;
    }
    return server;
  }

  /** The folder of the installed extension: the packaged .vsix, unpacked by code-server. */
  installedExtension(id: string): string {
    const folder = fs.readdirSync(this.extensionsDir).find((name) => name.toLowerCase().startsWith(`${id.toLowerCase()}-`));
    if (!folder) throw new Error(`${id} is not installed in ${this.extensionsDir}`);
    return path.join(this.extensionsDir, folder);
  }

  /** The language servers running under this code-server: processes of its group started from the extension's server module. */
  languageServerPids(): number[] {
    const pgid = this.child.pid;
    const pids: number[] = [];
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
        // Fields after the command (which is in parentheses): state, ppid, pgrp.
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        if (Number(fields[2]) !== pgid) continue;
        const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
        if (cmdline.includes(`${path.sep}dist${path.sep}server${path.sep}server.js`)) pids.push(Number(entry));
      } catch {
        // the process ended meanwhile
      }
    }
    return pids;
  }

  log(): string {
    try {
      return fs.readFileSync(this.logFile, 'utf8');
    } catch {
      return '';
    }
  }

  async stop(): Promise<void> {
    await stopGroup(this.child);
    fs.rmSync(this.home, { recursive: true, force: true });
  }
}
