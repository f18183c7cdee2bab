// `policyset test` fixtures (docs/evaluate.md): a set or definition, its definitions, an assignment,
// exemptions, related resources, a context, and cases of a resource with the outcome expected per reference ID.
// Reads through inputs.ts (the one bounded reader); returns results, never output.
import * as path from 'node:path';
import { promises as fs } from 'node:fs';
import { parseTree, type Node as JsonNode } from 'jsonc-parser';
import {
  decodeText,
  evaluate,
  explainResult,
  isFixture,
  relatedIn,
  resourcesOf,
  type EvaluationContext,
  type FixtureExpectation,
  type JsonObject,
  type MemberResult,
  type Resource,
} from '../../service';
import { describeFsError, InputError, readUserFile } from '../../node/files';
import { parseDocumentText } from '../../node/definitions';
import {
  contextOf,
  definitionFinder,
  missingReason,
  readAliases,
  readDefinitions,
  readObject,
  readResourceFile,
  readTarget,
} from './inputs';

export const FIXTURE_SUFFIX = '.policytest.json';
const OUTCOMES = ['nonCompliant', 'compliant', 'notApplicable', 'exempt', 'disabled', 'unknown'];

/** An expectation and what the evaluation gave; a failed one with the member's trace. */
export interface Expectation extends FixtureExpectation {
  trace?: MemberResult['trace'];
}

export interface CaseResult {
  name: string;
  /** 1-based line of the case in the fixture. */
  line: number;
  passed: boolean;
  expectations: Expectation[];
}

export interface FixtureResult {
  file: string;
  cases: CaseResult[];
}

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Where in the fixture a problem is: the JSON path of the value that names the file, or that is wrong ([]: the fixture itself). */
export type FixturePath = Array<string | number>;

/** An InputError of a fixture, with where in it (the editor puts its diagnostic there). */
export class FixtureInputError extends InputError {
  constructor(
    message: string,
    readonly at: FixturePath,
  ) {
    super(message);
  }
}

/** Runs `work`, an InputError it throws said at `at` (the innermost place wins). */
async function at<T>(where: FixturePath, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof InputError && !(error instanceof FixtureInputError)) throw new FixtureInputError(error.message, where);
    throw error;
  }
}

/** The fixture files under the paths: named ones as they are, folders walked for *.policytest.json. */
export async function findFixtures(paths: string[]): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    const entries = await fs.readdir(dir, { withFileTypes: true });
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== 'node_modules' && !entry.name.startsWith('.') && depth < 32) await walk(full, depth + 1);
      else if (entry.isFile() && entry.name.endsWith(FIXTURE_SUFFIX)) found.push(full);
    }
  };
  for (const p of paths) {
    let stat;
    try {
      stat = await fs.stat(p);
    } catch (error) {
      throw new InputError(describeFsError(error, p));
    }
    if (stat.isDirectory()) await walk(p, 0);
    else found.push(p);
  }
  return found;
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** The line of each case (its opening brace) in the fixture's text. */
function caseLines(text: string): number[] {
  const root: JsonNode | undefined = parseTree(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, [], { allowTrailingComma: true });
  const cases = root?.children?.find((p) => p.children?.[0]?.value === 'cases')?.children?.[1];
  return (cases?.children ?? []).map((c) => lineOf(text, c.offset));
}

/** Resources given in a fixture: a path (a resource file), an object, or a list of them; with the related ones a wrapper names. */
async function resourcesIn(value: unknown, dir: string, what: string): Promise<{ resources: Resource[]; related: Resource[] }> {
  if (typeof value === 'string') return readResourceFile(path.resolve(dir, value), what);
  if (Array.isArray(value)) {
    const parts = await Promise.all(value.map((v) => resourcesIn(v, dir, what)));
    return { resources: parts.flatMap((p) => p.resources), related: parts.flatMap((p) => p.related) };
  }
  if (isObject(value)) return { resources: resourcesOf(value), related: relatedIn(value) };
  throw new InputError(`${what} is neither a resource, a list of them nor a path`);
}

async function objectIn(value: unknown, dir: string, what: string): Promise<JsonObject | undefined> {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return readObject(path.resolve(dir, value), what);
  if (isObject(value)) return value;
  throw new InputError(`${what} is neither an object nor a path`);
}

async function exemptionsIn(value: unknown, dir: string): Promise<JsonObject[]> {
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  const out: JsonObject[] = [];
  for (const item of list) {
    const read = typeof item === 'string' ? await readObject(path.resolve(dir, item), 'an exemption') : item;
    if (!isObject(read)) throw new InputError('an exemption is neither an object nor a path');
    out.push(read);
  }
  return out;
}

/**
 * Runs one fixture file (`text`: its text when it is open in an editor, else it is read). Throws InputError when
 * it or a file it names cannot be read or is not what it should be: a FixtureInputError says where in the fixture.
 */
