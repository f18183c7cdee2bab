// The files lint checks together with others it finds for them (server/src/cli/lint/parameterFiles.ts),
// in-process on copies of test/fixtures/consumer-documents: a CSV parameter file with the assignment files
// that name it (by a path from their folder, else by its name), the landing-zone library's default values
// with the library's assignment files (its own and its dependencies'), and enrollments with the assignments
// they name. What decides which files go together is asserted through what only that pairing reports: the
// CSV's parameter 'tagNames' (PS9214) is known to be undeclared only with tagging.jsonc's set; the default
// values' assignment 'Enforce-Tags' (PS9216) is said to be missing only when every library it depends on was
// read; the enrollment's 'inheritTag' (PS9205) only with the assignment of 'tagging-lib'.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  LIBRARY_ASSIGNMENT_FILE,
  LIBRARY_DEFAULTS_FILE,
  lintLibraryDefaults,
  lintParameterFiles,
  lintWithAssignments,
} from '#server/cli/lint/parameterFiles';
import type { LintSettings, LintTask } from '#server/cli/lint/lintFile';
import { loadCatalog } from '#server/node/definitions';
import type { DefinitionCatalog } from '#service';
import { REPO_ROOT } from '../support/corpus';

const FIXTURE = path.join(REPO_ROOT, 'test', 'fixtures', 'consumer-documents');
const SETTINGS: LintSettings = { severities: {}, identities: true };
const reader = { read: (file: string) => fs.readFileSync(file) };
let dir: string;
let catalog: DefinitionCatalog;
let counter = 0;

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-companions-'));
  const sets = ['tagging-set.json', 'library/policy_set_definitions/tagging-lib.alz_policy_set_definition.json'].map((file) => ({
    file: path.join(FIXTURE, file),
    text: fs.readFileSync(path.join(FIXTURE, file), 'utf8'),
  }));
  catalog = await loadCatalog({ indexFiles: [], definitionFiles: [] }, sets);
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A copy of the fixture in a folder of its own. */
function copy(): string {
  const target = path.join(dir, `copy-${++counter}`);
  fs.cpSync(FIXTURE, target, { recursive: true });
  return target;
}

const codes = (result: { diagnostics: Array<{ code: string }> }) => result.diagnostics.map((d) => d.code).sort();
const lintTaskOf = (file: string): LintTask => ({ file, size: fs.statSync(file).size, explicit: true, read: () => fs.readFileSync(file) });

