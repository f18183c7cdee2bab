/** Resource IDs compare case-insensitively and with any `<Namespace>.Authorization` provider. */
export function normalizeDefinitionId(id: string): string {
  const lower = id.toLowerCase();
  return lower.indexOf('.authorization/') < 0 ? lower : lower.replace(/\/providers\/[a-z0-9.]+\.authorization\//g, '/providers/*.authorization/');
}
