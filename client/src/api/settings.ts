/** Where the service lives and how paths are spelled. Filled from editor settings, CLI flags or the environment. */
export interface ServiceSettings {
  /** `{base_url}`: the resource-management address, e.g. `https://management.example.com`. */
  baseUrl: string;
  /** `{items_base_url}`: the workspace-items address (not used by E1/E2). */
  itemsBaseUrl?: string;
  /** `{auth_url}`: the identity provider's authorization address (implicit flow). */
  authUrl?: string;
  /** The provider namespace in paths: `Provider` gives `Provider.Authorization`. */
  providerNamespace: string;
}

export const DEFAULT_PROVIDER_NAMESPACE = 'Provider';
/** api-version of the policy operations (spec "Versioning"). */
export const POLICY_API_VERSION = '2025-11-01';

export const ENV = {
  baseUrl: 'POLICYSET_BASE_URL',
  itemsBaseUrl: 'POLICYSET_ITEMS_BASE_URL',
  authUrl: 'POLICYSET_AUTH_URL',
  providerNamespace: 'POLICYSET_PROVIDER_NAMESPACE',
  accessToken: 'POLICYSET_ACCESS_TOKEN',
} as const;

export class SettingsError extends Error {
  override name = 'SettingsError';
}

const NAMESPACE = /^[A-Za-z][A-Za-z0-9]*$/;

/**
 * Checks an address: absolute http(s), no credentials, no query or fragment. Plain http is accepted only
 * for loopback hosts, because a bearer token would otherwise cross the network in clear text.
 */
export function checkServiceUrl(value: string, what: string, allowQuery = false): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new SettingsError(`${what} '${value}' is not an absolute URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new SettingsError(`${what} must use https (got '${url.protocol}')`);
  if (url.username || url.password) throw new SettingsError(`${what} must not carry a user name or password`);
  if ((url.search && !allowQuery) || url.hash) throw new SettingsError(`${what} must not carry a query or fragment`);
  if (url.protocol === 'http:' && !isLoopback(url.hostname))
    throw new SettingsError(`${what} uses plain http on '${url.hostname}': use https (http is only for 127.0.0.1, ::1 or localhost)`);
  return url.toString().replace(/\/+$/, '');
}

export function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || hostname === '::1' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * First non-empty of the given sources wins: flags, then settings, then the environment. `howToSetBaseUrl`
 * is what the face that asks tells its user (the CLI names its flag, the extension its setting).
 */
export function resolveServiceSettings(
  sources: Array<Partial<Record<keyof ServiceSettings, string | undefined>>>,
  env: NodeJS.ProcessEnv = {},
  howToSetBaseUrl = `set ${ENV.baseUrl}`,
  /** Which address the caller needs: the resource-management one (E1-E3), or the workspace-items one (E4, E5). */
  needs: 'baseUrl' | 'itemsBaseUrl' = 'baseUrl',
  howToSetItemsBaseUrl = `set ${ENV.itemsBaseUrl}`,
): ServiceSettings {
  const pick = (key: keyof ServiceSettings): string | undefined => {
    for (const source of sources) {
      const value = source[key]?.trim();
      if (value) return value;
    }
    const value = env[ENV[key]]?.trim();
    return value || undefined;
  };
  const baseUrl = pick('baseUrl');
  if (!baseUrl && needs === 'baseUrl') throw new SettingsError(`no service address: ${howToSetBaseUrl}`);
  const providerNamespace = pick('providerNamespace') ?? DEFAULT_PROVIDER_NAMESPACE;
  if (!NAMESPACE.test(providerNamespace))
    throw new SettingsError(`provider namespace '${providerNamespace}' must be letters and digits, like 'Provider'`);
  const itemsBaseUrl = pick('itemsBaseUrl');
  if (!itemsBaseUrl && needs === 'itemsBaseUrl') throw new SettingsError(`no workspace-items address: ${howToSetItemsBaseUrl}`);
  const authUrl = pick('authUrl');
  return {
    // Empty when only the items address is needed and none is given.
    baseUrl: baseUrl ? checkServiceUrl(baseUrl, 'the service address') : '',
    itemsBaseUrl: itemsBaseUrl ? checkServiceUrl(itemsBaseUrl, 'the items address') : undefined,
    authUrl: authUrl ? checkServiceUrl(authUrl, 'the authorization address', true) : undefined,
    providerNamespace,
  };
}
