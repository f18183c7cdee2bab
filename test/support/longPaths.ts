// Folders a walk cannot list: a chain of 200-character folder names under `dir`, made relative to each (the kernel
// takes a path of at most 4096 bytes). Listing the first whose full path is longer fails with ENAMETOOLONG, even
// for root. Linux only (its PATH_MAX).
import * as fs from 'node:fs';

/** Makes the chain under `dir`; returns the path of the first folder that cannot be listed. */
export function foldersBeyondPathMax(dir: string): string {
  const name = 'n'.repeat(200);
  const saved = process.cwd();
  try {
    process.chdir(dir);
    for (let i = 0; i < 24; i++) {
      fs.mkdirSync(name);
      process.chdir(name);
    }
  } finally {
    process.chdir(saved);
  }
  let tooLong = dir;
  while (Buffer.byteLength(tooLong) < 4096) tooLong = `${tooLong}/${name}`;
  return tooLong;
}
