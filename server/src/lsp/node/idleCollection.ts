import * as v8 from 'node:v8';
import * as vm from 'node:vm';

/**
 * Full garbage collections once the server goes quiet after bulk work (hundreds of documents opened, or
 * all of them checked again). V8 collects its old generation only when it has grown by a factor of what
 * was live, and shrinks the young one only at a collection that finds the allocation rate low, so after
 * such a burst the process would keep the burst's garbage, and the pages it fills, for as long as the
 * editor stays quiet: about 90 MB with the 257 corpus sets open (docs/performance.md). Two collections
 * when the work is done hand them back; a keystroke never waits for them (any work postpones them). V8
 * takes a rate of zero for unknown, not low: the young generation's size is read before the second (which
 * allocates a little), and after it; while it is still at a burst's size the second is tried again.
 */
/** Above this the young generation (1 MiB at rest, 32 MiB after a burst) is taken as not shrunk. */
const YOUNG_AT_REST = 4 * 1024 * 1024;
/** How many times the second collection is tried again when the young generation did not shrink. */
const SECOND_RETRIES = 3;
export class IdleCollection {
  private timer: NodeJS.Timeout | undefined;
  private work = 0;
  /** The first collection ran and the second is still owed: work meanwhile postpones it, never drops it. */
  private secondOwed = false;
  private retries = 0;
  /** Obtained when first needed (it costs a context): undefined until then, null when it cannot be had. */
  private collect: (() => void) | null | undefined;

  /**
   * @param threshold the work (characters of text validated) after which the collections are worth their cost
   * @param quietMs how long the server must have had nothing to do before the first
   * @param lowRateMs how long after the first the second comes: V8 averages the allocation rate over 5 s
   * @param collect what collects (tests give their own); by default V8's full collection
   * @param youngSize the young generation's size in bytes (tests give their own); by default V8's
   */
  constructor(
    private readonly threshold: number,
    private readonly quietMs: number,
    private readonly lowRateMs: number,
    collect?: () => void,
    private readonly youngSize: () => number = youngGenerationSize,
  ) {
    this.collect = collect;
  }

  /** Work was done (or is about to be): postpones the collections, and counts toward the next ones. */
  note(work = 0): void {
    if (this.collect === null) return;
    this.work += work;
    clearTimeout(this.timer);
    this.timer = undefined;
    // Owed: a request or a small check came after the first collection (a set changed on disk re-reads the
    // known definitions: megabytes). V8 shrinks the young generation (32 MB after a burst) only at a
    // collection that finds the allocation rate since the one before it low, so both are done again.
    if (this.work < this.threshold && !this.secondOwed) return;
    // The first frees the burst's garbage; the second, once V8 sees the allocation rate low, shrinks the
    // young generation and hands back the pages the first one freed.
    this.schedule(this.quietMs, () => {
      this.work = 0;
      // Obtained here, once quiet, not in the middle of the work: it costs a context (20-40 ms).
      this.collect ??= exposedGc() ?? null;
      this.collect?.();
      this.secondOwed = true;
      this.retries = 0;
      this.schedule(this.lowRateMs, () => this.second());
    });
  }

  private second(): void {
    this.youngSize(); // read before, too: the allocation rate V8 sees must not be zero
    this.collect?.();
    if (this.youngSize() <= YOUNG_AT_REST || this.retries++ >= SECOND_RETRIES) this.secondOwed = false;
    else this.schedule(this.lowRateMs, () => this.second());
  }

  private schedule(ms: number, run: () => void): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      run();
    }, ms);
    this.timer.unref();
  }
}

function youngGenerationSize(): number {
  return v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}

/** `gc` as --expose-gc gives it, obtained at run time when the process was started without the flag. */
export function exposedGc(): (() => void) | undefined {
  const global = (globalThis as { gc?: () => void }).gc;
  if (global) return global;
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}
