import type { Diagnostic } from 'vscode-languageserver-types';

export type SeverityName = 'error' | 'warning' | 'info' | 'hint';
export type SeveritySetting = SeverityName | 'off';

export const SEVERITY_VALUES: Record<SeverityName, 1 | 2 | 3 | 4> = { error: 1, warning: 2, info: 3, hint: 4 };
export const SEVERITY_NAMES: Record<number, SeverityName> = { 1: 'error', 2: 'warning', 3: 'info', 4: 'hint' };

export const DIAGNOSTIC_SOURCE = 'policyset';

/** What every diagnostic of this service carries in `data`, for quick fixes and tooling. */
export interface DiagnosticData {
  rule: string;
  messageId: string;
  [key: string]: unknown;
}

export interface PolicySetDiagnostic extends Diagnostic {
  /** Always plain text. */
  message: string;
  code: string;
  source: typeof DIAGNOSTIC_SOURCE;
  severity: 1 | 2 | 3 | 4;
  data: DiagnosticData;
}

export function isSeveritySetting(value: unknown): value is SeveritySetting {
  return value === 'error' || value === 'warning' || value === 'info' || value === 'hint' || value === 'off';
}
