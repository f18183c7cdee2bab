// Every rule has a page in docs/rules/, and the examples on each page do what the page says:
// each Invalid example gives exactly one diagnostic of the rule, each Valid example none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { validateText, decodeText, DefinitionCatalog, RULES, SEVERITY_VALUES, type ValidateOptions } from '#service';

/** Compiled to test/out/unit/: the repository root is three levels up. */
const REPO_ROOT = path.resolve(__dirname, '../../..');
const RULES_DIR = path.join(REPO_ROOT, 'docs', 'rules');
const DEFINITIONS_DIR = path.join(RULES_DIR, 'definitions');

const isPolicySet = (value: unknown) =>
  Array.isArray((value as { properties?: { policyDefinitions?: unknown } } | null)?.properties?.policyDefinitions);

// ---- Known definitions -----------------------------------------------------------------------

/**
 * Every file in docs/rules/definitions/: a policy definition document, a policy set document (the set the
 * consumer rules' examples assign), or (a JSON array) an index of built-in definitions in the shape of
 * builtin-policy-definitions-index.json.
 */
function loadDefinitions(): DefinitionCatalog {
  const catalog = new DefinitionCatalog();
  if (!fs.existsSync(DEFINITIONS_DIR)) return catalog;
  for (const file of fs
    .readdirSync(DEFINITIONS_DIR)
    .filter((f) => f.endsWith('.json') && !LIBRARY_ASSIGNMENT.test(f))
    .sort()) {
    const full = path.join(DEFINITIONS_DIR, file);
    const value: unknown = JSON.parse(fs.readFileSync(full, 'utf8'));
    if (Array.isArray(value)) {
      assert.ok(catalog.addIndex(value, full) > 0, `${file}: no definitions read from the index`);
    } else if (isPolicySet(value)) {
      assert.ok(catalog.addSetDocument(value, full), `${file}: not a policy set document`);
    } else {
      assert.ok(catalog.addDefinitionDocument(value, full), `${file}: not a policy definition document`);
    }
  }
  return catalog;
}

/**
 * The landing-zone library's assignment files among the definitions (`*.alz_policy_assignment.json`): the
 * library the examples of its default values (alz_policy_default_values.json) belong to.
 */
const LIBRARY_ASSIGNMENT = /\.alz_policy_assignment\.json$/;
const LIBRARY_ASSIGNMENTS = {
  complete: true,
  files: fs.existsSync(DEFINITIONS_DIR)
    ? fs
        .readdirSync(DEFINITIONS_DIR)
        .filter((f) => LIBRARY_ASSIGNMENT.test(f))
        .map((f) => ({ uri: path.join(DEFINITIONS_DIR, f), text: fs.readFileSync(path.join(DEFINITIONS_DIR, f), 'utf8') }))
    : [],
};

/** The policy-as-code framework's assignment that names the CSV examples (the rules of parameter files). */
const PARAMETER_FILE_NAME = 'tagging-parameters.csv';
const PARAMETER_FILE_ASSIGNMENT = (() => {
  const uri = path.join(DEFINITIONS_DIR, 'tagging-assignment.jsonc');
  return { uri, text: fs.existsSync(uri) ? fs.readFileSync(uri, 'utf8') : '' };
})();

// ---- Pages -------------------------------------------------------------------------------------

interface Page {
  heading: string | undefined;
  /** The first line after the heading that is not empty. */
  summary: string | undefined;
  /** Example blocks by section heading ('Invalid', 'Valid'). */
  examples: Map<string, string[]>;
  /**
   * The earlier version an example is compared with: the last ```json previous block above it in the page
   * (rules such as version-not-bumped compare a set with the set as it was).
   */
  previousOf: Map<string, string>;
  /** The examples written as ```csv: parameter files of the policy-as-code framework. */
  csv: Set<string>;
}

