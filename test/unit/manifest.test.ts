// The extension's manifest is ready for the Marketplace (issue 36): the fields the gallery shows, an icon
// vsce takes, a package script without the flags that silence vsce's warnings, language-model tools and the
// MCP server provider declared as the extension registers them, and a .vsix that holds no source or test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { REPO_ROOT } from '../support/corpus';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as Json;

/** The arguments `npm run package` gives vsce, after `vsce package`. */
function packageArgs(): string[] {
  const match = /\bvsce package ([^&]*)/.exec(manifest.scripts.package as string);
  assert.ok(match, `npm run package runs vsce package: ${manifest.scripts.package}`);
  return match[1].trim().split(/\s+/);
}

test('the Marketplace fields are there', () => {
  for (const key of ['displayName', 'description', 'publisher', 'license', 'icon', 'homepage'])
    assert.equal(typeof manifest[key], 'string', key);
  assert.match(manifest.repository?.url, /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+\.git$/, 'repository.url');
  assert.match(manifest.bugs?.url, /^https:\/\//, 'bugs.url');
  assert.match(manifest.galleryBanner?.color, /^#[0-9a-f]{6}$/i);
  assert.ok(['dark', 'light'].includes(manifest.galleryBanner?.theme));
  assert.ok(
    Array.isArray(manifest.keywords) && manifest.keywords.length > 0 && manifest.keywords.length <= 30,
    'keywords: vsce takes at most 30',
  );
  assert.ok(manifest.categories.includes('Linters'));
  assert.ok(fs.existsSync(path.join(REPO_ROOT, 'LICENSE')), 'the licence vsce puts in the .vsix');
});

test('the icon is a square PNG of 128 or 256 pixels, rendered from its SVG', () => {
  const png = fs.readFileSync(path.join(REPO_ROOT, manifest.icon as string));
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG (vsce refuses an SVG icon)');
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  assert.equal(width, height);
  assert.ok(width === 128 || width === 256, `${width} pixels`);
  assert.ok(fs.existsSync(path.join(REPO_ROOT, (manifest.icon as string).replace(/\.png$/, '.svg'))), 'its source');
});

/** The Marketplace page: package.json's "vsce" options, which `vsce package` and `vsce publish` read. */
const readme = manifest.vsce?.readmePath as string;

test('npm run package gives vsce none of the flags that silence its warnings', () => {
  const args = packageArgs();
  for (const flag of [
    '--skip-license',
    '--allow-missing-repository',
    '--no-rewrite-relative-links',
    '--allow-star-activation',
    '--allow-unused-files-pattern',
  ])
    assert.ok(!args.includes(flag), flag);
  // Plain `vsce package` packs the bundles alone (they hold the dependencies) with the Marketplace page.
  assert.equal(manifest.vsce?.dependencies, false);
  assert.ok(fs.existsSync(path.join(REPO_ROOT, readme)), `the Marketplace page ${readme}`);
  // vsce rewrites a relative link from the repository's root, wherever the page is: the page's links are absolute.
  const page = fs.readFileSync(path.join(REPO_ROOT, readme), 'utf8');
  const relative = [...page.matchAll(/!?\[[^\]]*\]\(([^)]+)\)/g)].map((m) => m[1]).filter((link) => !/^(https:\/\/|#|mailto:)/.test(link));
  assert.deepEqual(relative, [], 'links that would break on the Marketplace');
});

test('the language-model tools and the MCP provider are declared as the extension registers them', () => {
  const source = fs.readFileSync(path.join(REPO_ROOT, 'client/src/languageModelTools.ts'), 'utf8');
  const registered = [...source.matchAll(/registerTool\('([^']+)'/g)].map((m) => m[1]).sort();
  const declared = (manifest.contributes.languageModelTools as Json[]).map((t) => t.name as string).sort();
  assert.deepEqual(declared, registered);
  for (const tool of manifest.contributes.languageModelTools as Json[]) {
    assert.equal(tool.inputSchema?.type, 'object', tool.name);
    assert.ok((tool.modelDescription as string).length > 80, `${tool.name}: a model needs to know when to use it`);
  }
  const providers = [...source.matchAll(/registerMcpServerDefinitionProvider\('([^']+)'/g)].map((m) => m[1]);
  assert.deepEqual(
    (manifest.contributes.mcpServerDefinitionProviders as Json[]).map((p) => p.id),
    providers,
  );
  // The engine stays at 1.91: the APIs of 1.95 and 1.101 are used only where they exist.
  assert.equal(manifest.engines.vscode, '^1.91.0');
});

test('the .vsix holds the bundles, the manifest, the licence and the icon, and no source, test or dependency', () => {
  const vsce = path.join(path.dirname(require.resolve('@vscode/vsce/package.json')), 'vsce');
  // `vsce ls` does not read package.json's "vsce" options as `vsce package` does: they are given here.
  const files = execFileSync(process.execPath, [vsce, 'ls', '--no-dependencies', '--readme-path', readme], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  })
    .trim()
    .split('\n');
  for (const file of [
    'package.json',
    'LICENSE',
    'THIRD-PARTY-NOTICES.md',
    'CHANGELOG.md',
    manifest.icon as string,
    readme,
    'docs/rules/README.md',
  ])
    assert.ok(files.includes(file), `${file} in the .vsix`);
  assert.ok(!files.includes('README.md'), "the team's README is not the Marketplace page (vsce would refuse two readme files)");
  const unwanted = files.filter(
    (f) =>
      /^(test|client\/src|server\/src|server\/out|scripts|node_modules|examples|\.cache)\//.test(f) ||
      /\.(ts|map|vsix|tgz)$/.test(f) ||
      f === 'resources/icon.svg',
  );
  assert.deepEqual(unwanted, []);
});
