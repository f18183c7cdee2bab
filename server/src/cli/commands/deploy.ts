import * as fs from 'node:fs';
import { parseArgs } from 'node:util';
import { parse as parseJsonc } from 'jsonc-parser';
import { describeScope, safeText, versionToDeploy, type DeploymentScope } from '#api';
import { InputError, readBytes, UsageError } from '../../node/files';
import { ConfigFileError, findConfigFile, loadConfigFile } from '../../node/config';
import { definitionNotes, loadCatalog, resolveDefinitionSources } from '../../node/definitions';
import { decodeText } from '../../service';
import { lintBytes } from '../lint/lintFile';
import { formatText, untrusted } from '../formatters';
import { guardDeployment } from '../versions/deployGuard';
import { deployableDocument, NotDeployable } from '../deploy/body';
import { deployFolder } from '../deploy/folder';
import { versionSettings, VERSION_OPTIONS_USAGE } from '../options/versionOptions';
import {
  confirm,
  unreadable,
  policySetClient,
  reportApiError,
  serviceContext,
  serviceOptions,
  SERVICE_OPTIONS_USAGE,
} from '../options/serviceOptions';
import type { ExitStatuses } from '../command';

export const usage = `Usage: policyset deploy <file> (--subscription <id> | --management-group <id>) [--name <set name>]
                        [--version <#.#.#>] [--yes] [-d <definitions>] [--format text|json] [--verbose]
                        [--against <file|git revision> [--allow-breaking]] [service options]
       policyset deploy <folder> --against <git revision> (--subscription <id> | --management-group <id>)
                        [--yes] [-d <definitions>] [--allow-breaking] [service options]

Lints the file (with the rules of .policysetrc.json, as policyset lint), then creates a version of a
policy set definition (E2) with one PUT of its properties. Refuses when the lint finds errors; says how
many warnings it deploys with (--verbose lists them). Response-only fields of a fetched set
(properties.versions, each reference's effectiveDefinitionVersion and latestDefinitionVersion, id,
type, systemData) and a built-in's policyType (BuiltIn, Static) are left out of the PUT, and named. A set
read as its template reads it (a template fragment, a file Bicep loads) is sent as the template sends it
("[[parameters('x')]" as "[parameters('x')]"); a reference naming its definition by policyDefinitionName
only gets its policyDefinitionId (a built-in that -d knows, else a custom definition at the deploy scope;
a GUID no loaded definition knows is refused). Asks for confirmation on a terminal; without one, --yes is
required. The set name comes from --name, the document's id or name; the version from --version, the
version resource's name, properties.version or properties.metadata.version (a --version that disagrees
with the document is refused).
--format json prints the outcome as one JSON object (docs/cli.md "JSON outputs").

Examples:
  policyset deploy my-set.json --subscription 00000000-0000-0000-0000-000000000000 --yes
  policyset deploy fetched.json --management-group contoso --name my-set --version 1.1.0 --format json

With --against, the set is first compared with an earlier version of it (a file, or the file at a git
revision): when the changes ask for a bigger version than the one to deploy (a breaking change under
1.3.0 after 1.2.3), nothing is sent, and the version to use is said.
With a folder and --against <revision>, the sets under it that changed since the revision (new ones too)
are each checked as above and shown as one plan (set, version, the bump its changes need, file); nothing
is sent when one of them cannot be deployed. After one confirmation, one PUT each, in order; a PUT that
fails stops the rest, and one whose outcome is unknown (it may have been applied) is not sent again.
A set removed since the revision is named, never deleted.
      --against <file|revision>            The earlier version to check the version against
      --allow-breaking                     Deploy even so (and say so)
${VERSION_OPTIONS_USAGE}
${SERVICE_OPTIONS_USAGE}
Exit status: 0 done, 1 refused (lint errors, a version not bumped enough, not confirmed), 2 usage, input, sign-in or service problems.
`;

