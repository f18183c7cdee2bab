import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BUILT_IN_CAPACITY_TABLE,
  asSavedUsage,
  mergeCapacityTable,
  readPlan,
  type CapacityTable,
  type SavedUsage,
} from '../../service/quota';
import type { Node } from '../../service/json';
import { readJsonFileSync } from '../../node/definitions';
import type { FileKind } from '../../node/files';

/**
 * The files the quota checks of a deployment plan read in the editor: the capacity-unit file of the
 * settings (policySet.quota.capacityUnitsFile) and the saved usage of the settings (policySet.quota.usageFiles)
 * and of the plan's own "usage" (relative to the plan). Read on each check (they are small); a file that
 * cannot be read or is not of the right shape is logged once per change and left out.
 */
export class QuotaFiles {
  private readonly reported = new Set<string>();
  /** The table last made, kept while its file keeps its size and time: completion and hover ask on every request. */
  private lastTable: { file: string; mtimeMs: number; size: number; table: CapacityTable } | undefined;
  constructor(private readonly log: (message: string) => void) {}

  private read(file: string, kind: FileKind): unknown {
    try {
      const value = readJsonFileSync(file, kind);
      this.reported.delete(file);
      return value;
    } catch (error) {
      this.once(file, (error as Error).message);
      return undefined;
    }
  }

  private once(key: string, message: string): void {
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.log(`quota: ${message}`);
  }

  /** A setting's path: absolute, or relative to the first workspace folder that has it. */
  private resolve(file: string, folders: string[]): string {
    if (path.isAbsolute(file)) return file;
    for (const folder of folders) {
      const full = path.resolve(folder, file);
      if (fs.existsSync(full)) return full;
    }
    return path.resolve(folders[0] ?? process.cwd(), file);
  }

  table(setting: string, folders: string[]): CapacityTable {
    if (!setting) return BUILT_IN_CAPACITY_TABLE;
    const file = this.resolve(setting, folders);
    let stat: fs.Stats | undefined;
    try {
      stat = fs.statSync(file);
    } catch {
      // Reported by the read below.
    }
    const last = this.lastTable;
    if (stat && last && last.file === file && last.mtimeMs === stat.mtimeMs && last.size === stat.size) return last.table;
    const value = this.read(file, 'capacityUnits');
    let table = BUILT_IN_CAPACITY_TABLE;
    if (value !== undefined) {
      try {
        table = mergeCapacityTable(BUILT_IN_CAPACITY_TABLE, value);
      } catch (error) {
        this.once(file, `${file}: ${(error as Error).message}; the built-in table is used`);
      }
    }
    this.lastTable = stat && value !== undefined ? { file, mtimeMs: stat.mtimeMs, size: stat.size, table } : undefined;
    return table;
  }

  usages(settingFiles: string[], folders: string[], documentUri: string, root: Node | undefined): SavedUsage[] {
    const files = settingFiles.map((f) => this.resolve(f, folders));
    if (documentUri.startsWith('file:')) {
      const dir = path.dirname(fileURLToPath(documentUri));
      for (const named of readPlan(root).usageFiles) files.push(path.resolve(dir, named.path));
    }
    const found: SavedUsage[] = [];
    for (const file of files) {
      const value = this.read(file, 'usage');
      if (value === undefined) continue;
      const saved = asSavedUsage(value);
      if (saved) found.push(saved);
      else this.once(file, `${file} is not saved usage ({ "location", "value": [...] }, as policyset quota usage --format json writes it)`);
    }
    return found;
  }
}
