/** A lowercased ID's `<Namespace>.Authorization` provider segments, and whether one is not Microsoft's. */
const ANY_AUTHORIZATION = /\/providers\/[a-z0-9.]+\.authorization\//g;
const OTHER_AUTHORIZATION = /\/providers\/(?!microsoft\.authorization\/)[a-z0-9.]+\.authorization\//;

/**
 * Resource IDs compare case-insensitively and with any `<Namespace>.Authorization` provider: the key is
 * the ID lowercased, with every such provider written as Microsoft's. Nearly every ID names Microsoft's
 * already, and its key is then its lowercased copy, with no second string made.
 */
export function normalizeDefinitionId(id: string): string {
  const lower = id.toLowerCase();
  return OTHER_AUTHORIZATION.test(lower) ? lower.replace(ANY_AUTHORIZATION, '/providers/microsoft.authorization/') : lower;
}

/**
 * A scope left to a template engine or a script: `${name}` (Terraform's templatefile, a Bicep replace())
 * or `{name}` (a repository's own script replaces it) is filled in before the file is deployed; it stands
 * for a management group's or a subscription's resource ID.
 */
export const SCOPE_PLACEHOLDER = '\\$?\\{[A-Za-z_][\\w.-]*\\}';
const CUSTOM_DEFINITION_ID = new RegExp(
  `^(?:/(?:providers/[A-Za-z0-9.]+\\.Management/managementGroups|subscriptions)/[^/]+|${SCOPE_PLACEHOLDER})/providers/[A-Za-z0-9.]+\\.Authorization/policyDefinitions/([^/]+)$`,
  'i',
);
const DEFINITION_NAME_AT_END = /\/policyDefinitions\/([^/']+)'\s*\)\s*\]$/i;

/**
 * The name of the custom definition an ID names: a definition at management group or subscription
 * scope (`/providers/<Ns>.Management/managementGroups/<mg>/providers/<Ns>.Authorization/policyDefinitions/<name>`,
 * `/subscriptions/<id>/…`, or a `${placeholder}` scope), or an expression (`[concat(…, '…/policyDefinitions/<name>')]`, `[[concat(…)]`)
 * whose last literal ends with the name. The scope is usually a placeholder and takes no part.
 */
export function customDefinitionName(id: string): string | undefined {
  if (id[0] === '[') return DEFINITION_NAME_AT_END.exec(id)?.[1];
  return CUSTOM_DEFINITION_ID.exec(id)?.[1];
}

/** A built-in definition's ID: at tenant level, `/providers/<Ns>.Authorization/policyDefinitions/<name>`. */
export function isTenantDefinitionId(id: string): boolean {
  return /^\/providers\/[A-Za-z0-9.]+\.Authorization\/policyDefinitions\/[^/]+$/i.test(id);
}

/** A GUID, as built-in definitions are named. */
export function isGuid(name: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(name);
}