describe('CSV parameter files: checked with the assignment files that name them', () => {
  test('named by its name beside the assignment file: checked against the set assigned, every problem of the CSV', () => {
    const root = copy();
    const csv = path.join(root, 'policyAssignments', 'tagging-parameters.csv');
    const [result, ...others] = lintParameterFiles(
      [{ path: csv, explicit: false }],
      [path.join(root, 'policyAssignments', 'tagging.jsonc')],
      reader,
      catalog,
      SETTINGS,
    );
    assert.deepEqual(others, []);
    assert.equal(result.file, csv);
    assert.equal(result.skipped, false);
    assert.deepEqual(codes(result), ['PS9211', 'PS9213', 'PS9214']);
    assert.equal(result.identities.length, 3);
  });

  test('no CSV file: nothing, whatever the assignment files', () => {
    assert.deepEqual(lintParameterFiles([], [path.join(FIXTURE, 'policyAssignments', 'tagging.jsonc')], reader, catalog, SETTINGS), []);
  });

  test('a CSV no assignment names: said when it was named on the command line, else left alone', () => {
    const root = copy();
    const other = path.join(root, 'data', 'other.csv');
    const assignment = path.join(root, 'policyAssignments', 'tagging.jsonc');
    assert.deepEqual(lintParameterFiles([{ path: other, explicit: false }], [assignment], reader, catalog, SETTINGS), []);
    assert.deepEqual(lintParameterFiles([{ path: other, explicit: true }], [assignment], reader, catalog, SETTINGS), [
      {
        file: other,
        kind: 'unknown',
        diagnostics: [],
        skipped: true,
        notChecked: 'a .csv file that no assignment file among the files linted names as its parameterFile',
        internalErrors: [],
        identities: [],
      },
    ]);
  });

  test('the path from the assignment file’s folder wins over another file of the same name; a name alone takes every file of that name', () => {
    const root = copy();
    const beside = path.join(root, 'policyAssignments', 'tagging-parameters.csv');
    const elsewhere = path.join(root, 'data', 'tagging-parameters.csv');
    fs.copyFileSync(beside, elsewhere);
    const csvFiles = [
      { path: elsewhere, explicit: true },
      { path: beside, explicit: false },
    ];
    const byPath = lintParameterFiles(csvFiles, [path.join(root, 'policyAssignments', 'tagging.jsonc')], reader, catalog, SETTINGS);
    assert.deepEqual(
      byPath.map((r) => [r.file, r.skipped, r.notChecked !== undefined]),
      [
        [elsewhere, true, true],
        [beside, false, false],
      ],
    );
    // Named with a Windows path to a folder that does not hold it, in another case: matched by name, both.
    const moved = path.join(root, 'elsewhere', 'assignment.jsonc');
    fs.mkdirSync(path.dirname(moved));
    fs.writeFileSync(
      moved,
      fs
        .readFileSync(path.join(root, 'policyAssignments', 'tagging.jsonc'), 'utf8')
        .replace('"tagging-parameters.csv"', '"params\\\\TAGGING-Parameters.CSV"'),
    );
    const byName = lintParameterFiles(csvFiles, [moved], reader, catalog, SETTINGS);
    assert.deepEqual(
      byName.map((r) => [r.file, codes(r)]),
      [
        [elsewhere, ['PS9211', 'PS9213', 'PS9214']],
        [beside, ['PS9211', 'PS9213', 'PS9214']],
      ],
    );
  });

  test('an assignment file that cannot be read names nothing; a CSV that cannot be read is a result with the error', () => {
    const root = copy();
    const csv = path.join(root, 'policyAssignments', 'tagging-parameters.csv');
    const assignment = path.join(root, 'policyAssignments', 'tagging.jsonc');
    const failing = (bad: string) => ({
      read: (file: string) => {
        if (file === bad) throw new Error(`cannot read '${bad}': permission denied`);
        return fs.readFileSync(file);
      },
    });
    assert.deepEqual(lintParameterFiles([{ path: csv, explicit: false }], [assignment], failing(assignment), catalog, SETTINGS), []);
    assert.deepEqual(lintParameterFiles([{ path: csv, explicit: false }], [assignment], failing(csv), catalog, SETTINGS), [
      {
        file: csv,
        kind: 'unknown',
        diagnostics: [],
        skipped: false,
        error: `cannot read '${csv}': permission denied`,
        internalErrors: [],
        identities: [],
      },
    ]);
  });

  test('identities are left out when the report does not use them', () => {
    const root = copy();
    const csv = path.join(root, 'policyAssignments', 'tagging-parameters.csv');
    const [result] = lintParameterFiles(
      [{ path: csv, explicit: false }],
      [path.join(root, 'policyAssignments', 'tagging.jsonc')],
      reader,
      catalog,
      { ...SETTINGS, identities: false },
    );
    assert.equal(result.diagnostics.length, 3);
    assert.deepEqual(result.identities, []);
  });
});

