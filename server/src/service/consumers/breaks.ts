// What a change to a set breaks among its consumers, from a light record of each consumer file (plain data: the
// CLI's lint sends it to its worker processes): the targets each consumer names and the parameters and
// reference IDs it names, with their lines. `policyset lint --against` counts them in the version check.
import type { LineIndex } from '../text';
import type { ConsumerModel } from './model';
import { assignsSet, type ConsumerUse, type SetIdentity } from './uses';

/** A consumer file as what a change can break reads it. */
export interface ConsumerSite {
  file: string;
  consumers: Array<{
    targets: Array<{ kind: 'set' | 'definition' | 'unknown'; text: string | undefined }>;
    /** What it names, with the 1-based line of the name. */
    uses: Array<{ what: ConsumerUse['what']; name: string; line: number }>;
  }>;
}

/** A consumer place a change breaks: the file, the 1-based line, and which consumer of the file (to count assignments). */
export interface ConsumerBreak {
  file: string;
  line: number;
  consumer: number;
}

export function siteOf(file: string, consumers: ConsumerModel[], lines: LineIndex): ConsumerSite {
  const line = (offset: number) => lines.positionAt(offset).line + 1;
  return {
    file,
    consumers: consumers.map((consumer) => ({
      targets: consumer.targets.map((t) => ({ kind: t.kind, text: t.text })),
      uses: [
        ...consumer.parameters.map((p) => ({ what: 'parameter' as const, name: p.name, line: line(p.keyNode.offset) })),
        ...consumer.referenceIds.map((r) => ({ what: 'referenceId' as const, name: r.value, line: line(r.node.offset) })),
      ],
    })),
  };
}

/** The places of the consumers that assign `set` which name what a change takes away (a parameter, a reference ID). */
export function breaksOf(subject: { what: ConsumerUse['what']; name: string }, set: SetIdentity, sites: ConsumerSite[]): ConsumerBreak[] {
  const lower = subject.name.toLowerCase();
  const found: ConsumerBreak[] = [];
  for (const site of sites) {
    site.consumers.forEach((consumer, index) => {
      if (!assignsSet(consumer, set)) return;
      for (const use of consumer.uses)
        if (use.what === subject.what && use.name.toLowerCase() === lower) found.push({ file: site.file, line: use.line, consumer: index });
    });
  }
  return found;
}
