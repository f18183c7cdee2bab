// The reports of `policyset test`: text, JSON, SARIF (a result per failed expectation, on its case's line), JUnit XML.
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { untrusted } from '../formatters';
import { traceLine } from './report';
import type { FixtureResult } from './fixtures';

export const TEST_FORMATS = ['text', 'json', 'sarif', 'junit'] as const;

export function summaryOf(fixtures: FixtureResult[]): { passed: number; failed: number } {
  const cases = fixtures.flatMap((f) => f.cases);
  const failed = cases.filter((c) => !c.passed).length;
  return { passed: cases.length - failed, failed };
}

const rel = (file: string, cwd: string) => path.relative(cwd, file).split(path.sep).join('/') || file;

export function testText(fixtures: FixtureResult[], cwd: string): string {
  const lines: string[] = [];
  for (const fixture of fixtures) {
    lines.push(untrusted(rel(fixture.file, cwd)));
    for (const c of fixture.cases) {
      lines.push(`  ${c.passed ? 'pass' : 'FAIL'}  ${untrusted(c.name)}  (line ${c.line})`);
      for (const e of c.expectations.filter((x) => !x.passed)) {
        lines.push(
          `        ${untrusted(e.referenceId)}${e.resource ? ` on '${untrusted(e.resource)}'` : ''}: expected ${e.expected}, got ${e.actual ?? 'no such member'}`,
        );
        if (e.explanation) lines.push(`          ${untrusted(e.explanation)}`);
        if (e.reason && !e.explanation?.includes(e.reason)) lines.push(`          ${untrusted(e.reason)}`);
        for (const t of e.trace ?? []) lines.push(`          ${untrusted(traceLine(t))}`);
      }
    }
  }
  const { passed, failed } = summaryOf(fixtures);
  lines.push('', `${passed} passed, ${failed} failed`);
  return lines.join('\n') + '\n';
}

export function testJson(fixtures: FixtureResult[], cwd: string): string {
  return (
    JSON.stringify({ summary: summaryOf(fixtures), fixtures: fixtures.map((f) => ({ ...f, file: rel(f.file, cwd) })) }, null, 2) + '\n'
  );
}

export function testSarif(fixtures: FixtureResult[], cwd: string, version: string): string {
  const results = fixtures.flatMap((f) =>
    f.cases.flatMap((c) =>
      c.expectations
        .filter((e) => !e.passed)
        .map((e) => ({
          ruleId: 'expectation-failed',
          ruleIndex: 0,
          level: 'error',
          message: {
            text: `${c.name}: ${e.referenceId}${e.resource ? ` on '${e.resource}'` : ''} expected ${e.expected}, got ${e.actual ?? 'no such member'}${e.reason ? ` (${e.reason})` : ''}`,
          },
          locations: [{ physicalLocation: { artifactLocation: artifact(f.file, cwd), region: { startLine: c.line } } }],
        })),
    ),
  );
  const log = {
    version: '2.1.0',
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    runs: [
      {
        tool: {
          driver: {
            name: 'policyset',
            semanticVersion: version,
            version,
            rules: [
              {
                id: 'expectation-failed',
                shortDescription: { text: 'A fixture expects an outcome the evaluation does not give' },
                helpUri: 'docs/evaluate.md',
              },
            ],
          },
        },
        originalUriBaseIds: { '%SRCROOT%': { uri: pathToFileURL(cwd + path.sep).href } },
        results,
      },
    ],
  };
  return JSON.stringify(log, null, 2) + '\n';
}

function artifact(file: string, cwd: string) {
  const relative = path.relative(cwd, path.resolve(file));
  return relative.startsWith('..') || path.isAbsolute(relative)
    ? { uri: pathToFileURL(path.resolve(file)).href }
    : { uri: relative.split(path.sep).map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' };
}

const xml = (text: string) =>
  // Characters XML 1.0 cannot hold become U+FFFD.
  text
    .replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string)
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '\ufffd');

export function testJunit(fixtures: FixtureResult[], cwd: string): string {
  const { passed, failed } = summaryOf(fixtures);
  const out = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="policyset test" tests="${passed + failed}" failures="${failed}">`,
  ];
  for (const f of fixtures) {
    const name = rel(f.file, cwd);
    out.push(`  <testsuite name="${xml(name)}" tests="${f.cases.length}" failures="${f.cases.filter((c) => !c.passed).length}">`);
    for (const c of f.cases) {
      out.push(`    <testcase classname="${xml(name)}" name="${xml(c.name)}" file="${xml(name)}" line="${c.line}">`);
      for (const e of c.expectations.filter((x) => !x.passed)) {
        const message = `${e.referenceId}${e.resource ? ` on '${e.resource}'` : ''}: expected ${e.expected}, got ${e.actual ?? 'no such member'}`;
        out.push(
          `      <failure message="${xml(message)}">${xml([e.reason ?? '', ...(e.trace ?? []).map(traceLine)].filter(Boolean).join('\n'))}</failure>`,
        );
      }
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return out.join('\n') + '\n';
}
