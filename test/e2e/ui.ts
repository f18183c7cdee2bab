// What a person sees in code-server, driven through Chromium with Playwright: the workbench with the
// installed .vsix, a policy set with an undefined group, the squiggle, the Problems panel, the suggest
// widget and the quick fix menu.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { CodeServer } from './support/codeServer';
import { newPage, SCREENSHOTS, workspaceCopy } from './runCodeServer';

export const UNDEFINED_GROUP_FIXTURE = 'undefinedGroup.json';

/** One workbench window on a fresh copy of the fixtures. */
export class Workbench {
  private constructor(
    readonly page: Page,
    readonly folder: string,
  ) {}

  /** `copies`: more files, name → the fixture they copy, made before the workbench opens (Quick Open finds them at once). */
  static async open(server: CodeServer, browser: Browser, copies: Record<string, string> = {}): Promise<Workbench> {
    const folder = workspaceCopy('ui');
    for (const [name, fixture] of Object.entries(copies)) fs.copyFileSync(path.join(folder, fixture), path.join(folder, name));
    const page = await newPage(browser);
    await page.goto(`${server.url}/?folder=${encodeURIComponent(folder)}`);
    await page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: 60_000 });
    // The explorer shows the folder once the remote file system answers.
    await page
      .locator('.explorer-folders-view .monaco-list-row', { hasText: UNDEFINED_GROUP_FIXTURE })
      .first()
      .waitFor({ timeout: 60_000 });
    return new Workbench(page, folder);
  }

  fixtureText(name: string): string {
    return fs.readFileSync(path.join(this.folder, name), 'utf8');
  }

  /** Runs a quick-input command (Ctrl+P file search, Ctrl+G line) and accepts the entry. */
  private async quickInput(shortcut: string, text: string, entry?: string): Promise<void> {
    const input = this.page.locator('.quick-input-widget input');
    await this.page.keyboard.press(shortcut);
    await input.waitFor({ state: 'visible' });
    await input.fill(text);
    if (entry) await this.page.locator('.quick-input-widget .monaco-list-row', { hasText: entry }).first().waitFor();
    await this.page.keyboard.press('Enter');
    try {
      await input.waitFor({ state: 'hidden', timeout: 5_000 });
    } catch {
      // Seen once in a full `npm test`: an Enter the picker took before it had read the typed value. Once more, only while it is still open.
      if (await input.isVisible()) await this.page.keyboard.press('Enter');
      await input.waitFor({ state: 'hidden' });
    }
  }

  async showProblems(): Promise<void> {
    await this.page.keyboard.press('Control+Shift+M');
    await this.page.locator('.markers-panel-container, .markers-panel').first().waitFor({ state: 'attached' });
  }

  async closeAllEditors(): Promise<void> {
    await this.page.keyboard.press('Control+K');
    await this.page.keyboard.press('Control+W');
    await this.page.locator('.tabs-container .tab').first().waitFor({ state: 'detached' });
  }

  /** Opens a file by Quick Open, as a person does; resolves when the editor shows it. */
  async openFile(name: string): Promise<number> {
    await this.quickInput('Control+P', name, name);
    const opened = Date.now();
    await this.page.locator('.tabs-container .tab.active', { hasText: name }).waitFor();
    return opened;
  }

  /** Puts the cursor at a 1-based line and column (Go to Line). */
  async goTo(line: number, column: number): Promise<void> {
    await this.quickInput('Control+G', `:${line}:${column}`);
    await this.page.locator('.monaco-editor.focused').waitFor();
  }

  /** The 1-based line and column just after `needle` in a fixture. */
  positionAfter(name: string, needle: string): { line: number; column: number } {
    const text = this.fixtureText(name);
    const offset = text.indexOf(needle);
    if (offset < 0) throw new Error(`'${needle}' is not in ${name}`);
    const before = text.slice(0, offset + needle.length).split('\n');
    return { line: before.length, column: before[before.length - 1].length + 1 };
  }

  squiggles() {
    return this.page.locator('.monaco-editor .view-overlays .squiggly-error, .monaco-editor .squiggly-error');
  }

  /** The Problems panel's row of a file (its name, with its entries beneath). */
  problemFileRows(name: string) {
    return this.page.locator('.markers-panel .monaco-list-row', { hasText: name }).filter({ hasNotText: /PS\d{4}/ });
  }

  problemRows(text: string) {
    return this.page.locator('.markers-panel .monaco-list-row', { hasText: text });
  }

  /** The visible text of the active editor (the fixtures fit the window). */
  async editorText(): Promise<string> {
    const lines = await this.page.locator('.editor-group-container.active .monaco-editor .view-lines .view-line').evaluateAll((nodes) =>
      nodes.map((node) => ({
        top: parseFloat((node as unknown as { style: { top: string } }).style.top) || 0,
        text: (node.textContent ?? '').replace(/\u00a0/g, ' '),
      })),
    );
    return lines
      .sort((a, b) => a.top - b.top)
      .map((line) => line.text)
      .join('\n');
  }

  async screenshot(name: string): Promise<string> {
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    const file = path.join(SCREENSHOTS, `${name}.png`);
    await this.page.screenshot({ path: file }).catch(() => undefined);
    return file;
  }

  async close(): Promise<void> {
    await this.page.context().close();
    fs.rmSync(this.folder, { recursive: true, force: true });
  }
}
