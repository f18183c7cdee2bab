#!/usr/bin/env node
// Writes docs/mutation.md from the JSON reports of `npm run mutate` (reports/mutation/<target>.json) and the
// hand-written reasons in scripts/mutation-notes.json: for each target its counts and score, then every mutant
// that survived or that no test reached, one line each (file:line:column, mutator, replacement), under the
// reason it was given, or under "not explained yet" when no reason matches it.
//
//   node scripts/mutation-report.js            write docs/mutation.md from the reports present
//   node scripts/mutation-report.js --check    exit 1 if a survivor has no reason (prints them)
//
// A reason matches mutants by file, line range (or line@column) and optionally mutator name and replacement text:
//   { "id": "...", "title": "...", "text": "...", "match": ["server/src/x.ts:10-12", "server/src/y.ts:40:EqualityOperator", "server/src/z.ts:7@12:ConditionalExpression:false"] }
// The first reason (in file order) that matches a mutant takes it. Targets without a report keep the lines
// of the page they had (a target run on another day is not lost by running one target again).
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const REPORTS = path.join(ROOT, 'reports', 'mutation');
const NOTES = path.join(__dirname, 'mutation-notes.json');
const PAGE = path.join(ROOT, 'docs', 'mutation.md');
const TARGETS = ['http', 'deployments', 'api', 'quota', 'versions', 'cli', 'node', 'web', 'rules'];
const UNDETECTED = new Set(['Survived', 'NoCoverage']);

function parseMatch(text) {
  const [file, place, mutator, ...replacement] = text.split(':');
  const [lines, column] = (place ?? '').split('@');
  const [from, to] = lines.split('-').map(Number);
  return {
    file,
    from: from || 1,
    to: to || from || Infinity,
    column: column ? Number(column) : undefined,
    mutator: mutator || undefined,
    replacement: replacement.length ? replacement.join(':') : undefined,
  };
}

function reasonFor(notes, file, mutant) {
  const line = mutant.location.start.line;
  return notes.find((note) =>
    note.match
      .map(parseMatch)
      .some(
        (m) =>
          m.file === file &&
          line >= m.from &&
          line <= m.to &&
          (m.column === undefined || m.column === mutant.location.start.column) &&
          (!m.mutator || m.mutator === mutant.mutatorName) &&
          (m.replacement === undefined || oneLine(mutant.replacement ?? '') === m.replacement),
      ),
  );
}

function oneLine(text) {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 70 ? `${flat.slice(0, 67)}...` : flat;
}

function summarize(report, only) {
  const counts = { total: 0, Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0, errors: 0 };
  for (const [name, file] of Object.entries(report.files)) {
    if (only && name !== only) continue;
    for (const mutant of file.mutants) {
      if (mutant.status === 'Ignored') continue;
      // A mutant that does not compile, or that breaks loading the code before any test runs, is no test of the tests: left out of the score, as Stryker does.
      if (mutant.status === 'CompileError' || mutant.status === 'RuntimeError') {
        counts.errors++;
        continue;
      }
      counts.total++;
      if (mutant.status in counts) counts[mutant.status]++;
    }
  }
  const detected = counts.Killed + counts.Timeout;
  counts.score = counts.total ? (100 * detected) / counts.total : 0;
  return counts;
}

/** The lines of an earlier page for one target (between its heading and the next), to keep when it has no report. */
function earlierSection(page, target) {
  const start = page.indexOf(`\n## \`${target}\``);
  if (start < 0) return undefined;
  const next = page.indexOf('\n## ', start + 1);
  return page.slice(start + 1, next < 0 ? undefined : next + 1);
}

