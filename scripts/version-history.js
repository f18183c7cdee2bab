#!/usr/bin/env node
// Runs the version check of `policyset diff <old> <new>` over the history of a git repository: for each
// commit that changes a set file (the last --limit such commits), each changed set is compared with its
// text in the commit's first parent (renames and moves followed with git's rename detection), and the
// result is set beside the version bump the maintainers made. Reads the repository, writes nothing to it;
// prints a summary table (docs/versions.md keeps the one measured) and, with --details <file>, one JSON
// line per comparison. Nothing fetched is copied into this project.
//
// Usage: node scripts/version-history.js <repository (a work tree or a bare git dir)> [--limit 300]
//          [--paths <regex>] [--out <server/out folder of a build, default this checkout's>] [--details <file>]
//          [--reference-added minor|major] [--reference-removed minor|major] [--definitions <index.json>]
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

function parseArguments(argv) {
  const options = {
    limit: 300,
    paths: '(policySetDefinitions|policy_set_definitions)/.*\\.json$|initiatives\\.json$',
    out: path.join(__dirname, '..', 'server', 'out'),
    details: undefined,
    compare: {},
  };
  const positionals = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${arg} needs a value`);
      return argv[++i];
    };
    if (arg === '--limit') options.limit = Number(value());
    else if (arg === '--paths') options.paths = value();
    else if (arg === '--out') options.out = path.resolve(value());
    else if (arg === '--details') options.details = value();
    else if (arg === '--reference-added') options.compare.referenceAdded = value();
    else if (arg === '--reference-removed') options.compare.referenceRemoved = value();
    else if (arg === '--definitions') options.definitions = value();
    else if (arg.startsWith('-')) throw new Error(`unknown option ${arg}`);
    else positionals.push(arg);
  }
  if (positionals.length !== 1)
    throw new Error(
      'usage: node scripts/version-history.js <repository> [--limit N] [--paths <regex>] [--out <server/out>] [--details <file>]',
    );
  if (!Number.isSafeInteger(options.limit) || options.limit < 1) throw new Error('--limit takes a positive number');
  return { repository: path.resolve(positionals[0]), ...options };
}

function gitIn(repository) {
  const isBare = fs.existsSync(path.join(repository, 'HEAD')) && fs.existsSync(path.join(repository, 'objects'));
  const base = isBare ? ['--git-dir', repository] : ['-C', repository];
  return (args, allowFailure = false) => {
    const result = spawnSync('git', [...base, ...args], { maxBuffer: 512 * 1024 * 1024 });
    if (result.status !== 0 && !allowFailure) throw new Error(`git ${args.join(' ')}: ${result.stderr.toString().trim()}`);
    return result.status === 0 ? result.stdout : undefined;
  };
}

/** The commits that change a file matching the pattern, newest first, with each matching change (status, old path, new path). */
function changesOf(git, pattern, limit) {
  const log = git(['log', '--no-merges', '-M', '--name-status', '--format=@@%H', 'HEAD']).toString('utf8');
  const commits = [];
  let current;
  for (const line of log.split('\n')) {
    if (line.startsWith('@@')) {
      if (current && current.files.length) commits.push(current);
      if (commits.length >= limit) break;
      current = { commit: line.slice(2), files: [] };
      continue;
    }
    if (!line.trim() || !current) continue;
    const [status, first, second] = line.split('\t');
    const oldPath = status[0] === 'A' ? undefined : first;
    const newPath = status[0] === 'D' ? undefined : status[0] === 'R' || status[0] === 'C' ? second : first;
    if ([oldPath, newPath].some((p) => p && pattern.test(p))) current.files.push({ status: status[0], oldPath, newPath });
  }
  if (current && current.files.length && commits.length < limit) commits.push(current);
  return commits;
}

const NUMBERS = /^(\d+)\.(\d+)\.(\d+)/;
function maintainerBump(oldVersion, newVersion) {
  const a = NUMBERS.exec(oldVersion ?? '');
  const b = NUMBERS.exec(newVersion ?? '');
  if (!a || !b) return undefined;
  const [x, y] = [a.slice(1).map(Number), b.slice(1).map(Number)];
  if (y[0] !== x[0]) return y[0] > x[0] ? 'major' : 'lower';
  if (y[1] !== x[1]) return y[1] > x[1] ? 'minor' : 'lower';
  if (y[2] !== x[2]) return y[2] > x[2] ? 'patch' : 'lower';
  return 'none';
}

const RANK = { none: 0, patch: 1, minor: 2, major: 3 };

function main() {
  const options = parseArguments(process.argv.slice(2));
  const service = require(path.join(options.out, 'service', 'index.js'));
  // The exit status of `policyset diff <old> <new>` (no --fail-on): 1 when a version is bumped too little.
  const exitStatus = (reports) => (reports.some((r) => r.versionOk === false) ? 1 : 0);
  const git = gitIn(options.repository);
  if (options.definitions) {
    // An index of definitions (the shape of builtin-policy-definitions-index.json): what the comparison knows of the references.
    options.compare.definitions = new service.DefinitionCatalog();
    options.compare.definitions.addIndex(JSON.parse(fs.readFileSync(options.definitions, 'utf8')), options.definitions);
  }
  const pattern = new RegExp(options.paths, 'i');
  const commits = changesOf(git, pattern, options.limit);
  const details = options.details ? fs.openSync(options.details, 'w') : undefined;
  const totals = {
    commits: commits.length,
    files: 0,
    refused: 0,
    exit0: 0,
    exit1: 0,
    unchanged: 0,
    unchangedExit1: 0,
    sets: 0,
    byRequired: { none: 0, patch: 0, minor: 0, major: 0 },
    agree: 0,
    maintainerMore: 0,
    maintainerLess: 0,
    noVersion: 0,
    majorKinds: {},
    removedAsMinor: undefined,
  };
  // The same sets had a reference removed asked for a minor version (the setting), worked out from the changes.
  const alternative = { exit1: 0, byRequired: { none: 0, patch: 0, minor: 0, major: 0 }, agree: 0, maintainerMore: 0, maintainerLess: 0 };
  for (const { commit, files } of commits) {
    for (const file of files) {
      // Decoded as the CLI decodes a file (a byte-order mark, UTF-16).
      const show = (rev, p) => {
        const bytes = p ? git(['show', `${rev}:${p}`], true) : undefined;
        return bytes === undefined ? undefined : service.decodeText(bytes).text;
      };
      const oldText = show(`${commit}^`, file.oldPath);
      const newText = show(commit, file.newPath);
      totals.files++;
      const result = service.compareTexts(
        oldText === undefined ? undefined : { file: `old/${file.oldPath}`, text: oldText },
        newText === undefined ? undefined : { file: `new/${file.newPath}`, text: newText },
        options.compare,
      );
      const record = { commit, status: file.status, oldPath: file.oldPath, newPath: file.newPath };
      if (!result.ok) {
        totals.refused++;
        record.refused = result.problem;
      } else {
        const exit = exitStatus(result.reports);
        record.exit = exit;
        totals[exit === 0 ? 'exit0' : 'exit1']++;
        if (oldText === newText) {
          totals.unchanged++;
          if (exit) totals.unchangedExit1++;
        }
        record.sets = result.reports.map((report) => {
          const made = report.old && report.new ? maintainerBump(report.old.version, report.new.version) : undefined;
          const majors = report.changes.filter((c) => c.bump === 'major').map((c) => c.kind);
          const removedMinor = report.changes.reduce(
            (bump, c) =>
              RANK[c.kind === 'reference-removed' && c.bump === 'major' ? 'minor' : c.bump] > RANK[bump]
                ? c.kind === 'reference-removed' && c.bump === 'major'
                  ? 'minor'
                  : c.bump
                : bump,
            'none',
          );
          const altCheck =
            report.old && report.new
              ? service.checkVersions(report.old.version, report.new.version, removedMinor, { markers: true })
              : { ok: null };
          return {
            required: report.requiredBump,
            made,
            versionOk: report.versionOk,
            versionProblem: report.versionProblem,
            versionNote: report.versionNote,
            old: report.old?.version,
            new: report.new?.version,
            majors,
            removedMinor,
            removedMinorOk: altCheck.ok,
            changes: report.changes.map((c) => `${c.bump} ${c.kind}: ${c.message}`).slice(0, 40),
          };
        });
        if (record.sets.some((set) => set.removedMinorOk === false)) alternative.exit1++;
        for (const set of record.sets) {
          if (set.old === undefined && set.new === undefined && set.required === 'none') continue;
          // A set that did not change in a file that did (one of many a template embeds): not a change to agree on.
          if (!set.changes.length && set.old === set.new && result.reports.length > 1) continue;
          totals.sets++;
          totals.byRequired[set.required]++;
          for (const kind of new Set(set.majors)) totals.majorKinds[kind] = (totals.majorKinds[kind] ?? 0) + 1;
          if (set.made === undefined) totals.noVersion++;
          else if (set.made === 'lower' || RANK[set.made] < RANK[set.required]) totals.maintainerLess++;
          else if (RANK[set.made] > RANK[set.required]) totals.maintainerMore++;
          else totals.agree++;
          alternative.byRequired[set.removedMinor]++;
          if (set.made === undefined) continue;
          if (set.made === 'lower' || RANK[set.made] < RANK[set.removedMinor]) alternative.maintainerLess++;
          else if (RANK[set.made] > RANK[set.removedMinor]) alternative.maintainerMore++;
          else alternative.agree++;
        }
      }
      if (details !== undefined) fs.writeSync(details, JSON.stringify(record) + '\n');
    }
  }
  if (details !== undefined) fs.closeSync(details);
  totals.removedAsMinor = alternative;
  process.stdout.write(JSON.stringify(totals, null, 2) + '\n');
}

try {
  main();
} catch (error) {
  process.stderr.write(`version-history: ${error.message}\n`);
  process.exit(2);
}
