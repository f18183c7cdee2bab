// `policyset diff --consumers <paths>`: for each change that takes away what consumers name (a parameter
// removed or renamed, a reference ID removed or changed), the consumer files and lines it breaks.
import { decodeText, parsePolicyDocument, type ChangeReport } from '../../service';
import { siteOf, usesOfName, type ConsumerSite } from '../../service/consumers';
import { discover, FileReader, notWalkedNotes } from '../../node/files';

/** Keys only consumers have: a file without any is not parsed. */
const CONSUMER_KEYS = [
  'policyAssignments',
  '"nodeName"',
  '"policyAssignmentId"',
  '"nonComplianceMessages"',
  '"policyDefinitionReferenceIds"',
];

export interface ConsumerScan {
  /** Files read that hold consumers. */
  consumerFiles: number;
  /** What could not be read (said, never passed over). */
  problems: string[];
}

/** Fills in `breaks` on the changes of the reports (an empty list when nothing names what a change takes away). */
export async function addConsumerBreaks(reports: ChangeReport[], paths: string[]): Promise<ConsumerScan> {
  const wanted = reports.filter((r) => r.old?.name && r.changes.some((c) => c.subject));
  for (const report of wanted) for (const change of report.changes) if (change.subject) change.breaks = [];
  const { files, problems, notWalked } = await discover(paths);
  // Said with the problems (as notes: --consumers reads what it can).
  problems.push(...notWalkedNotes(notWalked, 'cli'));
  if (!wanted.length) return { consumerFiles: 0, problems };
  const reader = new FileReader();
  let consumerFiles = 0;
  for (const file of files) {
    let text: string;
    try {
      text = decodeText(reader.read(file.path)).text;
    } catch (error) {
      problems.push((error as Error).message);
      continue;
    }
    if (!CONSUMER_KEYS.some((key) => text.includes(key))) continue;
    const document = parsePolicyDocument(text, { model: false });
    if (!document.consumers.length) continue;
    consumerFiles++;
    for (const report of wanted) {
      const set = { name: report.old!.name! };
      for (const change of report.changes) {
        if (!change.subject) continue;
        for (const use of usesOfName(document.consumers, set, change.subject.what, change.subject.name)) {
          change.breaks!.push({ file: file.path, line: document.lines.positionAt(use.node.offset).line + 1 });
        }
      }
    }
  }
  return { consumerFiles, problems };
}

/**
 * `lint --against`: the consumers the version check names the broken lines of, read from --consumers (files
 * and folders) or, by default, from the files linted. A file that cannot be read here is a problem only when
 * --consumers named it (a linted file's own problem is reported when it is linted).
 */
export async function consumerSites(
  paths: string[] | undefined,
  linted: Array<{ file: string; read: () => Uint8Array }>,
  problems: string[],
): Promise<ConsumerSite[]> {
  let files = linted;
  const given = !!paths?.length;
  if (given) {
    const found = await discover(paths!);
    for (const problem of found.problems) problems.push(`--consumers: ${problem}`);
    const reader = new FileReader();
    files = found.files.map((f) => ({ file: f.path, read: () => reader.read(f.path) }));
  }
  const sites: ConsumerSite[] = [];
  for (const { file, read } of files) {
    let text: string;
    try {
      text = decodeText(read()).text;
    } catch (error) {
      if (given) problems.push(`--consumers: ${(error as Error).message}`);
      continue;
    }
    if (!CONSUMER_KEYS.some((key) => text.includes(key))) continue;
    const document = parsePolicyDocument(text, { model: false });
    if (document.consumers.length) sites.push(siteOf(file, document.consumers, document.lines));
  }
  return sites;
}