function main() {
  const check = process.argv.includes('--check');
  const notes = JSON.parse(fs.readFileSync(NOTES, 'utf8')).reasons;
  const earlier = fs.existsSync(PAGE) ? fs.readFileSync(PAGE, 'utf8') : '';
  const sections = [];
  const unexplained = [];
  for (const target of TARGETS) {
    const file = path.join(REPORTS, `${target}.json`);
    if (!fs.existsSync(file)) {
      const kept = earlierSection(earlier, target);
      sections.push(kept ?? `## \`${target}\`\n\nNot run yet.\n\n`);
      continue;
    }
    const report = JSON.parse(fs.readFileSync(file, 'utf8'));
    const c = summarize(report);
    const lines = [`## \`${target}\``, ''];
    lines.push(
      `${c.total} mutants: ${c.Killed} killed, ${c.Timeout} timed out, ${c.Survived} survived, ${c.NoCoverage} reached by no test; score ${c.score.toFixed(1)} %${c.errors ? ` (${c.errors} more mutants did not compile or broke loading the code, and are not counted)` : ''}.`,
      '',
    );
    const files = Object.keys(report.files).sort();
    if (files.length > 1) {
      lines.push('| File | Mutants | Killed | Timed out | Survived | No coverage | Score |', '| --- | --- | --- | --- | --- | --- | --- |');
      for (const name of files) {
        const f = summarize(report, name);
        lines.push(
          `| \`${path.basename(name)}\` | ${f.total} | ${f.Killed} | ${f.Timeout} | ${f.Survived} | ${f.NoCoverage} | ${f.score.toFixed(1)} % |`,
        );
      }
      lines.push('');
    }
    const byReason = new Map();
    for (const [name, entry] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
      const rel = path.relative(ROOT, path.resolve(ROOT, name)).split(path.sep).join('/');
      for (const mutant of [...entry.mutants].sort(
        (a, b) => a.location.start.line - b.location.start.line || a.location.start.column - b.location.start.column,
      )) {
        if (!UNDETECTED.has(mutant.status)) continue;
        const reason = reasonFor(notes, rel, mutant);
        const key = reason ? reason.id : '';
        if (!byReason.has(key)) byReason.set(key, []);
        const where = `${rel}:${mutant.location.start.line}:${mutant.location.start.column}`;
        const item = `- \`${where}\` ${mutant.mutatorName}${mutant.status === 'NoCoverage' ? ' (no coverage)' : ''}: \`${oneLine(mutant.replacement ?? '').replace(/`/g, "'")}\``;
        byReason.get(key).push(item);
        if (!reason) unexplained.push(`${target}: ${item.slice(2)}`);
      }
    }
    for (const note of notes) {
      const items = byReason.get(note.id);
      if (!items) continue;
      lines.push(`### ${note.title} (${items.length})`, '', note.text, '', ...items, '');
    }
    if (byReason.has(''))
      lines.push(
        `### Not explained yet (${byReason.get('').length})`,
        '',
        'No test kills these yet and no reason has been written for them.',
        '',
        ...byReason.get(''),
        '',
      );
    sections.push(`${lines.join('\n')}\n`);
  }
  const head = [
    '# Mutation testing: the survivors',
    '',
    'Generated by `node scripts/mutation-report.js` from the reports of `npm run mutate` and the reasons in',
    '`scripts/mutation-notes.json`; how the runs are made and the scores per target are in',
    '[testing.md](testing.md#mutation-testing). Every mutant that no test killed is listed here under the reason',
    'it survives. Line numbers are those of the code as it was when the target was run. "No coverage": no test',
    'file of the target reached the mutated code, in its own process or in a CLI or server process it started.',
    '',
  ].join('\n');
  if (check) {
    if (unexplained.length) {
      console.log(unexplained.join('\n'));
      console.log(`${unexplained.length} survivors without a reason`);
      process.exitCode = 1;
    }
    return;
  }
  fs.writeFileSync(PAGE, `${head}\n${sections.join('').replace(/\n+$/, '\n')}`);
  console.log(`wrote ${path.relative(ROOT, PAGE)}; ${unexplained.length} survivors without a reason`);
}

main();
