import { parseArgs } from 'node:util';
import { untrusted } from '../formatters';
import { evaluate, evaluationJson, type JsonObject } from '../../service';
import { UsageError } from '../../node/files';
import {
  contextOf,
  definitionFinder,
  missingReason,
  readAliases,
  readDefinitions,
  readExemptions,
  readObject,
  readResourceFile,
  readResources,
  readTarget,
} from '../evaluate/inputs';
import { formatText, type ResourceResults } from '../evaluate/report';
import type { ExitStatuses } from '../command';

export const usage = `Usage: policyset evaluate <set or definition> --resource <file> [options]

Says what a policy set (or one policy definition) would do to resources, offline: for each member its
reference ID, definition, effective effect, outcome (nonCompliant, compliant, notApplicable, exempt,
disabled, or unknown with the reason) and the trace of the conditions that decided it. A resource file
holds one resource, an array, an ARM template (its resources), a deployment what-if (predictedResources),
or { "resources": [...], "relatedResources": [...] }. auditIfNotExists and deployIfNotExists look among
every resource given: what is not given counts as missing.
The limits (resource provider modes, aliases, related resources) are in docs/evaluate.md.

Examples:
  policyset evaluate my-set.json --resource storage.json --definitions definitions/
  policyset evaluate my-set.json --resource template.json --assignment assignment.json --format json

Options:
  -r, --resource <file>        The resources to evaluate (required, repeatable)
  -a, --assignment <file>      The assignment: parameter values, overrides, resourceSelectors, notScopes,
                               enforcementMode (default: the set's default values)
  -d, --definitions <path>     The member definitions: files, folders, or arrays of definitions (repeatable)
  -e, --exemptions <file>      Exemptions: one, or an array (repeatable)
      --related <file>         More resources auditIfNotExists and deployIfNotExists look for, beside the
                               --resource files' own (repeatable)
      --aliases <file>         An alias catalogue: 'az provider list --expand resourceTypes/aliases' output,
                               or { "alias": "path" }
      --context <file>         { "subscription": {...}, "resourceGroup": {...}, "apiVersion", "now" }
      --now <date-time>        The clock of utcNow() and of exemptions' expiresOn (ISO 8601)
  -f, --format <text|json>     Output format (default: text)

Exit status: 0 no member is nonCompliant; 1 a member is nonCompliant for a resource; 2 usage or input
problems.
`;

/** What each exit status means (the usage's last line says the same; docs/cli.md's table is made of it). */
export const exitStatus: ExitStatuses = {
  0: 'no member is nonCompliant',
  1: 'a member is nonCompliant for a resource',
  2: 'usage or input problems',
};

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      resource: { type: 'string', short: 'r', multiple: true },
      assignment: { type: 'string', short: 'a' },
      definitions: { type: 'string', short: 'd', multiple: true },
      exemptions: { type: 'string', short: 'e', multiple: true },
      related: { type: 'string', multiple: true },
      aliases: { type: 'string' },
      context: { type: 'string' },
      now: { type: 'string' },
      format: { type: 'string', short: 'f', default: 'text' },
    },
  });
  if (positionals.length !== 1)
    throw new UsageError(
      positionals.length ? `evaluate takes one set or definition, not ${positionals.length}` : 'evaluate needs a set or definition file',
    );
  if (!values.resource?.length) throw new UsageError('evaluate needs --resource <file>');
  if (values.format !== 'text' && values.format !== 'json') throw new UsageError(`--format takes text or json, not '${values.format}'`);
  const target = await readTarget(positionals[0]);
  const definitions = await readDefinitions(values.definitions ?? []);
  for (const note of definitions.notes) process.stderr.write(`policyset: ${untrusted(note)}\n`);
  const files = await Promise.all(values.resource.map((f) => readResourceFile(f, '--resource')));
  const resources = files.flatMap((f) => f.resources);
  const assignment = values.assignment ? await readObject(values.assignment, '--assignment') : undefined;
  const exemptions = await readExemptions(values.exemptions ?? []);
  // What auditIfNotExists and deployIfNotExists look among: every resource given (a deployment's own), the
  // related ones a resource file names, and --related.
  const related = [
    ...resources,
    ...files.flatMap((f) => f.related),
    ...(await Promise.all((values.related ?? []).map((f) => readResources(f, '--related')))).flat(),
  ];
  const context = contextOf(values.context ? await readObject(values.context, '--context') : undefined, values.now);
  context.aliases = await readAliases(values.aliases);
  context.relatedResources = related;
  const findDefinition = definitionFinder([...definitions.documents, ...(isDefinition(target) ? [target] : [])]);
  const why = missingReason(definitions);
  const all: ResourceResults[] = resources.map((resource) => ({
    resource,
    results: evaluate({ target, findDefinition, assignment, exemptions, context, missingReason: why }, resource),
  }));
  process.stdout.write(values.format === 'json' ? JSON.stringify(evaluationJson(all), null, 2) + '\n' : formatText(all));
  return all.some((r) => r.results.some((m) => m.outcome === 'nonCompliant')) ? 1 : 0;
}

const isDefinition = (document: JsonObject) =>
  typeof document.properties === 'object' && document.properties !== null && 'policyRule' in document.properties;
