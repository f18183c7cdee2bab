// Preloaded (`node -r`) into a language server by the memory bench: on SIGUSR2 it reads the resident memory
// (rss), collects garbage (gc obtained at run time, as the server does: no --expose-gc that would change
// the process under test), reads the heap (and rssAfterGc) and writes
// them to stderr as one `POLICYSET_MEMORY {json}` line;
// with POLICYSET_HEAPSNAPSHOT=<folder> it also writes a heap snapshot there (for finding retainers).
import * as path from 'node:path';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';

let count = 0;
process.on('SIGUSR2', () => {
  // The process's resident memory as it holds it (what an editor user sees), before the collection below.
  const held = process.memoryUsage().rss;
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as (() => void) | undefined;
  // Twice: the first pass can leave objects whose finalizers free more.
  gc?.();
  gc?.();
  const usage = process.memoryUsage();
  const spaces = Object.fromEntries(
    v8.getHeapSpaceStatistics().map((s) => [s.space_name, { size: s.space_size, used: s.space_used_size }]),
  );
  count++;
  let snapshot: string | undefined;
  const folder = process.env.POLICYSET_HEAPSNAPSHOT;
  if (folder)
    snapshot = v8.writeHeapSnapshot(
      path.join(folder, `${path.basename(process.argv[1] ?? 'node', '.js')}-${process.pid}-${count}.heapsnapshot`),
    );
  process.stderr.write(
    `\nPOLICYSET_MEMORY ${JSON.stringify({ count, gc: !!gc, ...usage, rssAfterGc: usage.rss, rss: held, spaces, snapshot })}\n`,
  );
});
