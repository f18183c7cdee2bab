import type { Hover, MarkupContent } from 'vscode-languageserver-types';
import { definitionsNamedBy, variantFor, type DefinitionCatalog, type DefinitionInfo, type DefinitionParameter } from '../definitions';
import { propertyIgnoreCase, stringValue, valueOf, type Node } from '../json';
import type { GroupDecl, ParameterDecl, ReferenceModel } from '../model/policySet';
import type { PolicyDocument } from '../validate';
import { jsonViewOf } from './jsonService';
import { targetAt } from './locate';
import { planHover } from './deploymentPlan';
import { passedParameterAt } from './consumerParameters';
import type { CapacityTable } from '../quota/capacity';

export interface FeatureOptions {
  /** Known policy definitions (for what a reference points at). */
  definitions?: DefinitionCatalog;
  /** The cloud whose variant of a definition wins (default AzureCloud). */
  cloud?: string;
  /** For deployment plans: the capacity-unit table (built in when absent). */
  quota?: { table?: CapacityTable };
}

/** The known definition a reference points at: the document's cloud's variant first. */
export function definitionOf(reference: ReferenceModel, options: FeatureOptions): DefinitionInfo | undefined {
  const name = reference.idNode ? undefined : stringValue(reference.nameNode);
  return variantFor(definitionsNamedBy(options.definitions, stringValue(reference.idNode), name, reference.idKey), options.cloud);
}