describe('the landing-zone library’s default values: checked with the library’s assignment files', () => {
  test('with its own assignment files: an assignment named but not defined is said', () => {
    const root = copy();
    const defaults = path.join(root, 'library', 'alz_policy_default_values.json');
    const assignment = path.join(root, 'library', 'policy_assignments', 'Enforce-Tagging.alz_policy_assignment.json');
    const [result] = lintLibraryDefaults([lintTaskOf(defaults)], [assignment, defaults], reader, catalog, SETTINGS);
    assert.equal(result.file, defaults);
    assert.deepEqual(codes(result), ['PS9216', 'PS9217']);
  });

  test('an assignment file outside the library’s folder is not the library’s', () => {
    const root = copy();
    const defaults = path.join(root, 'library', 'alz_policy_default_values.json');
    const outside = path.join(root, 'library-other', 'Enforce-Tagging.alz_policy_assignment.json');
    fs.mkdirSync(path.dirname(outside));
    fs.copyFileSync(path.join(root, 'library', 'policy_assignments', 'Enforce-Tagging.alz_policy_assignment.json'), outside);
    const [result] = lintLibraryDefaults([lintTaskOf(defaults)], [outside], reader, catalog, SETTINGS);
    // Neither assignment is found now: both names are said missing, and 'effect' cannot be checked.
    assert.deepEqual(codes(result), ['PS9216', 'PS9216']);
  });

  test('a dependency that cannot be found, or whose assignments were not linted: a missing assignment is not said', () => {
    const root = copy();
    const library = path.join(root, 'library');
    const defaults = path.join(library, 'alz_policy_default_values.json');
    const assignment = path.join(library, 'policy_assignments', 'Enforce-Tagging.alz_policy_assignment.json');
    const metadata = (value: unknown) => fs.writeFileSync(path.join(library, 'alz_library_metadata.json'), JSON.stringify(value));
    const run = () => codes(lintLibraryDefaults([lintTaskOf(defaults)], [assignment], reader, catalog, SETTINGS)[0]);
    // Its own path does not match where it is: the dependency cannot be placed.
    metadata({ path: 'platform/other', dependencies: [{ path: 'platform/base' }] });
    assert.deepEqual(run(), ['PS9217']);
    // Placed (the library is at <root>/library, its path says 'library'), but nothing of it was linted.
    metadata({ path: 'library', dependencies: [{ path: 'base' }] });
    assert.deepEqual(run(), ['PS9217']);
    // Its assignments linted: 'Enforce-Tags' is defined there, so only 'effect' is left.
    const base = path.join(root, 'base', 'Enforce-Tags.alz_policy_assignment.json');
    fs.mkdirSync(path.dirname(base));
    fs.writeFileSync(base, fs.readFileSync(assignment, 'utf8').replace('"name": "Enforce-Tagging"', '"name": "Enforce-Tags"'));
    assert.deepEqual(codes(lintLibraryDefaults([lintTaskOf(defaults)], [assignment, base], reader, catalog, SETTINGS)[0]), ['PS9217']);
    // Its assignments linted, but not 'Enforce-Tags': every library was read, so the missing one is said.
    const other = path.join(root, 'base', 'Other.alz_policy_assignment.json');
    fs.renameSync(base, other);
    fs.writeFileSync(other, fs.readFileSync(other, 'utf8').replace('"name": "Enforce-Tags"', '"name": "Other"'));
    assert.deepEqual(codes(lintLibraryDefaults([lintTaskOf(defaults)], [assignment, other], reader, catalog, SETTINGS)[0]), [
      'PS9216',
      'PS9217',
    ]);
    // A library whose own path has several segments, placed by its last ones: library at <root>/platform/alz.
    const nested = path.join(root, 'platform', 'alz');
    fs.mkdirSync(path.dirname(nested), { recursive: true });
    fs.cpSync(library, nested, { recursive: true });
    const nestedDefaults = path.join(nested, 'alz_policy_default_values.json');
    const nestedAssignment = path.join(nested, 'policy_assignments', 'Enforce-Tagging.alz_policy_assignment.json');
    const nestedRun = (own: string) => {
      fs.writeFileSync(path.join(nested, 'alz_library_metadata.json'), JSON.stringify({ path: own, dependencies: [{ path: 'base' }] }));
      return codes(lintLibraryDefaults([lintTaskOf(nestedDefaults)], [nestedAssignment, other], reader, catalog, SETTINGS)[0]);
    };
    assert.deepEqual(nestedRun('platform/alz'), ['PS9216', 'PS9217'], 'placed: <root>/base read');
    assert.deepEqual(nestedRun('/platform/alz/'), ['PS9216', 'PS9217'], 'slashes around it are no segments');
    for (const own of ['alz/platform', 'other/alz', 'platform/alz/x', ''])
      assert.deepEqual(nestedRun(own), ['PS9217'], `'${own}' does not place it: the dependency is not found`);
    // A dependency without a path, or metadata without dependencies, or not JSON: a library of its own.
    metadata({ path: 'library', dependencies: [{}] });
    assert.deepEqual(run(), ['PS9217']);
    metadata({ dependencies: [{ path: 'base' }] });
    assert.deepEqual(run(), ['PS9217'], 'no path of its own: its dependencies cannot be placed');
    metadata({ path: 7, dependencies: [{ path: 'base' }] });
    assert.deepEqual(run(), ['PS9217']);
    metadata({ path: 'library', dependencies: [null, { path: 'base' }] });
    assert.deepEqual(run(), ['PS9217']);
    for (const text of ['{"path": "library"}', '{"path": "library", "dependencies": "base"}', 'not json']) {
      fs.writeFileSync(path.join(library, 'alz_library_metadata.json'), text);
      assert.deepEqual(run(), ['PS9216', 'PS9217'], text);
    }
  });

  test('an assignment file of the library that cannot be read: a missing assignment is not said', () => {
    const root = copy();
    const defaults = path.join(root, 'library', 'alz_policy_default_values.json');
    const assignment = path.join(root, 'library', 'policy_assignments', 'Enforce-Tagging.alz_policy_assignment.json');
    const failing = {
      read: (file: string) => {
        if (file === assignment) throw new Error('EIO');
        return fs.readFileSync(file);
      },
    };
    assert.deepEqual(codes(lintLibraryDefaults([lintTaskOf(defaults)], [assignment], failing, catalog, SETTINGS)[0]), []);
  });
});

