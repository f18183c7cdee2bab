// What a definition or set file holds, read from its text: pure, for the Node tools and the browser's server alike.
import { parse as parseJsonc, type ParseError } from 'jsonc-parser';

/**
 * The value of a definition or set file: strict JSON, or JSON with comments and trailing commas (the
 * policy-as-code framework keeps its files as .jsonc, and templates take comments). Throws on anything else.
 */
export function parseDocumentText(text: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(body);
  } catch (error) {
    const errors: ParseError[] = [];
    const value = parseJsonc(body, errors, { allowTrailingComma: true, disallowComments: false }) as unknown;
    if (errors.length) throw error;
    return value;
  }
}

export function isPolicyDefinition(value: unknown): boolean {
  const properties = (value as { properties?: { policyRule?: unknown } } | null)?.properties;
  return typeof properties === 'object' && properties !== null && typeof properties.policyRule === 'object';
}

/** A policy set document: `properties.policyDefinitions` is an array. */
export function isPolicySet(value: unknown): boolean {
  const properties = (value as { properties?: { policyDefinitions?: unknown } } | null)?.properties;
  return typeof properties === 'object' && properties !== null && Array.isArray(properties.policyDefinitions);
}
