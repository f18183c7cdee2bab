import type { DocumentLink } from 'vscode-languageserver-types';
import { DEFAULT_CLOUD } from '../definitions';
import { isTenantDefinitionId } from '../definitionIds';
import { propertyIgnoreCase, stringContent, type Node } from '../json';
import type { PolicyDocument } from '../validate';
import { definitionOf, type FeatureOptions } from './hover';

export interface DocumentLinkOptions extends FeatureOptions {
  /** The URI of a known definition's `source` (the file it was read from), or undefined (the host knows). */
  sourceUri?(source: string): string | undefined;
}

/** The Azure portal of each cloud: a built-in definition's page is its policy definition blade there. */
const PORTALS: Record<string, string> = {
  azurecloud: 'https://portal.azure.com',
  azureusgovernment: 'https://portal.azure.us',
  azurechinacloud: 'https://portal.azure.cn',
};

/** Azure Resource Manager of each cloud: a policy metadata resource is read from there. */
const RESOURCE_MANAGERS: Record<string, string> = {
  azurecloud: 'https://management.azure.com',
  azureusgovernment: 'https://management.usgovcloudapi.net',
  azurechinacloud: 'https://management.chinacloudapi.cn',
};

const POLICY_METADATA_ID = /^\/providers\/Microsoft\.PolicyInsights\/policyMetadata\/[^/?#\s]+$/i;
const POLICY_METADATA_API_VERSION = '2019-10-01';

/** The portal's page of a built-in policy definition (the policy definition blade, by the definition's ID). */
export function builtInDefinitionUrl(id: string, cloud?: string): string {
  const portal = PORTALS[(cloud ?? DEFAULT_CLOUD).toLowerCase()] ?? PORTALS.azurecloud;
  return `${portal}/#view/Microsoft_Azure_Policy/PolicyDetailBlade/definitionId/${encodeURIComponent(id)}`;
}

/** The policy metadata resource an `additionalMetadataId` names, as Azure Resource Manager serves it. */
export function policyMetadataUrl(id: string, cloud?: string): string {
  const arm = RESOURCE_MANAGERS[(cloud ?? DEFAULT_CLOUD).toLowerCase()] ?? RESOURCE_MANAGERS.azurecloud;
  return `${arm}${id.split('/').map(encodeURIComponent).join('/')}?api-version=${POLICY_METADATA_API_VERSION}`;
}

/** A path relative to the document (no scheme, not absolute), resolved against its URI; undefined otherwise. */
function relativeTarget(uri: string, path: string): string | undefined {
  if (!path.trim() || /^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith('/') || path.startsWith('\\') || path.includes('\0'))
    return undefined;
  try {
    return new URL(path.replace(/\\/g, '/').split('/').map(encodeURIComponent).join('/'), uri).href;
  } catch {
    return undefined;
  }
}

/** Every `parameterFile` string property of the document (the policy-as-code framework's assignment files name their parameter CSV so). */
function parameterFiles(root: Node | undefined, found: Node[]): void {
  const stack: Node[] = root ? [root] : [];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.type === 'property') {
      const [key, value] = node.children ?? [];
      if (key && value && (key.value as string).toLowerCase() === 'parameterfile' && value.type === 'string') found.push(value);
      else if (value && (value.type === 'object' || value.type === 'array')) stack.push(value);
    } else if (node.children) for (const child of node.children) stack.push(child);
  }
}

/**
 * Document links: a member's `policyDefinitionId` (or `policyDefinitionName`) to the workspace file that
 * defines it, or, for a built-in, to its page in the Azure portal; a group's `additionalMetadataId` to the
 * policy metadata resource; a `parameterFile` to the file it names, relative to the document.
 */
export function getDocumentLinks(document: PolicyDocument, uri: string, options: DocumentLinkOptions = {}): DocumentLink[] {
  const text = document.parsed.text;
  const links: DocumentLink[] = [];
  const link = (node: Node, target: string, tooltip: string) => {
    const { start, end } = stringContent(text, node);
    if (end > start) links.push({ range: document.lines.rangeOf(start, end), target, tooltip });
  };
  for (const set of document.sets) {
    for (const reference of set.references) {
      const node =
        reference.idNode?.type === 'string'
          ? reference.idNode
          : reference.idNode
            ? undefined
            : reference.nameNode?.type === 'string'
              ? reference.nameNode
              : undefined;
      if (!node) continue;
      const definition = definitionOf(reference, options);
      // A file of its own (not an index, which holds many) that the host can open.
      const file = definition?.source && !definition.indexed ? options.sourceUri?.(definition.source) : undefined;
      if (file) {
        link(node, file, `Open the file that defines ${definition!.displayName ?? definition!.name}`);
        continue;
      }
      const written = node === reference.idNode && !set.isDynamic(node) ? (node.value as string) : undefined;
      const builtInId =
        written !== undefined && isTenantDefinitionId(written)
          ? written
          : definition && isTenantDefinitionId(definition.id)
            ? definition.id
            : undefined;
      if (builtInId)
        link(node, builtInDefinitionUrl(builtInId, definition?.cloud ?? options.cloud), 'Open the built-in definition in the Azure portal');
    }
    for (const group of set.groups) {
      const metadata = propertyIgnoreCase(group.node, 'additionalMetadataId');
      if (metadata?.type !== 'string' || !POLICY_METADATA_ID.test(metadata.value as string)) continue;
      link(
        metadata,
        policyMetadataUrl(metadata.value as string, options.cloud),
        'The policy metadata resource in Azure Resource Manager (a signed-in request: `az rest --url <link>`)',
      );
    }
  }
  // Only a document that names one is walked for `parameterFile`.
  if (/"parameterFile"/i.test(text)) {
    const found: Node[] = [];
    parameterFiles(document.parsed.root, found);
    for (const node of found) {
      const target = relativeTarget(uri, node.value as string);
      if (target) link(node, target, `Open ${node.value as string}`);
    }
  }
  return links.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
}