function readPage(file: string): Page {
  const lines = fs.readFileSync(file, 'utf8').replace(/\r\n/g, '\n').split('\n');
  const heading = /^# (.+)$/.exec(lines[0] ?? '')?.[1]?.trim();
  const summary = lines.slice(1).find((line) => line.trim() !== '');
  const examples = new Map<string, string[]>();
  const previousOf = new Map<string, string>();
  let section: string | undefined;
  let block: string[] | undefined;
  let blockIsPrevious = false;
  let blockIsCsv = false;
  let previous: string | undefined;
  const csv = new Set<string>();
  for (const line of lines) {
    if (block) {
      if (line.startsWith('```')) {
        const source = block.join('\n');
        if (blockIsPrevious) previous = source;
        else if (section) {
          examples.get(section)!.push(source);
          if (blockIsCsv) csv.add(source);
          if (previous !== undefined) previousOf.set(source, previous);
        }
        block = undefined;
      } else block.push(line);
    } else if (line.startsWith('## ')) {
      section = line.slice(3).trim();
      if (!examples.has(section)) examples.set(section, []);
    } else if (line.startsWith('```json') || line.trim() === '```csv') {
      block = [];
      blockIsPrevious = line.trim() === '```json previous';
      blockIsCsv = line.trim() === '```csv';
    }
  }
  assert.equal(block, undefined, `${path.basename(file)}: a code block is not closed`);
  return { heading, summary, examples, previousOf, csv };
}

// ---- Example macros ------------------------------------------------------------------------------

/** An innermost `<<repeat N>>TEXT<</repeat>>` or `<<repeat N join="...">>TEXT<</repeat>>`. */
const REPEAT = /<<repeat (\d+)(?: join="([^"]*)")?>>((?:(?!<<repeat[ >])[\s\S])*?)<<\/repeat>>/;
const BYTE = /<<byte ([0-9A-Fa-f]{2})>>/g;
const HAS_BYTE = /<<byte [0-9A-Fa-f]{2}>>/;

function expandRepeats(source: string): string {
  let text = source;
  for (let match = REPEAT.exec(text); match; match = REPEAT.exec(text)) {
    const [whole, count, join, body] = match;
    const copies = Array.from({ length: Number(count) }, (_, i) => body.replaceAll('<<i>>', String(i)));
    text = text.slice(0, match.index) + copies.join(join ?? ',\n') + text.slice(match.index + whole.length);
  }
  return text;
}

/** `<<saved as UTF-16LE>>` (or BE) opening an example: the rest is saved in that encoding, with a byte order mark. */
const SAVED_AS = /^<<saved as (UTF-16LE|UTF-16BE)>>\r?\n/;

function utf16(text: string, bigEndian: boolean): Uint8Array {
  const bytes = new Uint8Array(2 + text.length * 2);
  const view = new DataView(bytes.buffer);
  view.setUint16(0, 0xfeff, !bigEndian);
  for (let i = 0; i < text.length; i++) view.setUint16(2 + i * 2, text.charCodeAt(i), !bigEndian);
  return bytes;
}

/**
 * The example as validateText takes it: with `<<byte XX>>` or `<<saved as ...>>`, the text decoded from the
 * bytes as a file's are (and the encoding problem or the encoding found).
 */
function expandExample(source: string): Pick<ValidateOptions, 'encodingProblem' | 'encoding'> & { text: string } {
  const text = expandRepeats(source);
  const saved = SAVED_AS.exec(text);
  if (saved) return decodeText(utf16(text.slice(saved[0].length), saved[1] === 'UTF-16BE'));
  if (!HAS_BYTE.test(text)) return { text };
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  let last = 0;
  for (const match of text.matchAll(BYTE)) {
    parts.push(encoder.encode(text.slice(last, match.index)), Uint8Array.of(parseInt(match[1], 16)));
    last = match.index + match[0].length;
  }
  parts.push(encoder.encode(text.slice(last)));
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return decodeText(bytes);
}

// ---- Tests -------------------------------------------------------------------------------------

const definitions = loadDefinitions();

