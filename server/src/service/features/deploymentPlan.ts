import { findNodeAtOffset, getLocation, type Node } from 'jsonc-parser';
import type { CompletionItem, CompletionList, Hover } from 'vscode-languageserver-types';
import { CompletionItemKind, MarkupKind } from 'vscode-languageserver-types';
import type { PolicyDocument } from '../validate';
import {
  BUILT_IN_CAPACITY_TABLE,
  capacityClassOf,
  DEPLOYMENT_TYPES,
  describeRequestWindow,
  formatNumber as fmt,
  rateLimits,
  type CapacityTable,
} from '../quota/capacity';
import { readPlan } from '../quota/plan';

// The editor features of a deployment plan (or a lone E6 body): hover on `capacity` with what it buys,
// completion of model names (the capacity-unit table's) and sku names (deployment types).

/** The plan entry (or the lone body) a node belongs to. */
function deploymentOf(document: PolicyDocument, node: Node) {
  const plan = readPlan(document.parsed.root);
  for (let n: Node | undefined = node; n; n = n.parent) {
    const found = plan.deployments.find((d) => d.node === n);
    if (found) return found;
  }
  return undefined;
}

export function planHover(document: PolicyDocument, offset: number, table: CapacityTable = BUILT_IN_CAPACITY_TABLE): Hover | null {
  const root = document.parsed.root;
  if (!root) return null;
  const node = findNodeAtOffset(root, offset, true);
  if (!node) return null;
  // On the key "capacity" or on its value.
  const propertyNode = node.parent?.type === 'property' ? node.parent : node.type === 'property' ? node : undefined;
  if (!propertyNode || propertyNode.children?.[0]?.value !== 'capacity') return null;
  const valueNode = propertyNode.children?.[1];
  const deployment = deploymentOf(document, propertyNode);
  if (!deployment || !valueNode) return null;
  const lines: string[] = [];
  if (deployment.capacity === undefined) lines.push(`**capacity** must be a positive whole number of units (1 unit = 1,000 TPM).`);
  else {
    const unit = deployment.model ? capacityClassOf(deployment.model, table) : undefined;
    const tpm = deployment.capacity * 1000;
    if (!unit)
      lines.push(
        `**capacity ${deployment.capacity}** = ${fmt(tpm)} TPM`,
        deployment.model
          ? `'${deployment.model}' has no known capacity-unit class: its RPM is not known.`
          : 'No model named: its RPM is not known.',
      );
    else {
      const limits = rateLimits(deployment.capacity, unit);
      lines.push(
        `**capacity ${deployment.capacity}** of \`${deployment.model}\` (${deployment.sku})`,
        `| TPM | RPM | per 1 s window | per 10 s window |\n|---:|---:|---:|---:|\n| ${fmt(limits.tpm)} | ${fmt(limits.rpm, 2)} | ${fmt(limits.perSecond)} | ${fmt(limits.perTenSeconds)} |`,
        ...(limits.perTenSeconds < 1
          ? [`Fewer than one request fits in 10 s; the window that applies: **${describeRequestWindow(limits)}**.`]
          : []),
        `Class \`${unit.name}\`: 1 unit = ${fmt(unit.rpm)} RPM per ${fmt(unit.tpm)} TPM. The RPM is spread evenly over short windows (one request every ${limits.rpm > 0 ? fmt(60 / limits.rpm, 3) : '-'} s): more requests in a window than its share are refused with 429.`,
      );
    }
  }
  return {
    contents: { kind: MarkupKind.Markdown, value: lines.join('\n\n') },
    range: document.lines.rangeOf(valueNode.offset, valueNode.offset + valueNode.length),
  };
}

/** Model names and sku names where the cursor is on their value; undefined elsewhere. */
export function planCompletions(
  document: PolicyDocument,
  offset: number,
  table: CapacityTable = BUILT_IN_CAPACITY_TABLE,
): CompletionList | undefined {
  const text = document.parsed.text;
  const location = getLocation(text, offset);
  if (location.isAtPropertyKey) return undefined;
  const path = location.path.map(String);
  const last = path[path.length - 1];
  const parent = path[path.length - 2];
  let labels: Array<{ label: string; detail: string }> | undefined;
  if ((last === 'model' && parent !== 'properties') || (last === 'name' && parent === 'model')) {
    labels = Object.keys(table.models)
      .sort()
      .map((model) => {
        const unit = capacityClassOf(model, table)!;
        return { label: model, detail: `${unit.name}: 1 unit = ${fmt(unit.rpm)} RPM per ${fmt(unit.tpm)} TPM` };
      });
  } else if (last === 'name' && parent === 'sku') {
    labels = DEPLOYMENT_TYPES.map((label) => ({ label, detail: 'deployment type' }));
  }
  if (!labels) return undefined;
  const previous = location.previousNode;
  const inString = previous?.type === 'string' && offset > previous.offset && offset <= previous.offset + previous.length;
  const range = inString
    ? document.lines.rangeOf(previous!.offset, previous!.offset + previous!.length)
    : document.lines.rangeOf(offset, offset);
  const items: CompletionItem[] = labels.map(({ label, detail }, i) => ({
    label,
    kind: CompletionItemKind.Value,
    detail,
    sortText: String(i).padStart(4, '0'),
    textEdit: { range, newText: JSON.stringify(label) },
    filterText: JSON.stringify(label),
  }));
  return { isIncomplete: false, items };
}
