// Go to definition from a consumer to the set it assigns (docs/consumers.md): from the value that names the
// set (`policyDefinitionId`, `policySetName`, ...), a parameter the consumer passes, or a reference ID it names,
// to the set's declaration of it. The set is found as the consumer rules find it; its file is the adapter's to read.
import type { Range } from 'vscode-languageserver-types';
import { property, stringContent, type Node } from '../json';
import { resolveConsumer, resolveTarget, type TargetDeclaration } from '../consumers';
import type { DefinitionCatalog } from '../definitions';
import type { PolicyDocument } from '../validate';

/** What a consumer names at an offset, and the files of the declarations it means. */
export interface ConsumerDeclarationQuery {
  what: 'target' | 'parameter' | 'referenceId';
  /** The parameter or reference ID, as the consumer writes it (for a target: the set's or definition's name). */
  name: string;
  /** The sources (paths or URIs) of the declarations it means, each once, in the catalogue's order. */
  sources: string[];
}

const inside = (offset: number, node: { offset: number; length: number }) => offset >= node.offset && offset <= node.offset + node.length;

/** The files of the sets among the declarations (a definition may come from an index of thousands: not opened here). */
function sourcesOf(declarations: TargetDeclaration[]): string[] {
  return [...new Set(declarations.flatMap((d) => (d.kind === 'set' && d.source ? [d.source] : [])))];
}

/** What the consumer at the offset names of its set, when the offset is on a target, a passed parameter's key or a reference ID. */
export function consumerDeclarationAt(
  document: PolicyDocument,
  offset: number,
  options: { definitions?: DefinitionCatalog },
): ConsumerDeclarationQuery | undefined {
  for (const consumer of document.consumers) {
    if (!inside(offset, consumer.node)) continue;
    const target = consumer.targets.find((t) => inside(offset, t.node));
    if (target) {
      const candidates = resolveTarget(target, options.definitions).candidates;
      const sources = sourcesOf(candidates);
      return sources.length ? { what: 'target', name: candidates[0].name, sources } : undefined;
    }
    const passed = consumer.parameters.find((p) => inside(offset, p.keyNode));
    const reference = passed ? undefined : consumer.referenceIds.find((r) => inside(offset, r.node));
    if (!passed && !reference) continue;
    const declarations = resolveConsumer(consumer, options.definitions).targets.flatMap((t) => t.candidates);
    const name = passed ? passed.name : reference!.value;
    const lower = name.toLowerCase();
    const declaring = declarations.filter((d) => (passed ? d.parameters.has(lower) : d.referenceIds?.has(lower)));
    const sources = sourcesOf(declaring);
    return sources.length ? { what: passed ? 'parameter' : 'referenceId', name, sources } : undefined;
  }
  return undefined;
}

/**
 * Where a set document declares what the query names: a parameter's key, a member's
 * `policyDefinitionReferenceId` value, or for the target itself its `name` value (else its first line).
 */
export function declarationRange(document: PolicyDocument, query: ConsumerDeclarationQuery): Range | undefined {
  const lower = query.name.toLowerCase();
  const range = (node: Node) => {
    const { start, end } = stringContent(document.parsed.text, node);
    return document.lines.rangeOf(start, end);
  };
  const root = document.parsed.root;
  if (!root) return undefined;
  if (query.what === 'target') {
    const set = document.sets[0];
    const name = property(set?.resource ?? root, 'name');
    return name?.type === 'string' ? range(name) : document.lines.rangeOf(0, 0);
  }
  for (const set of document.sets) {
    if (query.what === 'parameter') {
      const declared = set.parametersByLower.get(lower);
      if (declared) return range(declared.keyNode);
    } else {
      const member = set.references.find((r) => r.refIdLower === lower && r.refIdNode);
      if (member) return range(member.refIdNode!);
    }
  }
  return undefined;
}
