import { parseArgs } from 'node:util';
import { parseExpand } from '#api';
import { UsageError } from '../../node/files';
import { policySetClient, reportApiError, serviceContext, serviceOptions, SERVICE_OPTIONS_USAGE, redactForOutput } from '../serviceOptions';
import { writeOutputFile } from '../../node/output';

export const usage = `Usage: policyset fetch <name> [--expand <list>] [-o <file>] [service options]

Gets a built-in policy set definition (E1) and prints it, or saves it with -o.
--expand LatestDefinitionVersion,EffectiveDefinitionVersion fills those fields of each reference.

${SERVICE_OPTIONS_USAGE}
Exit status: 0 done, 2 usage, input, sign-in or service problems.
`;

export async function run(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { ...serviceOptions, expand: { type: 'string' }, output: { type: 'string', short: 'o' } },
  });
  if (positionals.length !== 1) throw new UsageError(positionals.length ? 'fetch takes one name' : 'fetch needs the name of a built-in policy set definition');
  let expand;
  try {
    expand = values.expand !== undefined ? parseExpand(values.expand) : undefined;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const context = serviceContext(values, env);
  try {
    const response = await policySetClient(context).getBuiltInPolicySetDefinition(positionals[0], { expand });
    const text = JSON.stringify(response.body, null, 2) + '\n';
    if (values.output) {
      try {
        writeOutputFile(values.output, redactForOutput(text));
      } catch (error) {
        process.stderr.write(`policyset: ${(error as Error).message}\n`);
        return 2;
      }
      process.stderr.write(`policyset: saved '${response.body.properties.displayName ?? positionals[0]}' to ${values.output}\n`);
    } else {
      process.stdout.write(text);
    }
    return 0;
  } catch (error) {
    return reportApiError(error, context.secrets);
  }
}
