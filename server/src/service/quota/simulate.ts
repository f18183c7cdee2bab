import type { RateLimits } from './capacity';

/** A request as the service counts it on receipt (spec Limits, rule 4). */
export interface RequestShape {
  promptTokens: number;
  maxTokens: number;
  /** Completions generated and compared server-side (default 1). */
  bestOf?: number;
}

/**
 * The TPM a request counts for when it is received: its prompt plus `max_tokens` for each of `best_of`
 * completions. An estimate made before any token is generated (not the billed count), so the TPM limit
 * can trigger earlier than the tokens actually used would.
 */
export function estimateRequestTokens(request: RequestShape): number {
  return request.promptTokens + request.maxTokens * Math.max(1, request.bestOf ?? 1);
}

/** The window over which the RPM allowance is enforced: the shortest of 1, 10 and 60 s that allows at least one request. */
export function rpmWindow(limits: Pick<RateLimits, 'rpm'>): { seconds: number; allowance: number } {
  for (const seconds of [1, 10, 60]) {
    const allowance = Math.floor((limits.rpm * seconds) / 60 + 1e-9);
    if (allowance >= 1) return { seconds, allowance };
  }
  return { seconds: 60, allowance: 0 };
}

export interface Load extends RequestShape {
  /** Requests per second, arriving evenly. */
  rps: number;
  minutes: number;
}

export interface SimulationMinute {
  minute: number;
  sent: number;
  accepted: number;
  refusedRpm: number;
  refusedTpm: number;
  tokensCounted: number;
}

export interface Simulation {
  requestTokens: number;
  window: { seconds: number; allowance: number };
  sent: number;
  accepted: number;
  /** Refused because more requests arrived in an RPM window than its share of the RPM (spec Limits, rule 5). */
  refusedRpm: number;
  /** Refused because the minute's running token count would pass the TPM (rule 4, errors rule 4). */
  refusedTpm: number;
  /** When the first request is refused, in seconds from the start, and by which rule. */
  firstRefusal?: { atSeconds: number; rule: 'rpm' | 'tpm' };
  minutes: SimulationMinute[];
}

/**
 * Replays a steady load against a deployment's limits: requests arrive evenly; each is refused when its RPM
 * window already holds its allowance, or when the minute's running token count plus its estimate would pass
 * the TPM; the counts reset at each window and each minute. Refused requests count for neither.
 */
export function simulate(limits: Pick<RateLimits, 'tpm' | 'rpm'>, load: Load): Simulation {
  const requestTokens = estimateRequestTokens(load);
  const window = rpmWindow(limits);
  const total = Math.round(load.rps * load.minutes * 60);
  const minutes: SimulationMinute[] = [];
  const result: Simulation = { requestTokens, window, sent: 0, accepted: 0, refusedRpm: 0, refusedTpm: 0, minutes };
  let windowIndex = -1;
  let inWindow = 0;
  for (let i = 0; i < total; i++) {
    // Integer arithmetic on the arrival index: request i arrives at i / rps seconds.
    const at = i / load.rps;
    const minuteIndex = Math.floor(at / 60 + 1e-9);
    let minute = minutes[minuteIndex];
    if (!minute)
      minutes[minuteIndex] = minute = { minute: minuteIndex + 1, sent: 0, accepted: 0, refusedRpm: 0, refusedTpm: 0, tokensCounted: 0 };
    const w = Math.floor(at / window.seconds + 1e-9);
    if (w !== windowIndex) {
      windowIndex = w;
      inWindow = 0;
    }
    result.sent++;
    minute.sent++;
    let refused: 'rpm' | 'tpm' | undefined;
    if (inWindow >= window.allowance) refused = 'rpm';
    else if (minute.tokensCounted + requestTokens > limits.tpm) refused = 'tpm';
    if (refused) {
      if (refused === 'rpm') {
        result.refusedRpm++;
        minute.refusedRpm++;
      } else {
        result.refusedTpm++;
        minute.refusedTpm++;
      }
      result.firstRefusal ??= { atSeconds: at, rule: refused };
      continue;
    }
    inWindow++;
    minute.tokensCounted += requestTokens;
    result.accepted++;
    minute.accepted++;
  }
  return result;
}