export async function runFixture(file: string, text?: string): Promise<FixtureResult> {
  text ??= decodeText(await readUserFile(file, 'document')).text;
  let fixture: unknown;
  try {
    fixture = parseDocumentText(text);
  } catch (error) {
    throw new FixtureInputError(`the fixture '${file}' is not valid JSON: ${(error as Error).message}`, []);
  }
  if (!isFixture(fixture)) {
    throw new FixtureInputError(`the fixture '${file}' needs "target" (a path, or the document) and "cases" (an array)`, []);
  }
  const dir = path.dirname(file);
  const target =
    typeof fixture.target === 'string'
      ? await at(['target'], () => readTarget(path.resolve(dir, fixture.target as string)))
      : fixture.target;
  const listed = Array.isArray(fixture.definitions) ? fixture.definitions : fixture.definitions === undefined ? [] : [fixture.definitions];
  const read = await at(['definitions'], () =>
    readDefinitions(listed.filter((p) => typeof p === 'string').map((p) => path.resolve(dir, p))),
  );
  const definitions = [...read.documents, ...listed.filter(isObject)];
  const why = missingReason(read);
  const isDefinitionTarget = isObject(target.properties) && isObject(target.properties.policyRule);
  const findDefinition = definitionFinder([...definitions, ...(isDefinitionTarget ? [target] : [])]);
  const aliasFile = fixture.aliases;
  const aliases = typeof aliasFile === 'string' ? await at(['aliases'], () => readAliases(path.resolve(dir, aliasFile))) : undefined;
  const lines = caseLines(text);
  const cases: CaseResult[] = [];
  for (const [index, testCase] of fixture.cases.entries()) {
    if (!isObject(testCase) || testCase.resource === undefined || !isObject(testCase.expect))
      throw new FixtureInputError(`'${file}': case ${index + 1} needs "resource" and "expect"`, ['cases', index]);
    const name = typeof testCase.name === 'string' ? testCase.name : `case ${index + 1}`;
    const wanted = new Map<string, { outcome: string; effect?: string }>();
    for (const [ref, value] of Object.entries(testCase.expect)) {
      // "ref": "outcome", or "ref": { "outcome": ..., "effect": ... }
      const outcome = isObject(value) ? value.outcome : value;
      const effect = isObject(value) && typeof value.effect === 'string' ? value.effect : undefined;
      if (typeof outcome !== 'string' || !OUTCOMES.includes(outcome))
        throw new FixtureInputError(
          `'${file}': case '${name}' expects '${String(outcome)}' of '${ref}', which is no outcome (${OUTCOMES.join(', ')})`,
          ['cases', index, 'expect', ref],
        );
      wanted.set(ref, { outcome, effect });
    }
    const pick = (key: string) => (testCase[key] !== undefined ? testCase[key] : fixture[key]);
    // Where a value picked from the case or the fixture is.
    const whereOf = (key: string): FixturePath => (testCase[key] !== undefined ? ['cases', index, key] : [key]);
    const contextValue = pick('context');
    if (contextValue !== undefined && !isObject(contextValue))
      throw new FixtureInputError(`'${file}': "context" is not an object`, whereOf('context'));
    const context: EvaluationContext = await at(whereOf('context'), async () => contextOf(contextValue, undefined));
    context.aliases = aliases;
    const given = await at(['cases', index, 'resource'], () => resourcesIn(testCase.resource, dir, `case '${name}' resource`));
    const resources = given.resources;
    const related = pick('related');
    const more = related === undefined ? undefined : await at(whereOf('related'), () => resourcesIn(related, dir, 'related'));
    // auditIfNotExists and deployIfNotExists look among every resource given: the case's and the related ones.
    context.relatedResources = [...resources, ...given.related, ...(more ? [...more.resources, ...more.related] : [])];
    const assignment = await at(whereOf('assignment'), () => objectIn(pick('assignment'), dir, 'the assignment'));
    const exemptions = await at(whereOf('exemptions'), () => exemptionsIn(pick('exemptions'), dir));
    const expectations: Expectation[] = [];
    for (const resource of resources) {
      const results = evaluate({ target, findDefinition, assignment, exemptions, context, missingReason: why }, resource);
      for (const [referenceId, want] of wanted) {
        const member = results.find((r) => (r.referenceId ?? definitionName(r.definitionId)).toLowerCase() === referenceId.toLowerCase());
        const effectHolds = want.effect === undefined || member?.effect?.toLowerCase() === want.effect.toLowerCase();
        const passed = member?.outcome === want.outcome && effectHolds;
        const describeEffect = (effect: string | undefined) => (want.effect === undefined ? '' : ` (${effect ?? 'no effect'})`);
        expectations.push({
          referenceId,
          expected: want.outcome + describeEffect(want.effect),
          ...(member ? { actual: member.outcome + describeEffect(member.effect) } : {}),
          ...(resources.length > 1 ? { resource: String(resource.name ?? resource.id ?? '') } : {}),
          ...(member?.reason ? { reason: member.reason } : member ? {} : { reason: 'no member has this reference ID' }),
          ...(member ? { explanation: explainResult(member) } : {}),
          ...(!passed && member ? { trace: member.trace } : {}),
          passed,
        });
      }
    }
    cases.push({ name, line: lines[index] ?? 1, passed: expectations.every((e) => e.passed), expectations });
  }
  return { file, cases };
}

const definitionName = (id: string) => id.replace(/\/+$/, '').split('/').pop() ?? id;