function describeDiagnostics(diagnostics: ReturnType<typeof validateText>['diagnostics']): string {
  return diagnostics.map((d) => `  ${d.code} line ${d.range.start.line + 1}: ${d.message}`).join('\n') || '  (none)';
}

for (const rule of RULES) {
  const { code, name, defaultSeverity } = rule.meta;

  test(`${code} ${name}: the page and its examples`, () => {
    const file = path.join(RULES_DIR, `${name}.md`);
    assert.ok(fs.existsSync(file), `docs/rules/${name}.md is missing`);
    const page = readPage(file);
    assert.equal(page.heading, name, 'the first heading is the rule name');
    assert.equal(
      page.summary,
      `\`${code}\` · default severity: **${defaultSeverity}**`,
      'the line under the heading states the code and default severity',
    );

    const invalid = page.examples.get('Invalid') ?? [];
    const valid = page.examples.get('Valid') ?? [];
    assert.ok(invalid.length > 0, 'at least one json (or csv) example under ## Invalid');
    assert.ok(valid.length > 0, 'at least one json (or csv) example under ## Valid');

    const check = (kind: 'Invalid' | 'Valid', source: string, index: number, expected: number) => {
      const { text, encodingProblem, encoding } = expandExample(source);
      assert.doesNotMatch(text, /<<\/?(repeat|byte|i|saved)\b/, `${kind} example ${index + 1}: a macro was not expanded`);
      const previous = page.previousOf.get(source);
      // A CSV example is the policy-as-code framework's parameter file that the example assignment names.
      const csv = page.csv.has(source);
      const result = validateText(text, {
        ...(csv ? { uri: PARAMETER_FILE_NAME, parameterFile: { assignments: [PARAMETER_FILE_ASSIGNMENT] } } : {}),
        libraryAssignments: LIBRARY_ASSIGNMENTS,
        definitions,
        assumePolicyDocument: true,
        encodingProblem,
        encoding,
        ...(previous === undefined ? {} : { previous: { text: previous, label: 'the previous example' } }),
      });
      assert.deepEqual(result.internalErrors, [], `${kind} example ${index + 1}: internal errors`);
      const ofRule = result.diagnostics.filter((d) => d.code === code);
      assert.equal(
        ofRule.length,
        expected,
        `${kind} example ${index + 1}: ${expected} ${code} diagnostic(s) expected, ${ofRule.length} found. All diagnostics:\n${describeDiagnostics(result.diagnostics)}`,
      );
      for (const diagnostic of ofRule) {
        assert.equal(diagnostic.data.rule, name);
        assert.equal(
          diagnostic.severity,
          SEVERITY_VALUES[defaultSeverity],
          `${kind} example ${index + 1}: reported with the default severity`,
        );
      }
    };
    invalid.forEach((source, i) => check('Invalid', source, i, 1));
    valid.forEach((source, i) => check('Valid', source, i, 0));
  });
}

test('every page in docs/rules belongs to a rule', () => {
  const names = new Set(RULES.map((rule) => rule.meta.name));
  const strays = fs
    .readdirSync(RULES_DIR)
    .filter((file) => file.endsWith('.md') && file !== 'README.md')
    .filter((file) => !names.has(file.slice(0, -'.md'.length)));
  assert.deepEqual(strays, [], 'pages without a rule');
});

test('the example macros expand as documented', () => {
  assert.equal(expandRepeats('[<<repeat 3>>"a<<i>>"<</repeat>>]'), '["a0",\n"a1",\n"a2"]');
  assert.equal(expandRepeats('<<repeat 3 join="">>[<</repeat>>'), '[[[');
  assert.equal(expandRepeats('<<repeat 2 join="">>(<<repeat 2 join=" ">>x<</repeat>>)<</repeat>>'), '(x x)(x x)');
  const decoded = expandExample('"R<<byte E9>>seau"');
  assert.equal(decoded.encodingProblem?.byteOffset, 2);
  assert.equal(decoded.encodingProblem?.byte, 0xe9);
  assert.equal(expandExample('"<<byte C3>><<byte A9>>"').text, '"é"');
});