test('the library’s file names: the default values by their name in any folder, assignment files by their suffix', () => {
  for (const name of ['alz_policy_default_values.json', 'lib/alz_policy_default_values.json', 'lib\\ALZ_Policy_Default_Values.JSON'])
    assert.equal(LIBRARY_DEFAULTS_FILE.test(name), true, name);
  for (const name of ['my_alz_policy_default_values.json', 'lib/xalz_policy_default_values.json', 'alz_policy_default_values.json.bak'])
    assert.equal(LIBRARY_DEFAULTS_FILE.test(name), false, name);
  for (const name of ['a.alz_policy_assignment.json', 'lib/B.ALZ_POLICY_ASSIGNMENT.JSON'])
    assert.equal(LIBRARY_ASSIGNMENT_FILE.test(name), true, name);
  for (const name of ['alz_policy_assignment.json', 'a.alz_policy_assignment.json.bak', 'a.alz_policy_assignments.json'])
    assert.equal(LIBRARY_ASSIGNMENT_FILE.test(name), false, name);
});

test('only files named as the library names assignment files are its assignments', () => {
  const root = copy();
  const defaults = path.join(root, 'library', 'alz_policy_default_values.json');
  const assignment = path.join(root, 'library', 'policy_assignments', 'Enforce-Tagging.alz_policy_assignment.json');
  // An assignment named 'Enforce-Tags' in a file without the suffix: not one of the library's.
  const plain = path.join(root, 'library', 'policy_assignments', 'enforce-tags.json');
  fs.writeFileSync(plain, fs.readFileSync(assignment, 'utf8').replace('"name": "Enforce-Tagging"', '"name": "Enforce-Tags"'));
  assert.deepEqual(codes(lintLibraryDefaults([lintTaskOf(defaults)], [assignment, plain], reader, catalog, SETTINGS)[0]), [
    'PS9216',
    'PS9217',
  ]);
});

describe('enrollments and exemptions: checked with the assignment files', () => {
  test('the assignment the enrollment names is among them: its reference IDs checked against the set assigned', () => {
    const root = copy();
    const enrollment = path.join(root, 'policyEnrollments', 'tenant', 'team.jsonc');
    const assignment = path.join(root, 'library', 'policy_assignments', 'Enforce-Tagging.alz_policy_assignment.json');
    const [result] = lintWithAssignments([lintTaskOf(enrollment)], [assignment], reader, catalog, SETTINGS);
    assert.deepEqual(codes(result), ['PS9205']);
    // Without it, or with it unreadable, nothing to check them against.
    assert.deepEqual(codes(lintWithAssignments([lintTaskOf(enrollment)], [], reader, catalog, SETTINGS)[0]), []);
    const failing = {
      read: () => {
        throw new Error('EIO');
      },
    };
    assert.deepEqual(codes(lintWithAssignments([lintTaskOf(enrollment)], [assignment], failing, catalog, SETTINGS)[0]), []);
    assert.deepEqual(lintWithAssignments([], [assignment], reader, catalog, SETTINGS), []);
  });
});
