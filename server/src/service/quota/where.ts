import { formatNumber as fmt } from './capacity';
import { readUsages, usageOf, type Usage } from './usage';

/** One region's answer to "is there room for this much TPM of this model?" */
export interface RegionRoom {
  location: string;
  model: string;
  sku: string;
  limitTpm: number | null;
  usedTpm: number | null;
  freeTpm: number | null;
  fits: boolean;
  /** Why the region could not be judged: its read failed, or its usage lists no such model and type. */
  error?: string;
}

/**
 * The regions, sorted by free TPM (most first; the ones that could not be judged last, in the order given),
 * each with whether `tpm` fits in its free quota. A failed read stays in the list with its error.
 */
export function regionsWithRoom(
  model: string,
  sku: string,
  tpm: number,
  reads: Array<{ location: string; value?: Usage[]; error?: string }>,
): RegionRoom[] {
  const rows = reads.map((r): RegionRoom => {
    if (r.error !== undefined || !r.value)
      return {
        location: r.location,
        model,
        sku,
        limitTpm: null,
        usedTpm: null,
        freeTpm: null,
        fits: false,
        error: r.error ?? 'no usage read',
      };
    const found = usageOf(readUsages(r.value), model, sku);
    if (!found)
      return {
        location: r.location,
        model,
        sku,
        limitTpm: null,
        usedTpm: null,
        freeTpm: null,
        fits: false,
        error: `the usage lists no quota for '${model}' (${sku}): the model may not be offered there`,
      };
    const free = Math.max(0, found.limitTpm - found.usedTpm);
    return { location: r.location, model, sku, limitTpm: found.limitTpm, usedTpm: found.usedTpm, freeTpm: free, fits: free >= tpm };
  });
  return rows
    .map((row, i) => ({ row, i }))
    .sort((a, b) => (b.row.freeTpm ?? -1) - (a.row.freeTpm ?? -1) || a.i - b.i)
    .map((x) => x.row);
}

/** "fits", or how much is short. */
export const roomVerdict = (row: RegionRoom, tpm: number): string =>
  row.error !== undefined ? 'not known' : row.fits ? 'fits' : `no: ${fmt(tpm - (row.freeTpm ?? 0))} TPM short`;
