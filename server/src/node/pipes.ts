/**
 * Closed pipes. When the reader of standard output (or standard error) goes away early (`| head -1`,
 * `| grep -m1`, `less` quit), Node reports EPIPE as an 'error' event on the stream, and an 'error' event
 * with no listener ends the process with a stack trace and status 1. Tools users know (ESLint, ripgrep)
 * end quietly instead: the output is no longer wanted, and the exit status stays the one the work had.
 *
 * So: once a stream's reader is gone, the stream is dropped (further writes go nowhere), nothing is printed
 * about it, and the command carries on to its own end (a service call under way is not cut off midway)
 * and returns its status as usual. Any other write failure (a full disk behind `> file`) is said once on
 * standard error, when that is still open, and makes the status 2.
 */

const guarded = new WeakSet<NodeJS.WriteStream>();

/** Write errors that mean the reader is gone. ERR_STREAM_DESTROYED: a write after the stream was dropped. */
const READER_GONE = new Set(['EPIPE', 'ECONNRESET', 'ERR_STREAM_DESTROYED']);

export function endQuietlyOnClosedPipes(streams: NodeJS.WriteStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    if (guarded.has(stream)) continue;
    guarded.add(stream);
    stream.on('error', (error: NodeJS.ErrnoException) => {
      stream.destroy();
      if (READER_GONE.has(error.code ?? '')) return;
      process.exitCode = 2;
      if (stream !== process.stderr && !process.stderr.destroyed) {
        process.stderr.write(`policyset: cannot write the output: ${error.message}\n`);
      }
    });
  }
}