/** What each exit status means (the usage's last line says the same; docs/cli.md's table is made of it). */
export const exitStatus: ExitStatuses = {
  0: 'done',
  1: 'refused (lint errors, a version not bumped enough, not confirmed)',
  2: 'usage, input, sign-in or service problems',
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

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
      format: { type: 'string', short: 'f', default: 'text' },
      verbose: { type: 'boolean', default: false },
      against: { type: 'string' },
      'allow-breaking': { type: 'boolean', default: false },
      'reference-added': { type: 'string' },
      'reference-removed': { type: 'string' },
    },
  });
  const json = values.format === 'json';
  if (values.format !== 'text' && !json) throw new UsageError(`--format takes text or json, not '${values.format}'`);
  const print = (outcome: object) => process.stdout.write(JSON.stringify(outcome, null, 2) + '\n');
  if (values['allow-breaking'] && values.against === undefined)
    throw new UsageError('--allow-breaking goes with --against <file|git revision>');
  if (positionals.length !== 1) throw new UsageError('deploy takes one file');
  if (!!values.subscription === !!values['management-group'])
    throw new UsageError('deploy needs exactly one of --subscription <id> or --management-group <id>');
  const scope: DeploymentScope = values.subscription
    ? { kind: 'subscription', subscriptionId: values.subscription }
    : { kind: 'managementGroup', managementGroupId: values['management-group'] as string };
  const context = serviceContext(values, env);
  const client = policySetClient(context);
  const file = positionals[0];

  const isFolder = fs.existsSync(file) && fs.statSync(file).isDirectory();
  if (isFolder && values.against === undefined)
    throw new UsageError(
      `${file} is a folder: deploy <folder> goes with --against <git revision> (only the sets that changed are deployed)`,
    );
  if (isFolder && (values.name !== undefined || values.version !== undefined || json))
    throw new UsageError("deploy <folder> takes each set's name and version from its file: no --name, --version or --format json");
  // The team's lint settings apply here too: a rule turned off for CI does not stop a deployment.
  let config;
  try {
    const configFile = findConfigFile(process.cwd());
    config = configFile ? loadConfigFile(configFile).config : undefined;
  } catch (error) {
    if (error instanceof ConfigFileError) throw new InputError(error.message);
    throw error;
  }
  const definitionPaths = [...(config?.definitions ?? []), ...(values.definitions as string[])];
  const sources = definitionPaths.length ? await resolveDefinitionSources(definitionPaths) : undefined;
  for (const note of definitionNotes(sources)) process.stderr.write(`policyset: ${untrusted(note)}\n`);
  const catalog = sources ? await loadCatalog(sources) : undefined;
  if (isFolder) {
    return deployFolder({
      folder: file,
      against: values.against as string,
      scope,
      client,
      namespace: context.settings.providerNamespace,
      secrets: context.secrets,
      catalog,
      lint: { severities: config?.rules ?? {}, cloud: config?.cloud },
      compare: versionSettings(values),
      yes: values.yes as boolean,
      allowBreaking: values['allow-breaking'] as boolean,
    });
  }
  // Lint first, with the same engine as `policyset lint`: errors stop the deployment.
  const bytes = await readBytes(file);
  const result = lintBytes(file, bytes, true, catalog, { severities: config?.rules ?? {}, cloud: config?.cloud });
  const errors = result.diagnostics.filter((d) => d.severity === 1);
  const warnings = result.diagnostics.filter((d) => d.severity === 2);
  if (errors.length) {
    process.stderr.write(formatText([{ ...result, diagnostics: errors }], process.cwd(), false));
    process.stderr.write(`policyset: not deployed: ${file} has ${plural(errors.length, 'error')}\n`);
    if (json)
      print({
        outcome: 'refused',
        reason: 'lint errors',
        file,
        errors: errors.map((d) => ({
          code: d.code,
          line: d.range.start.line + 1,
          column: d.range.start.character + 1,
          message: d.message,
        })),
      });
    return 1;
  }
  if (warnings.length) {
    if (values.verbose) process.stderr.write(formatText([{ ...result, diagnostics: warnings }], process.cwd(), false));
    process.stderr.write(
      `policyset: ${file} has ${plural(warnings.length, 'warning')}; it is deployed with them${values.verbose ? '' : ' (--verbose lists them)'}\n`,
    );
  }

  let target;
  let deployable;
  try {
    const text = decodeText(bytes).text;
    deployable = deployableDocument(text, parseJsonc(text), { scope, namespace: context.settings.providerNamespace, catalog });
    target = versionToDeploy(deployable.document, { name: values.name, version: values.version }, { name: '--name', version: '--version' });
  } catch (error) {
    if (error instanceof NotDeployable) throw new InputError(`${file}: not deployed: ${error.message}`);
    throw new UsageError(`${file}: ${(error as Error).message}`);
  }
  if (!target.name) throw new UsageError(`${file} does not name its policy set definition: give --name <set name>`);
  if (!target.version)
    throw new UsageError(`${file} has no version (a version resource's name or properties.version): give --version <#.#.#>`);
  let path: string;
  let url: string;
  try {
    path = client.versionPath(scope, target.name, target.version);
    url = client.versionUrl(scope, target.name, target.version);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.against !== undefined) {
    // The version check, before anything is sent.
    const guard = await guardDeployment(
      file,
      target.version,
      values.against as string,
      values['allow-breaking'] as boolean,
      versionSettings(values),
    );
    for (const line of guard.lines) process.stderr.write(`policyset: ${line}\n`);
    if (!guard.allowed) {
      if (json)
        print({
          outcome: 'refused',
          reason: 'version not bumped enough',
          name: target.name,
          version: target.version,
          details: guard.lines,
        });
      return 1;
    }
  }
  process.stderr.write(`policyset: deploy version ${target.version} of '${target.name}' at ${describeScope(scope)}\n  PUT ${url}\n`);
  for (const note of deployable.notes) process.stderr.write(`policyset: ${note}\n`);
  if (target.omitted.length)
    process.stderr.write(
      `policyset: left out of the PUT, because the service returns them and does not take them: ${target.omitted.join(', ')}\n`,
    );
  if (!(await confirm('Deploy?', values.yes as boolean, 'not deployed'))) {
    if (json) print({ outcome: 'not confirmed', name: target.name, version: target.version });
    return 1;
  }
  try {
    const response = await client.createPolicySetDefinitionVersion(scope, target.name, target.version, target.properties);
    const verb = response.status === 201 ? 'created' : 'updated';
    const id = response.body?.id !== undefined ? safeText(String(response.body.id)) : path;
    if (json) {
      print({
        outcome: verb,
        status: response.status,
        id,
        name: target.name,
        version: target.version,
        scope,
        requestId: response.requestId ?? null,
        warnings: warnings.length,
        omitted: target.omitted,
        ...(response.unreadableBody !== undefined ? { answerUnreadable: true } : {}),
      });
    } else
      process.stdout.write(
        `${verb} ${id} (${response.status}${response.requestId ? `, request id ${response.requestId}` : ''})${warnings.length ? ` with ${plural(warnings.length, 'warning')}` : ''}${unreadable(response.unreadableBody)}\n`,
      );
    return 0;
  } catch (error) {
    return reportApiError(error, context.secrets);
  }
}