const code = (value: unknown) => {
  const text = JSON.stringify(value);
  return '`' + (text.length > 120 ? text.slice(0, 117) + '...' : text).replace(/`/g, "'") + '`';
};

function markdown(lines: Array<string | undefined>): MarkupContent {
  return { kind: 'markdown', value: lines.filter((l) => l !== undefined).join('\n\n') };
}

function describeParameter(parameter: ParameterDecl): MarkupContent {
  const node = parameter.node;
  const metadata = propertyIgnoreCase(node, 'metadata');
  const allowed = propertyIgnoreCase(node, 'allowedValues');
  const defaultNode = propertyIgnoreCase(node, 'defaultValue');
  const strongType = stringValue(propertyIgnoreCase(metadata, 'strongType'));
  return markdown([
    `**parameter** \`${parameter.name}\`${parameter.type ? `: ${parameter.type}` : ''}`,
    stringValue(propertyIgnoreCase(metadata, 'displayName')),
    stringValue(propertyIgnoreCase(metadata, 'description')),
    defaultNode ? `Default: ${code(valueOf(defaultNode))}` : 'Required: no default value',
    allowed?.type === 'array' ? `Allowed values: ${(valueOf(allowed) as unknown[]).map(code).join(', ')}` : undefined,
    strongType ? `strongType: \`${strongType}\`` : undefined,
  ]);
}

function describeGroup(group: GroupDecl | undefined, name: string): MarkupContent {
  if (!group) return markdown([`**group** \`${name}\``, 'Not declared in `policyDefinitionGroups`.']);
  const field = (key: string) => stringValue(propertyIgnoreCase(group.node, key));
  return markdown([
    `**group** \`${group.name}\``,
    field('displayName'),
    field('category') ? `Category: ${field('category')}` : undefined,
    field('description'),
    field('additionalMetadataId') ? `Metadata: \`${field('additionalMetadataId')}\`` : undefined,
  ]);
}

function describeDefinitionParameter(p: DefinitionParameter): string {
  const parts = [`\`${p.name}\`${p.type ? `: ${p.type}` : ''}`, p.hasDefault ? `default ${code(p.defaultValue)}` : '**required**'];
  if (p.allowedValues) parts.push(`one of ${p.allowedValues.map(code).join(', ')}`);
  return parts.join(', ');
}

function describeDefinition(definition: DefinitionInfo): MarkupContent {
  const parameters = [...definition.parameters.values()];
  return markdown([
    `**policy definition** ${definition.displayName ?? definition.name}${definition.deprecated ? ' (deprecated)' : ''}`,
    definition.version
      ? `Version ${definition.version}${definition.versions.length > 1 ? ` (known: ${definition.versions.join(', ')})` : ''}`
      : undefined,
    parameters.length ? `Parameters:\n${parameters.map((p) => `- ${describeDefinitionParameter(p)}`).join('\n')}` : 'No parameters.',
  ]);
}

function hoverAt(document: PolicyDocument, start: number, end: number, contents: MarkupContent): Hover {
  return { contents, range: document.lines.rangeOf(start, end) };
}

const spanOf = (node: Node): [number, number] => [node.offset, node.offset + node.length];

/**
 * Hover: on a parameter (declaration or `[parameters('x')]`) the declared parameter; on a group its
 * declaration; on a `policyDefinitionId` or a parameter passed to it, the known definition; elsewhere
 * the schema's description.
 */
export async function doHover(document: PolicyDocument, offset: number, options: FeatureOptions = {}): Promise<Hover | null> {
  if (document.kind === 'deploymentPlan') return planHover(document, offset, options.quota?.table);
  if (document.consumers.length) {
    // A parameter an assignment passes: the set's (or definition's) declaration of it.
    const found = passedParameterAt(document, offset, options);
    if (found) {
      const span = spanOf(found.passed.keyNode);
      if (!found.declared.length)
        return hoverAt(document, ...span, markdown([`\`${found.passed.name}\` is not a parameter of what this assigns.`]));
      return hoverAt(
        document,
        ...span,
        markdown(
          found.declared.map(
            (d) =>
              `**${d.declaration.kind} parameter** ${describeDefinitionParameter(d.parameter)}\n\nof ${d.declaration.kind} ${d.declaration.name}`,
          ),
        ),
      );
    }
  }
  const target = targetAt(document, offset);
  switch (target?.type) {
    case 'parameter':
      return hoverAt(
        document,
        target.span.start,
        target.span.end,
        target.declaration
          ? describeParameter(target.declaration)
          : markdown([`**parameter** \`${target.name}\``, "Not declared in the set's `parameters`."]),
      );
    case 'group':
      return hoverAt(document, target.span.start, target.span.end, describeGroup(target.declaration, target.name));
    case 'definitionId': {
      const definition = definitionOf(target.reference, options);
      if (definition) return hoverAt(document, ...spanOf(target.node), describeDefinition(definition));
      break;
    }
    case 'definitionParameter': {
      const definition = definitionOf(target.reference, options);
      const parameter = definition?.parameters.get(target.value.name.toLowerCase());
      if (definition && parameter) {
        return hoverAt(
          document,
          ...spanOf(target.value.keyNode),
          markdown([
            `**definition parameter** ${describeDefinitionParameter(parameter)}`,
            `of ${definition.displayName ?? definition.name}`,
          ]),
        );
      }
      if (definition)
        return hoverAt(
          document,
          ...spanOf(target.value.keyNode),
          markdown([`\`${target.value.name}\` is not a parameter of ${definition.displayName ?? definition.name}.`]),
        );
      break;
    }
  }
  // Too deep for the JSON service's recursive parse (PS1003): no hover from it, rather than a stack overflow.
  if (document.parsed.tooLarge || document.parsed.tooDeep) return null;
  const view = jsonViewOf(document);
  const hover = await view.service.doHover(view.textDocument, document.lines.positionAt(offset), view.jsonDocument);
  return hover && { range: hover.range, contents: asMarkup(hover.contents) };
}

/** The JSON service answers with marked strings; one markdown content is what every client renders. */
function asMarkup(contents: Hover['contents']): MarkupContent {
  if (typeof contents === 'object' && 'kind' in contents) return contents;
  const parts = Array.isArray(contents) ? contents : [contents];
  return markdown(parts.map((p) => (typeof p === 'string' ? p : '```' + p.language + '\n' + p.value + '\n```')));
}
