import { parseArgs } from 'node:util';
import { parse as parseJsonc } from 'jsonc-parser';
import { describeScope, versionToDeploy, type DeploymentScope } from '#api';
import { readBytes, UsageError } from '../../node/files';
import { loadCatalog, resolveDefinitionSources } from '../../node/definitions';
import { decodeText } from '../../service';
import { lintBytes } from '../lintEngine';
import { formatText } from '../formatters';
import { confirm, policySetClient, reportApiError, serviceContext, serviceOptions, SERVICE_OPTIONS_USAGE } from '../serviceOptions';

export const usage = `Usage: policyset deploy <file> (--subscription <id> | --management-group <id>) [--name <set name>]
                        [--version <#.#.#>] [--yes] [-d <definitions>] [service options]

Lints the file, then creates a version of a policy set definition (E2) with one PUT of its
properties. Refuses when the lint finds errors. Asks for confirmation on a terminal; without one,
--yes is required. The set name comes from --name, the document's id or name; the version from
--version, the version resource's name or properties.version.

${SERVICE_OPTIONS_USAGE}
Exit status: 0 done, 1 refused (lint errors, not confirmed), 2 usage, input, sign-in or service problems.
`;

export async function run(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...serviceOptions,
      subscription: { type: 'string' },
      'management-group': { type: 'string' },
      name: { type: 'string' },
      version: { type: 'string' },
      yes: { type: 'boolean', short: 'y', default: false },
      definitions: { type: 'string', short: 'd', multiple: true, default: [] },
    },
  });
  if (positionals.length !== 1) throw new UsageError('deploy takes one file');
  if (!!values.subscription === !!values['management-group']) throw new UsageError('deploy needs exactly one of --subscription <id> or --management-group <id>');
  const scope: DeploymentScope = values.subscription
    ? { kind: 'subscription', subscriptionId: values.subscription }
    : { kind: 'managementGroup', managementGroupId: values['management-group'] as string };
  const context = serviceContext(values, env);
  const client = policySetClient(context);
  const file = positionals[0];

  // Lint first, with the same engine as `policyset lint`: errors stop the deployment.
  const bytes = await readBytes(file);
  const definitionPaths = values.definitions as string[];
  const catalog = definitionPaths.length ? await loadCatalog(await resolveDefinitionSources(definitionPaths)) : undefined;
  const result = lintBytes(file, bytes, true, catalog, { severities: {} });
  const errors = result.diagnostics.filter((d) => d.severity === 1);
  if (errors.length) {
    process.stderr.write(formatText([{ ...result, diagnostics: errors }], process.cwd(), false));
    process.stderr.write(`policyset: not deployed: ${file} has ${errors.length} error${errors.length === 1 ? '' : 's'}\n`);
    return 1;
  }

  let target;
  try {
    const document: unknown = parseJsonc(decodeText(bytes).text);
    target = versionToDeploy(document, { name: values.name, version: values.version }, { name: '--name', version: '--version' });
  } catch (error) {
    throw new UsageError(`${file}: ${(error as Error).message}`);
  }
  if (!target.name) throw new UsageError(`${file} does not name its policy set definition: give --name <set name>`);
  if (!target.version) throw new UsageError(`${file} has no version (a version resource's name or properties.version): give --version <#.#.#>`);
  let path: string;
  try {
    path = client.versionPath(scope, target.name, target.version);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const url = `${client.settings.baseUrl}${path}`;
  process.stderr.write(`policyset: deploy version ${target.version} of '${target.name}' at ${describeScope(scope)}\n  PUT ${url}\n`);
  if (!(await confirm('Deploy?', values.yes as boolean, 'not deployed'))) return 1;
  try {
    const response = await client.createPolicySetDefinitionVersion(scope, target.name, target.version, target.properties);
    const verb = response.status === 201 ? 'created' : 'updated';
    process.stdout.write(`${verb} ${response.body?.id ?? path} (${response.status}${response.requestId ? `, request id ${response.requestId}` : ''})\n`);
    return 0;
  } catch (error) {
    return reportApiError(error, context.secrets);
  }
}
